"""Offline: the lobby, a table and the API docs load nothing from another host, with no
console error (the page fixture fails a test on either)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.helpers import create_game, wait_loaded


def test_the_lobby_lists_games_and_links_them(page: Page, base: str) -> None:
    created = create_game(base, "deck-of-spies", 1, "web-offline-1")
    page.goto(f"{base}/")
    row = page.locator(f"tr[data-game='{created['id']}']")
    expect(row).to_contain_text("Deck of Spies")
    expect(row.get_by_role("link", name="Watch")).to_have_attribute(
        "href", f"/play/{created['id']}"
    )
    expect(row.get_by_role("link", name="Replay")).to_have_attribute(
        "href", f"/replay/{created['id']}"
    )
    page.select_option("[data-testid='new-game']", "black-spy")
    expect(page.get_by_test_id("new-players")).to_have_attribute("max", "6")
    expect(page.get_by_label("No good spies")).not_to_be_checked()
    row.get_by_role("link", name="Watch").click()
    wait_loaded(page)
    expect(page.get_by_test_id("seat-select")).to_have_value("spectator")
    expect(page.get_by_test_id("status")).to_have_text("Waiting for seat 1.")
    expect(page.get_by_test_id("command")).to_have_count(0)


def test_the_api_docs_render_from_the_package(page: Page, base: str) -> None:
    page.goto(f"{base}/schema")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Spies engine API")
    expect(page.locator(".opblock-summary-path").first).to_be_visible()
