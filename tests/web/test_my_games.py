"""My games: a browser that keeps a player gets back to a seat whose token it lost."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.helpers import create_in_lobby, wait_loaded


def test_a_kept_player_gets_back_to_a_seat_the_browser_forgot(page: Page, base: str) -> None:
    page.goto(f"{base}/")
    page.click("[data-testid='keep-my-games']")
    expect(page.get_by_test_id("my-games-box")).to_contain_text("None yet")
    game_id = create_in_lobby(page, base, "deck-of-spies", ["creator"], name="Ada")
    expect(page.get_by_test_id("seat-select")).to_have_value("0")

    # The page is lost, and with it every seat token this browser held: not the player.
    page.evaluate(
        "() => Object.keys(localStorage).filter(k => k.startsWith('spies:tokens:'))"
        ".forEach(k => localStorage.removeItem(k))"
    )
    page.goto(f"{base}/play/{game_id}")
    wait_loaded(page)
    expect(page.get_by_test_id("seat-select")).to_have_value("spectator")  # a spectator now

    page.goto(f"{base}/")
    row = page.locator(f"[data-my-game='{game_id}']")
    expect(row).to_contain_text("Deck of Spies")
    row.get_by_test_id("back-to-seat").click()
    page.wait_for_url(f"{base}/play/{game_id}")
    wait_loaded(page)
    expect(page.get_by_test_id("seat-select")).to_have_value("0")
