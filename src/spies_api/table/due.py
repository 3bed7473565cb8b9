"""What the scheduler (:mod:`spies_api.table.scheduler`) keeps about due work: the queue of
games with work due, soonest first, and the backoff of work stopped by a transient failure.

The queue keeps one mark (a due time) per game; a newer mark replaces the old one, whose
entry stays in the heap until it surfaces and is dropped there (cheaper than removing it).
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final, Protocol

from spies_replay.store.protocols import GameIndex

__all__ = [
    "RETRY_FIRST_SECONDS",
    "RETRY_MAX_SECONDS",
    "DueIndex",
    "DueQueue",
    "DueWork",
    "backoff",
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
