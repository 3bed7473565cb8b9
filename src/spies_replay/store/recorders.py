"""The recorder every backend can hand out: each append on a worker thread.

A store's :meth:`~spies_replay.store.protocols.EventStore.recorder` gives it when appends
must not run on the event loop (``on_loop=False``); otherwise each backend has its own
(:class:`~spies_replay.store.sqlite_append.SQLiteRecorder`,
:class:`~spies_replay.store.postgres_append.AsyncRecorder`).
"""

from __future__ import annotations

import anyio

from spies_replay.store.protocols import EventLog
from spies_replay.store.records import Append

__all__ = ["ThreadRecorder"]


class ThreadRecorder:
    """Every append on a worker thread: the log's blocking ``append``.

    Args:
        log: the store whose ``append`` runs (its busy or lock timeout applies).
    """

    def __init__(self, log: EventLog) -> None:
        self.log = log

    async def append(self, batch: Append) -> None:
        """Append ``batch`` on a worker thread (see
        :meth:`~spies_replay.store.protocols.EventLog.append`)."""
        await anyio.to_thread.run_sync(self.log.append, batch)

    async def close(self) -> None:
        """Nothing to close: the connections are the store's."""
