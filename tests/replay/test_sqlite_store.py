"""What only the SQLite backend has: its file (WAL, its migrations, those sqlite-utils recorded
carried over), writers in several processes on one file, a busy file, a token found by its
index, and a close that is safe while threads work."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from spies_replay.errors import ReplayError, StoreBusyError, StoreClosedError
from spies_replay.reading import read_events
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.store.sqlite_schema import MIGRATIONS
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
with SQLiteEventStore(path) as store:
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
    SQLiteEventStore(db_path).close()
    SQLiteEventStore(db_path).close()
    with raw(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        applied = conn.execute("SELECT name FROM schema_migrations ORDER BY name").fetchall()
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert applied == [(migration.name,) for migration in MIGRATIONS]
    assert [name for (name,) in applied][-1] == "m011_heads"
    assert "_sqlite_migrations" not in tables  # a new file has the one table of records


def test_a_file_sqlite_utils_migrated_further_than_this_code_is_refused(db_path: Path) -> None:
    """A file that records, in sqlite-utils' table, a migration this code does not know is
    refused as one whose own table does (nothing of it is carried over)."""
    with raw(db_path) as conn:
        conn.execute(
            "CREATE TABLE _sqlite_migrations (id INTEGER PRIMARY KEY, migration_set TEXT,"
            " name TEXT, applied_at TEXT)"
        )
        conn.execute(
            "INSERT INTO _sqlite_migrations (migration_set, name, applied_at)"
            " VALUES ('spies_replay', 'm999_future', 'later')"
        )
    with pytest.raises(ReplayError) as caught:
        SQLiteEventStore(db_path)
    assert caught.value.code == "schema-too-new"
    with raw(db_path) as conn:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert "schema_migrations" not in tables and "games" not in tables


def test_a_token_is_found_by_its_index_not_by_a_scan(
    store: SQLiteEventStore, db_path: Path
) -> None:
    """``find_token`` (an unknown bearer token: 401 or 403?) reads the index of token
    hashes, never every seat."""
    created = new_game(store)
    statements: list[str] = []
    store.db.conn.set_trace_callback(statements.append)  # this thread's connection
    try:
        assert store.find_token(created.tokens[1]) == (created.record.id, 1)
        assert store.find_token("not-a-token") is None
    finally:
        store.db.conn.set_trace_callback(None)
    lookups = [sql for sql in statements if "FROM seats" in sql and "token_hash" in sql]
    assert len(lookups) == 2
    with raw(db_path) as conn:
        for lookup in lookups:
            plan = " ".join(row[-1] for row in conn.execute(f"EXPLAIN QUERY PLAN {lookup}"))
            assert "USING INDEX seats_token_hash" in plan and "SCAN" not in plan, plan


def test_a_write_behind_another_writers_lock_is_a_typed_busy_error(db_path: Path) -> None:
    with SQLiteEventStore(db_path, busy_timeout=0.0) as store:
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


def test_this_processs_writers_take_turns_and_none_times_out(db_path: Path) -> None:
    """Writers of one process queue on the store's own lock before SQLite's: before, each
    raced SQLite's busy handler, which sleeps between tries, so a writer could lose every
    race until its busy timeout (``database-busy`` under a soak's load, with the file free
    most of the time)."""
    busy: list[str] = []
    with SQLiteEventStore(db_path, busy_timeout=1.0) as store:
        records = [new_game(store).record for _ in range(24)]
        start = threading.Barrier(len(records))

        def writer(game_id: str, version: int) -> None:
            start.wait()
            for total in range(1, 41):
                try:
                    append(store, game_id, version, [CounterBumped(seat=0, by=1, total=total)])
                    version += 1
                except StoreBusyError:
                    busy.append(game_id)

        threads = [threading.Thread(target=writer, args=(r.id, r.version)) for r in records]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert busy == []
        assert all(store.get_game(r.id).version == r.version + 40 for r in records)


def test_close_while_threads_read_never_breaks_a_call(db_path: Path) -> None:
    store = SQLiteEventStore(db_path)
    game_id = new_game(store).record.id
    outcomes: list[str] = []
    started = threading.Barrier(5)

    def reader() -> None:
        started.wait()
        while True:
            try:
                read_events(store, game_id, games=GAMES)
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
    with SQLiteEventStore(db_path, sync="full") as store:
        assert store.db.conn.execute("PRAGMA synchronous").fetchone()[0] == 2
    with SQLiteEventStore(db_path) as store:
        assert store.db.conn.execute("PRAGMA synchronous").fetchone()[0] == 1


def test_the_watch_hears_other_stores_appends_and_never_its_own(tmp_path: Path) -> None:
    """A process's own appends are not news to it (its cached heads stay); another store's
    on the file, in this process or another, are."""
    heard: list[str] = []
    with (
        SQLiteEventStore(tmp_path / "w.db") as mine,
        SQLiteEventStore(tmp_path / "w.db") as other,
    ):
        mine.watch_seconds = 0.01
        unwatch = mine.watch(lambda appended: heard.append(appended.game_id))
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
