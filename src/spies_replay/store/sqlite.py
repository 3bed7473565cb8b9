"""The SQLite backend of the event store: one file, WAL mode, sqlite-utils.

The default store. Writers take SQLite's write lock up front (``BEGIN IMMEDIATE``), which
serializes appends across threads and processes; several processes can share the file (WAL,
``busy_timeout``). Each thread gets its own connection. A write that waits for the lock
longer than the busy timeout raises :class:`~spies_replay.errors.StoreBusyError`, a write
that finds the disk (or ``PRAGMA max_page_count``) full raises
:class:`~spies_replay.errors.StoreFullError` after rolling the whole transaction back, and
an input/output error :class:`~spies_replay.errors.StoreUnavailableError`; nothing above
this module sees ``sqlite3``.

:meth:`SQLiteEventStore.close` is safe while other threads still use the store: it takes
the store's lock, marks the store closed and closes each connection only when no statement
is running on it (a thread inside a transaction finishes it first); a thread that uses the
store after close gets :class:`~spies_replay.errors.StoreClosedError`, never a closed
connection.

Schema and migrations: :mod:`spies_replay.store.schema`. The shared SQL:
:class:`~spies_replay.store.SqlEventStore`.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar, Final, Literal

from sqlite_utils import Database

from spies_core.decider import AnySpec
from spies_replay.errors import (
    ReplayError,
    StoreBusyError,
    StoreClosedError,
    StoreFullError,
    StoreUnavailableError,
)
from spies_replay.store.records import SNAPSHOT_EVERY, Append, NewGame
from spies_replay.store.schema import MIGRATION_NAMES, SCHEMA_VERSION, migrations
from spies_replay.store.sql import SqlEventStore, Transaction

__all__ = ["SQLiteEventStore", "SyncMode", "open_sqlite"]

SyncMode = Literal["normal", "full"]
"""``PRAGMA synchronous``: ``normal`` survives a process crash, ``full`` also power loss."""

# SQLite's primary result codes (the low byte of an extended code).
_SQLITE_REASONS: Final[dict[int, str]] = {
    sqlite3.SQLITE_NOTADB: "it is not a SQLite database",
    sqlite3.SQLITE_CORRUPT: "the database file is damaged",
    sqlite3.SQLITE_CANTOPEN: "the file cannot be opened (check its permissions)",
    sqlite3.SQLITE_PERM: "permission denied",
    sqlite3.SQLITE_READONLY: "it is read-only (the store writes to it and beside it)",
    sqlite3.SQLITE_IOERR: "a disk input/output error",
    sqlite3.SQLITE_BUSY: "another process keeps it locked",
    sqlite3.SQLITE_LOCKED: "another process keeps it locked",
    sqlite3.SQLITE_FULL: "the disk is full",
}


_BUSY_CODES: Final = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})


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
        games: the games this store can decode, by id; default the registry.
        snapshot_every: see :class:`~spies_replay.store.SqlEventStore`.
        busy_timeout: seconds a writer waits for another process's write lock.
        sync: ``normal`` (the default: a committed command survives a process crash; the
            last commits may be lost on power failure) or ``full`` (they survive it too).
    """

    driver_errors: ClassVar[tuple[type[Exception], ...]] = (sqlite3.Error,)
    conflict_errors: ClassVar[tuple[type[Exception], ...]] = (sqlite3.IntegrityError,)

    def __init__(
        self,
        path: str | Path,
        *,
        games: Mapping[str, AnySpec] | None = None,
        snapshot_every: int = SNAPSHOT_EVERY,
        busy_timeout: float = 10.0,
        sync: SyncMode = "normal",
    ) -> None:
        super().__init__(games=games, snapshot_every=snapshot_every)
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
        self._own = _OwnWrites()
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
        applied = {migration.name for migration in migrations.applied(db)}
        unknown = applied - MIGRATION_NAMES
        if unknown:
            raise ReplayError(
                f"the database has migrations this spies_replay does not know"
                f" ({', '.join(sorted(unknown))}); upgrade spies-engine",
                code="schema-too-new",
            )
        if len(applied) == SCHEMA_VERSION:
            return
        conn = db.conn
        conn.execute("BEGIN IMMEDIATE")  # one process migrates; the others wait, then see it
        try:
            migrations.apply(db)
        except BaseException:
            conn.rollback()
            raise
        conn.execute("COMMIT")

    def pending_migrations(self) -> list[str]:
        """The migrations of :mod:`spies_replay.store.schema` this file has not recorded."""
        with self._connection():
            applied = {migration.name for migration in migrations.applied(self.db)}
        return sorted(MIGRATION_NAMES - applied)

    def close(self) -> None:
        """Close every connection this store opened (in any thread), each once it is idle.

        Idempotent. A thread still inside a call finishes it; later calls raise
        :class:`~spies_replay.errors.StoreClosedError`.
        """
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
    def _connection(self) -> Iterator[Transaction]:
        try:
            with self._using() as conn:
                yield conn
        except sqlite3.OperationalError as exc:
            _raise_translated(self.location, exc)
            raise

    @contextmanager
    def _write(self) -> Iterator[Transaction]:
        try:
            with self._using() as conn:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    yield conn
                    conn.execute("COMMIT")
                except BaseException:
                    # a failed COMMIT (the disk full, an I/O error) may leave the transaction
                    # open: roll it back, so nothing of it stays, and the next one starts clean
                    if conn.in_transaction:
                        conn.rollback()
                    raise
        except sqlite3.OperationalError as exc:
            _raise_translated(self.location, exc)
            raise

    @contextmanager
    def reading(self) -> Iterator[Any]:
        """A read transaction: every query inside sees one consistent snapshot of the file."""
        try:
            with self._using() as conn:
                if conn.in_transaction:
                    yield conn
                    return
                conn.execute("BEGIN")
                try:
                    yield conn
                finally:
                    if conn.in_transaction:
                        conn.rollback()
        except sqlite3.OperationalError as exc:
            _raise_translated(self.location, exc)
            raise

    def twin(self, *, busy_timeout: float) -> SQLiteEventStore:
        """Another store on the same file, with its own connections and busy timeout, whose
        writes count as this store's own: :meth:`watch` leaves them out too (the process
        that holds both knows of them)."""
        twin = SQLiteEventStore(
            self.path,
            games=self.games,
            snapshot_every=self.snapshot_every,
            busy_timeout=busy_timeout,
            sync=self.sync,
        )
        twin._own = self._own
        return twin

    # -- other connections' appends ----------------------------------------------------

    watch_seconds: float = 0.25
    """How often :meth:`watch` looks whether another connection has committed."""

    def append(self, batch: Append) -> None:
        """See :meth:`SqlEventStore.append`; the watch leaves this write out."""
        with self._own.writing(batch.game_id, batch.new_version):
            super().append(batch)

    def insert_game(self, game: NewGame) -> None:
        """See :meth:`SqlEventStore.insert_game`; the watch leaves this write out."""
        with self._own.writing(game.record.id, game.record.version):
            super().insert_game(game)

    def watch(self, on_append: Callable[[str], None]) -> Callable[[], None]:
        """Call ``on_append(game_id)`` for each game other connections append to: other
        processes sharing the file, and this process's other stores of it, never this
        store's own writes (the caller knows of those). A wake-up only: the log stays the
        truth.

        SQLite cannot signal another process, so one daemon thread, on a connection of its
        own, polls: every :attr:`watch_seconds` it reads ``PRAGMA data_version``, which
        changes exactly when another connection has committed, and only then the games of
        the ``events`` rows past the last rowid it saw (writers are serialized, so rowids
        grow in commit order). One pragma per interval while nothing happens, however many
        readers wait. Returns the function that stops the thread.
        """
        stop = threading.Event()
        state = _Watched(self._own)
        state.look(self)  # the starting point, before any append the caller must hear of

        def poll() -> None:
            while not stop.wait(self.watch_seconds):
                for game_id in state.look(self):
                    on_append(game_id)
            state.close()

        thread = threading.Thread(target=poll, name="spies-store-watch", daemon=True)
        thread.start()

        def unwatch() -> None:
            stop.set()
            thread.join(timeout=self.watch_seconds + 5.0)

        return unwatch


class _OwnWrites:
    """The writes of this store that its watch has not seen yet: (game, version after)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: dict[str, set[int]] = {}

    @contextmanager
    def writing(self, game_id: str, version: int) -> Iterator[None]:
        """Around one write: known as this store's before it commits, forgotten if it
        fails."""
        with self._lock:
            self._pending.setdefault(game_id, set()).add(version)
        try:
            yield
        except BaseException:
            self._drop(game_id, version)
            raise

    def seen(self, game_id: str, last_seq: int) -> bool:
        """Whether the game's log, now ending at ``last_seq``, ends in a write of this
        store's (all of them up to it are then forgotten)."""
        with self._lock:
            pending = self._pending.get(game_id)
            if not pending:
                return False
            mine = last_seq in pending
            pending.difference_update([v for v in pending if v <= last_seq])
            if not pending:
                del self._pending[game_id]
            return mine

    def _drop(self, game_id: str, version: int) -> None:
        with self._lock:
            pending = self._pending.get(game_id)
            if pending is not None:
                pending.discard(version)
                if not pending:
                    del self._pending[game_id]


class _Watched:
    """What :meth:`SQLiteEventStore.watch` has seen: its connection, the file's commit
    counter and the last ``events`` rowid."""

    def __init__(self, own: _OwnWrites) -> None:
        self.own = own
        self.conn: sqlite3.Connection | None = None
        self.data_version: int | None = None
        self.rowid: int | None = None

    def look(self, store: SQLiteEventStore) -> list[str]:
        """The games appended to since the last look (none on the first)."""
        try:
            if self.conn is None:
                self.conn = sqlite3.connect(
                    store.path,
                    timeout=store.busy_timeout,
                    isolation_level=None,
                    check_same_thread=False,
                )
                self.conn.execute("PRAGMA query_only = ON")
                self.data_version = None  # a new connection counts afresh
            version = self.conn.execute("PRAGMA data_version").fetchone()[0]
            if version == self.data_version:
                return []
            if self.rowid is None:
                self.rowid = self.conn.execute(
                    "SELECT coalesce(max(rowid), 0) FROM events"
                ).fetchone()[0]
                self.data_version = version
                return []
            rows = self.conn.execute(
                "SELECT game_id, max(rowid), max(seq) FROM events WHERE rowid > ? GROUP BY game_id",
                (self.rowid,),
            ).fetchall()
        except sqlite3.Error:
            self.close()  # the file busy or gone for a moment: a fresh connection next time
            return []
        self.data_version = version
        if rows:
            self.rowid = max(self.rowid, *(row[1] for row in rows))
        return [row[0] for row in rows if not self.own.seen(row[0], row[2])]

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def _raise_translated(location: str, exc: sqlite3.OperationalError) -> None:
    """Raise the store's error for SQLite's: busy, full, or an input/output error."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = None if code is None else code & 0xFF
    if primary in _BUSY_CODES or "database is locked" in str(exc):
        raise StoreBusyError(location) from exc
    if primary == sqlite3.SQLITE_FULL or "database or disk is full" in str(exc):
        raise StoreFullError(location) from exc
    if primary in (sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN):
        raise StoreUnavailableError(location, _SQLITE_REASONS[primary]) from exc


def open_sqlite(
    db: str | Path,
    *,
    create: bool = True,
    games: Mapping[str, AnySpec] | None = None,
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
            path,
            games=games,
            snapshot_every=snapshot_every,
            busy_timeout=busy_timeout,
            sync=sync,
        )
    except sqlite3.DatabaseError as exc:
        code = getattr(exc, "sqlite_errorcode", None)
        reason = None if code is None else _SQLITE_REASONS.get(code & 0xFF)
        name = getattr(exc, "sqlite_errorname", type(exc).__name__)
        raise StoreUnavailableError(location, reason or f"SQLite refused it ({name})") from exc
    except OSError as exc:
        raise StoreUnavailableError(location, (exc.strerror or str(exc)).lower()) from exc


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
