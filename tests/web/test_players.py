"""For players: clocks, the game over in words, names, legends, refusals with their rule, the
rule pages, English and German, the keyboard and axe-core, at 320, 375 and 1280 px.

Page loads are few (CI's browser time is near its budget): each test checks several things
on one page before it moves on.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, Route, expect

from spies_replay.cli import main
from tests.web.helpers import (
    APP,
    DESKTOP,
    PHONE,
    Watched,
    accessibility_problems,
    finish_over_the_api,
    screenshots,
    summary,
    version,
    wait_loaded,
    wait_past,
)

GAMES = {"deck-of-spies": 1, "black-spy": 3, "spies-and-lies": 2}

WORDS: dict[str, dict[str, Any]] = {
    "en": {
        "over": "Game over",
        "rule": "Rule §",
        "rules": "Rules of this game",
        "you": re.compile(r"(\(|, )you\)"),  # "seat 1 (you)", "Red (seat 1, you)"
        "legend": "Legend",
        "figures": {
            "deck-of-spies": "Key spies owned",
            "black-spy": "Totals (lowest wins)",
            "spies-and-lies": "Infiltration markers (they decide only on the centre)",
        },
        "why": {
            "deck-of-spies": "key spies (jacks, queens and kings)",
            "black-spy": "the lowest total wins",
            "spies-and-lies": "Double Agent",
        },
        "switch": "Deutsch",
        "new_game": "New game",
        "search": "flag",
        "step": "Step",
    },
    "de": {
        "over": "Spiel vorbei",
        "rule": "Regel §",
        "rules": "Regeln dieses Spiels",
        "you": re.compile(r"(\(|, )du\)"),
        "legend": "Legende",
        "figures": {
            "deck-of-spies": "Wichtige Spione im Besitz",
            "black-spy": "Summen (die niedrigste gewinnt)",
            "spies-and-lies": "Infiltrationstürme (sie entscheiden nur in der Mitte)",
        },
        "why": {
            "deck-of-spies": "wichtigsten Spione (Buben, Damen und Könige)",
            "black-spy": "die niedrigste Summe gewinnt",
            "spies-and-lies": "Doppelspion",
        },
        "switch": "English",
        "new_game": "Neues Spiel",
        "search": "Fahne",
        "step": "Schritt",
    },
}


@pytest.fixture(scope="module")
def finished(base: str) -> dict[str, dict[str, Any]]:
    """One finished game of each game, played over the API; seat 0's token opens it."""
    return {
        game: finish_over_the_api(base, game, n, f"web-words-{game}") for game, n in GAMES.items()
    }


@pytest.fixture
def allowed_console_errors() -> re.Pattern[str]:
    """A refusal the test answers itself (422) is the only console error allowed."""
    return re.compile(r"status of 422")


def narrow(page: Page, width: int) -> None:
    """The page at ``width`` px wide scrolls vertically only."""
    page.set_viewport_size({"width": width, "height": 700})
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => done(null)))")
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, f"{page.url}: {wide} px wide at {width} px"


def test_a_clock_counts_down_and_a_forced_move_arrives(page: Page, base: str) -> None:
    answer = httpx.post(
        f"{base}/games",
        json={
            "game": "deck-of-spies",
            "players": 1,
            "seed": "web-clock-1",
            "clock": {"turn_seconds": 4, "on_timeout": "bot"},
        },
    )
    assert answer.status_code == 201, answer.text
    created = answer.json()
    game_id = created["id"]
    page.goto(f"{base}/play/{game_id}#token={created['seats'][0]['token']}")
    wait_loaded(page)
    shown = version(page)
    clock = page.get_by_test_id("clock")
    expect(clock).to_have_count(1)
    expect(clock).to_have_attribute("data-seat", "0")
    expect(clock).to_have_class(re.compile(r"\brunning\b"))
    expect(clock).to_have_class(re.compile(r"\blow\b"))  # 4 s: inside the last ten seconds
    page.wait_for_function(
        "() => Number(document.querySelector('[data-testid=clock]').dataset.remainingMs) > 1000"
    )
    first = int(clock.get_attribute("data-remaining-ms") or "0")
    assert 1000 < first <= 4000
    page.wait_for_function(
        "first => Number(document.querySelector('[data-testid=clock]').dataset.remainingMs)"
        " < first - 200",
        arg=first,
    )
    # Nobody moves: the server's deadline passes, and the time control's bot moves instead.
    expect(page.get_by_test_id("log")).to_contain_text("ran out of time", timeout=45_000)
    wait_past(page, shown)
    assert summary(base, game_id)["version"] > shown

    # The replay shows each step's clocks, still.
    page.goto(f"{base}/replay/{game_id}")
    page.wait_for_selector(f"{APP}[data-seq]", state="attached")
    still = page.get_by_test_id("clock")
    expect(still).to_have_count(1)
    held = still.get_attribute("data-remaining-ms")
    assert held is not None
    page.wait_for_timeout(300)
    assert still.get_attribute("data-remaining-ms") == held  # a step's clock does not run


