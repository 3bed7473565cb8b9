"""SQLite's watch: other connections' appends, seen by polling the file's commit counter.

SQLite cannot signal another process, so :func:`watch` polls (see there) and tells each game's
row as it finds it (:class:`~spies_replay.store.records.Appended`); :class:`OwnWrites` tells a
store's own writes, which its caller knows of, from the others'.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from spies_replay.store.records import Appended, GameStatus
from spies_replay.store.watch_thread import watch_thread

__all__ = ["OwnWrites", "watch"]


def watch(
    path: Path,
    busy_timeout: float,
    interval: float,
    own: OwnWrites,
    on_append: Callable[[Appended], None],
) -> Callable[[], None]:
    """Call ``on_append`` for each game other connections append to the file at
    ``path``: other processes sharing the file, and this process's other stores of it,
    never a store's own writes (``own``; the caller knows of those). A wake-up only: the
    log stays the truth.

    SQLite cannot signal another process, so one daemon thread, on a connection of its
    own, polls: every ``interval`` seconds it reads ``PRAGMA data_version``, which
    changes exactly when another connection has committed, and only then the games of
    the ``events`` rows past the last rowid it saw (writers are serialized, so rowids
    grow in commit order). One pragma per interval while nothing happens, however many
    readers wait. Returns the function that stops the thread.
    """
    state = _Watched(own, path, busy_timeout)
    state.look()  # the starting point, before any append the caller must hear of

    def poll(stop: threading.Event) -> None:
        while not stop.wait(interval):
            for appended in state.look():
                on_append(appended)
        state.close()

    return watch_thread(poll, name="spies-store-watch", join_seconds=interval + 5.0)


class OwnWrites:
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


_APPENDED_SQL = """
    SELECT e.game_id, max(e.rowid), g.version, g.head_hash, g.due_at, g.status
    FROM events e JOIN games g ON g.id = e.game_id
    WHERE e.rowid > ? GROUP BY e.game_id
"""
"""The games appended to past a rowid, each with its row: one read, so the row is the one
of the newest append seen (its version is the game's last seq)."""


class _Watched:
    """What :func:`watch` has seen: its connection, the file's commit counter and the last
    ``events`` rowid."""

    def __init__(self, own: OwnWrites, path: Path, busy_timeout: float) -> None:
        self.own = own
        self.path = path
        self.busy_timeout = busy_timeout
        self.conn: sqlite3.Connection | None = None
        self.data_version: int | None = None
        self.rowid: int | None = None

    def look(self) -> list[Appended]:
        """The games appended to since the last look (none on the first)."""
        try:
            if self.conn is None:
                self.conn = sqlite3.connect(
                    self.path,
                    timeout=self.busy_timeout,
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
            rows = self.conn.execute(_APPENDED_SQL, (self.rowid,)).fetchall()
        except sqlite3.Error:
            self.close()  # the file busy or gone for a moment: a fresh connection next time
            return []
        self.data_version = version
        if rows:
            self.rowid = max(self.rowid, *(row[1] for row in rows))
        return [
            Appended(
                game_id=row[0],
                version=row[2],
                head_hash=row[3],
                due_at=row[4],
                finished=row[5] == GameStatus.FINISHED,
            )
            for row in rows
            if not self.own.seen(row[0], row[2])
        ]

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None
