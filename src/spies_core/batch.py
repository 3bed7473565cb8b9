"""How a command's events are built: one :class:`Batch` per ``decide`` call.

A command may cause several events (an action, a refill, the next spy; a card, the trick,
the deal's score, the next deal). Every game builds them the same way: each event is
emitted into the batch, which applies it at once, so that every later step of the same
command reads the state as the earlier events left it, exactly as a fold of the log will.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["Batch"]

S = TypeVar("S")
E = TypeVar("E")


class Batch(Generic[S, E]):
    """The events of one command, in order, and the state they lead to.

    >>> batch = Batch(0, lambda total, step: total + step)
    >>> batch.emit(2)
    2
    >>> batch.emit(3)
    5
    >>> batch.events, batch.state
    ([2, 3], 5)
    """

    __slots__ = ("_evolve", "events", "state")

    def __init__(self, state: S, evolve: Callable[[S, E], S]) -> None:
        """Start an empty batch from ``state``; ``evolve`` is the game's ``evolve``."""
        self._evolve = evolve
        self.state = state
        """The state after every event emitted so far."""
        self.events: list[E] = []
        """The events emitted so far, in order: what ``decide`` returns."""

    def emit(self, event: E) -> S:
        """Append ``event``, apply it, and return the state it leads to."""
        self.events.append(event)
        self.state = self._evolve(self.state, event)
        return self.state
