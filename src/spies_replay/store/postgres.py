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

import asyncio
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar, Final

import msgspec
import psycopg
import structlog
from psycopg import errors as pg_errors
from psycopg_pool import AsyncConnectionPool, ConnectionPool, PoolTimeout

from spies_core.decider import AnySpec
from spies_replay.codec import encode
from spies_replay.errors import (
    GameFinishedError,
    GameNotFoundError,
    IdempotencyKeyExistsError,
    ReplayError,
    SeatTakenError,
    StoreBusyError,
    StoreClosedError,
    StoreUnavailableError,
    VersionConflictError,
)
from spies_replay.store.keyring import MIGRATION_NAME, SIGNING_KEYS_SQL  # receipts
from spies_replay.store.locations import redact
from spies_replay.store.records import Append, IdempotencyRecord, utc_now
from spies_replay.store.schema import APPEND_ONLY_MESSAGE
from spies_replay.store.sql import Cursor, SqlEventStore, Transaction, check_batch

__all__ = [
    "APPEND_SQL",
    "DOWN_WAIT_SECONDS",
    "MIGRATIONS",
    "NOTIFY_CHANNEL",
    "AsyncAppends",
    "PostgresEventStore",
]

NOTIFY_CHANNEL: Final = "spies_events"
"""The channel every append notifies with its game id (a wake-up; the table is the truth)."""
_SEAT_TAKEN: Final = "SPS01"  # the SQLSTATE spies_append raises for a seat token already held
_SEAT_TAKEN_MESSAGE: Final = "seat taken"

