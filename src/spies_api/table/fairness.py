"""Who thinks next: the order in which the bot pool serves the decisions waiting for it.

The pool has a few workers and many games; :class:`FairQueue` decides which waiting decision
a free worker takes, so that no client (the address that owns the games, see
:meth:`~spies_api.table.quota.BotGameQuota.owner`) can make the others' bots wait behind its
own:

1. **Workers shared between clients.** A client with fewer decisions running goes first:
   while others wait, no client holds more of the workers than they do.
2. **Think time shared between clients.** Each client's decisions add up their seconds; the
   client with the least goes first. A client that had nothing waiting or running comes back
   level with the least-served client now waiting or running (not with a credit saved up
   while it was away), and is forgotten while it has nothing.
3. **Urgent work first, within a client's fair share.** A forced move (a seat whose clock
   ran out) goes before the bot of a clocked game, which goes before any other; but only
   among the clients that are no more than :data:`QUANTUM_SECONDS` of think time ahead of
   the least-served one, so clocking every game does not let a client starve the others.
4. **Round robin.** Ties go to the client served longest ago, then to the one whose decision
   has waited longest; within a client, to its game served longest ago (of those with more
   than one decision waiting; the others by their decision's age); within a game, the
   oldest decision.

The queue is pure bookkeeping (no event loop, no clock: the pool says how long each
decision took), so its order is tested directly.
"""

from __future__ import annotations

import itertools
from collections import deque
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final, Generic, TypeVar

__all__ = ["QUANTUM_SECONDS", "FairQueue", "Ticket", "Urgency"]

QUANTUM_SECONDS: Final = 1.0
"""How far ahead of the least-served client, in think time, a client's urgent work may still
go first."""

T = TypeVar("T")


class Urgency(StrEnum):
    """How soon a decision is needed, most urgent first."""

    FORCED = "forced"
    """A seat whose clock ran out: its move is late already."""
    CLOCKED = "clocked"
    """A bot seat of a game with a clock: its own clock runs while it waits."""
    UNTIMED = "untimed"
    """A bot seat of a game without a clock."""


_RANK: Final = {urgency: rank for rank, urgency in enumerate(Urgency)}


@dataclass(eq=False, slots=True)
class Ticket(Generic[T]):
    """One decision in the queue: what it carries, and whose it is.

    Attributes:
        item: what the caller queued (the pool's wake-up for the decision).
        client: the client that owns its game.
        game: its game.
        urgency: how soon it is needed.
        queued: when it was queued (a serial of its queue).
        started: whether a worker took it (:meth:`FairQueue.pop`).
    """

    item: T
    client: str
    game: str
    urgency: Urgency
    queued: int
    started: bool = False


@dataclass(slots=True)
class _Client:
    """A client with decisions waiting or running."""

    used: float
    """Seconds of think time so far (see the module docstring, rule 2)."""
    served: int = -1
    """When a worker last took one of its decisions (a serial, -1: never)."""
    running: int = 0
    waiting: dict[str, deque[Ticket[Any]]] = field(default_factory=dict)
    """Its games with decisions waiting, each game's oldest first."""
    game_served: dict[str, int] = field(default_factory=dict)
    """When a worker last took a decision of each of its games with decisions waiting."""


class FairQueue(Generic[T]):
    """The decisions waiting for a worker, taken in a fair order (see the module docstring).

    Not thread-safe: the pool uses it from its event loop.
    """

    def __init__(self) -> None:
        self._clients: dict[str, _Client] = {}
        self._serial = itertools.count()
        self._waiting = 0

    def __len__(self) -> int:
        """How many decisions wait."""
        return self._waiting

    def push(self, item: T, *, client: str, game: str, urgency: Urgency) -> Ticket[T]:
        """Queue a decision of ``client``'s ``game``."""
        found = self._clients.get(client)
        if found is None:
            floor = min((c.used for c in self._clients.values()), default=0.0)
            found = self._clients[client] = _Client(used=floor)
        ticket = Ticket(item, client, game, urgency, next(self._serial))
        found.waiting.setdefault(game, deque()).append(ticket)
        self._waiting += 1
        return ticket

    def pop(self) -> Ticket[T] | None:
        """The decision a free worker takes now (counted as running until
        :meth:`finish`), or ``None`` when none waits."""
        waiting = [c for c in self._clients.values() if c.waiting]
        if not waiting:
            return None
        least = min(c.used for c in waiting)
        chosen, urgency = min(
            ((c, self._most_urgent(c)) for c in waiting),
            key=lambda pair: (
                pair[0].running,
                _RANK[pair[1]] if pair[0].used - least <= QUANTUM_SECONDS else len(_RANK),
                pair[0].used,
                pair[0].served,
                self._oldest(pair[0], pair[1]),
            ),
        )
        game = min(
            (g for g, queued in chosen.waiting.items() if queued[0].urgency is urgency),
            key=lambda g: (chosen.game_served.get(g, -1), chosen.waiting[g][0].queued),
        )
        queued = chosen.waiting[game]
        ticket: Ticket[T] = queued.popleft()
        serial = next(self._serial)
        chosen.served = chosen.game_served[game] = serial
        if not queued:
            self._drop_game(chosen, game)
        chosen.running += 1
        ticket.started = True
        self._waiting -= 1
        return ticket

    @staticmethod
    def _most_urgent(client: _Client) -> Urgency:
        return min((q[0].urgency for q in client.waiting.values()), key=_RANK.__getitem__)

    @staticmethod
    def _oldest(client: _Client, urgency: Urgency) -> int:
        return min(q[0].queued for q in client.waiting.values() if q[0].urgency is urgency)

    def cancel(self, ticket: Ticket[T]) -> None:
        """Take back a decision that no worker took (its caller gave up)."""
        if ticket.started:
            return
        client = self._clients.get(ticket.client)
        queued = None if client is None else client.waiting.get(ticket.game)
        if client is None or queued is None or ticket not in queued:
            return
        queued.remove(ticket)
        if not queued:
            self._drop_game(client, ticket.game)
        self._waiting -= 1
        self._forget_if_idle(client, ticket.client)

    def finish(self, ticket: Ticket[T], seconds: float) -> None:
        """A started decision ended (however it ended) after ``seconds`` of think time."""
        client = self._clients.get(ticket.client)
        if client is None or not ticket.started:
            return
        ticket.started = False  # finished once
        client.running -= 1
        client.used += max(0.0, seconds)
        self._forget_if_idle(client, ticket.client)

    @staticmethod
    def _drop_game(client: _Client, game: str) -> None:
        """A game with nothing left waiting: forgotten (it comes back as a game not served
        yet, and takes its turn by the age of its decision)."""
        del client.waiting[game]
        client.game_served.pop(game, None)

    def _forget_if_idle(self, client: _Client, name: str) -> None:
        if not client.waiting and client.running == 0:
            del self._clients[name]
