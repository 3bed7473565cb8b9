"""The SQLite backend of the event store: one file, WAL mode, sqlite-utils.

The default store. Writers take SQLite's write lock up front (``BEGIN IMMEDIATE``), which
serializes appends across threads and processes; several processes can share the file (WAL,
``busy_timeout``). Each thread gets its own connection. A write that waits for the lock
longer than the busy timeout raises :class:`~spies_replay.errors.StoreBusyError`, a write
that finds the disk (or ``PRAGMA max_page_count``) full raises
:class:`~spies_replay.errors.StoreFullError` after rolling the whole transaction back, and
an input/output error :class:`~spies_replay.errors.StoreUnavailableError`
(:mod:`spies_replay.store.sqlite_errors`, the one place that reads ``sqlite3``'s errors);
nothing above the store sees ``sqlite3``.

:meth:`SQLiteEventStore.close` is safe while other threads still use the store: it takes
the store's lock, marks the store closed and closes each connection only when no statement
is running on it (a thread inside a transaction finishes it first); a thread that uses the
store after close gets :class:`~spies_replay.errors.StoreClosedError`, never a closed
connection.

The append: :mod:`spies_replay.store.sqlite_append` (with the recorder the API appends
through). Schema and migrations: :mod:`spies_replay.store.sqlite_schema`. Other
processes' appends: :mod:`spies_replay.store.sqlite_watch`. The shared SQL:
:class:`~spies_replay.store.sql.SqlEventStore`.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar, Literal

from sqlite_utils import Database

from spies_replay.errors import StoreBusyError, StoreClosedError, StoreUnavailableError
from spies_replay.store.migrations import applied_migrations, migrate, pending_migrations
from spies_replay.store.protocols import Recorder
from spies_replay.store.recorders import ThreadRecorder
from spies_replay.store.records import (
    SNAPSHOT_EVERY,
    Append,
    BackendName,
    Heard,
    NewGame,
    Unheard,
)
from spies_replay.store.sql import SqlEventStore
from spies_replay.store.sql_rows import Transaction
from spies_replay.store.sqlite_append import SQLiteRecorder, append_batch
from spies_replay.store.sqlite_errors import store_error
from spies_replay.store.sqlite_schema import (
    MIGRATION_NAMES,
    MIGRATIONS,
    adopt_sqlite_utils_records,
)
from spies_replay.store.sqlite_watch import OwnWrites, watch

__all__ = ["SQLiteEventStore", "SyncMode", "open_sqlite"]

SyncMode = Literal["normal", "full"]
"""``PRAGMA synchronous``: ``normal`` survives a process crash, ``full`` also power loss."""


class _Handle:
    """One thread's connection, the thread, and whether a call is using it (so close can
    wait)."""

    __slots__ = ("busy", "db", "thread")

    def __init__(self, db: Database) -> None:
        self.db = db
        self.busy = 0
        self.thread = threading.current_thread()


class SQLiteEventStore(SqlEventStore):
    """The replay log in one SQLite file.

    Args:
        path: the database file (created, and migrated, when needed).
        snapshot_every: see :class:`~spies_replay.store.sql.SqlEventStore`.
        busy_timeout: seconds a writer waits for another process's write lock.
        sync: ``normal`` (the default: a committed command survives a process crash; the
            last commits may be lost on power failure) or ``full`` (they survive it too).
    """

    driver_errors: ClassVar[tuple[type[Exception], ...]] = (sqlite3.Error,)
    backend: BackendName = "sqlite"
    watch_seconds: float = 0.25
    """How often :meth:`watch` looks whether another connection has committed."""

    def __init__(
        self,
        path: str | Path,
        *,
        snapshot_every: int = SNAPSHOT_EVERY,
        busy_timeout: float = 10.0,
        sync: SyncMode = "normal",
    ) -> None:
        super().__init__(snapshot_every=snapshot_every)
        if sync not in ("normal", "full"):
            raise ValueError(f"sync must be 'normal' or 'full', not {sync!r}")
        self.path = Path(path)
        self.location = str(path)
        self.busy_timeout = busy_timeout
        self.sync: SyncMode = sync
        self._local = threading.local()
        self._lock = threading.Condition()
        self._handles: list[_Handle] = []
        self._closed = False
        self._own = OwnWrites()
        self._writer = threading.Lock()
        """This process's writers of the file take turns here before SQLite's write lock:
        a thread blocked on a lock wakes when it is released, where SQLite's busy handler
        sleeps and retries, so under many writers one could lose every race until its
        busy timeout (a ``database-busy`` with the file free most of the time)."""
        self._twins: list[SQLiteEventStore] = []
        self._loop: SQLiteEventStore | None = None
        with self._connection():  # open, set WAL and migrate now, so errors surface here
            pass

    # -- connections and transactions -------------------------------------------------

    @property
    def db(self) -> Database:
        """This thread's sqlite-utils :class:`~sqlite_utils.Database` (opened on first use)."""
        return self._handle().db

    def _handle(self) -> _Handle:
        handle: _Handle | None = getattr(self._local, "handle", None)
        if handle is not None and not self._closed:
            return handle
        with self._lock:
            if self._closed:
                raise StoreClosedError(self.location)
        handle = _Handle(self._open())
        with self._lock:
            if self._closed:
                handle.db.close()
                raise StoreClosedError(self.location)
            # Worker threads come and go (a pool's idle threads exit): a thread that has
            # ended never uses its connection again, so close it here rather than keep its
            # descriptors and page cache until the store closes.
            for ended in [h for h in self._handles if not h.busy and not h.thread.is_alive()]:
                ended.db.close()
                self._handles.remove(ended)
            self._handles.append(handle)
        self._local.handle = handle
        return handle

    def _open(self) -> Database:
        conn = sqlite3.connect(self.path, timeout=self.busy_timeout, check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
        db = Database(conn, execute_plugins=False)
        try:
            db.enable_wal()
            conn.execute(f"PRAGMA synchronous = {self.sync.upper()}")
            self._migrate(db)
        except BaseException:
            conn.close()
            raise
        return db

    @staticmethod
    def _migrate(db: Database) -> None:
        conn = db.conn
        try:
            if set(applied_migrations(conn)) == MIGRATION_NAMES:
                return  # current; anything else (one unknown too) is settled below
        except sqlite3.OperationalError:
            pass  # no schema_migrations yet: a new file, or one sqlite-utils migrated
        conn.execute("BEGIN IMMEDIATE")  # one process migrates; the others wait, then see it
        try:
            adopt_sqlite_utils_records(conn)
            migrate(conn, MIGRATIONS)
        except BaseException:
            conn.rollback()
            raise
        conn.execute("COMMIT")

    def pending_migrations(self) -> list[str]:
        """The migrations of :mod:`spies_replay.store.sqlite_schema` this file has not
        recorded."""
        with self._connection() as conn:
            return pending_migrations(applied_migrations(conn), MIGRATIONS)

    def close(self) -> None:
        """Close every connection this store opened (in any thread), each once it is idle,
        and its twins'.

        Idempotent. A thread still inside a call finishes it; later calls raise
        :class:`~spies_replay.errors.StoreClosedError`.
        """
        for twin in self._twins:
            twin.close()
        with self._lock:
            self._closed = True
            while any(handle.busy for handle in self._handles):
                self._lock.wait(timeout=self.busy_timeout + 1.0)
                if any(handle.busy for handle in self._handles):
                    break  # a stuck caller: close the idle ones, leave the rest to the GC
            for handle in [h for h in self._handles if not h.busy]:
                handle.db.close()
                self._handles.remove(handle)

    @contextmanager
    def _using(self) -> Iterator[sqlite3.Connection]:
        handle = self._handle()
        with self._lock:
            if self._closed:
                raise StoreClosedError(self.location)
            handle.busy += 1
        try:
            yield handle.db.conn
        finally:
            with self._lock:
                handle.busy -= 1
                if not handle.busy:
                    self._lock.notify_all()

    @contextmanager
    def _translated(self, batch: Append | None = None) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as exc:
            error = store_error(self.location, exc, batch=batch)
            if error is None:
                raise
            raise error from exc

    @contextmanager
    def _connection(self) -> Iterator[Transaction]:
        with self._translated(), self._using() as conn:
            yield conn

    @contextmanager
    def _write(self, batch: Append | None = None) -> Iterator[Transaction]:
        waits = self.busy_timeout > 0
        if not self._writer.acquire(blocking=waits, timeout=self.busy_timeout if waits else -1):
            raise StoreBusyError(self.location)
        try:
            with self._translated(batch), self._using() as conn:
                conn.execute("BEGIN IMMEDIATE")  # other processes' writers: the busy timeout
                try:
                    yield conn
                    conn.execute("COMMIT")
                except BaseException:
                    # a failed COMMIT (the disk full, an I/O error) may leave the transaction
                    # open: roll it back, so nothing of it stays, and the next one starts
                    # clean
                    if conn.in_transaction:
                        conn.rollback()
                    raise
        finally:
            self._writer.release()

    @contextmanager
    def reading(self) -> Iterator[Any]:
        """A read transaction: every query inside sees one consistent snapshot of the file."""
        with self._translated(), self._using() as conn:
            if conn.in_transaction:
                yield conn
                return
            conn.execute("BEGIN")
            try:
                yield conn
            finally:
                if conn.in_transaction:
                    conn.rollback()

    # -- writes: the watch leaves this store's own out ------------------------------------

    def append(self, batch: Append) -> None:
        """Append one batch after ``batch.version``, with what goes with it, all or none
        (:func:`~spies_replay.store.sqlite_append.append_batch`, in one ``BEGIN IMMEDIATE``
        transaction).

        Raises:
            ValueError: the rows do not follow ``batch.version`` one by one.
            GameNotFoundError: no such game.
            IdempotencyKeyExistsError: ``batch.reply``'s key was used before (its record
                attached); nothing is written.
            VersionConflictError: the game is not at ``batch.version`` (another writer got
                there first); nothing is written.
            GameFinishedError: the game has finished; its log is closed.
            SeatTakenError: ``batch.seat`` already has a token.
            StoreBusyError: another writer held the file past the busy timeout.
        """
        with self._own.writing(batch.game_id, batch.new_version), self._write(batch) as conn:
            append_batch(conn, batch, snapshot_every=self.snapshot_every)

    def insert_game(self, game: NewGame) -> None:
        """See :meth:`SqlEventStore.insert_game`; the watch leaves this write out."""
        with self._own.writing(game.record.id, game.record.version):
            super().insert_game(game)

    def recorder(self, *, on_loop: bool = True) -> Recorder:
        """Appends for an event loop: tried on the loop first (a twin with no busy timeout,
        then a worker thread when another writer holds the file:
        :class:`~spies_replay.store.sqlite_append.SQLiteRecorder`), or, ``on_loop=False``,
        every one on a worker thread."""
        if not on_loop:
            return ThreadRecorder(self)
        return SQLiteRecorder(self.loop_reader(), self)

    def loop_reads(self, recorder: Recorder) -> None:
        """``None``: a miss reads on the loop from :meth:`loop_reader` (see
        :meth:`~spies_replay.store.protocols.EventStore.loop_reads`)."""
        del recorder

    def loop_reader(self) -> SQLiteEventStore:
        """The twin with no busy timeout the event loop reads and appends through (one per
        store): see :meth:`~spies_replay.store.protocols.EventStore.loop_reader`."""
        with self._lock:
            if self._loop is None:
                self._loop = self.twin(busy_timeout=0.0)
            return self._loop

    def watch(self, on_append: Heard, on_gap: Unheard | None = None) -> Callable[[], None]:
        """Call ``on_append`` for each game other connections append to (other
        processes, this process's other stores of the file), never this store's own
        writes: see :func:`spies_replay.store.sqlite_watch.watch`. Never ``on_gap``: the
        watch reads every append past the last it saw, so none goes unheard."""
        del on_gap
        return watch(self.path, self.busy_timeout, self.watch_seconds, self._own, on_append)

    def twin(self, *, busy_timeout: float) -> SQLiteEventStore:
        """Another store on the same file, with its own connections and busy timeout, whose
        writes count as this store's own: :meth:`watch` leaves them out too (the process
        that holds both knows of them). It closes with this store."""
        twin = SQLiteEventStore(
            self.path,
            snapshot_every=self.snapshot_every,
            busy_timeout=busy_timeout,
            sync=self.sync,
        )
        twin._own = self._own
        twin._writer = self._writer
        self._twins.append(twin)
        return twin


def open_sqlite(
    db: str | Path,
    *,
    create: bool = True,
    snapshot_every: int = SNAPSHOT_EVERY,
    busy_timeout: float = 10.0,
    sync: SyncMode = "normal",
) -> SQLiteEventStore:
    """Open (create and migrate, when needed) the SQLite store at ``db``.

    Every reason the file cannot be used becomes one
    :class:`~spies_replay.errors.StoreUnavailableError` with a one-line reason.
    """
    location = str(db)
    path = Path(db)
    _check_path(location, path, create=create)
    try:
        return SQLiteEventStore(
            path, snapshot_every=snapshot_every, busy_timeout=busy_timeout, sync=sync
        )
    except (sqlite3.DatabaseError, OSError) as exc:
        error = store_error(location, exc, opening=True)
        if error is None:  # pragma: no cover (every DatabaseError while opening has one)
            raise
        raise error from exc


def _check_path(location: str, path: Path, *, create: bool) -> None:
    if path.is_dir():
        raise StoreUnavailableError(location, "it is a directory, not a database file")
    if path.exists():
        if not os.access(path, os.R_OK):
            raise StoreUnavailableError(location, "the file is not readable (permission denied)")
        return
    if not create:
        raise StoreUnavailableError(location, "no such file")
    parent = path.parent
    if not parent.exists():
        raise StoreUnavailableError(
            location, f"the directory {parent} does not exist; create it or fix the path"
        )
    if not parent.is_dir():
        raise StoreUnavailableError(location, f"{parent} is not a directory")