ASYNC_POOL_SIZE: Final = 2
"""The most connections a process's appends on the event loop hold at once. Appends that
arrive while both are busy wait and go together in the next round trip (one transaction,
one commit): on a busy machine few round trips carrying many appends beat many round trips
of one (``bench/api.py``: 1 or 2 connections gave about 0.48x SQLite's commands/s, 4 gave
0.43x, 12 gave 0.34x, in one hour of runs)."""
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
    (
        "m003_append_function",
        f"""
        CREATE FUNCTION spies_append(p_batch jsonb) RETURNS TABLE (
            result TEXT, current_version BIGINT, fingerprint TEXT, response TEXT,
            created_at TEXT
        ) LANGUAGE plpgsql AS $$
        DECLARE
            v_game TEXT := p_batch->>'game_id';
            v_expected BIGINT := (p_batch->>'version')::bigint;
            v_key TEXT := p_batch->>'key';
            v_updated TEXT := p_batch->>'updated_at';
            v_seat INTEGER := (p_batch->>'seat')::integer;
            v_count INTEGER := jsonb_array_length(p_batch->'rows');
            v_version BIGINT;
            v_head TEXT;
            v_status TEXT;
            v_new BIGINT;
        BEGIN
            PERFORM set_config('lock_timeout', p_batch->>'lock_timeout_ms', true);
            SELECT g.version, g.head_hash, g.status INTO v_version, v_head, v_status
                FROM games g WHERE g.id = v_game FOR UPDATE;
            IF NOT FOUND THEN
                RETURN QUERY SELECT 'not-found'::text, NULL::bigint, NULL::text, NULL::text,
                    NULL::text;
                RETURN;
            END IF;
            IF v_key IS NOT NULL THEN
                RETURN QUERY SELECT 'key-exists'::text, v_version, i.request_fingerprint,
                    i.response, i.created_at
                    FROM idempotency i WHERE i.game_id = v_game AND i.key = v_key;
                IF FOUND THEN
                    RETURN;
                END IF;
            END IF;
            IF v_version <> v_expected OR v_head <> p_batch->>'head_hash' THEN
                RETURN QUERY SELECT 'conflict'::text, v_version, NULL::text, NULL::text,
                    NULL::text;
                RETURN;
            END IF;
            IF v_status = 'finished' AND v_count > 0 THEN
                RETURN QUERY SELECT 'finished'::text, v_version, NULL::text, NULL::text,
                    NULL::text;
                RETURN;
            END IF;
            IF v_key IS NOT NULL THEN
                INSERT INTO idempotency (game_id, key, request_fingerprint, response, created_at)
                    VALUES (v_game, v_key, p_batch->>'fingerprint', p_batch->>'response',
                    v_updated);
            END IF;
            IF v_seat IS NOT NULL THEN
                IF p_batch->>'token_hash' IS NOT NULL THEN
                    INSERT INTO seats (game_id, seat, token_hash)
                        VALUES (v_game, v_seat, p_batch->>'token_hash') ON CONFLICT DO NOTHING;
                    IF NOT FOUND THEN
                        RAISE EXCEPTION '{_SEAT_TAKEN_MESSAGE}' USING ERRCODE = '{_SEAT_TAKEN}';
                    END IF;
                END IF;
                INSERT INTO seat_states (game_id, seat, type, name, bot)
                    VALUES (v_game, v_seat, p_batch->>'seat_type', p_batch->>'seat_name',
                    p_batch->>'seat_bot')
                    ON CONFLICT (game_id, seat) DO UPDATE SET type = excluded.type,
                    name = excluded.name, bot = excluded.bot;
            END IF;
            IF v_count = 0 THEN
                RETURN QUERY SELECT 'ok'::text, v_version, NULL::text, NULL::text, NULL::text;
                RETURN;
            END IF;
            INSERT INTO events (game_id, seq, type, payload, recorded_at, actor, command,
                hash, bot)
                SELECT v_game, r.seq, r.type, r.payload, r.recorded_at, r.actor, r.command,
                    r.hash, r.bot
                FROM jsonb_to_recordset(p_batch->'rows') AS r(seq BIGINT, type TEXT,
                    payload TEXT, recorded_at TEXT, actor INTEGER, command TEXT, hash TEXT,
                    bot TEXT);
            PERFORM pg_notify('{NOTIFY_CHANNEL}', v_game);
            v_new := v_expected + v_count;
            IF p_batch->>'outcome' IS NOT NULL THEN
                UPDATE games SET version = v_new, head_hash = p_batch->>'new_head_hash',
                    updated_at = v_updated, status = 'finished',
                    outcome = p_batch->>'outcome', due_at = NULL WHERE id = v_game;
            ELSE
                UPDATE games SET version = v_new, head_hash = p_batch->>'new_head_hash',
                    updated_at = v_updated, due_at = p_batch->>'due_at' WHERE id = v_game;
            END IF;
            IF p_batch->>'snapshot' IS NOT NULL THEN
                INSERT INTO snapshots (game_id, seq, state)
                    VALUES (v_game, v_new, p_batch->>'snapshot')
                    ON CONFLICT (game_id, seq) DO UPDATE SET state = excluded.state;
            END IF;
            RETURN QUERY SELECT 'ok'::text, v_new, NULL::text, NULL::text, NULL::text;
        END $$;
        CREATE FUNCTION spies_append_many(p_batches jsonb) RETURNS TABLE (
            item INTEGER, result TEXT, current_version BIGINT, fingerprint TEXT,
            response TEXT, created_at TEXT
        ) LANGUAGE plpgsql AS $$
        DECLARE
            v_batch jsonb;
            v_item INTEGER;
            r RECORD;
        BEGIN
            -- rows locked in game id order, so that two such transactions never deadlock
            FOR v_batch, v_item IN SELECT b.value, b.ordinality::integer
                FROM jsonb_array_elements(p_batches) WITH ORDINALITY AS b
                ORDER BY b.value->>'game_id', b.ordinality
            LOOP
                BEGIN  -- each batch in a subtransaction: its failure undoes it alone
                    FOR r IN SELECT * FROM spies_append(v_batch) LOOP
                        item := v_item;
                        result := r.result;
                        current_version := r.current_version;
                        fingerprint := r.fingerprint;
                        response := r.response;
                        created_at := r.created_at;
                        RETURN NEXT;
                    END LOOP;
                EXCEPTION
                    WHEN unique_violation OR SQLSTATE '{_SEAT_TAKEN}' THEN
                        item := v_item;
                        result := CASE SQLSTATE
                            WHEN '{_SEAT_TAKEN}' THEN 'seat-taken' ELSE 'seq-taken' END;
                        current_version := NULL;
                        fingerprint := NULL;
                        response := NULL;
                        created_at := NULL;
                        RETURN NEXT;
                END;
            END LOOP;
        END $$;
        """,
    ),
    (MIGRATION_NAME, SIGNING_KEYS_SQL),  # receipts
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
_encode_document: Final = msgspec.json.Encoder().encode


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
        self.pool_size = max(1, pool_size)
        self.connect_timeout = max(1, round(connect_timeout))
        self._local = threading.local()
        self._closed = False
        self._own_pids: set[int] = set()
        """The server processes of this store's connections: their notifications are this
        store's own appends, which :meth:`watch` leaves out (the caller knows of them)."""
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
            configure=self._own_connection,
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

    def _own_connection(self, conn: psycopg.Connection[Any]) -> None:
        self._own_pids.add(conn.info.backend_pid)

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
        """Call ``on_append(game_id)`` for every append another process (or another store
        of this database) commits (``LISTEN``); this store's own appends are left out, told
        apart by the server process that sent the notification (the caller knows of them, and
        its cached state of the game is current).

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
                                if note.pid not in self._own_pids:
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

    # -- appends: one statement, one round trip ---------------------------------------------

    def append(self, batch: Append) -> None:
        """Append one batch (see :meth:`~spies_replay.store.SqlEventStore.append`) in one
        statement: the ``spies_append`` function (migration ``m003_append_function``) checks
        the idempotency key, the version and the finished game under the row lock, then
        writes the reply, the seat, the rows, the game row (with ``due_at``), a snapshot and
        the notification, all in the statement's one transaction."""
        params = self._append_params(batch)
        with self._borrowed() as conn:  # its own connection, as every write transaction
            try:
                row = conn.execute(APPEND_SQL, params).fetchone()
            except pg_errors.UniqueViolation as exc:  # a writer that ignored the lock protocol
                raise VersionConflictError(batch.game_id, batch.version, batch.version + 1) from exc
            except psycopg.Error as exc:
                _raise_append_error(self.location, batch, exc)
                raise
        _check_append_result(batch, row)

    def _append_params(self, batch: Append) -> tuple[str]:
        """The argument of ``spies_append`` for a batch (checked first): one JSON document,
        so the driver adapts one text, not a parameter per column and an array per field
        of the rows. The texts in it (payloads, the reply, the snapshot) come back out of it
        exactly as they went in."""
        check_batch(batch)
        rows = batch.rows
        reply, seat = batch.reply, batch.seat
        every = self.snapshot_every
        snapshot = None
        crossed = batch.version // every != batch.new_version // every
        if rows and batch.state is not None and crossed:
            snapshot = encode(batch.state)
        document: dict[str, object] = {
            "game_id": batch.game_id,
            "version": batch.version,
            "head_hash": batch.head_hash,
            "updated_at": rows[-1].recorded_at if rows else utc_now(),
            "rows": rows,
            "new_head_hash": batch.new_head_hash,
            "due_at": batch.due_at,
            "lock_timeout_ms": max(1, int(self.lock_timeout * 1000)),  # 0: "wait forever"
        }
        if reply is not None:
            document["key"] = reply.key
            document["fingerprint"] = reply.fingerprint
            document["response"] = reply.response.decode()
        if batch.outcome is not None:
            document["outcome"] = encode(batch.outcome)
        if snapshot is not None:
            document["snapshot"] = snapshot
        if seat is not None:
            document["seat"] = seat.seat
            document["seat_type"] = str(seat.type)
            document["seat_name"] = seat.name
            document["seat_bot"] = seat.bot
            document["token_hash"] = batch.token_hash
        return (_encode_document(document).decode(),)

    def async_appends(self, pool_size: int = ASYNC_POOL_SIZE) -> AsyncAppends:
        """Appends on the event loop: psycopg's async connections, from a pool of their own
        of at most ``pool_size`` opened on the running loop at the first append (see
        :class:`AsyncAppends`)."""
        return AsyncAppends(self, pool_size)


