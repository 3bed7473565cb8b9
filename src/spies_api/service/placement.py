"""Where a command runs: on the event loop when nothing can make it wait, else on a thread.

Commands on one game are applied one at a time (a per-game lock,
:class:`~spies_api.cache.KeyedLocks`), and this process's appends take turns on a write turn
(:func:`write_turn`) rather than in SQLite's busy handler. A command runs on the event loop
when nothing can make it wait: its seat's token was verified before, its game's state is
cached, and the game and the write turn are free (the inline store has no busy timeout, so a
database locked by another process raises at once, having written nothing). Anything else (a
first token, a cache miss, a busy game or database) raises :class:`Deferred` before changing
anything, and the command runs again on a worker thread, which waits as long as it must. On
the loop a command needs no thread hop and no hand-over of the GIL at each SQLite call (the
README's Speed section has the figures); games never wait for one another except for the
append itself, which SQLite serialises anyway.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import anyio

__all__ = ["Deferred", "NoTurn", "Placement", "Turn", "write_turn"]

T = TypeVar("T")


class Deferred(Exception):  # noqa: N818  (a signal, not an error)
    """The work would wait on the event loop; run it on a worker thread instead."""


class Turn(Protocol):
    """A lock-like turn: ``acquire(blocking)``, ``release()``, and a context manager."""

    def acquire(self, blocking: bool = ...) -> bool: ...
    def release(self) -> None: ...
    def __enter__(self) -> bool: ...
    def __exit__(self, *exc: Any) -> None: ...


class NoTurn:
    """A lock that is always free."""

    def acquire(self, blocking: bool = True) -> bool:
        return True

    def release(self) -> None:
        return None

    def __enter__(self) -> bool:
        return True

    def __exit__(self, *exc: object) -> None:
        return None


def write_turn(inline: bool) -> Turn:
    """The turn this process's writers take before an append.

    With commands on the event loop, writers take turns on a lock rather than in SQLite's
    busy handler (which sleeps a millisecond or more between tries), so the loop rarely finds
    the database locked. Without them, there is no turn to take: worker threads that queued
    on one lock would hand the GIL back and forth.
    """
    return threading.Lock() if inline else NoTurn()


class Placement:
    """The policy: try the work on the loop (``inline=True``), else on a worker thread.

    Args:
        inline: whether work may run on the event loop at all (``Settings.inline_commands``
            and an inline store); ``False`` sends everything to a worker thread.
    """

    def __init__(self, inline: bool) -> None:
        self.inline = inline

    async def run(self, work: Callable[[bool], T]) -> T:
        """Run ``work(inline)``: first with ``True`` on the loop when allowed; when it raises
        :class:`Deferred` (having changed nothing), again with ``False`` on a worker thread."""
        if self.inline:
            try:
                return work(True)
            except Deferred:
                pass
        return await anyio.to_thread.run_sync(work, False)
