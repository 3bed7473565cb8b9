"""The replay viewer: every seq by slider, buttons and keys; the viewer; the head hash; export."""

from __future__ import annotations

import httpx
from playwright.sync_api import Page, expect

from tests.web.helpers import create_game, finish_over_the_api, summary, wait_loaded


def step_shown(page: Page, seq: int) -> None:
    page.wait_for_selector(f"#app[data-seq='{seq}']", state="attached")


def test_step_change_viewer_and_download_the_export(page: Page, base: str) -> None:
    created = finish_over_the_api(base, "deck-of-spies", 1, "web-replay-1")
    game_id = str(created["id"])
    token = created["seats"][0]["token"]  # type: ignore[index]
    final = summary(base, game_id)
    last = final["version"]

    page.goto(f"{base}/play/{game_id}#token={token}")  # the browser now holds seat 0
    wait_loaded(page)
    expect(page.get_by_test_id("status")).to_contain_text("Game over")
    page.goto(f"{base}/replay/{game_id}")
    step_shown(page, last)
    expect(page.get_by_test_id("head-hash")).to_have_text(final["head_hash"])
    expect(page.get_by_test_id("replay-seq")).to_have_text(f"Step {last} of {last}")

    slider = page.get_by_test_id("replay-slider")
    slider.focus()
    page.keyboard.press("Home")
    step_shown(page, 0)
    page.keyboard.press("ArrowRight")
    step_shown(page, 1)
    expect(page.get_by_test_id("replay-event")).to_contain_text("Game created")
    page.get_by_test_id("replay-last").focus()
    page.keyboard.press("End")
    step_shown(page, last)
    page.keyboard.press("Home")
    step_shown(page, 0)
    for seq in range(1, 4):
        page.get_by_test_id("replay-next").click()
        step_shown(page, seq)
    page.get_by_test_id("replay-prev").click()
    step_shown(page, 2)
    expect(page.get_by_test_id("replay-event")).to_contain_text("spy deck holds 36 spies")

    # After the first draw, seat 0 sees its five cards; a spectator sees none of them.
    page.get_by_test_id("replay-next").click()
    step_shown(page, 3)
    hand = page.get_by_test_id("hand")
    expect(hand.locator("svg.card")).to_have_count(5)
    page.select_option("[data-testid='viewer-select']", "spectator")
    expect(hand.locator("svg.card")).to_have_count(0)
    expect(hand).to_contain_text("5 cards")

    with page.expect_download() as download:
        page.get_by_test_id("export").click()
    saved = download.value
    assert saved.suggested_filename == f"{game_id}.jsonl"
    exported = httpx.get(f"{base}/games/{game_id}/export").content
    with open(saved.path(), "rb") as file:
        assert file.read() == exported


def test_a_game_in_progress_shows_each_viewer_its_own_view(page: Page, base: str) -> None:
    created = create_game(base, "black-spy", 3, "web-replay-2")
    game_id = created["id"]
    page.goto(f"{base}/play/{game_id}#token={created['seats'][2]['token']}")
    wait_loaded(page)
    page.goto(f"{base}/replay/{game_id}")
    step_shown(page, 3)
    expect(page.get_by_test_id("viewer-select").locator("option")).to_have_text(
        ["seat 3", "spectator"]
    )
    hand = page.get_by_test_id("hand")
    expect(hand.locator("svg.card")).to_have_count(20)
    expect(page.get_by_test_id("export")).to_be_disabled()
    page.select_option("[data-testid='viewer-select']", "spectator")
    expect(hand.locator("svg.card")).to_have_count(0)


def card_labels(page: Page) -> list[str]:
    labels: list[str] = (
        page.get_by_test_id("hand")
        .locator("svg.card")
        .evaluate_all("cards => cards.map((card) => card.getAttribute('aria-label'))")
    )
    return labels


def test_after_the_end_anyone_views_any_seat(page: Page, base: str) -> None:
    created = finish_over_the_api(base, "black-spy", 3, "web-replay-3")
    game_id = str(created["id"])
    page.goto(f"{base}/replay/{game_id}")  # this browser holds no token of the game
    last = summary(base, game_id)["version"]
    step_shown(page, last)
    viewer = page.get_by_test_id("viewer-select")
    expect(viewer.locator("option")).to_have_text(["seat 1", "seat 2", "seat 3", "spectator"])
    hand = page.get_by_test_id("hand")
    page.get_by_test_id("replay-first").click()
    step_shown(page, 0)
    for seq in range(1, 4):  # after the deal: each seat holds 20 cards
        page.get_by_test_id("replay-next").click()
        step_shown(page, seq)
    expect(hand.locator("svg.card")).to_have_count(0)  # a spectator first
    hands: list[list[str]] = []
    for seat in range(3):
        page.select_option("[data-testid='viewer-select']", str(seat))
        expect(hand.locator("svg.card")).to_have_count(20)
        page.wait_for_function(
            "seen => { const cards = [...document.querySelectorAll("
            "'[data-testid=hand] svg.card')].map((c) => c.getAttribute('aria-label'));"
            " return !seen.some((h) => h.join() === cards.join()); }",
            arg=hands,
        )
        hands.append(card_labels(page))
    assert len({tuple(cards) for cards in hands}) == 3  # the hand shown changed with the seat
    for seat in range(3):  # each seat's hand as the API shows it to anyone after the end
        view = httpx.get(f"{base}/games/{game_id}/replay/3", params={"as": seat}).json()
        assert view["seat"] == seat and len(view["hand"]) == len(hands[seat]) == 20