APPEND_SQL: Final = (
    "SELECT result, current_version, fingerprint, response, created_at FROM spies_append(%s::jsonb)"
)
"""The one statement of an append (its arguments: ``PostgresEventStore._append_params``)."""
APPEND_ONE_SQL: Final = (
    "SELECT 1, result, current_version, fingerprint, response, created_at"
    " FROM spies_append(%s::jsonb)"
)
APPEND_MANY_SQL: Final = (
    "SELECT item, result, current_version, fingerprint, response, created_at"
    " FROM spies_append_many(%s::jsonb)"
)
"""The statements of :class:`AsyncAppends`: one batch, or several in one transaction."""
MAX_SHARED_APPENDS: Final = 64
"""The most batches one round trip of :class:`AsyncAppends` carries."""


def _raise_append_error(location: str, batch: Append, exc: psycopg.Error) -> None:
    """The store's error for a failed ``spies_append`` (returns for anything else)."""
    state = getattr(exc, "sqlstate", None)
    if state == _SEAT_TAKEN and batch.seat is not None:
        raise SeatTakenError(f"seat {batch.seat.seat} of game {batch.game_id!r} is taken") from exc
    if isinstance(exc, pg_errors.LockNotAvailable):
        raise StoreBusyError(location) from exc


def _check_append_result(batch: Append, row: Any) -> None:
    """Raise what ``spies_append``'s answer means (nothing for an accepted append)."""
    result, current = row[0], row[1]
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
                request_fingerprint=row[2],
                response=row[3].encode(),
                created_at=row[4],
            )
        )
    if result == "conflict":
        raise VersionConflictError(game_id, batch.version, current)
    if result == "finished":
        raise GameFinishedError(f"game {game_id!r} has finished; no event can follow")
    raise ReplayError(f"spies_append answered {result!r}")  # pragma: no cover


