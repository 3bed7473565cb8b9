"""The PostgreSQL backend of the event store: psycopg 3 and a connection pool.

For operators who run several ``spies-api`` processes, on one host or many, over one log.
The shared SQL and its guarantees are :class:`~spies_replay.store.sql.SqlEventStore`'s; what
differs is how writers meet:

- an append is one statement, one round trip: the SQL function ``spies_append``
  (:mod:`spies_replay.store.postgres_schema`), the backend's only append, which takes the
  game's row ``FOR UPDATE`` (writers of one game queue on that row lock) and decides the
  version, the finished game and the idempotency key there;
  :mod:`spies_replay.store.postgres_append` writes its argument and reads its answer, and
  appends on the event loop through its :class:`~spies_replay.store.postgres_append.
  AsyncRecorder`;
- a write waits at most ``lock_timeout`` seconds for a lock
  (:class:`~spies_replay.errors.StoreBusyError` after that);
- a server that goes away (killed, restarted, unreachable) makes every call raise
  :class:`~spies_replay.errors.StoreUnavailableError` at once (the store waits at most
  :data:`~spies_replay.store.postgres_server.DOWN_WAIT_SECONDS` for a connection while the
  server is down: :mod:`spies_replay.store.postgres_server`), and the pool reconnects by
  itself when it is back: the process never needs a restart; every driver error is
  translated in one place, :mod:`spies_replay.store.postgres_errors`;
- every append notifies the channel ``spies_events`` when it commits, with the game's id,
  version, head hash and due mark after it, so that other processes can wake up their
  streams and keep their caches and schedulers in step without a query (the table stays the
  truth);
- ``synchronous_commit`` is left on: a command is acknowledged once its transaction is
  durable on the server.

Migrations (:mod:`spies_replay.store.migrations`) run under an advisory lock, so that one
process migrates while the others wait.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar, Final

import psycopg
import structlog
from psycopg_pool import ConnectionPool, PoolTimeout

from spies_replay.errors import StoreClosedError, StoreUnavailableError
from spies_replay.store.migrations import applied_migrations, migrate, pending_migrations
from spies_replay.store.postgres_append import (
    APPEND_SQL,
    AsyncRecorder,
    append_document,
    append_result,
)
from spies_replay.store.postgres_errors import reason, store_error
from spies_replay.store.postgres_listen import LoopListener, listen_on_thread
from spies_replay.store.postgres_reads import AsyncReads
from spies_replay.store.postgres_schema import MIGRATIONS
from spies_replay.store.postgres_server import Server
from spies_replay.store.protocols import EventStore, LoopReads, Recorder
from spies_replay.store.recorders import ThreadRecorder
from spies_replay.store.records import SNAPSHOT_EVERY, Append, BackendName, Heard, Unheard
from spies_replay.store.sql import SqlEventStore
from spies_replay.store.sql_rows import Cursor, Transaction

__all__ = ["PostgresEventStore"]

_log = structlog.get_logger("spies_replay.store.postgres")
_MIGRATION_LOCK: Final = 0x5350_4945_5301  # the advisory lock one migrating process holds

_placeholders: dict[str, str] = {}


def _pg(sql: str) -> str:
    """The shared SQL with psycopg's ``%s`` placeholders instead of ``?``."""
    found = _placeholders.get(sql)
    if found is None:
        found = _placeholders[sql] = sql.replace("?", "%s")
    return found


class _Tx:
    """A psycopg connection seen through :class:`~spies_replay.store.sql_rows.Transaction`:
    ``?`` placeholders; a statement without parameters is sent as it is."""

    __slots__ = ("conn",)

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.conn = conn

    def execute(self, sql: str, params: Sequence[Any] = (), /) -> Cursor:
        if not params:
            return self.conn.execute(sql.encode())
        return self.conn.execute(_pg(sql), params)

    def executemany(self, sql: str, params: Sequence[Sequence[Any]], /) -> None:
        if params:
            with self.conn.cursor() as cursor:
                cursor.executemany(_pg(sql), params)


