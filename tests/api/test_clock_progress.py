"""Clocks always make progress: a property test over random time controls, seats, moves,
hand-overs and take-backs, against the server's scheduler.

Each example runs a server on a fresh database, reading the time from a clock that only the
test and the bots move: the test moves it on between its steps, and every bot decision takes
``THINK`` seconds of it, as bots take real time on a real server. After every step the test
waits until the server has nothing due, then checks the game's log:

- every timeout moves the game on: each ``clock_expired`` is followed, in its batch, by the
  seat's forced move (after its hand-over when the timeout abandons it), or by the end of the
  game;
- events per game per second stay bounded whatever the clock: a seat's timeouts are at least
  ``THINK`` apart (each costs the bot a decision), and at least the turn's time apart
  without a budget; no second of the game's time holds more than :data:`EVENTS_PER_SECOND`
  events;
- ``spies-replay verify`` accepts the log (clocks, hand-overs and forced moves re-derived).
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings, create_app
from spies_core.clock import CLOCK_LIMITS
from spies_replay.cli.bots import REGISTERED_BOTS
from spies_replay.clocks import to_ms
from spies_replay.store.records import EventRow
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.verify import verify_game
from tests.support.api import FakeClock, bearer, wait_for
from tests.support.clocks import assert_every_timeout_moves_the_game, every_bot_thinks

pytestmark = pytest.mark.slow

THINK: Final = 0.2
"""Seconds of the server's time each bot decision takes (a slow bot's on a real server)."""
EVENTS_PER_BATCH: Final = 32
"""More than any batch holds: a command's events and the meta events around them."""
EVENTS_PER_SECOND: Final = EVENTS_PER_BATCH * (round(1 / THINK) + 3)
"""A bound on one second of a game's log: a batch per bot decision, and one each for the
test's request, a forfeit and the second's edges."""
ALLOWED: Final = {200, 201, 409, 422}
"""What the test's requests may be answered (409: the seat or the game moved meanwhile,
the seat has not moved since its hand-over; 422: a move the rules refuse now)."""

GAMES: Final = {"deck-of-spies": 1, "spies-and-lies": 2, "black-spy": 3}


@dataclass(frozen=True)
class Step:
    """One step of an example: a client's action on a seat, then the time moved on."""

    action: str
    seat: int
    seconds: float


def clocks() -> st.SearchStrategy[dict[str, Any]]:
    turn = st.sampled_from([None, CLOCK_LIMITS.min_turn_seconds, 5.0, 10.0])
    budget = st.sampled_from([None, CLOCK_LIMITS.min_budget_seconds, 30.0])
    return st.fixed_dictionaries(
        {
            "turn_seconds": turn,
            "budget_seconds": budget,
            "increment_seconds": st.sampled_from([0.0, 0.5, 2.0]),
            "on_timeout": st.sampled_from(["bot", "bot", "forfeit"]),
            "timeout_bot": st.sampled_from(["random", "greedy"]),
            "abandon_after": st.sampled_from([None, 1, 2, 3]),
        }
    ).filter(lambda c: c["turn_seconds"] is not None or c["budget_seconds"] is not None)


def steps() -> st.SearchStrategy[list[Step]]:
    step = st.builds(
        Step,
        action=st.sampled_from(["wait", "move", "hand_over", "take_back", "take_back"]),
        seat=st.integers(0, 2),
        seconds=st.floats(1.0, 12.0),
    )
    return st.lists(step, min_size=1, max_size=8)


def request_of(game: str, seats: list[str], clock: dict[str, Any]) -> dict[str, Any]:
    """The create request: the time control without its empty fields."""
    control = {k: v for k, v in clock.items() if v is not None}
    if control.get("budget_seconds") is None:
        control.pop("increment_seconds", None)
    if control["on_timeout"] == "forfeit":
        control.pop("abandon_after", None)
        if game == "black-spy":  # nobody wins Black Spy by one seat's leaving
            control["on_timeout"] = "bot"
    body: dict[str, Any] = {"game": game, "players": GAMES[game], "clock": control}
    body["seats"] = [
        {"type": "bot", "bot": "random"} if kind == "bot" else {"type": kind} for kind in seats
    ]
    return body


