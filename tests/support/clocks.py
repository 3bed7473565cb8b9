"""A server clock that runs faster than real time, for tests of clocks whose shortest turn
(``spies_core.clock.CLOCK_LIMITS``) is longer than a test should wait: every second of real
time is ``speed`` seconds on the server's clock (its recorded times, its deadlines)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import msgspec
import pytest

from spies_api import Settings
from spies_bots import policy_for
from spies_replay.cli.bots import REGISTERED_BOTS
from spies_replay.clocks import from_ms, to_ms
from spies_replay.store.records import EventRow
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.verify import verify_all

from .api import FakeClock

__all__ = [
    "FastClock",
    "assert_every_timeout_moves_the_game",
    "every_bot_thinks",
    "patch_bots",
    "rows_of",
    "thinking",
    "verified",
]


class FastClock:
    """The server's clock, running ``speed`` times as fast as real time from ``start``."""

    def __init__(self, speed: float = 10.0, start: str = "2026-12-01T12:00:00.000000Z") -> None:
        self.speed = speed
        self._start_ms = to_ms(start)
        self._real = time.monotonic()

    def __call__(self) -> str:
        elapsed = (time.monotonic() - self._real) * self.speed
        return from_ms(self._start_ms + round(elapsed * 1000))


def verified(settings: Settings) -> list[dict[str, Any]]:
    """Every game the test played, verified from its log (clocks, forced moves and bot
    moves re-derived): the caveats of each."""
    with SQLiteEventStore(settings.db_path) as store:
        reports = verify_all(store, bots=REGISTERED_BOTS)
    assert reports
    for report in reports:
        assert report.ok, report.problem
    return [{"game_id": r.game_id, "caveats": [c.code for c in r.caveats]} for r in reports]


def rows_of(settings: Settings, game_id: str) -> list[EventRow]:
    """The game's rows as stored (with each command's seat and bot mark)."""
    with SQLiteEventStore(settings.db_path) as store:
        return store.read_rows(game_id)


def assert_every_timeout_moves_the_game(rows: Sequence[EventRow]) -> int:
    """Every ``clock_expired`` is followed, in its batch, by the seat's forced move (marked
    with a bot), after the seat's hand-over when the timeout abandons it, or by the end of
    the game (a forfeit); returns the number of timeouts."""
    count = 0
    for index, row in enumerate(rows):
        if row.type != "clock_expired":
            continue
        count += 1
        seat = msgspec.json.decode(row.payload)["seat"]
        after = list(rows[index + 1 :])
        if after and after[0].type == "seat_handed_to_bot":
            assert msgspec.json.decode(after[0].payload)["seat"] == seat
            after = after[1:]
        assert after, f"seq {row.seq}: the log ends after seat {seat}'s timeout"
        move = after[0]
        if move.command is None:
            assert [r.type for r in after[:2]] == ["clocks_updated", "seed_revealed"], (
                f"seq {row.seq}: seat {seat}'s timeout is followed by {move.type}, not its move"
            )
            continue
        assert move.actor == seat and move.bot is not None, f"seq {move.seq}"
        assert move.recorded_at == row.recorded_at  # one batch
    return count


def patch_bots(monkeypatch: pytest.MonkeyPatch, **policies: Any) -> None:
    """Bots of the test's own, by name, for creation, hand-overs and the bot pool's thread
    (``bot_workers=0``); every other name is the registered bot."""

    def patched(name: str, game: str) -> Any:
        return policies[name] if name in policies else policy_for(name, game)

    for module in ("service.creation", "table.seats", "table.bots"):
        monkeypatch.setattr(f"spies_api.{module}.policy_for", patched)


def thinking(clock: FakeClock, seconds: float, policy: Any) -> Any:
    """``policy``, taking ``seconds`` of the server's time over each decision."""

    def slow(view: Any, legal: Sequence[Any], rng: Any) -> Any:
        clock.advance(seconds)
        return policy(view, legal, rng)

    return slow


def every_bot_thinks(monkeypatch: pytest.MonkeyPatch, clock: FakeClock, seconds: float) -> None:
    """Every bot of the bot pool (``bot_workers=0``) takes ``seconds`` over each decision,
    as bots take real time on a real server."""
    monkeypatch.setattr(
        "spies_api.table.bots.policy_for",
        lambda name, game: thinking(clock, seconds, policy_for(name, game)),
    )


# -- the time control ------------------------------------------------------------------------
