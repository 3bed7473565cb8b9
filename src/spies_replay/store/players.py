"""Players: an optional identity beside the log, and the seats each player holds.

Two tables, created by each backend's migration :data:`MIGRATION_NAME`
(:mod:`~spies_replay.store.sqlite_schema`, :mod:`~spies_replay.store.postgres_schema`):

- ``players``: ``player_id`` (primary key), ``token_hash`` (sha256 hex of the player token,
  unique: the token itself is never stored), ``display_name`` (or NULL), ``created_at``.
- ``player_seats``: ``(player_id, game_id, seat)`` primary key, ``token_salt`` (what the
  seat's token is derived from with the player's token: useless without that token),
  ``owned_at``; indexed by ``(player_id, owned_at)`` for the player's newest seats first.

The tables are not part of the log: nothing here is hashed, exported or verified (an export
never holds them: player tokens are secrets, and so is who holds which seat), and a game's
seats are still the seat tokens' (``seats``). Deciding who may own what is the caller's;
this module only stores. It reaches the tables through
:class:`~spies_replay.store.keyring.KeyDatabase` (a read and a write transaction, what every
SQL backend has).

A seat a player takes is recorded in the very transaction that gives the seat its token:
:func:`~spies_replay.store.sql_rows.insert_owner` runs inside the creation
(:attr:`~spies_replay.store.records.NewGame.owners`) and inside the append of the join or
the claimed rematch seat (:attr:`~spies_replay.store.records.Append.owner`; on PostgreSQL in
``spies_append``, which :data:`OWNERS_MIGRATION` replaces), so a seat is never taken without
its owner recorded nor the other way round. The migration :data:`OWNERS_MIGRATION` also
indexes ``player_seats`` by game and seat (who owns a seat of a finished game, for its
rematch). ``spies-replay copy`` carries both tables with the games (:func:`copy_players`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Final

from spies_replay.store.keyring import KeyDatabase
from spies_replay.store.records import SeatOwner
from spies_replay.store.sql_rows import OWN_SEAT_SQL, insert_owner

__all__ = [
    "MIGRATION_NAME",
    "OWNERS_INDEX_SQL",
    "OWNERS_MIGRATION",
    "PLAYERS_SQL",
    "CopiedPlayers",
    "OwnedSeat",
    "PlayerRow",
    "add_player",
    "copy_players",
    "find_player",
    "own_seat",
    "owned_seats",
    "seat_owner",
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

OWNERS_INDEX_SQL: Final = "CREATE INDEX player_seats_game ON player_seats (game_id, seat)"
"""The index that finds who owns a seat of a game (:func:`seat_owner`), in migration
:data:`OWNERS_MIGRATION`."""


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
    """Record ``seat`` of ``game_id`` as ``player_id``'s, in a transaction of its own (tools
    and tests; the server records a seat with its token: :func:`insert_owner`)."""
    with store._write() as tx:
        insert_owner(tx, game_id, seat, SeatOwner(player_id, token_salt), owned_at)


def seat_owner(store: KeyDatabase, game_id: str, seat: int) -> SeatOwner | None:
    """The player who owns ``seat`` of ``game_id``, or ``None`` (the first recorded, should
    there be several)."""
    with store._connection() as tx:
        row = tx.execute(
            "SELECT player_id, token_salt FROM player_seats WHERE game_id = ? AND seat = ?"
            " ORDER BY owned_at, player_id LIMIT 1",
            (game_id, seat),
        ).fetchone()
    return None if row is None else SeatOwner(row[0], row[1])


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


@dataclass(frozen=True, slots=True)
class CopiedPlayers:
    """What :func:`copy_players` wrote.

    Attributes:
        players: players the target lacked.
        seats: owned seats the target lacked.
    """

    players: int
    seats: int


def copy_players(
    source: KeyDatabase, target: KeyDatabase, game_ids: Collection[str]
) -> CopiedPlayers:
    """Copy the players of ``source`` that ``target`` lacks, and their seats of
    ``game_ids`` (the games the copy holds: copied, or there already with the same head),
    rows as stored: token hashes and salts, never a token. A player or a seat already in
    the target is left as it is, so an interrupted copy can be run again. One read
    transaction of the source, one write transaction of the target."""
    with source._connection() as tx:
        players = tx.execute(
            "SELECT player_id, token_hash, display_name, created_at FROM players"
            " ORDER BY created_at, player_id"
        ).fetchall()
        seats = tx.execute(
            "SELECT player_id, game_id, seat, token_salt, owned_at FROM player_seats"
            " ORDER BY owned_at, player_id, game_id, seat"
        ).fetchall()
    wanted = set(game_ids)
    copied = CopiedPlayers(0, 0)
    with target._write() as tx:
        for row in players:
            added = tx.execute(
                "INSERT INTO players (player_id, token_hash, display_name, created_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                tuple(row),
            )
            copied = CopiedPlayers(copied.players + added.rowcount, copied.seats)
        for row in seats:
            if row[1] in wanted:
                added = tx.execute(OWN_SEAT_SQL, tuple(row))
                copied = CopiedPlayers(copied.players, copied.seats + added.rowcount)
    return copied


MIGRATION_NAME: Final = "m009_players"
"""The migration's name in both backends (numbered after the receipts' ``m006``)."""
OWNERS_MIGRATION: Final = "m010_seat_owners"
"""The migration that indexes ``player_seats`` by game and seat, in both backends, and on
PostgreSQL makes ``spies_append`` record a batch's seat owner."""
