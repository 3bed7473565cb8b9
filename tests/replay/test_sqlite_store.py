"""What only the SQLite backend has: its file (WAL, recorded sqlite-utils migrations), writers
in several processes on one file, a busy file, and a close that is safe while threads work."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from spies_replay.errors import ReplayError, StoreBusyError, StoreClosedError
from spies_replay.store.schema import SCHEMA_VERSION
from spies_replay.store.sqlite import SQLiteEventStore
from tests.support.counter import append, new_game
from tests.support.countergame import GAMES, CounterBumped
from tests.support.waiting import until


def raw(db_path: Path) -> sqlite3.Connection:
    return sqlite3.connect(db_path, isolation_level=None)


_CHILD = """
import sys
from tests.support.counter import append
from tests.support.countergame import GAMES, CounterBumped
from spies_replay.errors import VersionConflictError
from spies_replay.store.sqlite import SQLiteEventStore

path, game_id, version = sys.argv[1], sys.argv[2], int(sys.argv[3])
with SQLiteEventStore(path, games=GAMES) as store:
    print("ready", flush=True)
    sys.stdin.readline()  # every writer is ready: go
    try:
        append(store, game_id, version, [CounterBumped(seat=0, by=1, total=1)])
        print("ok")
    except VersionConflictError:
        print("conflict")
"""


def test_concurrent_writers_from_processes_exactly_one_wins(
    store: SQLiteEventStore, db_path: Path
) -> None:
    import os
    import subprocess
    import sys

    created = new_game(store)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    args = [str(db_path), created.record.id, str(created.record.version)]
    children = [
        subprocess.Popen(
            [sys.executable, "-c", _CHILD, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        for _ in range(3)
    ]
    for child in children:  # each has opened the store
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    for child in children:  # then all go at once
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.flush()
    results = sorted(child.communicate(timeout=60)[0].strip() for child in children)
    assert results == ["conflict", "conflict", "ok"]
    assert store.get_game(created.record.id).version == created.record.version + 1


# -- schema --------------------------------------------------------------------------------


def test_schema_is_migrated_once_and_recorded(db_path: Path) -> None:
    SQLiteEventStore(db_path, games=GAMES).close()
    SQLiteEventStore(db_path, games=GAMES).close()
    with raw(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        applied = conn.execute(
            "SELECT name FROM _sqlite_migrations WHERE migration_set = 'spies_replay'"
        ).fetchall()
    assert applied == [
        ("m001_initial",),
        ("m002_secret_deal",),
        ("m003_seats",),
        ("m004_due_work",),
        ("m005_signing_keys",),
    ]
    assert len(applied) == SCHEMA_VERSION


def test_a_database_from_a_newer_version_is_refused(db_path: Path) -> None:
    SQLiteEventStore(db_path, games=GAMES).close()
    with raw(db_path) as conn:
        conn.execute(
            "INSERT INTO _sqlite_migrations (migration_set, name, applied_at)"
            " VALUES ('spies_replay', 'm999_future', 'later')"
        )
    with pytest.raises(ReplayError) as caught:
        SQLiteEventStore(db_path, games=GAMES)
    assert caught.value.code == "schema-too-new"


def test_a_write_behind_another_writers_lock_is_a_typed_busy_error(db_path: Path) -> None:
    with SQLiteEventStore(db_path, games=GAMES, busy_timeout=0.0) as store:
        created = new_game(store)
        holder = raw(db_path)
        holder.execute("BEGIN IMMEDIATE")
        try:
            with pytest.raises(StoreBusyError) as caught:
                append(store, created.record.id, created.record.version, [])
        finally:
            holder.execute("ROLLBACK")
            holder.close()
    assert caught.value.code == "database-busy" and "\n" not in caught.value.message


def test_close_while_threads_read_never_breaks_a_call(db_path: Path) -> None:
    store = SQLiteEventStore(db_path, games=GAMES)
    game_id = new_game(store).record.id
    outcomes: list[str] = []
    started = threading.Barrier(5)

    def reader() -> None:
        started.wait()
        while True:
            try:
                store.read_events(game_id)
                store.due_games()
            except StoreClosedError:
                outcomes.append("closed")
                return
            except Exception as exc:  # noqa: BLE001  (anything else is the bug under test)
                outcomes.append(repr(exc))
                return

    threads = [threading.Thread(target=reader) for _ in range(4)]
    for thread in threads:
        thread.start()
    started.wait()
    store.close()
    for thread in threads:
        thread.join(timeout=30)
    assert outcomes == ["closed"] * 4
    store.close()  # idempotent
    with pytest.raises(StoreClosedError):
        store.get_game(game_id)


def test_sync_full_is_set_on_the_connection(db_path: Path) -> None:
    with SQLiteEventStore(db_path, games=GAMES, sync="full") as store:
        assert store.db.conn.execute("PRAGMA synchronous").fetchone()[0] == 2
    with SQLiteEventStore(db_path, games=GAMES) as store:
        assert store.db.conn.execute("PRAGMA synchronous").fetchone()[0] == 1


def test_the_watch_hears_other_stores_appends_and_never_its_own(tmp_path: Path) -> None:
    """A process's own appends are not news to it (its cached heads stay); another store's
    on the file, in this process or another, are."""
    heard: list[str] = []
    with (
        SQLiteEventStore(tmp_path / "w.db", games=GAMES) as mine,
        SQLiteEventStore(tmp_path / "w.db", games=GAMES) as other,
    ):
        mine.watch_seconds = 0.01
        unwatch = mine.watch(heard.append)
        try:
            own = new_game(mine).record.id
            append(mine, own, mine.get_game(own).version, [CounterBumped(seat=0, by=1, total=1)])
            theirs = new_game(other).record.id
            until(lambda: theirs in heard, timeout=10, every=0.01, what="the other store's game")
            assert heard == [theirs]
            append(other, own, mine.get_game(own).version, [CounterBumped(seat=0, by=1, total=2)])
            until(lambda: own in heard, timeout=10, every=0.01, what="the append to my game")
            assert heard == [theirs, own]  # another store's append to my game is news
        finally:
            unwatch()
