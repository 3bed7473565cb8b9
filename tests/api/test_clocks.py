"""Clocks: time controls chosen at creation, timeouts recorded in the log, forced moves,
forfeits, abandoned seats, and clocks that no server saw run out; every timeout moves the
game on (clocks that looped, stalled or were too short to play no longer do).

The server reads the time from an injected clock here, so a test moves time on by hand and
never sleeps through a deadline; the scheduler polls every few milliseconds. Where a bot's
thinking must take time (as it does on a real server), its decisions move the clock on.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

import msgspec
import pytest
import structlog
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings, create_app
from spies_api.game import create_game, creation, loading
from spies_bots import policy_for
from spies_core.clock import TimeControl
from spies_replay.clocks import from_ms, to_ms
from spies_replay.store.sqlite import SQLiteEventStore
from tests.support.api import START, FakeClock, assert_problem, bearer, create, events, wait_for
from tests.support.clocks import (
    assert_every_timeout_moves_the_game,
    every_bot_thinks,
    patch_bots,
    rows_of,
    thinking,
    verified,
)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def clocked(settings: Settings, clock: FakeClock) -> Iterator[TestClient[Litestar]]:
    app = create_app(replace(settings, scheduler_poll_seconds=0.02, bot_workers=0), clock=clock)
    with TestClient(app=app) as client:
        yield client
    verified(settings)  # every clocked game the server played is one verify accepts


@pytest.mark.parametrize(
    ("game", "clock", "code"),
    [
        ("deck-of-spies", {}, "invalid-clock"),
        ("deck-of-spies", {"turn_seconds": 0}, "invalid-clock"),
        ("deck-of-spies", {"turn_seconds": 2.999}, "invalid-clock"),
        ("deck-of-spies", {"budget_seconds": 9.5}, "invalid-clock"),
        ("deck-of-spies", {"turn_seconds": 30, "budget_seconds": 1}, "invalid-clock"),
        ("deck-of-spies", {"turn_seconds": -5}, "invalid-clock"),
        ("deck-of-spies", {"turn_seconds": "30"}, "invalid-clock"),
        ("deck-of-spies", {"turn_seconds": True}, "invalid-clock"),
        ("deck-of-spies", {"budget_seconds": 10**9}, "invalid-clock"),
        ("deck-of-spies", {"turn_seconds": 30, "increment_seconds": 5}, "invalid-clock"),
        ("deck-of-spies", {"turn_seconds": 30, "on_timeout": "pause"}, "invalid-clock"),
        ("deck-of-spies", {"turn_seconds": 30, "abandon_after": 0}, "invalid-clock"),
        ("deck-of-spies", {"turn_seconds": 30, "tempo": 1}, "invalid-clock"),
        ("deck-of-spies", "30s", "invalid-clock"),
        ("black-spy", {"turn_seconds": 30, "on_timeout": "forfeit"}, "invalid-clock"),
        ("deck-of-spies", {"turn_seconds": 30, "timeout_bot": "wizard"}, "unknown-bot"),
    ],
)
def test_a_bad_clock_is_refused_with_what_is_allowed(
    client: TestClient[Litestar], game: str, clock: Any, code: str
) -> None:
    response = client.post("/games", json={"game": game, "clock": clock})
    assert response.status_code == 422, response.text
    assert response.json()["code"] == code
    assert client.get("/games").json()["total"] == 0


def test_an_infinite_number_of_seconds_is_refused(client: TestClient[Litestar]) -> None:
    body = b'{"game": "deck-of-spies", "clock": {"budget_seconds": 1e999}}'
    response = client.post("/games", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code in (400, 422), response.text
    assert response.json()["code"] in ("invalid-clock", "malformed-body")


def test_a_game_without_a_clock_shows_none(client: TestClient[Litestar]) -> None:
    created = create(client, {"game": "deck-of-spies"})
    assert client.get(f"/games/{created['id']}").json()["clock"] is None
    view = client.get(
        f"/games/{created['id']}/view", headers=bearer(created["seats"][0]["token"])
    ).json()
    assert view["clock"] is None
    assert not [e for e in events(client, created["id"]) if e["type"].startswith("clock")]


def test_the_summary_and_the_view_carry_every_seats_clock(
    clocked: TestClient[Litestar], clock: FakeClock
) -> None:
    body = {"game": "deck-of-spies", "clock": {"budget_seconds": 60, "increment_seconds": 2}}
    created = create(clocked, body)
    game_id, me = created["id"], bearer(created["seats"][0]["token"])
    clock.advance(10)
    summary = clocked.get(f"/games/{game_id}").json()["clock"]
    assert summary["budget_seconds"] == 60 and summary["increment_seconds"] == 2
    [seat] = summary["seats"]
    assert seat["seat"] == 0 and seat["remaining_ms"] == 50_000
    assert seat["deadline"] == from_ms(to_ms(START) + 60_000)
    legal = clocked.get(f"/games/{game_id}/legal", headers=me).json()
    answer = clocked.post(
        f"/games/{game_id}/commands", headers=me, json={"command": legal["commands"][0]}
    )
    assert answer.status_code == 200, answer.text
    updated = [e for e in answer.json()["events"] if e["type"] == "clocks_updated"]
    assert updated and updated[0]["moved"] == 0 and updated[0]["used_ms"] == 10_000
    view = clocked.get(f"/games/{game_id}/view", headers=me).json()
    # 60 - 10 + 2 left, and the clock runs again from the move
    assert view["clock"]["seats"][0]["remaining_ms"] == 52_000
    replay = clocked.get(f"/games/{game_id}/replay/{created['version']}", headers=me).json()
    assert replay["clock"]["seats"][0]["remaining_ms"] == 60_000  # as it was then


# -- timeouts --------------------------------------------------------------------------------


def test_a_solo_game_that_forfeits_on_time_is_lost(
    clocked: TestClient[Litestar], clock: FakeClock
) -> None:
    body = {"game": "deck-of-spies", "clock": {"turn_seconds": 5, "on_timeout": "forfeit"}}
    created = create(clocked, body)
    game_id = created["id"]
    clock.advance(4.9)
    clock.looked_at(3)  # the scheduler has made rounds at the new time
    assert clocked.get(f"/games/{game_id}").json()["status"] == "active"
    clock.advance(0.2)
    summary = wait_for(
        lambda: (s := clocked.get(f"/games/{game_id}").json())["status"] == "finished" and s,
        "the forfeit",
    )
    assert summary["outcome"]["reason"] == "timeout" and summary["outcome"]["winners"] == []
    logged = events(clocked, game_id)
    expired = [e for e in logged if e["type"] == "clock_expired"]
    assert len(expired) == 1 and expired[0]["forfeit"] and expired[0]["seat"] == 0
    assert logged[-1]["type"] == "seed_revealed"


def test_spies_and_lies_on_time_the_other_side_wins(
    clocked: TestClient[Litestar], clock: FakeClock
) -> None:
    body = {
        "game": "spies-and-lies",
        "seats": [{"type": "creator"}, {"type": "bot", "bot": "random"}],
        "clock": {"budget_seconds": 20, "on_timeout": "forfeit"},
    }
    created = create(clocked, body)
    game_id = created["id"]
    wait_for(lambda: clocked.get(f"/games/{game_id}").json()["to_act"] == [0], "the bot to deploy")
    clock.advance(21)
    summary = wait_for(
        lambda: (s := clocked.get(f"/games/{game_id}").json())["status"] == "finished" and s,
        "the forfeit",
    )
    assert summary["outcome"] == {
        "winners": [1],
        "reason": "timeout",
        "draw": False,
        "scores": summary["outcome"]["scores"],
    }


def test_a_move_before_the_deadline_wins_and_after_it_is_409(
    clocked: TestClient[Litestar], clock: FakeClock
) -> None:
    body = {"game": "deck-of-spies", "clock": {"turn_seconds": 10}}
    created = create(clocked, body)
    game_id, me = created["id"], bearer(created["seats"][0]["token"])
    clock.advance(9.999)
    legal = clocked.get(f"/games/{game_id}/legal", headers=me).json()
    on_time = clocked.post(
        f"/games/{game_id}/commands",
        headers=me,
        json={"command": legal["commands"][0], "expected_version": legal["version"]},
    )
    assert on_time.status_code == 200, on_time.text
    assert not [e for e in events(clocked, game_id) if e["type"] == "clock_expired"]
    legal = clocked.get(f"/games/{game_id}/legal", headers=me).json()
    clock.advance(10)  # exactly at the deadline: too late
    late = clocked.post(
        f"/games/{game_id}/commands",
        headers=me,
        json={"command": legal["commands"][0], "expected_version": legal["version"]},
    )
    assert late.status_code == 409, late.text
    # the server's scheduler may record the timeout first (it wakes on its own poll): then
    # the late move meets the forced one, a version conflict; else the deadline refuses it
    if late.json()["code"] == "deadline-passed":
        assert late.json()["current_version"] == legal["version"]
    else:
        assert late.json()["code"] == "version-conflict"
        assert late.json()["current_version"] > legal["version"]
    expired = wait_for(
        lambda: [e for e in events(clocked, game_id) if e["type"] == "clock_expired"],
        "the timeout",
    )
    forced = [e for e in events(clocked, game_id) if e["seq"] == expired[0]["seq"] + 1]
    assert forced and forced[0]["type"] != "clock_expired"
    export_bot = clocked.get(f"/games/{game_id}/events").json()
    assert export_bot["version"] > legal["version"]


def test_three_timeouts_hand_the_seat_to_its_bot_and_the_holder_takes_it_back(
    clocked: TestClient[Litestar], clock: FakeClock, settings: Settings
) -> None:
    """The worked example: a 4-seat Black Spy game, one person who stops moving."""
    bots = [{"type": "bot", "bot": "random"}] * 3
    body = {
        "game": "black-spy",
        "players": 4,
        "seats": [{"type": "creator", "name": "Ada"}, *bots],
        "clock": {
            "turn_seconds": 30,
            "on_timeout": "bot",
            "timeout_bot": "random",
            "abandon_after": 3,
        },
    }
    created = create(clocked, body)
    game_id, me = created["id"], bearer(created["seats"][0]["token"])

    def expired() -> list[dict[str, Any]]:
        logged = events(clocked, game_id)
        return [e for e in logged if e["type"] == "clock_expired" and e["seat"] == 0]

    for count in (1, 2, 3):
        # only seat 0 is to act (the bots have moved): only its clock runs out
        wait_for(lambda: clocked.get(f"/games/{game_id}").json()["to_act"] == [0], "seat 0")
        clock.advance(31)
        wait_for(lambda n=count: len(expired()) == n, f"timeout {count}")
    logged = events(clocked, game_id)
    handed = [e for e in logged if e["type"] == "seat_handed_to_bot"]
    assert [(e["seat"], e["bot"]) for e in handed] == [(0, "random")]
    assert [e["timeouts"] for e in expired()] == [1, 2, 3]
    seat = clocked.get(f"/games/{game_id}").json()["seats"][0]
    assert seat["bot"] == "random" and seat["name"] == "Ada"
    # the hand-over came with the seat's forced move, so it can be taken back at once
    taken = clocked.delete(f"/games/{game_id}/seats/0/bot", headers=me)
    assert taken.status_code == 200 and taken.json()["bot"] is None
    assert "seat_taken_back" in [e["type"] for e in events(clocked, game_id)]
    assert assert_every_timeout_moves_the_game(rows_of(settings, game_id)) == 3


# -- the server's absence ----------------------------------------------------------------------


def test_a_deadline_that_passed_while_no_server_ran_resumes_the_clocks(
    settings: Settings, clock: FakeClock
) -> None:
    quick = replace(settings, scheduler_poll_seconds=0.02, bot_workers=0)
    body = {"game": "deck-of-spies", "clock": {"turn_seconds": 10}}
    with TestClient(app=create_app(quick, clock=clock)) as client:
        game_id = create(client, body)["id"]
    clock.advance(600)  # the server is down for ten minutes
    with TestClient(app=create_app(quick, clock=clock)) as client:
        resumed = wait_for(
            lambda: [e for e in events(client, game_id) if e["type"] == "clocks_resumed"],
            "the clocks to resume",
        )
        assert not [e for e in events(client, game_id) if e["type"] == "clock_expired"]
        seat = client.get(f"/games/{game_id}").json()["clock"]["seats"][0]
        assert seat["deadline"] == from_ms(clock.ms + 10_000)
        assert resumed[0]["since"] == START
        clock.advance(11)  # now a server is up to see it pass
        wait_for(
            lambda: [e for e in events(client, game_id) if e["type"] == "clock_expired"],
            "the timeout",
        )
    assert verified(settings) == [{"game_id": game_id, "caveats": ["clocks-resumed"]}]


def test_a_deadline_pending_at_a_restart_comes_back_from_the_log(
    settings: Settings, clock: FakeClock
) -> None:
    quick = replace(settings, scheduler_poll_seconds=0.02, bot_workers=0)
    body = {"game": "deck-of-spies", "clock": {"turn_seconds": 10}}
    with TestClient(app=create_app(quick, clock=clock)) as client:
        game_id = create(client, body)["id"]
    clock.advance(5)  # a restart that takes less than the deadline
    with TestClient(app=create_app(quick, clock=clock)) as client:
        clock.advance(6)
        wait_for(
            lambda: [e for e in events(client, game_id) if e["type"] == "clock_expired"],
            "the timeout after the restart",
        )
        assert not [e for e in events(client, game_id) if e["type"] == "clocks_resumed"]
    assert verified(settings) == [{"game_id": game_id, "caveats": []}]


def test_a_rematch_keeps_its_games_clock(clocked: TestClient[Litestar], clock: FakeClock) -> None:
    body = {"game": "deck-of-spies", "clock": {"turn_seconds": 5, "on_timeout": "forfeit"}}
    created = create(clocked, body)
    game_id, me = created["id"], bearer(created["seats"][0]["token"])
    clock.advance(6)
    wait_for(lambda: clocked.get(f"/games/{game_id}").json()["status"] == "finished", "the end")
    rematch = clocked.post(f"/games/{game_id}/rematch", headers=me).json()
    again = clocked.get(f"/games/{rematch['id']}").json()["clock"]
    assert again["turn_seconds"] == 5 and again["on_timeout"] == "forfeit"


# -- every timeout moves the game on ---------------------------------------------------------


@pytest.mark.parametrize(
    "clock",
    [
        {"turn_seconds": 0.001, "abandon_after": 1},  # was a loop of hand-overs for ever
        {"turn_seconds": 0.0001},  # a 0 ms turn: a whole bot game per request
        {"budget_seconds": 0.5, "increment_seconds": 0.1},
    ],
)
def test_a_clock_too_short_to_play_to_is_refused_naming_the_minimum(
    client: TestClient[Litestar], clock: dict[str, Any]
) -> None:
    body = {"game": "spies-and-lies", "players": 2, "clock": clock}
    response = client.post("/games", json=body)
    assert_problem(response, 422, "invalid-clock")
    limit = "at least 3 seconds" if "turn_seconds" in clock else "at least 10 seconds"
    assert limit in response.json()["detail"]
    assert client.get("/games").json()["total"] == 0


def test_the_shortest_clock_allowed_is_one_a_game_is_played_at(
    client: TestClient[Litestar],
) -> None:
    for clock in ({"turn_seconds": 3}, {"budget_seconds": 10, "increment_seconds": 0}):
        create(client, {"game": "deck-of-spies", "clock": clock})
    described = client.get("/schema/openapi.json").text
    assert "from 3 for `turn_seconds` and 10 for `budget_seconds`" in described


def test_a_game_from_before_the_minimum_plays_to_its_end_one_move_per_timeout(
    settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 1 ms turn with ``abandon_after`` 1 (as a server before the minimum
    accepted, and a restart resumed) handed the seat to its bot at every timeout, before the
    bot could move, and never moved: hundreds of events a second for ever. Each bot decision
    here takes 20 ms of the server's time, as on a real server."""
    control = TimeControl(turn_seconds=0.001, abandon_after=1, timeout_bot="random")
    with SQLiteEventStore(settings.db_path) as store:
        game_id = create_game(
            store, "spies-and-lies", 2, clock=control, created_at=clock()
        ).record.id
    every_bot_thinks(monkeypatch, clock, 0.02)
    quick = replace(settings, scheduler_poll_seconds=0.02, bot_workers=0)
    with TestClient(app=create_app(quick, clock=clock)) as client:
        clock.advance(0.002)  # both deadlines pass; from now on the bots' thinking moves time

        def ended() -> bool:
            summary = client.get(f"/games/{game_id}").json()
            # a game of Spies & Lies is a few hundred events, whoever plays it
            assert summary["version"] < 3000, "events without moves"
            return bool(summary["status"] == "finished")

        wait_for(ended, "the game to end")
    rows = rows_of(settings, game_id)
    timeouts = assert_every_timeout_moves_the_game(rows)
    assert timeouts > 0
    handed = [row for row in rows if row.type == "seat_handed_to_bot"]
    assert len(handed) == 2  # each seat once, with its first forced move; then only moves
    verified(settings)