class AsyncAppends:
    """Appends of one :class:`PostgresEventStore` on the event loop: one ``spies_append``
    statement per batch over a :class:`psycopg_pool.AsyncConnectionPool`, no worker thread.

    The pool is opened on the running loop at the first :meth:`append` (a pool belongs to
    one loop); :meth:`close` closes it. Errors are the store's, as with
    :meth:`PostgresEventStore.append`.
    """

    def __init__(self, store: PostgresEventStore, pool_size: int = ASYNC_POOL_SIZE) -> None:
        self.store = store
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
                store = self.store
                pool = AsyncConnectionPool(
                    store.url,
                    min_size=1,
                    max_size=self.pool_size,
                    kwargs={"autocommit": True, "connect_timeout": store.connect_timeout},
                    timeout=max(store.lock_timeout, 1.0),
                    open=False,
                    name="spies-store-async",
                    configure=self._own_connection,
                )
                await pool.open(wait=True, timeout=max(float(store.connect_timeout), 1.0))
                self._pool = pool
            return self._pool

    async def _own_connection(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self.store._own_pids.add(conn.info.backend_pid)

    async def append(self, batch: Append) -> None:
        """Append ``batch`` in one round trip (see :meth:`PostgresEventStore.append`).

        Appends that arrive while every connection of the pool is busy wait together and go
        in the next round trip as one ``spies_append_many`` statement (at most
        :data:`MAX_SHARED_APPENDS`): one transaction, one commit to wait for, each batch in
        a subtransaction of its own, so that one refused batch leaves the others written.
        """
        store = self.store
        document = store._append_params(batch)[0]
        if store._closed:
            raise StoreClosedError(store.location)
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Any] = loop.create_future()
        self._waiting.append((batch, document, answer))
        if self._senders < self.pool_size:
            self._senders += 1
            task = loop.create_task(self._send())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        row = await answer
        _check_append_result(batch, row)

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
                            answer.set_exception(self._error(batch, exc))
                    if not isinstance(exc, Exception):
                        raise
                    continue
                for row in rows:
                    batch, _, answer = taken[row[0] - 1]
                    if answer.done():
                        continue
                    if row[1] == "seq-taken":  # a writer that ignored the lock protocol
                        answer.set_exception(
                            VersionConflictError(batch.game_id, batch.version, batch.version + 1)
                        )
                    elif row[1] == "seat-taken" and batch.seat is not None:
                        answer.set_exception(
                            SeatTakenError(
                                f"seat {batch.seat.seat} of game {batch.game_id!r} is taken"
                            )
                        )
                    else:
                        answer.set_result(row[1:])
                for _batch, _, answer in taken:  # pragma: no cover (one row per batch)
                    if not answer.done():
                        answer.set_exception(ReplayError("spies_append_many left a batch out"))
        finally:
            self._senders -= 1

    async def _execute(self, documents: list[str]) -> list[Any]:
        pool = await self._connections()
        store = self.store
        async with pool.connection(timeout=DOWN_WAIT_SECONDS if store.down else None) as conn:
            if len(documents) == 1:
                cursor = await conn.execute(APPEND_ONE_SQL, (documents[0],))
            else:
                cursor = await conn.execute(APPEND_MANY_SQL, ("[" + ",".join(documents) + "]",))
            rows = await cursor.fetchall()
        if store.down:
            store.down = False
            _log.info("store_reconnected", location=store.location)
        return rows

    def _error(self, batch: Append, exc: BaseException) -> BaseException:
        """The store's error for a round trip that failed as a whole."""
        store = self.store
        if isinstance(exc, pg_errors.UniqueViolation):  # one batch: a taken seq
            return VersionConflictError(batch.game_id, batch.version, batch.version + 1)
        if getattr(exc, "sqlstate", None) == _SEAT_TAKEN and batch.seat is not None:
            return SeatTakenError(f"seat {batch.seat.seat} of game {batch.game_id!r} is taken")
        if isinstance(exc, PoolTimeout) and (store.down or self._pool is None):
            # no connection from a server already found unreachable, or none ever opened
            store.down = True
            return StoreUnavailableError(store.location, _UNREACHABLE)
        if isinstance(exc, PoolTimeout | pg_errors.LockNotAvailable):
            return StoreBusyError(store.location)
        if isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError):
            if store._closed:
                return StoreClosedError(store.location)
            store.down = True
            return StoreUnavailableError(store.location, _reason(exc))
        return exc

    async def close(self) -> None:
        """Close the pool (if it was opened). Idempotent."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()


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
