"""Shared fixtures of the attack tests: apps on temporary databases, servers on real
sockets (in a thread, or as ``spies-api`` subprocesses), and snapshots of the whole log."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.servers import ServerProcess, free_port, serve_in_thread, wait_until_up

__all__ = [
    "ServerProcess",
    "free_port",
    "log_snapshot",
    "serve_in_thread",
    "wait_until_up",
]


@pytest.fixture
def servers() -> Iterator[list[ServerProcess]]:
    """A list to put started servers in; every one is stopped at the end, whatever happens."""
    started: list[ServerProcess] = []
    try:
        yield started
    finally:
        for server in started:
            server.close()


def log_snapshot(db: Path | str) -> dict[str, Any]:
    """Every stored row that a request could change: games, events, seats, idempotency."""
    if str(db).startswith("postgresql://"):
        import psycopg  # noqa: PLC0415  (only with PostgreSQL)

        with psycopg.connect(str(db)) as pg:
            return {
                table: [
                    tuple(row)
                    for row in pg.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
                ]
                for table in ("games", "events", "seats", "idempotency", "seeds")
            }
    conn = sqlite3.connect(db)
    try:
        return {
            table: conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
            for table in ("games", "events", "seats", "idempotency", "seeds")
        }
    finally:
        conn.close()


# The API tests' fixtures (an app on a temporary database, a test client whose every response
# is checked against the OpenAPI document) serve the attack tests too.
from tests.api.conftest import app, checker, client, settings  # noqa: E402, F401
