"""The backends the store contract runs on: SQLite always, PostgreSQL when
``SPIES_TEST_POSTGRES_URL`` names a database the tests may write to (each test gets its own
schema there, dropped afterwards).

A :class:`Backend` opens stores on one fresh database and gives the tests what only an
operator or an attacker has: a raw connection (``?`` placeholders on both) and a way to edit
the log past the append-only triggers.
"""

from __future__ import annotations

import os
import sqlite3
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from spies_replay.store.backends import open_store
from spies_replay.store.protocols import EventStore

from .databases import POSTGRES_URL_VARIABLE

POSTGRES_SKIP_REASON = (
    f"PostgreSQL tests need {POSTGRES_URL_VARIABLE} (a database they may write to);"
    " .ci/postgres.sh starts a throwaway server and sets it"
)
BACKENDS = ["sqlite", "postgres"]


def postgres_base_url() -> str | None:
    return os.environ.get(POSTGRES_URL_VARIABLE) or None


class Backend:
    """One fresh database of one backend."""

    name: str
    location: str
    refused: tuple[type[BaseException], ...]
    """What the driver raises when the database refuses a raw statement."""

    def open(self, **options: Any) -> EventStore:
        """A store on this database (closed by the caller)."""
        return open_store(self.location, **options)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Run one raw statement (autocommit); the rows it returns."""
        raise NotImplementedError

    def force(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Run one raw statement with the append-only triggers out of the way."""
        raise NotImplementedError

    def migrations(self) -> list[str]:
        """The recorded migration names, in order (one table on every backend)."""
        return [row[0] for row in self.execute("SELECT name FROM schema_migrations ORDER BY name")]

    def insert_over_taken_seq(self) -> str:
        """A statement that writes an event over the taken seq 2 of every game."""
        raise NotImplementedError


class SQLiteBackend(Backend):
    name = "sqlite"
    refused = (sqlite3.IntegrityError,)

    def __init__(self, path: Path) -> None:
        self.location = str(path)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        conn = sqlite3.connect(self.location, isolation_level=None)
        try:
            return conn.execute(sql, params).fetchall()
        finally:
            conn.close()

    def force(self, sql: str, params: Sequence[Any] = ()) -> None:
        conn = sqlite3.connect(self.location, isolation_level=None)
        try:
            conn.execute("BEGIN")
            for name in ("events_no_update", "events_no_delete", "events_no_replace"):
                conn.execute(f"DROP TRIGGER {name}")
            conn.execute(sql, params)
            conn.execute("COMMIT")
        finally:
            conn.close()

    def insert_over_taken_seq(self) -> str:
        return (
            "INSERT OR REPLACE INTO events (game_id, seq, type, payload, recorded_at, hash)"
            " SELECT id, 2, 'x', '{}', 'now', 'h' FROM games"
        )


class PostgresBackend(Backend):
    name = "postgres"

    def __init__(self, base_url: str, schema: str) -> None:
        import psycopg

        self.refused = (psycopg.Error,)
        self.base_url = base_url
        self.schema = schema
        joiner = "&" if "?" in base_url else "?"
        self.location = f"{base_url}{joiner}options=-csearch_path%3D{schema}"

    @contextmanager
    def _raw(self) -> Iterator[Any]:
        import psycopg

        with psycopg.connect(self.location, autocommit=True) as conn:
            yield conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._raw() as conn:
            cursor = conn.execute(sql.replace("?", "%s"), params)
            return cursor.fetchall() if cursor.description else []

    def force(self, sql: str, params: Sequence[Any] = ()) -> None:
        with self._raw() as conn, conn.transaction():
            conn.execute("ALTER TABLE events DISABLE TRIGGER USER")
            conn.execute(sql.replace("?", "%s"), params)
            conn.execute("ALTER TABLE events ENABLE TRIGGER USER")

    def insert_over_taken_seq(self) -> str:
        return (
            "INSERT INTO events (game_id, seq, type, payload, recorded_at, hash)"
            " SELECT id, 2, 'x', '{}', 'now', 'h' FROM games"
            " ON CONFLICT (game_id, seq) DO UPDATE SET payload = excluded.payload"
        )


@contextmanager
def fresh_backend(name: str, tmp_path: Path) -> Iterator[Backend]:
    """A fresh database of backend ``name`` (skips PostgreSQL without its variable)."""
    if name == "sqlite":
        yield SQLiteBackend(tmp_path / "spies.db")
        return
    base = postgres_base_url()
    if base is None:
        pytest.skip(POSTGRES_SKIP_REASON)
    import psycopg

    schema = f"t_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield PostgresBackend(base, schema)
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
