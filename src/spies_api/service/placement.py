"""Where the store's work runs: the one wrapper between the event loop and blocking calls.

A write is tried on the event loop when it cannot wait: with SQLite, on a connection with
no busy timeout, so a database locked by another writer (another process, or a worker
thread of this one) raises at once, having written nothing, and the write runs again on a
worker thread, which waits as long as the busy timeout allows. On the loop a write needs no
thread hop and no hand-over of the GIL at each SQLite call. With PostgreSQL an append is one
statement, one round trip (``spies_append``), awaited on the loop over psycopg's async
connections (:class:`~spies_replay.store.postgres.AsyncAppends`): no worker thread. Every
other store call (reads, a fold on a cache miss) runs on a worker thread. Nothing else in
the command path decides where it runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, Protocol, TypeVar

import anyio

from spies_replay.errors import StoreBusyError
from spies_replay.store.protocols import EventLog
from spies_replay.store.records import Append

__all__ = ["LoopAppends", "Placement", "blocking"]

P = ParamSpec("P")
T = TypeVar("T")


async def blocking(func: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """Run a blocking call (a store read, a fold) on a worker thread."""
    return await anyio.to_thread.run_sync(lambda: func(*args, **kwargs))


class LoopAppends(Protocol):
    """Appends awaited on the event loop (PostgreSQL's async connections)."""

    async def append(self, batch: Append) -> None: ...
    async def close(self) -> None: ...


class Placement:
    """Runs appends on the loop when they cannot wait, else on a worker thread.

    Args:
        log: the store (worker threads; its busy timeout applies).
        inline: the same SQLite file opened with no busy timeout, for writes on the loop;
            ``None`` runs every write on a worker thread (PostgreSQL without ``on_loop``, or
            ``Settings.inline_commands=False``).
        on_loop: appends awaited on the loop (PostgreSQL); when set, every append goes
            there.
    """

    def __init__(
        self, log: EventLog, inline: EventLog | None, on_loop: LoopAppends | None = None
    ) -> None:
        self.log = log
        self.inline = inline
        self.on_loop = on_loop

    async def append(self, batch: Append) -> None:
        """Append ``batch`` (see :meth:`~spies_replay.store.protocols.EventLog.append`)."""
        if self.on_loop is not None:
            await self.on_loop.append(batch)
            return
        if self.inline is not None:
            try:
                self.inline.append(batch)
            except StoreBusyError:
                pass  # another writer holds the database: wait for it on a thread
            else:
                return
        await anyio.to_thread.run_sync(self.log.append, batch)

    async def close(self) -> None:
        """Close what the loop's appends hold open (at shutdown)."""
        if self.on_loop is not None:
            await self.on_loop.close()
