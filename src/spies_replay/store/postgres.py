"""The PostgreSQL backend of the event store: psycopg 3 and a connection pool.

For operators who run several ``spies-api`` processes, on one host or many, over one log.
The SQL and the guarantees are those of :class:`~spies_replay.store.SqlEventStore`; what
differs is how writers meet:

- an append or a seat change selects its game's row ``FOR UPDATE``: writers of one game
  queue on that row lock, each then compares the version (and looks up its idempotency key)
  against what the one before it committed. The ``(game_id, seq)`` primary key backs this:
  an insert over a taken seq fails in the database whatever the caller did;
- triggers abort every UPDATE, DELETE and TRUNCATE of ``events``;
- a write waits at most ``lock_timeout`` seconds for a lock
  (:class:`~spies_replay.errors.StoreBusyError` after that);
- a server that goes away (killed, restarted, unreachable) makes every call raise
  :class:`~spies_replay.errors.StoreUnavailableError` at once (the store waits at most
  :data:`DOWN_WAIT_SECONDS` for a connection while the server is down), and the pool
  reconnects by itself when it is back: the process never needs a restart;
- every append notifies the channel ``spies_events`` with the game id when it commits, so
  that other processes can wake up their streams (the table stays the truth);
- ``synchronous_commit`` is left on: a command is acknowledged once its transaction is
  durable on the server.

Columns hold the same texts as the SQLite file (JSON as text, not ``jsonb``, so the hashed
bytes are the stored bytes), and the seeds and secret deals have their own table. Migrations
are versioned and recorded in ``schema_migrations`` (name, time), applied under an advisory
lock so that one process migrates while the others wait.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar, Final

import psycopg
import structlog
from psycopg import errors as pg_errors
from psycopg_pool import ConnectionPool, PoolTimeout

from spies_core.decider import AnySpec
from spies_replay.errors import ReplayError, StoreBusyError, StoreClosedError, StoreUnavailableError
from spies_replay.store.locations import redact
from spies_replay.store.records import utc_now
from spies_replay.store.schema import APPEND_ONLY_MESSAGE
from spies_replay.store.sql import Cursor, SqlEventStore, Transaction

__all__ = ["DOWN_WAIT_SECONDS", "MIGRATIONS", "NOTIFY_CHANNEL", "PostgresEventStore"]

NOTIFY_CHANNEL: Final = "spies_events"
"""The channel every append notifies with its game id (a wake-up; the table is the truth)."""

_LISTEN_POLL_SECONDS: Final = 0.5  # how often a listening thread checks it should stop
_log = structlog.get_logger("spies_replay.store.postgres")
DOWN_WAIT_SECONDS: Final = 1.0
"""How long a caller waits for a connection while the server is marked down."""
_UNREACHABLE: Final = "the server cannot be reached (lost; retrying)"
_MIGRATION_LOCK: Final = 0x5350_4945_5301  # the advisory lock one migrating process holds

MIGRATIONS: Final[tuple[tuple[str, str], ...]] = (
    (
        "m001_initial",
        f"""
        CREATE TABLE games (
            id TEXT PRIMARY KEY, game TEXT NOT NULL, players INTEGER NOT NULL,
            options TEXT NOT NULL, status TEXT NOT NULL, version BIGINT NOT NULL,
            head_hash TEXT NOT NULL, seed_commitment TEXT NOT NULL, seed_source TEXT NOT NULL,
            rng TEXT NOT NULL, outcome TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL
        );
        CREATE INDEX games_game_status ON games (game, status);
        CREATE INDEX games_created_at_id ON games (created_at, id);
        CREATE TABLE seeds (game_id TEXT PRIMARY KEY, seed TEXT NOT NULL, deal TEXT);
        CREATE TABLE seats (
            game_id TEXT, seat INTEGER, token_hash TEXT NOT NULL, PRIMARY KEY (game_id, seat)
        );
        CREATE TABLE events (
            game_id TEXT, seq BIGINT, type TEXT NOT NULL, payload TEXT NOT NULL,
            recorded_at TEXT NOT NULL, actor INTEGER, command TEXT, hash TEXT NOT NULL,
            bot TEXT, PRIMARY KEY (game_id, seq)
        );
        CREATE FUNCTION spies_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION '{APPEND_ONLY_MESSAGE}' USING ERRCODE = 'restrict_violation';
        END $$;
        CREATE TRIGGER events_no_update BEFORE UPDATE ON events
            FOR EACH ROW EXECUTE FUNCTION spies_events_append_only();
        CREATE TRIGGER events_no_delete BEFORE DELETE ON events
            FOR EACH ROW EXECUTE FUNCTION spies_events_append_only();
        CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
            FOR EACH STATEMENT EXECUTE FUNCTION spies_events_append_only();
        CREATE TABLE idempotency (
            game_id TEXT, key TEXT, request_fingerprint TEXT NOT NULL, response TEXT NOT NULL,
            created_at TEXT NOT NULL, PRIMARY KEY (game_id, key)
        );
        CREATE TABLE snapshots (
            game_id TEXT, seq BIGINT, state TEXT NOT NULL, PRIMARY KEY (game_id, seq)
        );
        CREATE TABLE seat_states (
            game_id TEXT, seat INTEGER, type TEXT NOT NULL, name TEXT, bot TEXT,
            PRIMARY KEY (game_id, seat)
        );
        CREATE TABLE rematches (game_id TEXT PRIMARY KEY, next_id TEXT NOT NULL UNIQUE);
        """,
    ),
    (
        "m002_due_work",
        """
        ALTER TABLE games ADD COLUMN due_at TEXT;
        CREATE INDEX games_due ON games (due_at) WHERE due_at IS NOT NULL;
        UPDATE games SET due_at = updated_at WHERE status = 'active' AND EXISTS
            (SELECT 1 FROM seat_states s WHERE s.game_id = games.id AND s.bot IS NOT NULL);
        """,
    ),
)
"""The versioned migrations, in order: append new ones at the end; never edit an applied one.

