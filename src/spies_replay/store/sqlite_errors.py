"""SQLite's errors as the store's: the one place the SQLite backend reads ``sqlite3`` errors.

:func:`store_error` is called wherever a call of :class:`~spies_replay.store.sqlite.
SQLiteEventStore` meets a ``sqlite3`` error (its connections, its transactions, its opening)
and reads only the error's class and SQLite's result code (``sqlite_errorcode``), never its
text.
"""

from __future__ import annotations

import sqlite3
from typing import Final

from spies_replay.errors import (
    StoreBusyError,
    StoreFullError,
    StoreUnavailableError,
    VersionConflictError,
)
from spies_replay.store.records import Append

__all__ = ["store_error"]

_REASONS: Final[dict[int, str]] = {
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
"""A one-line reason for each primary result code that makes a file unusable."""

_BUSY: Final = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})
_UNAVAILABLE: Final = frozenset({sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN})


def store_error(
    location: str,
    exc: sqlite3.Error | OSError,
    *,
    batch: Append | None = None,
    opening: bool = False,
) -> Exception | None:
    """The store's error for a ``sqlite3`` error, or ``None`` to let it through (a bug).

    - busy or locked past the busy timeout: :class:`StoreBusyError`;
    - the disk (or ``PRAGMA max_page_count``) full: :class:`StoreFullError`;
    - an input/output error, a file that cannot be opened, and, while ``opening``, any
      database error or ``OSError``: :class:`StoreUnavailableError` with a one-line reason;
    - a constraint refused while appending ``batch`` (a writer that ignored the write lock
      took a seq): :class:`VersionConflictError`.
    """
    if isinstance(exc, OSError):
        return StoreUnavailableError(location, (exc.strerror or str(exc)).lower())
    code = getattr(exc, "sqlite_errorcode", None)
    primary = None if code is None else code & 0xFF
    if batch is not None and isinstance(exc, sqlite3.IntegrityError):
        return VersionConflictError(batch.game_id, batch.version, batch.version + 1)
    if primary in _BUSY:
        return StoreBusyError(location)
    if primary == sqlite3.SQLITE_FULL:
        return StoreFullError(location)
    if primary in _UNAVAILABLE:
        return StoreUnavailableError(location, _REASONS[primary])
    if opening and isinstance(exc, sqlite3.DatabaseError):
        name = getattr(exc, "sqlite_errorname", type(exc).__name__)
        reason = None if primary is None else _REASONS.get(primary)
        return StoreUnavailableError(location, reason or f"SQLite refused it ({name})")
    return None
