"""The lobby's refusals are in the page's language, and one no longer true leaves the page:
a create refused for its seed (a seat left open) is answered, then a create that succeeds
clears it."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.web.helpers import Watched

REFUSED = {
    "en": "A game with an open seat cannot have a seed",
    "de": "Ein Spiel mit offenem Platz kann keinen Seed haben",
}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_refused_create_is_explained_and_cleared_by_the_next_one(
    in_language: Callable[[str], Watched], base: str, lang: str
) -> None:
    page = in_language(lang).page()
    page.goto(f"{base}/")
    page.get_by_test_id("my-name").fill("Ada")
    page.select_option("[data-testid='new-game']", "black-spy")
    page.get_by_test_id("new-players").fill("3")
    page.select_option("[data-testid='seat-type-1']", "open")
    page.get_by_test_id("new-seed").fill("a-seed")
    page.get_by_test_id("create").click()
    alert = page.locator("form.create [role=alert]")
    expect(alert).to_contain_text(REFUSED[lang])
    expect(alert).to_contain_text("(fixed-deal-with-open-seat)")

    page.get_by_test_id("new-seed").fill("")
    page.get_by_test_id("create").click()
    expect(page.get_by_test_id("created")).to_be_visible()
    expect(alert).to_have_text("")


@pytest.fixture
def allowed_console_errors() -> re.Pattern[str]:
    """The console's own line for the refused create (422)."""
    return re.compile(r"status of 422")