@pytest.mark.parametrize("lang", ["en", "de"])
def test_each_table_explains_itself_in_both_languages(
    in_language: Callable[[str], Watched],
    base: str,
    finished: dict[str, dict[str, Any]],
    lang: str,
) -> None:
    words = WORDS[lang]
    page = in_language(lang).page()
    for game, created in finished.items():
        game_id = created["id"]
        page.goto(f"{base}/play/{game_id}#token={created['seats'][0]['token']}")
        wait_loaded(page)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        outcome = page.get_by_test_id("outcome")
        expect(outcome).to_contain_text(words["over"])
        expect(page.locator("#outcome-title")).to_be_focused()
        headline = page.get_by_test_id("outcome-headline").inner_text()
        assert headline
        # Once on the page: the status line says only that the game is over.
        assert page.locator("body").inner_text().count(headline) == 1
        why = page.get_by_test_id("outcome-why")
        expect(why).to_contain_text(words["why"][game])
        link = why.get_by_test_id("rule-link")
        expect(link).to_contain_text(words["rule"])
        expect(link).to_have_attribute("href", re.compile(rf"^/rules/{game}#s-\d+(\.\d+)*$"))
        expect(page.get_by_test_id("outcome-figures")).to_contain_text(words["figures"][game])
        expect(page.get_by_test_id("rules-link")).to_have_text(words["rules"])
        if game != "deck-of-spies":  # one seat: nobody to name
            expect(page.get_by_test_id("log")).to_contain_text(words["you"])
            expect(page.get_by_test_id("legend")).to_contain_text(words["legend"])
        screenshots(page, f"{game}-over-{lang}")
        assert accessibility_problems(page) == []
        narrow(page, 320)
        page.set_viewport_size(DESKTOP)

    # The replay: icons drawn in SVG, on one line at 375 px, and the game over once more.
    game_id = finished["spies-and-lies"]["id"]
    page.goto(f"{base}/replay/{game_id}")
    page.wait_for_selector(f"{APP}[data-seq]", state="attached")
    expect(page.get_by_test_id("replay-seq")).to_contain_text(words["step"])
    expect(page.get_by_test_id("outcome-headline")).not_to_be_empty()
    for button in ("replay-first", "replay-prev", "replay-next", "replay-last"):
        expect(page.get_by_test_id(button).locator("svg")).to_have_count(1)
        assert page.get_by_test_id(button).inner_text().strip() == ""
    assert accessibility_problems(page) == []
    page.set_viewport_size(PHONE)
    first = page.get_by_test_id("replay-first").bounding_box()
    last = page.get_by_test_id("replay-last").bounding_box()
    assert first is not None and last is not None and abs(first["y"] - last["y"]) < 2
    narrow(page, 320)
    page.set_viewport_size(DESKTOP)

    # The rules: numbered sections, reached by address, by number and by search.
    page.goto(f"{base}/rules/spies-and-lies#s-12.1")
    expect(page.locator("[id='s-12.1']")).to_be_focused()
    if lang == "de":
        expect(page.get_by_test_id("rules-note")).to_contain_text("Zusammenfassung")
    page.get_by_test_id("rules-section").fill("5.2")
    page.get_by_test_id("rules-go").click()
    expect(page.locator("[id='s-5.2']")).to_be_focused()
    page.get_by_test_id("rules-search").fill(words["search"])
    expect(page.get_by_test_id("rules-found").locator("a").first).to_be_visible()
    screenshots(page, f"rules-{lang}")
    assert accessibility_problems(page) == []

    # The lobby: rules linked, usable at 320 px (a game id stays on one line).
    page.goto(f"{base}/")
    expect(page.get_by_role("heading", name=words["new_game"])).to_be_visible()
    page.select_option("#list-status", "all")
    expect(page.locator("tr[data-game] code.game-id").first).to_be_visible()
    expect(page.get_by_test_id("lobby-rules")).to_have_attribute("href", "/rules/deck-of-spies")
    assert accessibility_problems(page) == []
    narrow(page, 320)
    row_id = page.locator("tr[data-game] code.game-id").first.bounding_box()
    assert row_id is not None and row_id["height"] < 30, row_id
    screenshots(page, f"lobby-{lang}")

    # The switch: visible, and remembered over a reload.
    switch = page.get_by_test_id("lang-switch")
    expect(switch).to_have_text(words["switch"])
    switch.click()
    other = "de" if lang == "en" else "en"
    expect(page.locator("html")).to_have_attribute("lang", other)
    page.reload()
    expect(page.get_by_role("heading", name=WORDS[other]["new_game"])).to_be_visible()


