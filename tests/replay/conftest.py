"""Fixtures for the replay-log tests: a store on a temporary file, with the counter game
(its helpers are in :mod:`tests.support.counter`), and a fresh database of each backend
(``backend``: SQLite, and PostgreSQL when ``SPIES_TEST_POSTGRES_URL`` is set), which the
store contract's modules open their stores on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from spies_replay.store.protocols import EventStore
from spies_replay.store.sqlite import SQLiteEventStore
from tests.support.backends import BACKENDS, Backend, fresh_backend
from tests.support.counter import append, finish, new_game, play

__all__ = ["append", "backend", "db_path", "finish", "new_game", "play", "postgres", "store"]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "spies.db"


@pytest.fixture
def store(db_path: Path) -> Iterator[EventStore]:
    with SQLiteEventStore(db_path, snapshot_every=8) as opened:
        yield opened


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    with fresh_backend(request.param, tmp_path) as found:
        yield found


@pytest.fixture
def postgres(tmp_path: Path) -> Iterator[Backend]:
    """A fresh PostgreSQL database (its module is skipped without one to make)."""
    with fresh_backend("postgres", tmp_path) as found:
        yield found