def test_a_seat_taken_back_at_every_hand_over_still_moves_at_every_timeout(
    clocked: TestClient[Litestar], clock: FakeClock, settings: Settings
) -> None:
    """A holder who took the seat back after each hand-over, before its bot
    moved, never moved and never lost (19 timeouts and 1 move in 20 s). Ada never moves and
    takes her seat back at once each time; Bob plays on time."""
    body = {
        "game": "spies-and-lies",
        "seats": [{"type": "creator", "name": "Ada"}, {"type": "creator", "name": "Bob"}],
        "clock": {"turn_seconds": 5, "abandon_after": 1, "timeout_bot": "random"},
    }
    created = create(clocked, body)
    game_id = created["id"]
    ada, bob = (bearer(seat["token"]) for seat in created["seats"])

    def summary() -> dict[str, Any]:
        found: dict[str, Any] = clocked.get(f"/games/{game_id}").json()
        return found

    def timeouts() -> int:
        return len([e for e in events(clocked, game_id) if e["type"] == "clock_expired"])

    for count in range(1, 6):
        while 1 in summary()["to_act"]:  # Bob moves at once
            legal = clocked.get(f"/games/{game_id}/legal", headers=bob).json()
            move = {"command": legal["commands"][0], "expected_version": legal["version"]}
            answer = clocked.post(f"/games/{game_id}/commands", headers=bob, json=move)
            assert answer.status_code == 200, answer.text
        assert summary()["to_act"] == [0]
        clock.advance(5.001)
        wait_for(lambda n=count: timeouts() == n, f"timeout {count}")
        taken = clocked.delete(f"/games/{game_id}/seats/0/bot", headers=ada)
        assert taken.status_code == 200, taken.text  # it moved in the hand-over's batch
        assert summary()["status"] == "active"
    rows = rows_of(settings, game_id)
    assert assert_every_timeout_moves_the_game(rows) == 5
    moves = [row for row in rows if row.actor == 0 and row.command is not None]
    assert len(moves) >= 5 and all(row.bot is not None for row in moves)  # all forced