def settled(client: TestClient[Litestar], game_id: str, clock: FakeClock) -> bool:
    """Whether the server has nothing due on the game now: it is over, or no seat a bot
    plays is to act and no running clock has run out."""
    summary = client.get(f"/games/{game_id}").json()
    if summary["status"] == "finished":
        return True
    bots = {seat["seat"] for seat in summary["seats"] if seat["bot"] is not None}
    if bots & set(summary["to_act"]):
        return False
    deadlines = [s["deadline"] for s in summary["clock"]["seats"] if s["deadline"] is not None]
    return all(to_ms(deadline) > clock.ms for deadline in deadlines)


def act(client: TestClient[Litestar], game_id: str, token: str, step: Step) -> int:
    """The step's request for a seat the test holds; its status."""
    me = bearer(token)
    url = f"/games/{game_id}/seats/{step.seat}/bot"
    if step.action == "hand_over":
        return client.post(url, json={"bot": "random"}, headers=me).status_code
    if step.action == "take_back":
        return client.delete(url, headers=me).status_code
    legal = client.get(f"/games/{game_id}/legal", headers=me).json()
    if not legal["commands"]:
        return 200
    move = {"command": legal["commands"][0], "expected_version": legal["version"]}
    return client.post(f"/games/{game_id}/commands", headers=me, json=move).status_code


def check_rates(rows: list[EventRow], control: dict[str, Any]) -> None:
    """A seat's timeouts are ``THINK`` apart at least, and a turn apart without a budget;
    no second of the log holds more than :data:`EVENTS_PER_SECOND` events."""
    last: dict[int, tuple[int, int]] = {}
    for row in rows:
        if row.type != "clock_expired":
            continue
        event = msgspec.json.decode(row.payload)
        at, deadline = to_ms(row.recorded_at), to_ms(event["deadline"])
        seat = event["seat"]
        if seat in last:
            before_at, before_deadline = last[seat]
            assert at - before_at >= round(THINK * 1000), f"seq {row.seq}: timeouts too close"
            if control.get("budget_seconds") is None:
                turn = round(control["turn_seconds"] * 1000)
                assert deadline - before_deadline >= turn, f"seq {row.seq}: a turn too short"
        last[seat] = (at, deadline)
    times = sorted(to_ms(row.recorded_at) for row in rows)
    start = 0
    for end, moment in enumerate(times):
        while moment - times[start] >= 1000:
            start += 1
        assert end - start + 1 <= EVENTS_PER_SECOND, f"{end - start + 1} events in a second"


@pytest.mark.parametrize("game", list(GAMES))
def test_every_timeout_moves_the_game_on_at_a_bounded_rate(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = FakeClock()
    every_bot_thinks(monkeypatch, clock, THINK)
    seat_kinds = st.sampled_from(["creator", "creator", "open", "bot"])

    @settings(
        max_examples=6,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(
        clock_request=clocks(),
        seats=st.lists(seat_kinds, min_size=GAMES[game], max_size=GAMES[game]),
        plan=steps(),
    )
    def example(clock_request: dict[str, Any], seats: list[str], plan: list[Step]) -> None:
        clock.ms = FakeClock().ms
        body = request_of(game, seats, clock_request)
        control = body["clock"]
        with tempfile.TemporaryDirectory(prefix="spies-clocks-") as tmp:
            db = Path(tmp) / "spies.db"
            quick = Settings(db_path=db, scheduler_poll_seconds=0.02, bot_workers=0)
            with TestClient(app=create_app(quick, clock=clock)) as client:
                created = client.post("/games", json=body)
                assert created.status_code == 201, created.text
                game_id = created.json()["id"]
                tokens = {s["seat"]: s["token"] for s in created.json()["seats"] if "token" in s}
                for step in plan:
                    token = tokens.get(step.seat)
                    if token is not None and step.action != "wait":
                        assert act(client, game_id, token, step) in ALLOWED
                    wait_for(lambda: settled(client, game_id, clock), "the server's work")
                    clock.advance(step.seconds)
                    wait_for(lambda: settled(client, game_id, clock), "the server's work")
            with SQLiteEventStore(db) as store:
                rows = store.read_rows(game_id)
                report = verify_game(store, game_id, bots=REGISTERED_BOTS)
        assert report.ok, report.problem
        assert_every_timeout_moves_the_game(rows)
        check_rates(rows, control)

    example()
