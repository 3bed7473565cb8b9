"""Screenshots for a person to look at, in both languages: each game's players' rulebook
(``build/screenshots/rules-<game>-<lang>.png``) and each page that would leave a person stuck
(``build/screenshots/dead-<kind>-<lang>.png``: a game this server does not have, a server that
does not answer, a seat this browser does not hold, holds a refused key for, or opened with a
refused link, and a finished game). Each page is checked for what it should say before its
picture is taken; the pages' behaviour is ``test_dead_ends.py``'s and ``test_rulebook.py``'s.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, Route, expect

from tests.web.expected import DEAD_END_WORDS as WORDS
from tests.web.expected import GAMES, LOST, NESTED, OVER, RULES
from tests.web.helpers import (
    SCREENSHOT_TIMEOUT_MS,
    SCREENSHOTS,
    Watched,
    create_game,
    finish_over_the_api,
)

pytestmark = pytest.mark.slow

LANGS = ("en", "de")
DEAD_ENDS = (
    "unknown-game",
    "server-down",
    "lost-seat-none",
    "lost-seat-refused",
    "lost-seat-link",
    "finished",
)
NOT_A_TOKEN = "not-a-token-of-this-server"
NEXT_SENTENCE_SMALL = re.compile(r"(?<![\d.])[.!?]\s+[a-zäöüß]")
"""A sentence after another that starts with a small letter (not after a German ordinal, "3.
Tag", nor an ellipsis)."""


@pytest.fixture
def allowed_console_errors() -> re.Pattern[str]:
    """The console's own lines for the refused (401, 404) and failed requests of dead ends."""
    return re.compile(r"status of 40[14]|ERR_CONNECTION_REFUSED")


def _picture(shown: Page | Locator, name: str) -> Path:
    """A whole page, or one element of it, as ``build/screenshots/<name>.png``."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    if isinstance(shown, Page):
        shown.screenshot(path=str(path), full_page=True, timeout=SCREENSHOT_TIMEOUT_MS)
    else:
        shown.screenshot(path=str(path), timeout=SCREENSHOT_TIMEOUT_MS)
    assert path.stat().st_size > 0
    return path


@pytest.mark.parametrize(("game", "lang"), [(game, lang) for game in GAMES for lang in LANGS])
def test_a_screenshot_of_each_rulebook(
    in_language: Callable[[str], Watched], base: str, game: str, lang: str
) -> None:
    page = in_language(lang).page()
    page.goto(f"{base}/rules/{game}")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    title = (RULES / lang / f"{game}.md").read_text(encoding="utf-8").splitlines()[0]
    rulebook = page.get_by_test_id("rules").locator("article").first
    expect(rulebook.get_by_role("heading").first).to_have_text(title.removeprefix("# "))
    expect(page.locator("[data-unknown-card]")).to_have_count(0)
    _words_read_well(rulebook.inner_text())
    # the players' rulebook alone: the implementers' reference below it is pages long
    _picture(rulebook, f"rules-{game}-{lang}")


def _words_read_well(text: str) -> None:
    """No parentheses inside parentheses, and no sentence that starts with a small letter after
    another (a page's labels, "seat 1 · to act", are not sentences)."""
    assert NESTED.search(text) is None, NESTED.search(text)
    small = [line for line in text.splitlines() if NEXT_SENTENCE_SMALL.search(line)]
    assert small == [], small


def _dead_end_page(page: Page, words: tuple[str, str, str]) -> None:
    dead_end = page.get_by_test_id("dead-end")
    title, what, action = words
    expect(dead_end.get_by_role("heading", level=1)).to_have_text(title)
    expect(dead_end).to_contain_text(what)
    expect(dead_end).to_contain_text(action)
    expect(page.get_by_test_id("status")).to_have_count(0)


def _spectators_table(page: Page, lang: str, reason: str) -> None:
    notice = page.get_by_test_id("seat-notice")
    expect(notice).to_have_attribute("data-reason", reason)
    expect(notice.get_by_role("heading")).to_have_text(LOST[lang]["title"])
    expect(notice).to_contain_text(LOST[lang][reason])
    expect(notice).to_contain_text(LOST[lang]["forward"])
    page.wait_for_selector("#app[data-seat='spectator'][data-version]", state="attached")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", DEAD_ENDS)
def test_a_screenshot_of_each_dead_end(
    in_language: Callable[[str], Watched], base: str, kind: str, lang: str
) -> None:
    page = in_language(lang).page()
    if kind == "unknown-game":
        page.goto(f"{base}/play/no-such-game-here")
        _dead_end_page(page, WORDS[lang]["unknown"])
    elif kind == "server-down":

        def down(route: Route) -> None:
            route.abort("connectionrefused")

        page.route(re.compile(r".*/games/.*"), down)
        page.goto(f"{base}/play/no-server-answers")
        _dead_end_page(page, WORDS[lang]["down"])
    elif kind.startswith("lost-seat-"):
        reason = kind.removeprefix("lost-seat-")
        game = create_game(base, "black-spy", 3, f"screenshot-{kind}")
        address = f"{base}/play/{game['id']}"
        if reason == "refused":
            page.goto(f"{base}/")
            held = json.dumps({"1": NOT_A_TOKEN})
            page.evaluate(f"localStorage.setItem('spies:tokens:{game['id']}', {json.dumps(held)})")
        elif reason == "link":
            address += f"#token={NOT_A_TOKEN}"
        page.goto(address)
        _spectators_table(page, lang, reason)
    else:
        game = finish_over_the_api(base, "black-spy", 3, f"screenshot-over-{lang}")
        page.goto(f"{base}/play/{game['id']}")
        outcome = page.get_by_test_id("outcome")
        expect(outcome.get_by_test_id("outcome-headline")).not_to_be_empty()
        expect(outcome).to_contain_text(OVER[lang][0])
        expect(outcome.get_by_test_id("replay-link")).to_be_visible()
    _words_read_well(page.inner_text("body"))
    _picture(page, f"dead-{kind}-{lang}")
