"""SQLite's append, its one implementation, and the recorder the API appends through.

:func:`append_batch` is the append in Python SQL, inside the write transaction
:class:`~spies_replay.store.sqlite.SQLiteEventStore` holds (``BEGIN IMMEDIATE``: the
database's write lock, so writers of every game, thread and process take turns). In it, and
nowhere else for SQLite, the store decides its three rules: the idempotency key first (so
that a retry racing its own first attempt gets that attempt's result, not a conflict), then
the version and head hash, then the finished game; a seat's new token and, for a player's
seat, its owner, and the game's compact head after the batch are written in the same
transaction.

:class:`SQLiteRecorder` runs appends for an event loop: on the loop itself, on a second
connection to the file with no busy timeout (a database locked by another writer raises at
once, having written nothing: no thread hop and no hand-over of the GIL at each SQLite call
when nothing waits), and, when that finds the file locked, again on a worker thread that
waits as long as the store's busy timeout allows.
"""

from __future__ import annotations

import anyio

from spies_replay.errors import (
    GameFinishedError,
    GameNotFoundError,
    IdempotencyKeyExistsError,
    SeatTakenError,
    StoreBusyError,
    VersionConflictError,
)
from spies_replay.meta import SeatState
from spies_replay.store.protocols import EventLog
from spies_replay.store.records import Append, GameStatus, Reply, utc_now
from spies_replay.store.sql_rows import (
    Transaction,
    encode,
    idempotency_record,
    insert_head,
    insert_owner,
    insert_rows,
    insert_snapshots,
)

__all__ = ["SQLiteRecorder", "append_batch", "check_seqs"]


def check_seqs(batch: Append) -> None:
    """Refuse rows that do not follow the batch's version one by one (a caller's bug, not a
    conflict): ``ValueError``."""
    for index, row in enumerate(batch.rows):
        if row.seq != batch.version + 1 + index:
            raise ValueError(
                f"the rows of a batch of game {batch.game_id!r} must follow version"
                f" {batch.version} one by one (row {index} has seq {row.seq})"
            )


def append_batch(conn: Transaction, batch: Append, *, snapshot_every: int) -> None:
    """Append ``batch`` in the caller's write transaction (see
    :meth:`~spies_replay.store.protocols.EventLog.append`); the caller rolls back on error.

    Raises:
        ValueError: the rows do not follow ``batch.version`` one by one.
        GameNotFoundError: no such game.
        IdempotencyKeyExistsError: ``batch.reply``'s key was used before (its record
            attached).
        VersionConflictError: the game is not at ``batch.version`` and ``batch.head_hash``.
        GameFinishedError: the game has finished and the batch has rows.
        SeatTakenError: ``batch.seat`` has a token already and the batch gives another.
    """
    check_seqs(batch)
    game_id, version, rows = batch.game_id, batch.version, batch.rows
    found = conn.execute(
        "SELECT version, head_hash, status FROM games WHERE id = ?", (game_id,)
    ).fetchone()
    if found is None:
        raise GameNotFoundError(game_id)
    current, head_hash, status = found
    updated_at = rows[-1].recorded_at if rows else utc_now()
    if batch.reply is not None:
        _insert_reply(conn, game_id, batch.reply, updated_at)
    if current != version or head_hash != batch.head_hash:
        raise VersionConflictError(game_id, version, current)
    if status == GameStatus.FINISHED and rows:
        raise GameFinishedError(f"game {game_id!r} has finished; no event can follow")
    if batch.seat is not None:
        _update_seat(conn, game_id, batch.seat, batch.token_hash)
        if batch.owner is not None:  # players: the seat's owner with its token
            insert_owner(conn, game_id, batch.seat.seat, batch.owner, updated_at)
    if not rows:
        return
    insert_rows(conn, game_id, rows)  # a taken seq: the driver's error, translated above
    new_version = batch.new_version
    if batch.outcome is not None:
        conn.execute(
            "UPDATE games SET version = ?, head_hash = ?, updated_at = ?, status = ?,"
            " outcome = ?, due_at = NULL WHERE id = ?",
            (
                new_version,
                batch.new_head_hash,
                updated_at,
                GameStatus.FINISHED,
                encode(batch.outcome),
                game_id,
            ),
        )
    else:
        conn.execute(
            "UPDATE games SET version = ?, head_hash = ?, updated_at = ?, due_at = ? WHERE id = ?",
            (new_version, batch.new_head_hash, updated_at, batch.due_at, game_id),
        )
    if batch.state is not None and version // snapshot_every != new_version // snapshot_every:
        insert_snapshots(conn, game_id, [(new_version, batch.state)])
    if batch.head is not None:
        insert_head(conn, game_id, new_version, batch.head)


def _insert_reply(conn: Transaction, game_id: str, reply: Reply, created_at: str) -> None:
    inserted = conn.execute(
        "INSERT INTO idempotency (game_id, key, request_fingerprint, response,"
        " created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        (game_id, reply.key, reply.fingerprint, reply.result.decode(), created_at),
    )
    if inserted.rowcount != 1:
        row = conn.execute(
            "SELECT request_fingerprint, response, created_at FROM idempotency"
            " WHERE game_id = ? AND key = ?",
            (game_id, reply.key),
        ).fetchone()
        raise IdempotencyKeyExistsError(idempotency_record(game_id, reply.key, row))


def _update_seat(conn: Transaction, game_id: str, seat: SeatState, token_hash: str | None) -> None:
    if token_hash is not None:
        held = conn.execute(
            "INSERT INTO seats (game_id, seat, token_hash) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            (game_id, seat.seat, token_hash),
        )
        if held.rowcount != 1:
            raise SeatTakenError(f"seat {seat.seat} of game {game_id!r} is taken")
    conn.execute(
        "INSERT INTO seat_states (game_id, seat, type, name, bot) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (game_id, seat) DO UPDATE SET type = excluded.type,"
        " name = excluded.name, bot = excluded.bot",
        (game_id, seat.seat, str(seat.type), seat.name, seat.bot),
    )


class SQLiteRecorder:
    """Appends tried on the event loop, on a twin of the store with no busy timeout, and run
    again on a worker thread (the store, which waits) when another writer holds the file.

    Args:
        twin: the store's twin on the same file with no busy timeout (the event loop's).
        store: the store (worker threads; its busy timeout applies).
    """

    def __init__(self, twin: EventLog, store: EventLog) -> None:
        self.twin = twin
        self.store = store

    async def append(self, batch: Append) -> None:
        """Append ``batch`` (see :meth:`~spies_replay.store.protocols.EventLog.append`)."""
        try:
            self.twin.append(batch)
        except StoreBusyError:
            pass  # another writer holds the database: wait for it on a thread
        else:
            return
        await anyio.to_thread.run_sync(self.store.append, batch)

    async def close(self) -> None:
        """Nothing to close: the twin closes with the store."""
