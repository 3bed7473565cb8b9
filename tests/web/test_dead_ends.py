"""Pages that would leave a person stuck say what happened and what to do, in the page's
language: a game this server does not have, a server that does not answer (instead of
"Loading…" under a raw error), a seat whose token this browser lost or the server refused (the
table shown to a spectator, with the way back to the seat), and a finished game (its result,
replay and rematch). Screenshots of each in ``build/screenshots/``."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import Page, Route, expect

from tests.web.expected import DEAD_END_WORDS as WORDS
from tests.web.expected import LOST, OVER
from tests.web.helpers import (
    SCREENSHOTS,
    Watched,
    accessibility_problems,
    create_game,
    finish_over_the_api,
    screenshots,
)


@pytest.fixture
def allowed_console_errors() -> re.Pattern[str]:
    """The console's own lines for the refused (401, 404) and failed requests these pages
    meet."""
    return re.compile(r"status of 40[14]|ERR_CONNECTION_REFUSED")


def _shows(page: Page, words: tuple[str, str, str], screenshot: str) -> None:
    dead_end = page.get_by_test_id("dead-end")
    title, what, action = words
    expect(dead_end.get_by_role("heading", level=1)).to_have_text(title)
    expect(dead_end).to_contain_text(what)
    expect(dead_end).to_contain_text(action)
    expect(page.get_by_test_id("status")).to_have_count(0)  # no "Loading…" left behind
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / screenshot), full_page=True)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_an_unknown_game_says_so_and_leads_to_the_lobby(
    in_language: Callable[[str], Watched], base: str, lang: str
) -> None:
    page = in_language(lang).page()
    page.goto(f"{base}/play/no-such-game-here")
    _shows(page, WORDS[lang]["unknown"], f"dead-end-unknown-game-{lang}.png")
    page.get_by_test_id("new-game-link").click()
    expect(page.get_by_test_id("create")).to_be_visible()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_server_that_does_not_answer_says_so_and_offers_to_try_again(
    in_language: Callable[[str], Watched], base: str, lang: str
) -> None:
    page = in_language(lang).page()

    def down(route: Route) -> None:
        route.abort("connectionrefused")

    page.route(re.compile(r".*/games/.*"), down)
    page.goto(f"{base}/play/no-server-answers")
    _shows(page, WORDS[lang]["down"], f"dead-end-server-down-{lang}.png")
    page.unroute(re.compile(r".*/games/.*"))
    page.get_by_test_id("try-again").click()  # the server is back: the game is unknown there
    expect(page.get_by_test_id("dead-end")).to_have_attribute("data-code", "game-not-found")


# -- a lost seat: no token, a refused stored token, a refused seat link --------------------------


def _lost_seat(page: Page, lang: str, reason: str, screenshot: str) -> None:
    notice = page.get_by_test_id("seat-notice")
    expect(notice).to_have_attribute("data-reason", reason)
    expect(notice.get_by_role("heading")).to_have_text(LOST[lang]["title"])
    expect(notice).to_contain_text(LOST[lang][reason])
    expect(notice).to_contain_text(LOST[lang]["watch"])
    expect(notice).to_contain_text(LOST[lang]["forward"])
    expect(notice.get_by_test_id("new-game-link")).to_have_attribute("href", "/")
    # the table is shown, as a spectator's: nothing is stuck on "Loading…"
    page.wait_for_selector("#app[data-seat='spectator'][data-version]", state="attached")
    expect(page.get_by_test_id("seat-select")).to_have_value("spectator")
    assert accessibility_problems(page) == []
    screenshots(page, screenshot)  # at 1280 and 375 px, and nothing wider than the phone


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("reason", ["none", "refused", "link"])
def test_a_page_without_its_seat_says_it_watches_and_how_to_get_the_seat_back(
    in_language: Callable[[str], Watched], base: str, lang: str, reason: str
) -> None:
    """No token here (``none``), a kept token the server refuses (``refused``: it is
    forgotten, instead of "Loading…" for ever under a raw 401), a refused seat link (``link``)."""
    game = create_game(base, "black-spy", 3, f"lost-{reason}")
    page = in_language(lang).page()
    kept = f"spies:tokens:{game['id']}"
    address = f"{base}/play/{game['id']}"
    if reason == "refused":
        page.goto(f"{base}/")
        held = json.dumps({"1": "not-a-token-of-this-server"})
        page.evaluate(f"localStorage.setItem('{kept}', {json.dumps(held)})")
    if reason == "link":
        address += "#token=not-a-token-of-this-server"
    page.goto(address)
    _lost_seat(page, lang, reason, f"dead-end-lost-seat-{reason}-{lang}")
    if reason == "refused":
        assert page.evaluate(f"localStorage.getItem('{kept}')") == "{}"


# -- a finished game ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_finished_game_shows_its_result_its_replay_and_its_rematch(
    in_language: Callable[[str], Watched], base: str, lang: str
) -> None:
    game = finish_over_the_api(base, "black-spy", 3, f"over-{lang}")
    page = in_language(lang).page()
    page.goto(f"{base}/play/{game['id']}")
    outcome = page.get_by_test_id("outcome")
    over, watch = OVER[lang]
    expect(outcome.get_by_role("heading", level=2)).to_be_visible()
    expect(outcome.get_by_test_id("outcome-headline")).not_to_be_empty()
    # each total beside its seat, counted from 1: "seat 1: 209", never "seat 1 209"
    seat = "seat" if lang == "en" else "Platz"
    figures = re.compile(rf"{seat} 1: -?\d+, {seat} 2: -?\d+, {seat} 3: -?\d+\.$")
    expect(outcome.get_by_test_id("outcome-figures")).to_have_text(figures)
    expect(outcome).to_contain_text(over)
    expect(outcome.get_by_test_id("replay-link")).to_have_attribute("href", f"/replay/{game['id']}")
    expect(outcome.get_by_test_id("rematch-link")).to_have_count(0)  # none asked for yet
    expect(page.get_by_test_id("seat-notice")).to_be_hidden()  # no seat to lose in it
    assert accessibility_problems(page) == []

    token = game["seats"][0]["token"]
    answer = httpx.post(
        f"{base}/games/{game['id']}/rematch", headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status_code in (200, 201), answer.text
    page.reload()
    rematch = page.get_by_test_id("rematch-link")
    expect(rematch).to_have_text(watch)
    expect(rematch).to_have_attribute("href", f"/play/{answer.json()['id']}")
    screenshots(page, f"dead-end-finished-{lang}")
    page.get_by_test_id("replay-link").click()
    expect(page).to_have_url(re.compile(f"/replay/{game['id']}$"))
