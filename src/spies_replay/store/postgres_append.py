"""PostgreSQL's append from Python: the function's argument, its answer, and the recorder.

The append itself is the SQL function ``spies_append`` (:mod:`spies_replay.store.postgres_schema`,
the one implementation, which decides the version, the finished game and the idempotency
key); here it is only called. :func:`append_document` writes its argument, one JSON
document, so the driver adapts one text, not a parameter per column and an array per field
of the rows; :func:`append_result` raises what its answer means. Both the store's blocking
:meth:`~spies_replay.store.postgres.PostgresEventStore.append` and :class:`AsyncRecorder`
send one statement per round trip.

:class:`AsyncRecorder` appends on the event loop over psycopg's async connections, from a
pool of its own opened on the running loop at the first append: no worker thread. Appends
that arrive while every connection of its pool is busy wait together and go in the next
round trip as one ``spies_append_many`` statement (at most :data:`MAX_SHARED_APPENDS`):
one transaction, one commit to wait for, each batch in a subtransaction of its own, so one
refused batch leaves the others written.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, Final

import msgspec
import psycopg
import structlog
from psycopg_pool import AsyncConnectionPool

from spies_replay.errors import (
    GameFinishedError,
    GameNotFoundError,
    IdempotencyKeyExistsError,
    ReplayError,
    StoreClosedError,
    VersionConflictError,
)
from spies_replay.store.postgres_errors import malformed, seat_taken, store_error
from spies_replay.store.postgres_server import Server
from spies_replay.store.records import Append, IdempotencyRecord, utc_now
from spies_replay.store.sql_rows import encode

__all__ = [
    "APPEND_MANY_SQL",
    "APPEND_SQL",
    "ASYNC_POOL_SIZE",
    "MAX_SHARED_APPENDS",
    "AsyncRecorder",
    "append_document",
    "append_result",
]

APPEND_SQL: Final = (
    "SELECT 1, result, current_version, fingerprint, response, created_at"
    " FROM spies_append(%s::jsonb)"
)
"""The one statement of an append (its argument: :func:`append_document`)."""
APPEND_MANY_SQL: Final = (
    "SELECT item, result, current_version, fingerprint, response, created_at"
    " FROM spies_append_many(%s::jsonb)"
)
"""Several batches in one statement (a JSON array of documents), each answered by its item."""
MAX_SHARED_APPENDS: Final = 64
"""The most batches one round trip of :class:`AsyncRecorder` carries."""
ASYNC_POOL_SIZE: Final = 2
"""The most connections a process's appends on the event loop hold at once. Appends that
arrive while both are busy wait and go together in the next round trip (one transaction,
one commit): on a busy machine few round trips carrying many appends beat many round trips
of one (``bench/api.py``: 1 or 2 connections gave about 0.48x SQLite's commands/s, 4 gave
0.43x, 12 gave 0.34x, in one hour of runs)."""

_encode_document: Final = msgspec.json.Encoder().encode
_log = structlog.get_logger("spies_replay.store.postgres")


def append_document(batch: Append, *, snapshot_every: int, lock_timeout: float) -> str:
    """The argument of ``spies_append`` for ``batch``: one JSON document. The texts in it
    (payloads, the result, the snapshot) come back out of it exactly as they went in."""
    rows = batch.rows
    reply, seat = batch.reply, batch.seat
    document: dict[str, object] = {
        "game_id": batch.game_id,
        "version": batch.version,
        "head_hash": batch.head_hash,
        "updated_at": rows[-1].recorded_at if rows else utc_now(),
        "rows": rows,
        "new_head_hash": batch.new_head_hash,
        "due_at": batch.due_at,
        "lock_timeout_ms": max(1, int(lock_timeout * 1000)),  # 0 would be "wait forever"
    }
    if reply is not None:
        document["key"] = reply.key
        document["fingerprint"] = reply.fingerprint
        document["response"] = reply.result.decode()
    if batch.outcome is not None:
        document["outcome"] = encode(batch.outcome)
    crossed = batch.version // snapshot_every != batch.new_version // snapshot_every
    if rows and batch.state is not None and crossed:
        document["snapshot"] = encode(batch.state)
    if rows and batch.head is not None:
        document["head"] = batch.head
    if seat is not None:
        document["seat"] = seat.seat
        document["seat_type"] = str(seat.type)
        document["seat_name"] = seat.name
        document["seat_bot"] = seat.bot
        document["token_hash"] = batch.token_hash
        if batch.owner is not None:  # players: recorded with the seat's token
            document["owner_id"] = batch.owner.player_id
            document["owner_salt"] = batch.owner.token_salt
    return _encode_document(document).decode()


def append_result(batch: Append, row: Any) -> None:
    """Raise what the function's answer for ``batch`` (a row of :data:`APPEND_SQL` or
    :data:`APPEND_MANY_SQL`) means; return for an accepted append."""
    result, current = row[1], row[2]
    if result == "ok":
        return
    game_id = batch.game_id
    if result == "not-found":
        raise GameNotFoundError(game_id)
    if result == "key-exists":
        assert batch.reply is not None
        raise IdempotencyKeyExistsError(
            IdempotencyRecord(
                game_id=game_id,
                key=batch.reply.key,
                request_fingerprint=row[3],
                result=row[4].encode(),
                created_at=row[5],
            )
        )
    if result == "conflict":
        raise VersionConflictError(game_id, batch.version, current)
    if result == "seq-taken":  # a writer that ignored the row lock
        raise VersionConflictError(game_id, batch.version, batch.version + 1)
    if result == "finished":
        raise GameFinishedError(f"game {game_id!r} has finished; no event can follow")
    if result == "seat-taken":
        raise seat_taken(batch)
    if result == "malformed":
        raise malformed(batch)
    raise ReplayError(f"spies_append answered {result!r}")  # pragma: no cover


class AsyncRecorder:
    """Appends of one :class:`~spies_replay.store.postgres.PostgresEventStore` on the event
    loop (see the module): errors are the store's, as with its ``append``.

    Args:
        server: the store's server (its URL and timeouts, its down mark).
        snapshot_every: the store's snapshot interval.
        pool_size: the most connections the recorder holds at once.
    """

    def __init__(
        self, server: Server, *, snapshot_every: int, pool_size: int = ASYNC_POOL_SIZE
    ) -> None:
        self.server = server
        self.snapshot_every = snapshot_every
        self.pool_size = max(1, pool_size)
        self._pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._opening: asyncio.Lock | None = None
        self._waiting: list[tuple[Append, str, asyncio.Future[Any]]] = []
        self._senders = 0
        self._tasks: set[asyncio.Task[None]] = set()

    async def _connections(self) -> AsyncConnectionPool[psycopg.AsyncConnection[Any]]:
        loop = asyncio.get_running_loop()
        pool = self._pool
        if pool is not None and self._loop is loop:
            return pool
        if self._opening is None or self._loop is not loop:
            self._opening, self._loop, self._pool = asyncio.Lock(), loop, None
        async with self._opening:
            if self._pool is None:
                server = self.server
                pool = AsyncConnectionPool(
                    server.url,
                    min_size=1,
                    max_size=self.pool_size,
                    kwargs={"autocommit": True, "connect_timeout": server.connect_timeout},
                    timeout=max(server.lock_timeout, 1.0),
                    open=False,
                    name="spies-store-async",
                    configure=self._own_connection,
                )
                await pool.open(wait=True, timeout=max(float(server.connect_timeout), 1.0))
                self._pool = pool
            return self._pool

    async def _own_connection(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self.server.own_pids.add(conn.info.backend_pid)

    async def append(self, batch: Append) -> None:
        """Append ``batch`` in one round trip, shared with the appends waiting with it."""
        server = self.server
        document = append_document(
            batch, snapshot_every=self.snapshot_every, lock_timeout=server.lock_timeout
        )
        if server.closed:
            raise StoreClosedError(server.location)
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Any] = loop.create_future()
        self._waiting.append((batch, document, answer))
        if self._senders < self.pool_size:
            self._senders += 1
            task = loop.create_task(self._send())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        append_result(batch, await answer)

    async def _send(self) -> None:
        """Send what waits, in turns, until nothing does."""
        try:
            while self._waiting:
                taken = self._waiting[:MAX_SHARED_APPENDS]
                del self._waiting[:MAX_SHARED_APPENDS]
                try:
                    rows = await self._execute([document for _, document, _ in taken])
                except BaseException as exc:
                    for batch, _, answer in taken:
                        if not answer.done():
                            answer.set_exception(self._error(batch, exc, len(taken)))
                    if not isinstance(exc, Exception):
                        raise
                    continue
                for row in rows:
                    _, _, answer = taken[row[0] - 1]
                    if not answer.done():
                        answer.set_result(row)
                for _batch, _, answer in taken:  # pragma: no cover (one row per batch)
                    if not answer.done():
                        answer.set_exception(ReplayError("spies_append_many left a batch out"))
        finally:
            self._senders -= 1

    async def _execute(self, documents: list[str]) -> list[Any]:
        pool = await self._connections()
        server = self.server
        async with pool.connection(timeout=server.down_wait) as conn:
            if len(documents) == 1:
                cursor = await conn.execute(APPEND_SQL, (documents[0],))
            else:
                cursor = await conn.execute(APPEND_MANY_SQL, ("[" + ",".join(documents) + "]",))
            rows = await cursor.fetchall()
        server.reached()
        return rows

    async def fetch(self, sql: str, params: Sequence[Any]) -> list[Any]:
        """The rows of one read (``%s`` placeholders) on a connection of the pool, on the
        loop; a driver's error raised as the store's (as its blocking reads raise it)."""
        server = self.server
        if server.closed:
            raise StoreClosedError(server.location)
        try:
            pool = await self._connections()
            async with pool.connection(timeout=server.down_wait) as conn:
                cursor = await conn.execute(sql, params)
                rows = await cursor.fetchall()
        except Exception as exc:
            error = store_error(server, exc, answers=lambda: self._pool is not None)
            if error is None:
                raise
            raise error from exc
        server.reached()
        return rows

    def _error(self, batch: Append, exc: BaseException, shared: int) -> BaseException:
        """The store's error for a round trip that failed as a whole (a batch's own refusal
        only when it went alone: several went through ``spies_append_many``, which answers
        each batch's)."""
        error = store_error(
            self.server,
            exc,
            batch=batch if shared == 1 else None,
            answers=lambda: self._pool is not None,  # no pool ever opened: no server
        )
        return exc if error is None else error

    async def close(self) -> None:
        """Close the pool (if it was opened). Idempotent."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()
