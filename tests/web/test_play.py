"""Whole games in the browser: create in the lobby, click legal moves, see the table move."""

from __future__ import annotations

import json
import re

import httpx
from playwright.sync_api import Page, expect

from tests.web.helpers import (
    as_seat,
    click_a_move,
    commands,
    create_game,
    play_moves,
    screenshots,
    summary,
    version,
    wait_loaded,
    wait_past,
)


def create_in_lobby(page: Page, base: str, game: str, players: int, seed: str) -> str:
    page.goto(f"{base}/")
    page.select_option("[data-testid='new-game']", game)
    if page.is_enabled("[data-testid='new-players']"):
        page.fill("[data-testid='new-players']", str(players))
    page.fill("[data-testid='new-seed']", seed)
    page.click("[data-testid='create']")
    page.wait_for_url(re.compile(r"/play/[a-z0-9]+$"))
    wait_loaded(page)
    return page.url.rsplit("/", 1)[1]


def test_a_whole_deck_of_spies_game_by_clicking_legal_moves(page: Page, base: str) -> None:
    game_id = create_in_lobby(page, base, "deck-of-spies", 1, "web-deck-1")
    expect(page.get_by_test_id("status")).to_have_text("Your turn (seat 1).")
    hand = page.get_by_test_id("hand")
    expect(hand.get_by_role("button").first).to_have_accessible_name(
        re.compile(r"^(ace|[2-9]|10|jack|queen|king) of (clubs|diamonds|hearts|spades)$")
    )

    # A multi-card choice built by selecting cards: only the moves that use exactly the
    # selected cards (played and retired) are offered, and one of them is the move chosen.
    first = next(command for command in commands(page) if "cards" in command)
    chosen = sorted(first["cards"] + first.get("retire", []))
    cards = hand.get_by_role("button")
    for i in range(cards.count()):
        if _card_id(cards.nth(i).locator("svg").first.get_attribute("aria-label")) in chosen:
            cards.nth(i).click()
    offered = commands(page)
    assert first in offered
    assert all(sorted(c["cards"] + c.get("retire", [])) == chosen for c in offered)

    # Keyboard: focus the move and press Enter.
    before = version(page)
    page.locator(f"[data-command='{json.dumps(first, separators=(',', ':'))}']").focus()
    page.keyboard.press("Enter")
    wait_past(page, before)
    # The focus stays on the moves: the keyboard alone plays on.
    for _ in range(3):
        focused = page.evaluate("document.activeElement.getAttribute('data-testid')")
        assert focused == "command"
        before = version(page)
        page.keyboard.press("Enter")
        wait_past(page, before)

    shot = False
    for _ in range(300):
        if summary(base, game_id)["status"] == "finished":
            break
        click_a_move(page)
        if not shot:
            screenshots(page, "deck-of-spies")
            shot = True
    final = summary(base, game_id)
    assert final["status"] == "finished"
    expect(page.get_by_test_id("status")).to_contain_text("Game over")
    expect(page.get_by_test_id("outcome")).to_be_visible()
    expect(page.get_by_test_id("outcome")).to_contain_text("Game over")
    expect(page.get_by_test_id("log")).to_contain_text("Game over")
    expect(page.get_by_test_id("log")).to_contain_text("The seed is revealed")
    assert page.get_by_test_id("command").count() == 0

    # The rematch: a new game with the same options, this browser in the same seat.
    page.get_by_test_id("rematch").click()
    page.wait_for_url(re.compile(r"/play/(?!" + game_id + r")[a-z0-9]+$"))
    wait_loaded(page)
    next_id = page.url.rsplit("/", 1)[1]
    assert summary(base, next_id)["rematch_of"] == game_id
    expect(page.get_by_test_id("status")).to_have_text("Your turn (seat 1).")


def _card_id(name: str | None) -> str:
    """'7 of hearts' -> '7H' (the notation of the API)."""
    assert name is not None
    rank, _, suit = name.partition(" of ")
    ranks = {"ace": "A", "jack": "J", "queen": "Q", "king": "K"}
    return ranks.get(rank, rank) + suit[0].upper()


