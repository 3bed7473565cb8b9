"""Seats in the browser: whole games against bots from the lobby, rematches, joins by link,
and a seat handed to a bot and taken back."""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.web.helpers import (
    APP,
    MY_TURN_OR_OVER,
    Watched,
    click_a_move,
    create_in_lobby,
    play_to_the_end,
    screenshots,
    summary,
    wait_loaded,
)


def rematch(page: Page, base: str, game_id: str) -> str:
    """Clicks the outcome's rematch button; the id of the next game, whose table is shown."""
    page.get_by_test_id("rematch").click()
    page.wait_for_url(re.compile(r"/play/(?!" + game_id + r")[a-z0-9]+$"))
    wait_loaded(page)
    next_id = page.url.rsplit("/", 1)[1]
    assert summary(base, next_id)["rematch_of"] == game_id
    return next_id


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [
        ("black-spy", ["creator", "bot:random", "bot:random"], {}),
        ("spies-and-lies", ["bot:random", "creator"], {"board_length": "2"}),
    ],
)
def test_a_whole_game_against_bots_from_the_lobby_then_a_rematch(
    page: Page, base: str, game: str, seats: list[str], options: dict[str, str]
) -> None:
    me = seats.index("creator")
    game_id = create_in_lobby(page, base, game, seats, name="Ada", options=options)
    rows = page.get_by_test_id("seats").locator("li")
    expect(rows).to_have_count(len(seats))
    expect(rows.nth(me)).to_contain_text("Ada (creator, yours)")
    bot = 1 - me
    expect(rows.nth(bot)).to_have_attribute("data-seat-type", "bot")
    expect(rows.nth(bot)).to_contain_text("(bot random)")

    made = play_to_the_end(page)
    assert made > 0
    final = summary(base, game_id)
    assert final["status"] == "finished"
    outcome = page.get_by_test_id("outcome")
    expect(outcome).to_contain_text("Game over")
    expect(page.get_by_test_id("outcome-why")).to_contain_text("Rule §")
    # the deal is the server's seed mixed with this browser's (a fair deal): a win, a loss
    # or, in Spies & Lies, now and then a draw
    expect(page.get_by_test_id("outcome-headline")).to_have_text(re.compile(r"You|A draw"))
    expect(page.get_by_test_id("status")).to_contain_text("Game over")
    expect(page.get_by_test_id("log")).to_contain_text("The seed is revealed")
    assert page.get_by_test_id("command").count() == 0

    # The rematch: same seats (the bots stay bots), this browser's seat and token carried over.
    next_id = rematch(page, base, game_id)
    expect(page.get_by_test_id("seat-select")).to_have_value(str(me))
    nxt = summary(base, next_id)
    assert nxt["status"] == "active"
    assert [s.get("type") for s in nxt["seats"]] == [s.split(":")[0] for s in seats]
    page.wait_for_function(MY_TURN_OR_OVER)
    expect(page.get_by_test_id("status")).to_have_text(f"Your turn (seat {me + 1}).")

    # The finished game's seats can no longer be joined.
    page.goto(f"{base}/join/{game_id}/{bot}")
    expect(page.get_by_test_id("join-error")).to_have_text(
        "This game is over: its seats can no longer be joined."
    )


def seat_moved(base: str, game_id: str, seat: int, *, after: int) -> bool:
    """Whether ``seat`` passed or played a card in Black Spy since event ``after``."""
    page = httpx.get(f"{base}/games/{game_id}/events", params={"after": after}).json()
    return any(
        e["type"].startswith("black_spy_card") and e.get("seat") == seat for e in page["events"]
    )


