"""Where a store comes from: :func:`open_store` turns a database location into an open store.

A location is a SQLite file path (``spies.db``: :mod:`spies_replay.store.sqlite`) or a
PostgreSQL URL (``postgresql://user:password@host:5432/spies``:
:mod:`spies_replay.store.postgres`). Every reason a location cannot be used (no such
directory, a directory, not a database, unreadable, a malformed URL, an unreachable server,
a refused login) is one :class:`~spies_replay.errors.StoreUnavailableError` with a one-line
reason, so the console scripts and the API never match a driver's error text.
"""

from __future__ import annotations

from pathlib import Path

from spies_replay.errors import StoreUnavailableError
from spies_replay.store.locations import is_postgres_url, redact
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import SNAPSHOT_EVERY
from spies_replay.store.sqlite import SyncMode, open_sqlite

__all__ = ["SyncMode", "open_store"]


def open_store(
    db: str | Path,
    *,
    create: bool = True,
    snapshot_every: int = SNAPSHOT_EVERY,
    busy_timeout: float = 10.0,
    sync: SyncMode = "normal",
    pool_size: int = 8,
) -> EventStore:
    """Open the store at ``db``, creating and migrating it when needed.

    Args:
        db: the database location: a SQLite file path or a ``postgresql://`` URL.
        create: create the SQLite file when it does not exist (its directory must exist);
            ``False`` refuses a missing file (tools that only read). A PostgreSQL database
            must exist; its tables are created and migrated.
        snapshot_every: see :class:`~spies_replay.store.sql.SqlEventStore`.
        busy_timeout: seconds a writer waits for another's lock (SQLite's busy timeout;
            PostgreSQL's lock timeout).
        sync: SQLite's ``PRAGMA synchronous`` (``normal`` or ``full``); PostgreSQL keeps
            ``synchronous_commit`` on.
        pool_size: the most PostgreSQL connections the store keeps open.

    Raises:
        StoreUnavailableError: the location cannot be used; the message says why in one line.
    """
    location = str(db)
    if is_postgres_url(location):
        from spies_replay.store.postgres import PostgresEventStore

        return PostgresEventStore(
            location,
            snapshot_every=snapshot_every,
            lock_timeout=busy_timeout,
            pool_size=pool_size,
        )
    if "://" in location:
        raise StoreUnavailableError(
            redact(location),
            "not a file path nor a postgresql:// URL; games are stored in a SQLite file"
            " such as spies.db or in PostgreSQL",
        )
    return open_sqlite(
        db,
        create=create,
        snapshot_every=snapshot_every,
        busy_timeout=busy_timeout,
        sync=sync,
    )
