"""The words a player reads: seats numbered as people count them (from 1;
the API counts from 0), the Black Spy legend's label before the symbols it introduces, and no
parentheses inside parentheses ("Red (Ada, you)", never "Red (Ada (you))"); English and
German."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.web.expected import NESTED
from tests.web.helpers import APP, Watched, create_game, play_over_the_api

LEGEND = {"en": "Colours, each with its own symbol:", "de": "Farben, jede mit eigenem Zeichen:"}
SEATS = {
    "en": (["seat 1", "seat 2", "seat 3", "spectator"], "Your turn (seat 1)."),
    "de": (["Platz 1", "Platz 2", "Platz 3", "Zuschauer"], "Du bist am Zug (Platz 1)."),
}
"""An opening parenthesis before the one before it closed."""


def _open_as_seat_0(page: Page, base: str, created: dict[str, Any]) -> None:
    page.goto(f"{base}/play/{created['id']}#token={created['seats'][0]['token']}")
    page.wait_for_selector(f"{APP}[data-seat='0'][data-version]", state="attached")


def _spies_and_lies(base: str, seed: str, seats: list[dict[str, str]]) -> dict[str, Any]:
    """A game of two seats created over the API, with its tokens."""
    answer = httpx.post(
        f"{base}/games",
        json={"game": "spies-and-lies", "players": 2, "seed": seed, "seats": seats},
    )
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


@pytest.mark.parametrize("lang", ["en", "de"])
def test_seats_are_numbered_from_one_and_the_legend_names_its_colours_first(
    in_language: Callable[[str], Watched], base: str, lang: str
) -> None:
    created = create_game(base, "black-spy", 3, f"wording-seats-{lang}")
    page = in_language(lang).page()
    _open_as_seat_0(page, base, created)
    for seat in created["seats"][1:]:  # this browser holds every seat
        page.evaluate(
            "([game, seat, token]) => { const key = 'spies:tokens:' + game;"
            " const held = JSON.parse(localStorage.getItem(key) || '{}');"
            " held[seat] = token; localStorage.setItem(key, JSON.stringify(held)); }",
            [created["id"], seat["seat"], seat["token"]],
        )
    page.reload()
    page.wait_for_selector(f"{APP}[data-seat='0'][data-version]", state="attached")
    options, turn = SEATS[lang]
    expect(page.locator("[data-testid='seat-select'] option")).to_have_text(options)
    expect(page.get_by_test_id("status")).to_have_text(turn)
    # the log and the seats' panels count from 1 too: no "seat 0" anywhere
    expect(page.get_by_test_id("log").locator("li")).to_have_count(3)  # created, seats, deal
    assert not re.search(r"\b(seat|Platz) 0\b", page.inner_text("body"), re.IGNORECASE)
    assert ") (" not in page.inner_text("body")  # was "seat 1 (you) (to act)" on a seat's panel
    # the Black Spy legend's label ends in a colon: it comes before the colours' symbols
    first = page.get_by_test_id("legend").locator("li").first
    expect(first).to_have_text(re.compile(r"^\s*" + re.escape(LEGEND[lang])))


@pytest.mark.parametrize("lang", ["en", "de"])
def test_no_parentheses_inside_parentheses(
    in_language: Callable[[str], Watched], base: str, lang: str
) -> None:
    """A Spies & Lies deployment by the page's own seat, named Ada, was "Red (Ada (you))
    deploys…"; two seats of one name were "Ada (seat 1) (you)"."""
    ada = {"type": "creator", "name": "Ada"}
    created = _spies_and_lies(base, f"wording-{lang}", [ada, ada])
    play_over_the_api(base, created, 2)  # each seat deploys
    page = in_language(lang).page()
    _open_as_seat_0(page, base, created)
    log = page.get_by_test_id("log")
    you = "you" if lang == "en" else "du"
    expect(log).to_contain_text(f"(Ada, {SEATS[lang][0][0]}, {you})")
    text = page.inner_text("body")
    assert NESTED.search(text) is None, NESTED.search(text)


SENTENCE_START = re.compile(r"(?:^|(?<!\d)[.!?]\s+)(?:#\d+\s+)?([a-zäöüß])", re.MULTILINE)
"""A sentence (or a log line, after its ``#seq``) that starts with a small letter (a full stop
after a figure is a German ordinal: "Nach dem 3. Tag")."""


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_sentence_of_a_bots_win_starts_with_a_capital(
    in_language: Callable[[str], Watched], base: str, lang: str
) -> None:
    """A bot's name opens the sentence of its win: "You lose. Bot greedy (seat 2) wins.", never
    "You lose. bot greedy (seat 2) wins."; seat 1 is handed to a bot too, so the game plays
    itself out."""
    seats = [{"type": "creator"}, {"type": "bot", "bot": "greedy"}]
    created = _spies_and_lies(base, f"capitals-{lang}", seats)
    token = created["seats"][0]["token"]
    handed = httpx.post(
        f"{base}/games/{created['id']}/seats/0/bot",
        json={"bot": "random"},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert handed.status_code == 200, handed.text
    page = in_language(lang).page()
    _open_as_seat_0(page, base, created)
    headline = page.get_by_test_id("outcome-headline")
    expect(headline).to_have_text(re.compile(r"\S"), timeout=120_000)  # the bots finish it
    texts = [headline.inner_text(), page.get_by_test_id("outcome").inner_text()]
    texts += page.get_by_test_id("log").locator("li").all_inner_texts()
    small = [text for text in texts if SENTENCE_START.search(text)]
    assert small == [], small
