"""What the scheduler (:mod:`spies_api.table.scheduler`) keeps about due work: the queue of
games with work due, soonest first, the notices of other processes' appends on their way to
the event loop, and the backoff of work stopped by a transient failure.

The queue keeps one mark (a due time) per game; a newer mark replaces the old one, whose
entry stays in the heap until it surfaces and is dropped there (cheaper than removing it).
"""

from __future__ import annotations

import heapq
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final, Protocol

from spies_api.game import Head
from spies_core.clock import deadline_ms
from spies_replay.store.protocols import GameIndex
from spies_replay.store.records import Appended

__all__ = [
    "RETRY_FIRST_SECONDS",
    "RETRY_MAX_SECONDS",
    "DueIndex",
    "DueQueue",
    "DueWork",
    "Notices",
    "backoff",
    "late_seat",
]

RETRY_FIRST_SECONDS: Final = 0.05
"""The backoff after a game's due work first fails for a transient reason (it doubles)."""
RETRY_MAX_SECONDS: Final = 5.0
"""The longest backoff: a game is looked at again at least this often while it fails."""


class DueIndex(GameIndex, Protocol):
    """The part of the store the scheduler reads: the index of due work."""


class DueWork(StrEnum):
    """What the scheduler was doing when a transient failure stopped it (a metrics label)."""

    INDEX = "index"
    """Reading the index of due work."""
    LOAD = "load"
    """Reading a game's head, or its due mark."""
    DEADLINE = "deadline"
    """A clock that ran out: its timeout, forced move or abandonment, or clocks resumed; or
    open seats that expired (the table abandoned)."""
    BOT_MOVE = "bot_move"
    """A bot's move: its decision, or its command."""
    MARK = "mark"
    """Clearing a game's due mark once nothing is due."""


def backoff(failures: int, first: float, most: float, rng: random.Random) -> float:
    """Seconds to wait after a game's ``failures``-th transient failure in a row: doubling
    from ``first`` up to ``most``, half of it drawn at random (jitter)."""
    ceiling = min(most, first * 2.0 ** min(failures - 1, 32))
    return ceiling / 2 + rng.uniform(0, ceiling / 2)


@dataclass(eq=False)
class DueQueue:
    """Games with due work, soonest first (times are the store's ISO timestamps, which sort
    as they compare)."""

    _due: list[tuple[str, str]] = field(default_factory=list)
    _marks: dict[str, str] = field(default_factory=dict)

    def mark(self, game_id: str, due_at: str | None) -> None:
        """Keep ``game_id`` due at ``due_at`` (``None``: nothing due)."""
        if due_at is None:
            self._marks.pop(game_id, None)
            return
        if self._marks.get(game_id) == due_at:
            return
        self._marks[game_id] = due_at
        heapq.heappush(self._due, (due_at, game_id))

    def holds(self, game_id: str) -> bool:
        """Whether ``game_id`` is due at some time (safe to ask from another thread)."""
        return game_id in self._marks

    def soonest(self) -> str | None:
        """The soonest due time, or ``None`` when nothing is due."""
        while self._due and self._marks.get(self._due[0][1]) != self._due[0][0]:
            heapq.heappop(self._due)  # a mark replaced or taken since
        return self._due[0][0] if self._due else None

    def take(self, now: str, busy: set[str]) -> list[str]:
        """The games due by ``now`` and not in ``busy``, off the queue (a busy game stays)."""
        ready: list[str] = []
        later: list[tuple[str, str]] = []
        while self._due and self._due[0][0] <= now:
            due_at, game_id = heapq.heappop(self._due)
            if self._marks.get(game_id) != due_at:
                continue  # a newer mark replaced this one
            if game_id in busy:
                later.append((due_at, game_id))
                continue
            del self._marks[game_id]
            ready.append(game_id)
        for item in later:
            heapq.heappush(self._due, item)
        return ready


class Notices:
    """Other processes' appends, as the store's watch hears them, waiting for the event loop.

    Each process hears every other's appends, so what it does per notice grows with the
    number of processes: the scheduler keeps here only the notices of games with something
    due (or with work of its own), and hops to the loop once for all those that came while
    it was busy; the rest are dropped where the store's watch reads them (its thread, or the
    event loop). Safe from any thread.
    """

    __slots__ = ("_lock", "_pending")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: dict[str, Appended] = {}

    def hear(self, appended: Appended, has_work: Callable[[str], bool]) -> bool:
        """Keep ``appended`` if it matters here: something is due, or its game has work here
        (``has_work``) or a notice kept already (a newer notice replaces it: notices come in
        commit order). Whether it is the first kept since :meth:`take` (then wake the loop)."""
        game_id = appended.game_id
        if appended.due_at is None and game_id not in self._pending and not has_work(game_id):
            return False  # the common case on a busy deployment: dropped, no hop
        with self._lock:
            first = not self._pending
            self._pending[appended.game_id] = appended
        return first

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._pending

    def take(self) -> dict[str, Appended]:
        """The notices kept since the last take, by game (on the loop)."""
        with self._lock:
            taken, self._pending = self._pending, {}
        return taken


def late_seat(head: Head, now_ms: int) -> int | None:
    """The first seat whose running clock has run out by ``now_ms``, or ``None``."""
    if head.finished or head.clock is None:
        return None
    for clock in head.clock.seats:
        deadline = deadline_ms(head.clock, clock.seat)
        if deadline is not None and deadline <= now_ms:
            return clock.seat
    return None
