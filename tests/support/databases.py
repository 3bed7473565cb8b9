"""A PostgreSQL database of each pytest-xdist worker's own.

The PostgreSQL tests take their database from ``SPIES_TEST_POSTGRES_URL`` and make a schema
of their own in it; servers on one database also share its notifications (``LISTEN``),
whatever their schema. So each xdist worker gets a database of its own, created from the
URL's at the start of the worker and dropped at its end, and the variable points the
worker (and every process it starts) there. A run on one process keeps the URL's database.
"""

from __future__ import annotations

import contextlib
import os
from urllib.parse import urlsplit, urlunsplit

__all__ = ["POSTGRES_URL_VARIABLE", "drop_database", "worker_database"]

POSTGRES_URL_VARIABLE = "SPIES_TEST_POSTGRES_URL"


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def worker_database(url: str, worker: str) -> str:
    """Create a fresh database for ``worker`` on the server of ``url``; its URL.

    The name carries the process id, so runs of several people on one server never meet.
    """
    import psycopg
    from psycopg import sql

    base = urlsplit(url).path.lstrip("/") or "postgres"
    name = f"{base}_{worker}_{os.getpid()}"[:63]
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return _with_database(url, name)


def drop_database(admin_url: str, url: str) -> None:
    """Drop the database of ``url`` through the server of ``admin_url`` (its connections
    are closed first: a test's server that was killed may have left one)."""
    import psycopg
    from psycopg import sql

    name = urlsplit(url).path.lstrip("/")
    with (
        contextlib.suppress(psycopg.Error),
        psycopg.connect(admin_url, autocommit=True) as conn,
    ):
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