def test_black_spy_with_every_seat_in_one_browser(page: Page, base: str) -> None:
    game_id = create_in_lobby(page, base, "black-spy", 3, "web-black-1")
    options = page.locator("[data-testid='seat-select'] option")
    expect(options).to_have_text(["seat 1", "seat 2", "seat 3", "spectator"])

    # The three-card pass, built by selecting cards, for each seat in turn.
    for seat in range(3):
        as_seat(page, seat)
        assert commands(page) == []
        cards = page.locator("[data-testid='hand'] button.hand-card")
        picked = [cards.nth(i).locator("svg").first.get_attribute("aria-label") for i in range(3)]
        for i in range(3):
            cards.nth(i).click()
        move = page.get_by_test_id("command")
        expect(move).to_have_count(1)
        expect(move).to_have_accessible_name("pass " + ", ".join(str(p) for p in picked))
        before = version(page)
        move.click()
        wait_past(page, before)
    screenshots(page, "black-spy")

    played = play_moves(page, base, game_id, 7)
    assert played == 7
    state = summary(base, game_id)
    assert state["status"] == "active"
    log = page.get_by_test_id("log")
    expect(log).to_contain_text("passes 3 cards")
    expect(log).to_contain_text(re.compile(r"Seat \d plays (blue|yellow|red|green|black) \d+"))
    expect(log).to_contain_text("wins trick 1")


def test_spies_and_lies_deploy_by_selection_then_guesses(page: Page, base: str) -> None:
    game_id = create_in_lobby(page, base, "spies-and-lies", 2, "web-spies-1")
    for seat in range(2):
        as_seat(page, seat)
        soldiers = page.locator("[data-testid='hand'] button.hand-card")
        for i in range(4):
            soldiers.nth(i).click()
        moves = page.get_by_test_id("command")
        expect(moves.first).to_have_accessible_name(re.compile(r"^deploy \d+ \w+ on mission 1, "))
        before = version(page)
        moves.first.click()
        wait_past(page, before)
    played = play_moves(page, base, game_id, 8)
    assert played == 8
    as_seat(page, summary(base, game_id)["to_act"][0])
    screenshots(page, "spies-and-lies")
    log = page.get_by_test_id("log")
    expect(log).to_contain_text("deploys 4 soldiers")
    expect(log).to_contain_text("the intel card shows")
    expect(log).to_contain_text(re.compile(r"guesses \d+ \w+ at (red|blue)'s mission 1"))
    board = page.locator(".board")
    expect(board).to_have_attribute("aria-label", re.compile(r"^Double Agent at -?\d"))


def test_a_private_seat_link_is_stored_and_leaves_the_address_bar(page: Page, base: str) -> None:
    created = create_game(base, "spies-and-lies", 2, "web-link-1")
    token = created["seats"][1]["token"]
    page.goto(f"{base}/play/{created['id']}#token={token}")
    wait_loaded(page)
    assert "token" not in page.url
    expect(page.get_by_test_id("seat-select")).to_have_value("1")
    expect(page.get_by_test_id("status")).to_have_text("Your turn (seat 2).")
    page.reload()
    wait_loaded(page)
    expect(page.get_by_test_id("seat-select")).to_have_value("1")
    as_seat(page, 1)
    click_a_move(page)
    assert summary(base, created["id"])["to_act"] == [0]


def test_the_stream_moves_the_table_live(page: Page, base: str) -> None:
    created = create_game(base, "black-spy", 3, "web-live-1")
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    page.goto(f"{base}/play/{game_id}#token={tokens[1]}")
    wait_loaded(page)
    seen = version(page)

    # Another client plays seat 0; this page (seat 1, streaming with its token) follows.
    headers = {"Authorization": f"Bearer {tokens[0]}"}
    legal = httpx.get(f"{base}/games/{game_id}/legal", headers=headers).json()
    answer = httpx.post(
        f"{base}/games/{game_id}/commands", headers=headers, json={"command": legal["commands"][0]}
    )
    assert answer.status_code == 200
    wait_past(page, seen)
    expect(page.get_by_test_id("log")).to_contain_text("Seat 1 passes 3 cards to seat 2 (you).")
    expect(page.locator(".seat-list li").first).to_contain_text("passed")
