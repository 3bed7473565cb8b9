"""``/rules/{game}`` is a players' rulebook in the page's language (English or German, the
same section numbers), then the implementers' full reference; a section the rulebook leaves
out is reached in the reference. Screenshots in ``build/screenshots/rulebook-*.png``."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.web.helpers import SCREENSHOTS, Watched

WORDS = {
    "en": ("Black Spy: the rules in short", "the rules in short", "lowest total wins"),
    "de": ("Black Spy: die Regeln in Kürze", "deutsche Zusammenfassung", "niedrigste Summe"),
}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_rules_page_is_a_players_rulebook_then_the_reference(
    in_language: Callable[[str], Watched], base: str, lang: str
) -> None:
    page = in_language(lang).page()
    page.goto(f"{base}/rules/black-spy#s-7.3")
    title, note, rule = WORDS[lang]
    rules = page.get_by_test_id("rules")
    expect(rules.locator("article").first).to_contain_text(title)
    expect(page.get_by_test_id("rules-note")).to_contain_text(note)
    expect(page.locator("[id='s-7.3']")).to_be_focused()
    expect(page.locator("[id='s-7.3']")).to_contain_text(rule)
    expect(rules.locator("article.rules-full")).to_contain_text("Black Spy")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"rulebook-black-spy-{lang}.png"))

    # A section only the reference has (the bots' benchmark): the link lands there.
    page.goto(f"{base}/rules/deck-of-spies#s-13.2")
    expect(page.locator("[id='en-s-13.2']")).to_be_focused()