def test_a_keyboard_only_game_with_a_refusal_and_its_rule(
    in_language: Callable[[str], Watched], base: str
) -> None:
    page = in_language("en").page()
    created = httpx.post(
        f"{base}/games", json={"game": "deck-of-spies", "players": 1, "seed": "web-keys-1"}
    ).json()
    game_id = created["id"]
    page.goto(f"{base}/play/{game_id}#token={created['seats'][0]['token']}")
    wait_loaded(page)
    expect(page.get_by_test_id("status")).to_have_text("Your turn (seat 1).")

    def tab_to_a_move() -> None:
        for _ in range(80):
            if page.evaluate("document.activeElement?.dataset?.testid === 'command'"):
                return
            page.keyboard.press("Tab")
        raise AssertionError("Tab never reached a legal move")

    # A card of the hand is selected with the keyboard too.
    for _ in range(80):
        if page.evaluate("document.activeElement?.classList?.contains('hand-card')"):
            break
        page.keyboard.press("Tab")
    page.keyboard.press("Space")
    expect(page.locator("button.hand-card[aria-pressed='true']")).to_have_count(1)
    page.keyboard.press("Space")
    expect(page.locator("button.hand-card[aria-pressed='true']")).to_have_count(0)

    # A refusal (answered here, as the server would) shows its reason and links its rule.
    def refuse(route: Route) -> None:
        body = {
            "type": "about:blank",
            "title": "Unprocessable",
            "status": 422,
            "code": "must-assassinate",
            "detail": "the hand cannot counter the spy",
        }
        route.fulfill(status=422, content_type="application/problem+json", body=json.dumps(body))

    page.route(re.compile(r".*/commands$"), refuse)
    tab_to_a_move()
    page.keyboard.press("Enter")
    alert = page.get_by_test_id("error")
    expect(alert).to_contain_text("Refused: Your hand cannot beat the spy")
    expect(alert.get_by_test_id("rule-link")).to_have_attribute(
        "href", "/rules/deck-of-spies#s-3.2"
    )
    page.unroute(re.compile(r".*/commands$"))
    assert accessibility_problems(page) == []

    # Every move of the game by Tab and Enter; the focus stays on the moves, then the end.
    moves = 0
    while page.get_attribute(APP, "data-game-status") != "finished":
        wait_loaded(page)
        if page.get_attribute(APP, "data-game-status") == "finished":
            break
        tab_to_a_move()
        seen = version(page)
        page.keyboard.press("Enter")
        wait_past(page, seen)
        moves += 1
        assert moves < 200
    assert moves >= 10
    expect(page.locator("#outcome-title")).to_be_focused()
    expect(page.get_by_test_id("outcome-why").get_by_test_id("rule-link")).to_be_visible()


ABORTED = {
    "en": ("Game aborted by the operator.", "The operator ended this game", "is aborted by"),
    "de": ("Spiel vom Betreiber abgebrochen.", "Der Betreiber hat dieses Spiel", "vom Betreiber"),
}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_game_aborted_by_the_operator_says_so_as_it_happens(
    in_language: Callable[[str], Watched], base: str, web_db: Path, lang: str
) -> None:
    """The table is open when the operator aborts the game (``spies-replay abort`` on the
    server's database): the stream brings the end, and the game over says who ended it."""
    body = {"game": "black-spy", "players": 3, "seed": f"web-abort-{lang}"}
    created = httpx.post(f"{base}/games", json=body).json()
    page = in_language(lang).page()
    page.goto(f"{base}/play/{created['id']}#token={created['seats'][0]['token']}")
    wait_loaded(page)
    expect(page.get_by_test_id("outcome")).to_be_hidden()
    argv = ["--db", str(web_db), "abort", created["id"], "--reason", "the table was left"]
    assert main(argv, stdout=io.StringIO()) == 0
    headline, why, logged = ABORTED[lang]
    expect(page.get_by_test_id("outcome-headline")).to_have_text(headline)
    expect(page.get_by_test_id("outcome-why")).to_contain_text(why)
    expect(page.get_by_test_id("outcome-figures")).to_have_count(0)
    expect(page.get_by_test_id("log")).to_contain_text(logged)
    expect(page.get_by_test_id("log")).to_contain_text("the table was left")
    assert accessibility_problems(page) == []
