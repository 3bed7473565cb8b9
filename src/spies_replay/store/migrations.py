"""One way to migrate a database, for every backend: named migrations, one table, one runner.

Each backend keeps one ordered list of :class:`Migration` (SQLite:
:data:`spies_replay.store.sqlite_schema.MIGRATIONS`; PostgreSQL:
:data:`spies_replay.store.postgres_schema.MIGRATIONS`), each a name and the statements that
make it. :func:`migrate` runs in one write transaction that the backend holds alone (SQLite
``BEGIN IMMEDIATE``, PostgreSQL an advisory lock), so one process migrates while the others
wait and then find nothing to do: it records each migration it applies in the table
``schema_migrations`` (name, time), in that same transaction, and refuses a database that
records a migration this code does not know (written by a newer version:
``schema-too-new``). Append a new migration at the end of its list; never edit an applied
one.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

from spies_replay.errors import ReplayError
from spies_replay.store.records import utc_now

__all__ = [
    "APPEND_ONLY_MESSAGE",
    "MIGRATIONS_TABLE",
    "Migration",
    "MigrationCursor",
    "applied_migrations",
    "migrate",
    "pending_migrations",
]

MIGRATIONS_TABLE: Final = "schema_migrations"
"""The table that records the applied migrations, on every backend."""

APPEND_ONLY_MESSAGE: Final = "events are append-only"
"""What the database says when something tries to change or remove an event."""

_CREATE_TABLE: Final = (
    f"CREATE TABLE IF NOT EXISTS {MIGRATIONS_TABLE}"
    " (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
)


@dataclass(frozen=True, slots=True)
class Migration:
    """One named step of a schema.

    Attributes:
        name: its name, recorded once applied (``m001_initial``, ...): the order is the
            list's.
        statements: the SQL it runs, in order, each one statement given as is (no
            parameters).
    """

    name: str
    statements: tuple[str, ...]


class MigrationCursor(Protocol):
    """The part of a connection, inside the migrating transaction, the runner uses:
    one statement at a time, with ``?`` placeholders when it has parameters."""

    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Any: ...


def applied_migrations(conn: MigrationCursor) -> list[str]:
    """The recorded migrations' names, in the order they ran (the table must exist)."""
    rows = conn.execute(f"SELECT name FROM {MIGRATIONS_TABLE} ORDER BY name").fetchall()
    return [row[0] for row in rows]


def pending_migrations(applied: Collection[str], migrations: Sequence[Migration]) -> list[str]:
    """The names of ``migrations`` not in ``applied``, in order."""
    return [migration.name for migration in migrations if migration.name not in applied]


def migrate(conn: MigrationCursor, migrations: Sequence[Migration]) -> list[str]:
    """Apply and record the migrations the database lacks, in order, in the caller's
    transaction; returns their names.

    Raises:
        ReplayError: the database records a migration that is not in ``migrations``
            (code ``schema-too-new``); nothing is applied.
    """
    conn.execute(_CREATE_TABLE)
    applied = set(applied_migrations(conn))
    unknown = applied - {migration.name for migration in migrations}
    if unknown:
        raise ReplayError(
            f"the database has migrations this spies_replay does not know"
            f" ({', '.join(sorted(unknown))}); upgrade spies-engine",
            code="schema-too-new",
        )
    done = []
    for migration in migrations:
        if migration.name in applied:
            continue
        for statement in migration.statements:
            conn.execute(statement)
        conn.execute(
            f"INSERT INTO {MIGRATIONS_TABLE} (name, applied_at) VALUES (?, ?)",
            (migration.name, utc_now()),
        )
        done.append(migration.name)
    return done
