"""How the store's records map to rows and columns, and the inserts, on every backend.

The shared SQL (:mod:`spies_replay.store.sql`) and each backend's append read and write
through these: the columns of a game and an event, a record from its selected row and back,
a new game's inserts, and the inserts of rows and snapshots. Values the store keeps but
never reads (options, an outcome, a snapshot's state) are encoded as compact JSON text by
:func:`encode`.
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from typing import Any, Final, Protocol

import msgspec

from spies_core.decider import Outcome
from spies_replay.errors import GameExistsError, RematchExistsError
from spies_replay.meta import SeatState, SeatType, SeedSource
from spies_replay.store.records import (
    EventRow,
    GameRecord,
    GameSecrets,
    GameStatus,
    IdempotencyRecord,
    NewGame,
    SeatOwner,
)

__all__ = [
    "EVENT_COLUMNS",
    "GAME_COLUMNS",
    "Cursor",
    "Transaction",
    "encode",
    "event_row",
    "game_record",
    "game_secrets",
    "game_values",
    "idempotency_record",
    "OWN_SEAT_SQL",
    "SEATS_SQL",
    "seat_of_token",
    "insert_game",
    "insert_head",
    "insert_owner",
    "insert_rows",
    "insert_snapshots",
    "seat_state",
    "seat_states",
]

_decode_plain: Final = msgspec.json.Decoder().decode
_decode_outcome: Final = msgspec.json.Decoder(Outcome).decode
_encoder: Final = msgspec.json.Encoder()

GAME_COLUMNS: Final = (
    "id, game, players, options, status, version, head_hash, seed_commitment, seed_source,"
    " rng, outcome, created_at, updated_at"
)
"""The columns of a game's row, in the order :func:`game_record` reads them."""
EVENT_COLUMNS: Final = "seq, type, payload, recorded_at, actor, command, hash, bot"
"""The columns of an event row, in the order :func:`event_row` reads them."""


def encode(value: object) -> str:
    """A value the store keeps but never reads (a snapshot's state, an outcome, options) as
    compact JSON text."""
    return _encoder.encode(value).decode()


class Cursor(Protocol):
    """The part of a DB-API cursor the shared SQL uses."""

    @property
    def rowcount(self) -> int: ...
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...


class Transaction(Protocol):
    """A connection inside a transaction, taking ``?`` placeholders."""

    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Cursor: ...
    def executemany(self, sql: str, params: Sequence[Sequence[Any]], /) -> Any: ...


SEATS_SQL: Final = "SELECT seat, token_hash FROM seats WHERE game_id = ? ORDER BY seat"
"""A game's seat token hashes, by seat (what :func:`seat_of_token` compares)."""


def seat_of_token(rows: Sequence[Sequence[Any]], digest: str) -> int | None:
    """The seat of ``rows`` (:data:`SEATS_SQL`'s) whose token hash is ``digest``, or
    ``None``; every hash compared in constant time, with no early exit (the same time for
    every seat)."""
    found: int | None = None
    for seat, stored in rows:
        if hmac.compare_digest(stored, digest):
            found = seat
    return found


def seat_state(row: Sequence[Any]) -> SeatState:
    """A seat's holder from ``(seat, type, name, bot)``."""
    return SeatState(seat=row[0], type=SeatType(row[1]), name=row[2], bot=row[3])


def seat_states(conn: Transaction, game_id: str, players: int | None) -> list[SeatState]:
    """A game's seat holders as kept; a game kept without them (a file written before they
    were): every seat its creator's."""
    rows = conn.execute(
        "SELECT seat, type, name, bot FROM seat_states WHERE game_id = ? ORDER BY seat",
        (game_id,),
    ).fetchall()
    if rows:
        return [seat_state(row) for row in rows]
    if players is None:
        found = conn.execute("SELECT players FROM games WHERE id = ?", (game_id,)).fetchone()
        players = 0 if found is None else found[0]
    return [SeatState(seat=seat) for seat in range(players)]


def game_values(record: GameRecord) -> tuple[object, ...]:
    """A game's row, in the order of :data:`GAME_COLUMNS`."""
    return (
        record.id,
        record.game,
        record.players,
        encode(record.options),
        str(record.status),
        record.version,
        record.head_hash,
        record.seed_commitment,
        str(record.seed_source),
        record.rng,
        None if record.outcome is None else encode(record.outcome),
        record.created_at,
        record.updated_at,
    )


def game_record(row: Sequence[Any]) -> GameRecord:
    """A game's record from the columns :data:`GAME_COLUMNS` selected."""
    return GameRecord(
        id=row[0],
        game=row[1],
        players=row[2],
        options=_decode_plain(row[3]),
        status=GameStatus(row[4]),
        version=row[5],
        head_hash=row[6],
        seed_commitment=row[7],
        seed_source=SeedSource(row[8]),
        rng=row[9],
        outcome=None if row[10] is None else _decode_outcome(row[10]),
        created_at=row[11],
        updated_at=row[12],
    )


def game_secrets(seed: str, deal: str | None) -> GameSecrets:
    """A game's secrets from its ``seeds`` row's ``seed`` (hex) and ``deal`` (JSON or NULL)."""
    return GameSecrets(seed=bytes.fromhex(seed), deal=None if deal is None else _decode_plain(deal))


def idempotency_record(game_id: str, key: str, row: Sequence[Any]) -> IdempotencyRecord:
    """The record of ``(request_fingerprint, response, created_at)`` as selected."""
    return IdempotencyRecord(
        game_id=game_id,
        key=key,
        request_fingerprint=row[0],
        result=row[1].encode(),
        created_at=row[2],
    )


def event_row(row: Sequence[Any]) -> EventRow:
    """The :class:`EventRow` of the columns :data:`EVENT_COLUMNS` selected."""
    return EventRow(
        seq=row[0],
        type=row[1],
        payload=row[2],
        recorded_at=row[3],
        actor=row[4],
        command=row[5],
        hash=row[6],
        bot=row[7],
    )


def insert_rows(conn: Transaction, game_id: str, rows: Sequence[EventRow]) -> None:
    """Insert sealed rows as given (the database refuses a taken seq)."""
    if not rows:
        return
    conn.executemany(
        f"INSERT INTO events (game_id, {EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                game_id,
                r.seq,
                r.type,
                r.payload,
                r.recorded_at,
                r.actor,
                r.command,
                r.hash,
                r.bot,
            )
            for r in rows
        ],
    )


def insert_snapshots(
    conn: Transaction, game_id: str, snapshots: Sequence[tuple[int, object]]
) -> None:
    """Keep folded states (encoded, never read here) as snapshots, replacing any at a seq."""
    if not snapshots:
        return
    conn.executemany(
        "INSERT INTO snapshots (game_id, seq, state) VALUES (?, ?, ?)"
        " ON CONFLICT (game_id, seq) DO UPDATE SET state = excluded.state",
        [(game_id, seq, encode(state)) for seq, state in snapshots],
    )


def insert_head(conn: Transaction, game_id: str, version: int, head: str) -> None:
    """Keep ``head`` as the game's compact head at ``version`` (encoded by the caller, never
    read here; :mod:`spies_replay.store.heads`), replacing the one before, in the caller's
    write transaction."""
    conn.execute(
        "INSERT INTO heads (game_id, version, head) VALUES (?, ?, ?) ON CONFLICT (game_id)"
        " DO UPDATE SET version = excluded.version, head = excluded.head",
        (game_id, version, head),
    )


OWN_SEAT_SQL: Final = (
    "INSERT INTO player_seats (player_id, game_id, seat, token_salt, owned_at)"
    " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
)
"""Records a player's seat (``player_seats``: :mod:`spies_replay.store.players`); once."""


def insert_owner(
    conn: Transaction, game_id: str, seat: int, owner: SeatOwner, owned_at: str
) -> None:
    """Record ``seat`` of ``game_id`` as ``owner``'s in the caller's write transaction (the
    one that gives the seat its token: a creation, an append); a repeat keeps the first."""
    conn.execute(OWN_SEAT_SQL, (owner.player_id, game_id, seat, owner.token_salt, owned_at))


def insert_game(conn: Transaction, game: NewGame) -> None:
    """Write a new game in the caller's write transaction (see
    :meth:`~spies_replay.store.protocols.EventLog.insert_game`).

    Raises:
        GameExistsError: the id is taken.
        RematchExistsError: ``rematch_of`` already has a rematch.
    """
    record, rows, seats, rematch_of = game.record, game.rows, game.seats, game.rematch_of
    seed, deal = game.secrets.seed, game.secrets.deal
    inserted = conn.execute(
        f"INSERT INTO games ({GAME_COLUMNS}) VALUES"
        " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        game_values(record),
    )
    if inserted.rowcount != 1:
        raise GameExistsError(record.id)
    # A cache for an id that was stored before (and removed by hand) must not leak in.
    conn.execute("DELETE FROM snapshots WHERE game_id = ?", (record.id,))
    conn.execute("DELETE FROM seeds WHERE game_id = ?", (record.id,))
    conn.execute(
        "INSERT INTO seeds (game_id, seed, deal) VALUES (?, ?, ?)",
        (record.id, seed.hex(), None if deal is None else encode(deal)),
    )
    conn.executemany(
        "INSERT INTO seats (game_id, seat, token_hash) VALUES (?, ?, ?)",
        [
            (record.id, seat, digest)
            for seat, digest in enumerate(game.token_hashes)
            if digest is not None
        ],
    )
    conn.execute("DELETE FROM seat_states WHERE game_id = ?", (record.id,))
    conn.executemany(
        "INSERT INTO seat_states (game_id, seat, type, name, bot) VALUES (?, ?, ?, ?, ?)",
        [(record.id, s.seat, str(s.type), s.name, s.bot) for s in seats],
    )
    if rematch_of is not None:
        linked = conn.execute(
            "INSERT INTO rematches (game_id, next_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
            (rematch_of, record.id),
        )
        if linked.rowcount != 1:
            found = conn.execute(
                "SELECT next_id FROM rematches WHERE game_id = ?", (rematch_of,)
            ).fetchone()
            raise RematchExistsError(rematch_of, found[0] if found else "?")
    for seat, owner in sorted(game.owners.items()):
        insert_owner(conn, record.id, seat, owner, record.created_at)
    insert_rows(conn, record.id, rows)
    if game.due_at is not None:
        conn.execute("UPDATE games SET due_at = ? WHERE id = ?", (game.due_at, record.id))
    insert_snapshots(conn, record.id, game.snapshots)
    conn.execute("DELETE FROM heads WHERE game_id = ?", (record.id,))
    if game.head is not None:
        insert_head(conn, record.id, record.version, game.head)
    conn.execute("DELETE FROM idempotency WHERE game_id = ?", (record.id,))
    conn.executemany(
        "INSERT INTO idempotency (game_id, key, request_fingerprint, response,"
        " created_at) VALUES (?, ?, ?, ?, ?)",
        [
            (record.id, r.key, r.request_fingerprint, r.result.decode(), r.created_at)
            for r in game.idempotency
        ],
    )