def test_a_seat_cannot_be_taken_back_before_it_has_moved(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Taking a seat back at once after each hand-over, before its bot could move, held its
    moves up for good; now the seat moves once first (409 ``handed-seat-not-moved``)."""
    release = threading.Event()
    greedy = policy_for("greedy", "spies-and-lies")

    def held(view: Any, legal: Sequence[Any], rng: Any) -> Any:
        release.wait(30)
        return greedy(view, legal, rng)

    patch_bots(monkeypatch, greedy=held)
    quick = replace(settings, scheduler_poll_seconds=0.02, bot_workers=0)
    try:
        with TestClient(app=create_app(quick)) as client:
            body = {"game": "spies-and-lies", "seats": [{"type": "creator"}] * 2}
            created = create(client, body)
            game_id, me = created["id"], bearer(created["seats"][0]["token"])
            url = f"/games/{game_id}/seats/0/bot"
            handed = client.post(url, json={"bot": "greedy"}, headers=me)
            assert handed.status_code == 200, handed.text
            version = client.get(f"/games/{game_id}").json()["version"]
            assert_problem(client.delete(url, headers=me), 409, "handed-seat-not-moved")
            assert client.get(f"/games/{game_id}").json()["version"] == version  # no event
            release.set()
            wait_for(
                lambda: client.get(f"/games/{game_id}").json()["version"] > version,
                "the bot's move",
            )
            taken = client.delete(url, headers=me)
            assert taken.status_code == 200 and taken.json()["bot"] is None
    finally:
        release.set()


def test_a_seat_nobody_holds_gets_its_forced_move_not_a_hand_over(
    settings: Settings, clock: FakeClock
) -> None:
    """``abandon_after`` reached by an open seat asked for a hand-over the
    seats refuse (a ValueError at every poll, logged as an error every 2 s): the game stalled
    for good. A table with an open seat waits undealt now; one dealt with its seat open, as
    servers before the deferred deal created them, still plays on."""
    body = {
        "game": "spies-and-lies",
        "seats": [{"type": "creator", "name": "Ada"}, {"type": "open"}],
        "clock": {"turn_seconds": 5, "abandon_after": 1, "timeout_bot": "random"},
    }
    quick = replace(settings, scheduler_poll_seconds=0.02, bot_workers=0)
    with (
        structlog.testing.capture_logs() as logs,
        TestClient(app=create_app(quick, clock=clock)) as client,
    ):
        with pytest.MonkeyPatch.context() as older_server:  # it dealt at creation
            older_server.setattr(creation, "any_open", lambda seats: False)
            older_server.setattr(loading, "any_open", lambda seats: False)
            game_id = create(client, body)["id"]
        clock.advance(5.001)  # both seats deploy at once: both clocks run out

        def expired() -> set[int]:
            return {e["seat"] for e in events(client, game_id) if e["type"] == "clock_expired"}

        wait_for(lambda: expired() == {0, 1}, "both timeouts")
        seats = client.get(f"/games/{game_id}").json()["seats"]
    assert not [line for line in logs if line["event"] == "bot_failed"]
    rows = rows_of(settings, game_id)
    assert assert_every_timeout_moves_the_game(rows) == 2
    handed = [
        msgspec.json.decode(r.payload)["seat"] for r in rows if r.type == "seat_handed_to_bot"
    ]
    assert handed == [0]  # Ada's seat, which she holds; nobody holds seat 1
    assert (seats[1]["type"], seats[1]["bot"]) == ("open", None)
    verified(settings)


def test_a_bot_seat_that_runs_out_of_time_gets_the_forced_move(
    settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot seat that reached ``abandon_after`` (its bot slower than the
    clock) was refused its hand-over at every poll and stalled the game."""
    patch_bots(monkeypatch, greedy=thinking(clock, 6, policy_for("greedy", "spies-and-lies")))
    body = {
        "game": "spies-and-lies",
        "seats": [{"type": "creator"}, {"type": "bot", "bot": "greedy"}],
        "clock": {"turn_seconds": 5, "abandon_after": 1, "timeout_bot": "random"},
    }
    quick = replace(settings, scheduler_poll_seconds=0.02, bot_workers=0)
    with (
        structlog.testing.capture_logs() as logs,
        TestClient(app=create_app(quick, clock=clock)) as client,
    ):
        game_id = create(client, body)["id"]

        def bot_seat_timed_out() -> bool:
            logged = events(client, game_id)
            return any(e["type"] == "clock_expired" and e["seat"] == 1 for e in logged)

        wait_for(bot_seat_timed_out, "the bot seat's timeout")
    assert not [line for line in logs if line["event"] == "bot_failed"]
    rows = rows_of(settings, game_id)
    assert assert_every_timeout_moves_the_game(rows) >= 1
    handed = [
        msgspec.json.decode(r.payload)["seat"] for r in rows if r.type == "seat_handed_to_bot"
    ]
    assert 1 not in handed
    verified(settings)