class PostgresEventStore(SqlEventStore):
    """The replay log in a PostgreSQL database.

    Args:
        url: a ``postgresql://`` URL (libpq's connection URI).
        snapshot_every: see :class:`~spies_replay.store.sql.SqlEventStore`.
        lock_timeout: seconds a write waits for another writer's lock, and for a free
            connection of the pool.
        pool_size: the most connections the store keeps open.
        connect_timeout: seconds to wait for the server when connecting.

    Raises:
        StoreUnavailableError: a malformed URL, an unreachable server, a refused login, a
            missing database (one line, the password never shown).
    """

    driver_errors: ClassVar[tuple[type[Exception], ...]] = (psycopg.Error, PoolTimeout)
    backend: BackendName = "postgresql"

    def __init__(
        self,
        url: str,
        *,
        snapshot_every: int = SNAPSHOT_EVERY,
        lock_timeout: float = 10.0,
        pool_size: int = 8,
        connect_timeout: float = 5.0,
    ) -> None:
        super().__init__(snapshot_every=snapshot_every)
        self.server = Server(url, lock_timeout=lock_timeout, connect_timeout=connect_timeout)
        """Where the server is, and whether it answers (shared with the recorders)."""
        self.url = url
        self.location = self.server.location
        self.lock_timeout = lock_timeout
        self.pool_size = max(1, pool_size)
        self._local = threading.local()
        connect = self.server.connect_timeout
        try:
            psycopg.conninfo.conninfo_to_dict(url)
        except psycopg.ProgrammingError:
            raise StoreUnavailableError(self.location, "not a valid PostgreSQL URL") from None
        try:
            with psycopg.connect(url, autocommit=True, connect_timeout=connect) as conn:
                self._migrate(conn)
        except psycopg.Error as exc:
            raise StoreUnavailableError(self.location, reason(exc)) from None
        self.pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
            url,
            min_size=1,
            max_size=self.pool_size,
            kwargs={"autocommit": True, "connect_timeout": connect},
            timeout=max(lock_timeout, 1.0),
            open=False,
            name="spies-store",
            configure=self._own_connection,
        )
        self.pool.open(wait=True, timeout=max(connect_timeout, 1.0))

    # -- migrations -------------------------------------------------------------------------

    @staticmethod
    def _migrate(conn: psycopg.Connection[Any]) -> None:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            migrate(_Tx(conn), MIGRATIONS)

    def _own_connection(self, conn: psycopg.Connection[Any]) -> None:
        self.server.own_pids.add(conn.info.backend_pid)

    def applied_migrations(self) -> list[str]:
        """The names of the migrations recorded in the database, in the order they ran."""
        with self._connection() as conn:
            return applied_migrations(conn)

    def pending_migrations(self) -> list[str]:
        """The migrations of :mod:`spies_replay.store.postgres_schema` the database has not
        recorded."""
        return pending_migrations(self.applied_migrations(), MIGRATIONS)

    # -- connections and transactions -------------------------------------------------------

    def close(self) -> None:
        """Close the pool (connections in use close when their call returns). Idempotent."""
        self.server.closed = True
        self.pool.close()

    @contextmanager
    def _borrowed(self, batch: Append | None = None) -> Iterator[psycopg.Connection[Any]]:
        """A connection of the pool, every failure of the server a store error
        (:func:`~spies_replay.store.postgres_errors.store_error`; ``batch``: the one being
        appended). While the server is marked down a caller waits for a connection at most
        :data:`~spies_replay.store.postgres_server.DOWN_WAIT_SECONDS`, so every request
        meanwhile is answered at once."""
        server = self.server
        if server.closed:
            raise StoreClosedError(self.location)
        try:
            with self.pool.connection(timeout=server.down_wait) as conn:
                yield conn
        except (psycopg.Error, PoolTimeout) as exc:
            error = store_error(server, exc, batch=batch, answers=server.answers)
            if error is None:
                raise
            raise error from exc
        server.reached()

    @contextmanager
    def _pinned(self, tx: _Tx) -> Iterator[_Tx]:
        outer: _Tx | None = getattr(self._local, "tx", None)
        self._local.tx = tx
        try:
            yield tx
        finally:
            self._local.tx = outer

    @contextmanager
    def _connection(self) -> Iterator[Transaction]:
        current: _Tx | None = getattr(self._local, "tx", None)
        if current is not None:
            yield current
            return
        with self._borrowed() as conn:
            yield _Tx(conn)

    @contextmanager
    def _write(self) -> Iterator[Transaction]:
        with self._borrowed() as conn, conn.transaction():
            # 0 would mean "wait forever" to PostgreSQL: the shortest wait is 1 ms
            conn.execute(f"SET LOCAL lock_timeout = {max(1, int(self.lock_timeout * 1000))}")
            with self._pinned(_Tx(conn)) as tx:
                yield tx

    @contextmanager
    def reading(self) -> Iterator[Any]:
        """A read transaction: every query inside sees one consistent snapshot."""
        current: _Tx | None = getattr(self._local, "tx", None)
        if current is not None:
            yield current
            return
        with self._borrowed() as conn, conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            with self._pinned(_Tx(conn)) as tx:
                yield tx

    def watch(self, on_append: Heard, on_gap: Unheard | None = None) -> Callable[[], None]:
        """Call ``on_append`` for every append another process (or another store of this
        database) commits (``LISTEN``), with what its notice tells (:func:`~spies_replay.
        store.postgres_listen.heard`), from a thread of its own (:func:`~spies_replay.store.
        postgres_listen.listen_on_thread`); this store's own appends are left out; and
        ``on_gap`` each time it starts listening (appends before may have gone unheard).
        Returns the function that stops the thread. :meth:`loop_watch` does the same on an
        event loop."""
        return listen_on_thread(self.server, on_append, on_gap)

    def loop_watch(self, on_append: Heard, on_gap: Unheard | None = None) -> LoopListener:
        """What :meth:`watch` does, read on the event loop that runs the listener's
        :meth:`~spies_replay.store.postgres_listen.LoopListener.start` (no thread)."""
        return LoopListener(self.server, on_append, on_gap)

    # -- appends: one statement, one round trip ---------------------------------------------

    def append(self, batch: Append) -> None:
        """Append one batch in one statement, ``spies_append``, on a connection of the pool
        (see :meth:`~spies_replay.store.protocols.EventLog.append` for what it decides and
        raises)."""
        document = append_document(
            batch, snapshot_every=self.snapshot_every, lock_timeout=self.lock_timeout
        )
        with self._borrowed(batch) as conn:
            row = conn.execute(APPEND_SQL, (document,)).fetchone()
        append_result(batch, row)

    def loop_reader(self) -> EventStore | None:
        """``None``: a read here is a blocking round trip (worker threads); see
        :meth:`~spies_replay.store.protocols.EventStore.loop_reader`."""
        return None

    def loop_reads(self, recorder: Recorder) -> LoopReads | None:
        """A cache miss's reads on the loop over ``recorder``'s pool when it is this
        store's :class:`~spies_replay.store.postgres_append.AsyncRecorder` (see
        :mod:`~spies_replay.store.postgres_reads`), else ``None``."""
        return AsyncReads(recorder) if isinstance(recorder, AsyncRecorder) else None

    def recorder(self, *, on_loop: bool = True) -> Recorder:
        """Appends for an event loop: awaited on the loop, one statement each over an async
        pool of their own (:class:`~spies_replay.store.postgres_append.AsyncRecorder`), or,
        ``on_loop=False``, each on a worker thread."""
        if not on_loop:
            return ThreadRecorder(self)
        return AsyncRecorder(self.server, snapshot_every=self.snapshot_every)
