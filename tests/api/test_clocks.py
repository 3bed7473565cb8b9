"""Clocks: time controls chosen at creation, timeouts recorded in the log, forced moves,
forfeits, abandoned seats, and clocks that no server saw run out.

The server reads the time from an injected clock here, so a test moves time on by hand and
never sleeps through a deadline; the scheduler polls every few milliseconds.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings, create_app
from spies_replay.cli.bots import REGISTERED_BOTS
from spies_replay.clocks import from_ms, to_ms
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.verify import verify_all
from tests.support.api import START, FakeClock, bearer, create, events, wait_for


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def verified(settings: Settings) -> list[dict[str, Any]]:
    """Every game the test played, verified from its log (clocks, forced moves and bot
    moves re-derived): the caveats of each."""
    with SQLiteEventStore(settings.db_path) as store:
        reports = verify_all(store, bots=REGISTERED_BOTS)
    assert reports
    for report in reports:
        assert report.ok, report.problem
    return [{"game_id": r.game_id, "caveats": [c.code for c in r.caveats]} for r in reports]


@pytest.fixture
def clocked(settings: Settings, clock: FakeClock) -> Iterator[TestClient[Litestar]]:
    app = create_app(replace(settings, scheduler_poll_seconds=0.02, bot_workers=0), clock=clock)
    with TestClient(app=app) as client:
        yield client
    verified(settings)  # every clocked game the server played is one verify accepts


# -- the time control ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "clock", "code"),
    [
        ("deck-of-spies", {}, "invalid-clock"),
        ("deck-of-spies", {"turn_seconds": 0}, "invalid-clock"),
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
    clocked: TestClient[Litestar], clock: FakeClock
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
    taken = clocked.delete(f"/games/{game_id}/seats/0/bot", headers=me)
    assert taken.status_code == 200 and taken.json()["bot"] is None
    assert "seat_taken_back" in [e["type"] for e in events(clocked, game_id)]


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
