"""Pages that would leave a person stuck say what happened and what to do, in the page's
language: a game this server does not have, and a server that does not answer (instead of
"Loading…" under a raw error). Screenshots of each in ``build/screenshots/``."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, Route, expect

from tests.web.helpers import SCREENSHOTS, Watched

WORDS = {
    "en": {
        "unknown": ("No such game", "This server has no game", "Start a new game in the lobby"),
        "down": ("The server does not answer", "cannot reach its server", "Try again"),
    },
    "de": {
        "unknown": (
            "Dieses Spiel gibt es nicht",
            "Dieser Server hat kein Spiel",
            "In der Lobby ein neues Spiel anlegen",
        ),
        "down": ("Der Server antwortet nicht", "erreicht ihren Server nicht", "Noch einmal"),
    },
}


@pytest.fixture
def allowed_console_errors() -> re.Pattern[str]:
    """The console's own lines for the refused (404) and failed requests these pages meet."""
    return re.compile(r"status of 404|ERR_CONNECTION_REFUSED")


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