``m001_initial`` is the SQLite schema's three migrations in one (a PostgreSQL database
starts at today's schema).
"""

_SQLSTATE_REASONS: Final[dict[str, str]] = {
    "28P01": "the password was refused",
    "28000": "the login was refused (check the user name and the server's pg_hba.conf)",
    "3D000": "the database does not exist (create it first)",
    "42501": "permission denied",
    "53300": "the server has too many connections",
    "57P03": "the server is starting up or shutting down",
}

_placeholders: dict[str, str] = {}


def _pg(sql: str) -> str:
    """The shared SQL with psycopg's ``%s`` placeholders instead of ``?``."""
    found = _placeholders.get(sql)
    if found is None:
        found = _placeholders[sql] = sql.replace("?", "%s")
    return found


class _Tx:
    """A psycopg connection seen through :class:`~spies_replay.store.Transaction`."""

    __slots__ = ("conn",)

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.conn = conn

    def execute(self, sql: str, params: Sequence[Any] = (), /) -> Cursor:
        return self.conn.execute(_pg(sql), params)

    def executemany(self, sql: str, params: Sequence[Sequence[Any]], /) -> None:
        if params:
            with self.conn.cursor() as cursor:
                cursor.executemany(_pg(sql), params)


class PostgresEventStore(SqlEventStore):
    """The replay log in a PostgreSQL database.

    Args:
        url: a ``postgresql://`` URL (libpq's connection URI).
        games: the games this store can decode, by id; default the registry.
        snapshot_every: see :class:`~spies_replay.store.SqlEventStore`.
        lock_timeout: seconds a write waits for another writer's lock, and for a free
            connection of the pool.
        pool_size: the most connections the store keeps open.
        connect_timeout: seconds to wait for the server when connecting.

    Raises:
        StoreUnavailableError: a malformed URL, an unreachable server, a refused login, a
            missing database (one line, the password never shown).
    """

    lock_row: ClassVar[str] = " FOR UPDATE"
    driver_errors: ClassVar[tuple[type[Exception], ...]] = (psycopg.Error, PoolTimeout)
    conflict_errors: ClassVar[tuple[type[Exception], ...]] = (pg_errors.UniqueViolation,)

    def __init__(
        self,
        url: str,
        *,
        games: Mapping[str, AnySpec] | None = None,
        snapshot_every: int = 128,
        lock_timeout: float = 10.0,
        pool_size: int = 8,
        connect_timeout: float = 5.0,
    ) -> None:
        super().__init__(games=games, snapshot_every=snapshot_every)
        self.url = url
        self.location = redact(url)
        self.lock_timeout = lock_timeout
        self._local = threading.local()
        self._closed = False
        self.down = False
        """Whether the server was found unreachable and has not answered since."""
        try:
            psycopg.conninfo.conninfo_to_dict(url)
        except psycopg.ProgrammingError:
            raise StoreUnavailableError(self.location, "not a valid PostgreSQL URL") from None
        try:
            with psycopg.connect(
                url, autocommit=True, connect_timeout=max(1, round(connect_timeout))
            ) as conn:
                self._migrate(conn)
        except psycopg.Error as exc:
            raise StoreUnavailableError(self.location, _reason(exc)) from None
        self.pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
            url,
            min_size=1,
            max_size=max(1, pool_size),
            kwargs={"autocommit": True, "connect_timeout": max(1, round(connect_timeout))},
            timeout=max(lock_timeout, 1.0),
            open=False,
            name="spies-store",
        )
        self.pool.open(wait=True, timeout=max(connect_timeout, 1.0))

    # -- migrations -------------------------------------------------------------------------

    @staticmethod
    def _migrate(conn: psycopg.Connection[Any]) -> None:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations"
                " (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
            )
            applied = {row[0] for row in conn.execute("SELECT name FROM schema_migrations")}
            known = {name for name, _ in MIGRATIONS}
            unknown = applied - known
            if unknown:
                raise ReplayError(
                    f"the database has migrations this spies_replay does not know"
                    f" ({', '.join(sorted(unknown))}); upgrade spies-engine",
                    code="schema-too-new",
                )
            for name, sql in MIGRATIONS:
                if name not in applied:
                    conn.execute(sql.encode())  # several statements, no parameters
                    conn.execute(
                        "INSERT INTO schema_migrations (name, applied_at) VALUES (%s, %s)",
                        (name, utc_now()),
                    )

    def applied_migrations(self) -> list[str]:
        """The names of the migrations recorded in the database, in the order they ran."""
        return [row[0] for row in self._all("SELECT name FROM schema_migrations ORDER BY name")]

    def pending_migrations(self) -> list[str]:
        """The migrations of :data:`MIGRATIONS` the database has not recorded."""
        applied = set(self.applied_migrations())
        return [name for name, _ in MIGRATIONS if name not in applied]

    # -- connections and transactions -------------------------------------------------------

    def close(self) -> None:
        """Close the pool (connections in use close when their call returns). Idempotent."""
        self._closed = True
        self.pool.close()

    @contextmanager
    def _borrowed(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection of the pool, every failure of the server a store error.

        A connection lost, or none to be had from a server that does not answer, is
        :class:`~spies_replay.errors.StoreUnavailableError`, and marks the server down:
        until a connection works again, a caller waits for one at most
        :data:`DOWN_WAIT_SECONDS` rather than the pool's full timeout, so every request
        meanwhile is answered at once. A pool exhausted by a live server, a lock not had in
        time or a deadlock is :class:`~spies_replay.errors.StoreBusyError` (retry).
        """
        if self._closed:
            raise StoreClosedError(self.location)
        down = self.down
        try:
            with self.pool.connection(timeout=DOWN_WAIT_SECONDS if down else None) as conn:
                yield conn
        except PoolTimeout as exc:
            if down or not self._server_answers():
                self.down = True
                raise StoreUnavailableError(self.location, _UNREACHABLE) from exc
            raise StoreBusyError(self.location) from exc
        except (pg_errors.LockNotAvailable, pg_errors.TransactionRollback) as exc:
            raise StoreBusyError(self.location) from exc
        except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
            if self._closed:
                raise StoreClosedError(self.location) from exc
            self.down = True
            raise StoreUnavailableError(self.location, _reason(exc)) from exc
        if down:
            self.down = False
            _log.info("store_reconnected", location=self.location)

    def _server_answers(self) -> bool:
        """Whether a new connection to the server can be made now (after a pool timeout)."""
        try:
            with psycopg.connect(self.url, autocommit=True, connect_timeout=1):
                return True
        except psycopg.Error:
            return False

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

    def watch(self, on_append: Callable[[str], None]) -> Callable[[], None]:
        """Call ``on_append(game_id)`` for every append any process commits (``LISTEN``).

        A daemon thread holds one connection of its own (outside the pool) listening on
        :data:`NOTIFY_CHANNEL`, and reconnects after a failure; a notification missed
        meanwhile only delays a reader until its next poll. Returns the function that stops
        the thread.
        """
        stop = threading.Event()

        def listen() -> None:
            while not stop.is_set():
                try:
                    with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
                        conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                        while not stop.is_set():
                            for note in conn.notifies(timeout=_LISTEN_POLL_SECONDS):
                                on_append(note.payload)
                except psycopg.Error as exc:
                    _log.warning("listen_lost", error=" ".join(str(exc).split()))
                    stop.wait(1.0)

        thread = threading.Thread(target=listen, name="spies-store-listen", daemon=True)
        thread.start()

        def unwatch() -> None:
            stop.set()
            thread.join(timeout=_LISTEN_POLL_SECONDS + 5.0)

        return unwatch

    def _appended(self, conn: Transaction, game_id: str) -> None:
        conn.execute("SELECT pg_notify(?, ?)", (NOTIFY_CHANNEL, game_id))


def _reason(exc: psycopg.Error) -> str:
    """A one-line reason for a failed connection, from its SQLSTATE when it has one."""
    state = getattr(exc, "sqlstate", None)
    if state in _SQLSTATE_REASONS:
        return _SQLSTATE_REASONS[state]
    text = " ".join(str(exc).split())
    if "password" in text and "authentication failed" in text:
        return "the password was refused"
    if "does not exist" in text and "role" in text:
        return "no such user on the server"
    if "does not exist" in text and "database" in text:
        return "the database does not exist (create it first)"
    if "timeout" in text:
        return "the server did not answer in time"
    return "the server cannot be reached (check the host, the port and that it is running)"
