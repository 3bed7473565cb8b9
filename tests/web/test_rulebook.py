"""``/rules/{game}`` is a players' rulebook in the page's language (English or German, the
same section numbers), then the implementers' full reference; a section the rulebook leaves
out is reached in the reference. Each rulebook's worked examples show their cards drawn as the
table draws them, the same cards in both languages. Screenshots in
``build/screenshots/rulebook-*.png``."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.web.expected import GAMES, RULES
from tests.web.helpers import DESKTOP, PHONE, SCREENSHOTS, Watched, accessibility_problems

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


EXAMPLES = re.compile(r"^```cards\n(.*?)^```", re.M | re.S)
"""A worked example's cards in a rulebook: ```` ```cards ```` rows of ``Label: CARD CARD``."""


def example_cards(game: str, lang: str) -> list[list[str]]:
    """The cards of each worked example of a rulebook, in order."""
    text = (RULES / lang / f"{game}.md").read_text(encoding="utf-8")
    return [
        [card for line in block.splitlines() for card in line.partition(":")[2].split()]
        for block in EXAMPLES.findall(text)
    ]


@pytest.mark.parametrize("game", GAMES)
def test_the_worked_examples_show_the_same_cards_in_both_languages(game: str) -> None:
    english = example_cards(game, "en")
    assert len(english) >= 4 and all(english)
    assert example_cards(game, "de") == english


@pytest.mark.parametrize("lang", ["en", "de"])
def test_each_worked_example_draws_its_cards_as_the_table_does(
    in_language: Callable[[str], Watched], base: str, lang: str
) -> None:
    page = in_language(lang).page()
    for game in GAMES:
        page.goto(f"{base}/rules/{game}")
        expected = example_cards(game, lang)
        examples = page.get_by_test_id("rules-example")
        expect(examples).to_have_count(len(expected))
        for index, cards in enumerate(expected):
            drawn = examples.nth(index).locator("svg.card[role='img']")
            expect(drawn).to_have_count(len(cards))
            names = drawn.evaluate_all("cards => cards.map(c => c.getAttribute('aria-label'))")
            assert all(names), f"{game} example {index + 1}: a card without a name: {names}"
        expect(page.locator("[data-unknown-card]")).to_have_count(0)
        assert accessibility_problems(page) == []
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(size)
            examples.first.scroll_into_view_if_needed()
            page.screenshot(path=str(SCREENSHOTS / f"rulebook-examples-{game}-{lang}-{label}.png"))
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= PHONE["width"], f"/rules/{game} is {wide} px wide at 375 px"
        page.set_viewport_size(DESKTOP)