def test_two_browsers_join_one_game_by_link_and_play(
    open_context: Callable[[], Watched], base: str
) -> None:
    ada = open_context().page()
    game_id = create_in_lobby(ada, base, "black-spy", ["creator", "open", "bot:random"], name="Ada")
    link = ada.get_by_test_id("share-1").input_value()
    assert link == f"{base}/join/{game_id}/1"
    screenshots(ada, "lobby-created")

    # The game is listed in the lobby's open seats, with its join link.
    ada.goto(f"{base}/")
    row = ada.locator(f"tr[data-open-game='{game_id}']")
    expect(row.get_by_role("link", name="join seat 2")).to_have_attribute(
        "href", f"/join/{game_id}/1"
    )
    expect(row).to_contain_text("seat 1: Ada")
    ada.goto(f"{base}/play/{game_id}")
    wait_loaded(ada)
    # Nothing is dealt before the last open seat is taken: the table waits, with its link.
    expect(ada.get_by_test_id("status")).to_have_text("Waiting for players: 1 seat is open.")
    expect(ada.get_by_test_id("join-link-1")).to_have_attribute("href", link)
    expect(ada.get_by_test_id("hand")).to_have_count(0)

    grace = open_context().page()
    grace.goto(link)
    expect(grace.get_by_role("heading", level=1)).to_have_text("Join seat 2 of Black Spy")
    screenshots(grace, "join")
    grace.get_by_label("Your display name").fill("Grace")
    grace.get_by_test_id("join").click()
    grace.wait_for_url(f"{base}/play/{game_id}")
    wait_loaded(grace)
    expect(grace.get_by_test_id("seat-select")).to_have_value("1")
    expect(grace.locator("[data-seat-row='1']")).to_contain_text("Grace (joined, yours)")
    expect(ada.locator("[data-seat-row='1']")).to_contain_text("Grace (joined)")
    expect(ada.get_by_test_id("log")).to_contain_text("Seat 2 is taken by Grace.")
    expect(ada.get_by_test_id("waiting")).to_have_count(0)  # the join dealt the cards

    # A third browser comes too late, or to a seat the game does not have.
    late = open_context().page()
    late.goto(link)
    expect(late.get_by_test_id("join-error")).to_have_text(
        re.compile(r"^Seat 2 is taken: someone joined it first\. \(Grace\)$")
    )
    expect(late.get_by_test_id("join")).to_have_count(0)
    late.goto(f"{base}/join/{game_id}/5")
    expect(late.get_by_test_id("join-error")).to_have_text("This game has no such seat.")

    # Both people play their seats from their own browsers (the bot plays seat 2).
    made = {0: 0, 1: 0}
    pages = {0: ada, 1: grace}
    while min(made.values()) < 4:
        to_act = summary(base, game_id)["to_act"]
        people = [seat for seat in to_act if seat in pages]
        if not people:
            ada.wait_for_timeout(50)
            continue
        seat = people[0]
        pages[seat].wait_for_function(MY_TURN_OR_OVER)
        click_a_move(pages[seat])
        made[seat] += 1
    log = ada.get_by_test_id("log")
    expect(log).to_contain_text("Grace passes 3 cards")
    expect(log).to_contain_text("Bot random passes 3 cards")
    screenshots(grace, "black-spy-joined")

    # Grace lets the bot play her seat on her turn, then takes it back once it has moved.
    while 1 not in (to_act := summary(base, game_id)["to_act"]):
        if 0 in to_act:
            ada.wait_for_function(MY_TURN_OR_OVER)
            click_a_move(ada)
        else:
            ada.wait_for_timeout(50)
    handed_at = summary(base, game_id)["version"]
    grace.get_by_test_id("hand-to-bot").click()
    expect(grace.locator("[data-seat-row='1']")).to_contain_text("played by bot random")
    expect(ada.get_by_test_id("log")).to_contain_text("Grace is handed to bot random.")
    while not seat_moved(base, game_id, 1, after=handed_at):
        grace.wait_for_timeout(50)
    grace.get_by_test_id("take-back").click()
    expect(grace.locator("[data-seat-row='1']")).to_contain_text("Grace (joined, yours)")
    expect(grace.get_by_test_id("hand-to-bot")).to_be_visible()
    expect(ada.get_by_test_id("log")).to_contain_text("Grace is taken back from its bot.")
    assert summary(base, game_id)["status"] == "active"
    assert ada.get_attribute(APP, "data-seat") == "0"


def test_the_lobby_joins_the_first_open_seat(
    open_context: Callable[[], Watched], base: str
) -> None:
    ada = open_context().page()
    game_id = create_in_lobby(ada, base, "spies-and-lies", ["creator", "open"], name="Ada")
    bob = open_context().page()
    bob.goto(f"{base}/")
    join = bob.locator(f"tr[data-open-game='{game_id}']").get_by_test_id("join-first")
    join.click()
    expect(bob.get_by_test_id("lobby-error")).to_have_text("Type your display name first.")
    expect(bob.get_by_test_id("my-name")).to_be_focused()
    bob.get_by_test_id("my-name").fill("Bob")
    join.click()
    bob.wait_for_url(f"{base}/play/{game_id}")
    wait_loaded(bob)
    expect(bob.get_by_test_id("seat-select")).to_have_value("1")
    assert [s.get("name") for s in summary(base, game_id)["seats"]] == ["Ada", "Bob"]
    bob.goto(f"{base}/")
    expect(bob.locator(f"tr[data-open-game='{game_id}']")).to_have_count(0)
