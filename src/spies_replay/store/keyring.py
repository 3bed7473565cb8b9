"""The server's receipt signing keys, kept in the database beside the log.

One table, ``signing_keys``, created by each backend's migration :data:`MIGRATION_NAME`
(:mod:`~spies_replay.store.sqlite_schema`, :mod:`~spies_replay.store.postgres_schema`):
``key_id`` (primary key), ``private_key`` (the raw 32-byte Ed25519 seed, hex),
``public_key`` (raw 32 bytes, hex), ``created_at``, ``current`` (1 on the key that signs,
NULL on retired ones; unique, so at most one key signs). Keys are never deleted: a retired
key stays listed so that the receipts it signed keep verifying.

Every process on one database reads the same current key, so they all sign alike, and the
key outlives restarts. The first process to find no key creates one; the unique ``current``
column makes two processes starting together agree on the one that won. Deciding when to
rotate is the caller's; this module only stores. It reaches the tables through
:class:`KeyDatabase` (what every SQL backend has), so a store that wraps a backend and
passes those calls through keeps its keys too.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Final, Protocol, runtime_checkable

from spies_replay.store.records import utc_now
from spies_replay.store.sql_rows import Transaction

__all__ = [
    "MIGRATION_NAME",
    "SIGNING_KEYS_SQL",
    "KeyDatabase",
    "KeyRow",
    "add_key",
    "copy_keys",
    "ensure_key",
    "read_keys",
]

SIGNING_KEYS_SQL: Final = (
    "CREATE TABLE signing_keys (key_id TEXT PRIMARY KEY, private_key TEXT NOT NULL,"
    " public_key TEXT NOT NULL, created_at TEXT NOT NULL, current INTEGER UNIQUE)"
)
"""The table's DDL, the same in both backends (each migration runs it)."""


@runtime_checkable
class KeyDatabase(Protocol):
    """A database the keys can be kept in: a read and a write transaction (every
    :class:`~spies_replay.store.sql.SqlEventStore`, and a store that passes them through)."""

    def _connection(self) -> AbstractContextManager[Transaction]: ...

    def _write(self) -> AbstractContextManager[Transaction]: ...


@dataclass(frozen=True, slots=True)
class KeyRow:
    """One signing key as stored.

    Attributes:
        key_id: its id (``spies_replay.receipts.key_id_of`` its public key).
        private_key: the raw 32-byte Ed25519 private key, hex.
        public_key: the raw 32-byte public key, hex.
        created_at: when it was made (RFC 3339 UTC).
        current: whether it is the key that signs now.
    """

    key_id: str
    private_key: str
    public_key: str
    created_at: str
    current: bool


def _rows(tx: Transaction) -> list[KeyRow]:
    found = tx.execute(
        "SELECT key_id, private_key, public_key, created_at, current FROM signing_keys"
        " ORDER BY created_at, key_id"
    ).fetchall()
    return [KeyRow(r[0], r[1], r[2], r[3], r[4] == 1) for r in found]


def read_keys(store: KeyDatabase) -> list[KeyRow]:
    """Every key, oldest first (the current one among them)."""
    with store._connection() as tx:
        return _rows(tx)


def ensure_key(store: KeyDatabase, make: Callable[[], tuple[str, str, str]]) -> KeyRow:
    """The current key, made with ``make`` (``(key_id, private hex, public hex)``) and stored
    when there is none. Two processes racing here end with the same key."""
    current = [row for row in read_keys(store) if row.current]
    if current:
        return current[0]
    key_id, private, public = make()
    with store._write() as tx:
        tx.execute(
            "INSERT INTO signing_keys (key_id, private_key, public_key, created_at, current)"
            " VALUES (?, ?, ?, ?, 1) ON CONFLICT DO NOTHING",
            (key_id, private, public, utc_now()),
        )
    return next(row for row in read_keys(store) if row.current)


def add_key(store: KeyDatabase, key_id: str, private: str, public: str) -> KeyRow:
    """Make a new key the current one; the key before it stays listed, retired."""
    with store._write() as tx:
        tx.execute("UPDATE signing_keys SET current = NULL WHERE current = 1")
        tx.execute(
            "INSERT INTO signing_keys (key_id, private_key, public_key, created_at, current)"
            " VALUES (?, ?, ?, ?, 1)",
            (key_id, private, public, utc_now()),
        )
    return next(row for row in read_keys(store) if row.current)


def copy_keys(source: KeyDatabase, target: KeyDatabase) -> int:
    """Copy the keys of ``source`` that ``target`` lacks (``spies-replay copy``), so that
    the receipts signed over the source keep verifying against the target's ``GET /keys``.
    The source's current key stays current in a target that has none; in a target with a
    key of its own it is listed retired. Returns how many keys were copied."""
    held = read_keys(target)
    known = {row.key_id for row in held}
    has_current = any(row.current for row in held)
    fresh = [row for row in read_keys(source) if row.key_id not in known]
    with target._write() as tx:
        for row in fresh:
            current = 1 if row.current and not has_current else None
            tx.execute(
                "INSERT INTO signing_keys (key_id, private_key, public_key, created_at, current)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (row.key_id, row.private_key, row.public_key, row.created_at, current),
            )
    return len(fresh)


MIGRATION_NAME: Final = "m006_signing_keys"
"""The migration's name in both backends."""
