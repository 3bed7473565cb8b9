"""Players: an optional identity beside the log, and the seats each player holds.

Two tables, created by each backend's migration :data:`MIGRATION_NAME`
(:mod:`~spies_replay.store.sqlite_schema`, :mod:`~spies_replay.store.postgres_schema`):

- ``players``: ``player_id`` (primary key), ``token_hash`` (sha256 hex of the player token,
  unique: the token itself is never stored), ``display_name`` (or NULL), ``created_at``.
- ``player_seats``: ``(player_id, game_id, seat)`` primary key, ``token_salt`` (what the
  seat's token is derived from with the player's token: useless without that token),
  ``owned_at``; indexed by ``(player_id, owned_at)`` for the player's newest seats first.

The tables are not part of the log: nothing here is hashed, exported or verified, and a
game's seats are still the seat tokens' (``seats``). Deciding who may own what is the
caller's; this module only stores. It reaches the tables through
:class:`~spies_replay.store.keyring.KeyDatabase` (a read and a write transaction, what every
SQL backend has).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from spies_replay.store.keyring import KeyDatabase

__all__ = [
    "MIGRATION_NAME",
    "PLAYERS_SQL",
    "OwnedSeat",
    "PlayerRow",
    "add_player",
    "find_player",
    "own_seat",
    "owned_seats",
]

PLAYERS_SQL: Final = (
    "CREATE TABLE players (player_id TEXT PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE,"
    " display_name TEXT, created_at TEXT NOT NULL)",
    "CREATE TABLE player_seats (player_id TEXT NOT NULL, game_id TEXT NOT NULL,"
    " seat INTEGER NOT NULL, token_salt TEXT NOT NULL, owned_at TEXT NOT NULL,"
    " PRIMARY KEY (player_id, game_id, seat))",
)
"""The tables' DDL, the same in both backends (SQLite adds ``STRICT`` to each table)."""

PLAYERS_INDEX_SQL: Final = (
    "CREATE INDEX player_seats_newest ON player_seats (player_id, owned_at, game_id, seat)"
)
"""The index that lists a player's seats newest first without a sort of all of them."""


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """One player as stored.

    Attributes:
        player_id: its public id.
        display_name: the name it gave, or ``None``.
        created_at: when it was made (RFC 3339 UTC).
    """

    player_id: str
    display_name: str | None
    created_at: str


@dataclass(frozen=True, slots=True)
class OwnedSeat:
    """A seat a player holds.

    Attributes:
        game_id: the game.
        seat: the seat number.
        token_salt: what the seat's token is derived from, with the player's token.
        owned_at: when the player took it (RFC 3339 UTC).
    """

    game_id: str
    seat: int
    token_salt: str
    owned_at: str


def add_player(
    store: KeyDatabase, player_id: str, token_hash: str, display_name: str | None, created_at: str
) -> PlayerRow:
    """Store a new player (its token only as ``token_hash``)."""
    with store._write() as tx:
        tx.execute(
            "INSERT INTO players (player_id, token_hash, display_name, created_at)"
            " VALUES (?, ?, ?, ?)",
            (player_id, token_hash, display_name, created_at),
        )
    return PlayerRow(player_id, display_name, created_at)


def find_player(store: KeyDatabase, token_hash: str) -> PlayerRow | None:
    """The player whose token hashes to ``token_hash``, or ``None`` (an index lookup)."""
    with store._connection() as tx:
        row = tx.execute(
            "SELECT player_id, display_name, created_at FROM players WHERE token_hash = ?",
            (token_hash,),
        ).fetchone()
    return None if row is None else PlayerRow(row[0], row[1], row[2])


def own_seat(
    store: KeyDatabase, player_id: str, game_id: str, seat: int, token_salt: str, owned_at: str
) -> None:
    """Record ``seat`` of ``game_id`` as ``player_id``'s (recorded once: a repeat keeps the
    first record)."""
    with store._write() as tx:
        tx.execute(
            "INSERT INTO player_seats (player_id, game_id, seat, token_salt, owned_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (player_id, game_id, seat, token_salt, owned_at),
        )


def owned_seats(
    store: KeyDatabase, player_id: str, *, limit: int, offset: int
) -> tuple[list[OwnedSeat], int]:
    """A page of ``player_id``'s seats, newest first, and how many it holds in all."""
    with store._connection() as tx:
        total = tx.execute(
            "SELECT COUNT(*) FROM player_seats WHERE player_id = ?", (player_id,)
        ).fetchone()[0]
        rows = tx.execute(
            "SELECT game_id, seat, token_salt, owned_at FROM player_seats WHERE player_id = ?"
            " ORDER BY owned_at DESC, game_id DESC, seat DESC LIMIT ? OFFSET ?",
            (player_id, limit, offset),
        ).fetchall()
    return [OwnedSeat(r[0], r[1], r[2], r[3]) for r in rows], int(total)


MIGRATION_NAME: Final = "m009_players"
"""The migration's name in both backends (numbered after the receipts' ``m006``)."""
