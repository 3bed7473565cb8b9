"""Where a store comes from: :func:`open_store` turns a database location into an open store.

A location is a SQLite file path (``spies.db``). Every reason a location cannot be used (no
such directory, a directory, not a database, unreadable) is one
:class:`~spies_replay.errors.StoreUnavailableError` with a one-line reason, so the console
scripts and the API never match a driver's error text. Another backend is added here, chosen
by the location's form, behind the same function.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from spies_core.decider import GameSpec
from spies_replay.errors import StoreUnavailableError
from spies_replay.store import EventStore

__all__ = ["open_store"]

AnySpec = GameSpec[Any, Any, Any, Any, Any]

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
) -> EventStore:
    """Open the store at ``db``, creating and migrating it when needed.

    Args:
        db: the database location: a SQLite file path.
        create: create the file when it does not exist (its directory must exist); ``False``
            refuses a missing file (tools that only read).
        games: the games the store decodes (default: the registry).
        snapshot_every: see :class:`~spies_replay.store.EventStore`.
        busy_timeout: see :class:`~spies_replay.store.EventStore`.

    Raises:
        StoreUnavailableError: the location cannot be used; the message says why in one line.
    """
    location = str(db)
    if "://" in location:
        raise StoreUnavailableError(
            location, "not a file path; games are stored in a SQLite file such as spies.db"
        )
    path = Path(db)
    _check_path(location, path, create=create)
    try:
        return EventStore(
            path, games=games, snapshot_every=snapshot_every, busy_timeout=busy_timeout
        )
    except sqlite3.DatabaseError as exc:
        code = getattr(exc, "sqlite_errorcode", None)
        reason = None if code is None else _SQLITE_REASONS.get(code & 0xFF)
        name = getattr(exc, "sqlite_errorname", type(exc).__name__)
        raise StoreUnavailableError(location, reason or f"SQLite refused it ({name})") from exc
    except OSError as exc:
        raise StoreUnavailableError(location, (exc.strerror or str(exc)).lower()) from exc


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
