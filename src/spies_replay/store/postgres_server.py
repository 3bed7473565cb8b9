"""The PostgreSQL server a store talks to: where it is, and whether it answers.

One :class:`Server` is shared by a :class:`~spies_replay.store.postgres.PostgresEventStore`
and the recorders it hands out: its URL and timeouts, the server processes of their
connections (whose notifications are their own appends), whether the store was closed, and
whether the server was found unreachable (then a caller waits for a connection at most
:data:`DOWN_WAIT_SECONDS`, so every request meanwhile is answered at once).
"""

from __future__ import annotations

from typing import Final

import psycopg
import structlog

from spies_replay.store.locations import redact

__all__ = ["DOWN_WAIT_SECONDS", "Server"]

DOWN_WAIT_SECONDS: Final = 1.0
"""How long a caller waits for a connection while the server is marked down."""

_log = structlog.get_logger("spies_replay.store.postgres")


class Server:
    """A PostgreSQL server as a store sees it.

    Args:
        url: a ``postgresql://`` URL (libpq's connection URI).
        lock_timeout: seconds a write waits for another writer's lock, and for a free
            connection of a pool.
        connect_timeout: seconds to wait for the server when connecting.
    """

    def __init__(self, url: str, *, lock_timeout: float, connect_timeout: float) -> None:
        self.url = url
        self.location = redact(url)
        """The URL without its password."""
        self.lock_timeout = lock_timeout
        self.connect_timeout = max(1, round(connect_timeout))
        self.own_pids: set[int] = set()
        """The server processes of this store's connections (and its recorders'): their
        notifications are the store's own appends, which its watch leaves out."""
        self.down = False
        """Whether the server was found unreachable and has not answered since."""
        self.closed = False
        """Whether the store was closed."""

    @property
    def down_wait(self) -> float | None:
        """How long to wait for a connection: :data:`DOWN_WAIT_SECONDS` while the server is
        marked down, else a pool's own timeout (``None``)."""
        return DOWN_WAIT_SECONDS if self.down else None

    def reached(self) -> None:
        """A call reached the server: it is no longer marked down."""
        if self.down:
            self.down = False
            _log.info("store_reconnected", location=self.location)

    def answers(self) -> bool:
        """Whether a new connection to the server can be made now (blocking; after a pool
        timeout, to tell a busy pool from a server gone)."""
        try:
            with psycopg.connect(self.url, autocommit=True, connect_timeout=1):
                return True
        except psycopg.Error:
            return False
