"""Shared fixtures of the attack tests: apps on temporary databases, servers on real
sockets (in a thread, or as ``spies-api`` subprocesses), and snapshots of the whole log."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.servers import free_port, serve_in_thread, wait_until_up

__all__ = [
    "ServerProcess",
    "free_port",
    "log_snapshot",
    "serve_in_thread",
    "wait_until_up",
]


class ServerProcess:
    """``spies-api`` as a subprocess (the installed console script's code, ``-m spies_api``).

    Args:
        db: the database: a file, or a ``postgresql://`` URL.
        log: where its stderr (JSON log lines) goes.
        extra: more command-line arguments; ``--rate-limit off``,
            ``--max-bot-games-per-client off`` and ``--max-games-per-client off`` unless
            they give them.
    """

    def __init__(self, db: Path | str, log: Path, *extra: str) -> None:
        self.db = db
        self.log = log
        self.extra = extra
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        """Start on a fresh free port and wait until it answers."""
        self.port = free_port()
        with self.log.open("ab") as stderr:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "spies_api", "--db", str(self.db), "--port", str(self.port)]
                + ([] if "--rate-limit" in self.extra else ["--rate-limit", "off"])
                + [
                    word
                    for quota in ("--max-bot-games-per-client", "--max-games-per-client")
                    if quota not in self.extra
                    for word in (quota, "off")
                ]
                + list(self.extra),
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        try:
            wait_until_up(self.base)
        except AssertionError:
            self.kill()
            raise
        return self

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, no goodbye."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)
        self.process = None

    def stop(self) -> None:
        """SIGTERM and wait (a graceful stop); SIGKILL if it does not stop."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
        self.process = None


@pytest.fixture
def servers() -> Iterator[list[ServerProcess]]:
    """A list to put started servers in; every one is stopped at the end, whatever happens."""
    started: list[ServerProcess] = []
    try:
        yield started
    finally:
        for server in started:
            server.kill()


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
