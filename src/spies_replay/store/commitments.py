"""Seed commitments: server seeds committed to before a player's entropy is known, kept in
the database until a game uses them (``POST /commitments``, then ``POST /games`` with its
``commitment_id`` and the creator's entropy).

One table, ``seed_commitments``, created by each backend's migration :data:`MIGRATION_NAME`
(:mod:`~spies_replay.store.sqlite_schema`, :mod:`~spies_replay.store.postgres_schema`):
``commitment_id`` (primary key), ``seed`` (the 32 secret bytes, hex), ``client`` (who asked:
the rate-limit key), ``created_at``, ``expires_at`` (RFC 3339 UTC, compared as text: the
log's times sort as text) and ``used_at`` (NULL until a game uses it). This module only
stores: how long a commitment lives, how many a client may hold and what an unknown, used
or expired one answers are its caller's decisions. Marking one used is a single guarded
``UPDATE``, so two requests racing for one commitment cannot both have it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from spies_replay.store.keyring import KeyDatabase

__all__ = [
    "MIGRATION_NAME",
    "SEED_COMMITMENTS_SQL",
    "CommitmentRow",
    "add_commitment",
    "count_live",
    "drop_expired",
    "read_commitment",
    "use_commitment",
]

SEED_COMMITMENTS_SQL: Final = (
    "CREATE TABLE seed_commitments (commitment_id TEXT PRIMARY KEY, seed TEXT NOT NULL,"
    " client TEXT NOT NULL, created_at TEXT NOT NULL, expires_at TEXT NOT NULL, used_at TEXT)"
)
"""The table's DDL, the same in both backends (each migration runs it)."""

SEED_COMMITMENTS_INDEX: Final = (
    "CREATE INDEX seed_commitments_live ON seed_commitments (used_at, expires_at, client)"
)
"""Counting a client's live commitments, and dropping the expired, without a scan."""

MIGRATION_NAME: Final = "m008_seed_commitments"
"""The migration's name in both backends."""


@dataclass(frozen=True, slots=True)
class CommitmentRow:
    """One commitment as stored.

    Attributes:
        commitment_id: its id.
        seed: the committed server seed (32 bytes).
        client: who asked for it.
        created_at: when it was made.
        expires_at: when it stops being usable.
        used_at: when a game used it (``None``: not yet).
    """

    commitment_id: str
    seed: bytes
    client: str
    created_at: str
    expires_at: str
    used_at: str | None


def add_commitment(store: KeyDatabase, row: CommitmentRow) -> None:
    """Store a new commitment."""
    with store._write() as tx:
        tx.execute(
            "INSERT INTO seed_commitments (commitment_id, seed, client, created_at,"
            " expires_at, used_at) VALUES (?, ?, ?, ?, ?, ?)",
            (
                row.commitment_id,
                row.seed.hex(),
                row.client,
                row.created_at,
                row.expires_at,
                row.used_at,
            ),
        )


def read_commitment(store: KeyDatabase, commitment_id: str) -> CommitmentRow | None:
    """The commitment of that id, or ``None``."""
    with store._connection() as tx:
        found = tx.execute(
            "SELECT commitment_id, seed, client, created_at, expires_at, used_at"
            " FROM seed_commitments WHERE commitment_id = ?",
            (commitment_id,),
        ).fetchone()
    if found is None:
        return None
    return CommitmentRow(found[0], bytes.fromhex(found[1]), found[2], found[3], found[4], found[5])


def use_commitment(store: KeyDatabase, commitment_id: str, now: str) -> bool:
    """Mark an unused, unexpired commitment used at ``now``; ``False`` when it is not one
    (unknown, used, or expired by ``now``)."""
    with store._write() as tx:
        cursor = tx.execute(
            "UPDATE seed_commitments SET used_at = ?"
            " WHERE commitment_id = ? AND used_at IS NULL AND expires_at > ?",
            (now, commitment_id, now),
        )
        return bool(cursor.rowcount == 1)


def count_live(store: KeyDatabase, now: str, client: str | None = None) -> int:
    """How many commitments are unused and unexpired at ``now`` (of ``client``, or all)."""
    sql = "SELECT COUNT(*) FROM seed_commitments WHERE used_at IS NULL AND expires_at > ?"
    params: tuple[str, ...] = (now,)
    if client is not None:
        sql += " AND client = ?"
        params = (now, client)
    with store._connection() as tx:
        found = tx.execute(sql, params).fetchone()
    return int(found[0])


def drop_expired(store: KeyDatabase, before: str) -> int:
    """Delete the commitments that expired before ``before`` (used or not: a used one's
    seed is in its game's secrets); returns how many."""
    with store._write() as tx:
        cursor = tx.execute("DELETE FROM seed_commitments WHERE expires_at <= ?", (before,))
        return int(cursor.rowcount)
