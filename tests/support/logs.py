"""A log read from outside the server: every stored row a request could change, and
``spies-replay verify --all`` run as the console script."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

__all__ = ["log_snapshot", "verify_with_console_script"]


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


def verify_with_console_script(db: Path | str) -> str:
    """``spies-replay --db DB verify --all``, which must pass; what it printed."""
    script = shutil.which("spies-replay") or str(Path(sys.executable).with_name("spies-replay"))
    done = subprocess.run(
        [script, "--db", str(db), "verify", "--all"], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout
