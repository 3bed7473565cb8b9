"""Where a store comes from: :func:`open_store` turns a database location into an open store.

A location is a SQLite file path (``spies.db``: :mod:`spies_replay.sqlite_store`) or a
PostgreSQL URL (``postgresql://user:password@host:5432/spies``:
:mod:`spies_replay.postgres_store`). Every reason a location cannot be used (no such
directory, a directory, not a database, unreadable, a malformed URL, an unreachable server,
a refused login) is one :class:`~spies_replay.errors.StoreUnavailableError` with a one-line
reason, so the console scripts and the API never match a driver's error text.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from spies_core.decider import AnySpec
from spies_replay.errors import StoreUnavailableError
from spies_replay.sqlite_store import SQLiteEventStore, SyncMode
from spies_replay.store import EventStore

__all__ = ["SyncMode", "is_postgres_url", "open_store", "redact"]

_POSTGRES_SCHEMES: Final = ("postgresql://", "postgres://")

# SQLite's primary result codes (the low byte of an extended code).
_SQLITE_REASONS: Final[dict[int, str]] = {
    sqlite3.SQLITE_NOTADB: "it is not a SQLite database",
    sqlite3.SQLITE_CORRUPT: "the database file is damaged",
    sqlite3.SQLITE_CANTOPEN: "the file cannot be opened (check its permissions)",
    sqlite3.SQLITE_PERM: "permission denied",
    sqlite3.SQLITE_READONLY: "it is read-only (the store writes to it and beside it)",
    sqlite3.SQLITE_IOERR: "a disk input/output error",
    sqlite3.SQLITE_BUSY: "another process keeps it locked",
    sqlite3.SQLITE_LOCKED: "another process keeps it locked",
    sqlite3.SQLITE_FULL: "the disk is full",
}


def open_store(
    db: str | Path,
    *,
    create: bool = True,
    games: Mapping[str, AnySpec] | None = None,
    snapshot_every: int = 128,
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
        games: the games the store decodes (default: the registry).
        snapshot_every: see :class:`~spies_replay.store.SqlEventStore`.
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
        from spies_replay.postgres_store import PostgresEventStore

        return PostgresEventStore(
            location,
            games=games,
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
    path = Path(db)
    _check_path(location, path, create=create)
    try:
        return SQLiteEventStore(
            path,
            games=games,
            snapshot_every=snapshot_every,
            busy_timeout=busy_timeout,
            sync=sync,
        )
    except sqlite3.DatabaseError as exc:
        code = getattr(exc, "sqlite_errorcode", None)
        reason = None if code is None else _SQLITE_REASONS.get(code & 0xFF)
        name = getattr(exc, "sqlite_errorname", type(exc).__name__)
        raise StoreUnavailableError(location, reason or f"SQLite refused it ({name})") from exc
    except OSError as exc:
        raise StoreUnavailableError(location, (exc.strerror or str(exc)).lower()) from exc


def is_postgres_url(location: str | Path) -> bool:
    """Whether a location names a PostgreSQL database (``postgresql://`` or ``postgres://``)."""
    return str(location).startswith(_POSTGRES_SCHEMES)


def redact(location: str | Path) -> str:
    """A location fit for logs and messages: a URL's password replaced by ``***``."""
    text = str(location)
    scheme, sep, rest = text.partition("://")
    if not sep or "@" not in rest:
        return text
    credentials, at, host = rest.rpartition("@")
    user, colon, _password = credentials.partition(":")
    return f"{scheme}://{user}{':***' if colon else ''}{at}{host}"


def _check_path(location: str, path: Path, *, create: bool) -> None:
    if path.is_dir():
        raise StoreUnavailableError(location, "it is a directory, not a database file")
    if path.exists():
        if not os.access(path, os.R_OK):
            raise StoreUnavailableError(location, "the file is not readable (permission denied)")
        return
    if not create:
        raise StoreUnavailableError(location, "no such file")
    parent = path.parent
    if not parent.exists():
        raise StoreUnavailableError(
            location, f"the directory {parent} does not exist; create it or fix the path"
        )
    if not parent.is_dir():
        raise StoreUnavailableError(location, f"{parent} is not a directory")
