"""What only the PostgreSQL backend has: one-line errors for a database that cannot be used,
its recorded migrations, and the notification every append sends (the wake-up of streams in
other processes). Skipped without ``SPIES_TEST_POSTGRES_URL``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from spies_replay.errors import StoreUnavailableError
from spies_replay.store.backends import open_store
from tests.support.backends import POSTGRES_SKIP_REASON, Backend, fresh_backend, postgres_base_url
from tests.support.counter import new_game, play
from tests.support.countergame import GAMES

pytestmark = pytest.mark.skipif(postgres_base_url() is None, reason=POSTGRES_SKIP_REASON)


@pytest.fixture
def backend(tmp_path: Path) -> Iterator[Backend]:
    with fresh_backend("postgres", tmp_path) as found:
        yield found


def with_path(url: str, database: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{database}"))


def with_user(url: str, user: str) -> str:
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{user}:secret@{host}"))


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda url: with_path(url, "no_such_database"), "does not exist"),
        (lambda url: with_user(url, "no_such_user"), "no such user"),
    ],
)
def test_a_database_that_cannot_be_used_is_one_line(change: object, reason: str) -> None:
    base = postgres_base_url()
    assert base is not None and callable(change)
    url = change(base)
    with pytest.raises(StoreUnavailableError) as caught:
        open_store(url, games=GAMES)
    message = caught.value.message
    assert reason in message and "\n" not in message and "secret" not in message


def test_migrations_are_recorded_in_schema_migrations(backend: Backend) -> None:
    backend.open().close()
    rows = backend.execute("SELECT name, applied_at FROM schema_migrations")
    assert [row[0] for row in rows] == [
        "m001_initial",
        "m002_due_work",
        "m003_append_function",
        "m005_signing_keys",
    ]
    assert all(row[1].endswith("Z") for row in rows)


def test_every_append_notifies_its_game(backend: Backend) -> None:
    import psycopg

    with backend.open() as store, psycopg.connect(backend.location, autocommit=True) as listener:
        listener.execute("LISTEN spies_events")
        game_id = new_game(store).record.id
        play(store, game_id, 2)
        heard = [note.payload for note in listener.notifies(timeout=2.0, stop_after=2)]
    assert heard == [game_id, game_id]
