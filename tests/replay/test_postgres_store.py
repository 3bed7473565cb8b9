"""What only the PostgreSQL backend has: one-line errors for a database that cannot be used,
its recorded migrations, and the notification every append sends (the wake-up of streams in
other processes). Skipped without ``SPIES_TEST_POSTGRES_URL``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from spies_replay.codec import FORMAT_3, seal
from spies_replay.errors import StoreUnavailableError
from spies_replay.store.backends import open_store
from spies_replay.store.postgres_listen import heard as heard_notice
from spies_replay.store.postgres_schema import MIGRATIONS
from spies_replay.store.records import Append, Appended, utc_now
from tests.support.backends import POSTGRES_SKIP_REASON, Backend, fresh_backend, postgres_base_url
from tests.support.counter import new_game, play
from tests.support.countergame import CounterTurnPassed

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
        (lambda url: with_user(url, "no_such_user"), '"no_such_user" does not exist'),
    ],
)
def test_a_database_that_cannot_be_used_is_one_line(change: object, reason: str) -> None:
    base = postgres_base_url()
    assert base is not None and callable(change)
    url = change(base)
    with pytest.raises(StoreUnavailableError) as caught:
        open_store(url)
    message = caught.value.message
    assert reason in message and "\n" not in message and "secret" not in message


def test_migrations_are_recorded_in_schema_migrations(backend: Backend) -> None:
    backend.open().close()
    rows = backend.execute("SELECT name, applied_at FROM schema_migrations")
    assert [row[0] for row in rows] == [migration.name for migration in MIGRATIONS]
    assert rows[-1][0] == "m011_heads"
    assert all(row[1].endswith("Z") for row in rows)


def test_a_database_recorded_before_m005_gets_the_append_as_it_is_now(backend: Backend) -> None:
    """A database an older version migrated (``m003`` made the append's functions without
    the seq check) gets them from ``m005`` as ``APPEND_FUNCTIONS`` writes them now."""
    backend.open().close()
    backend.execute("DROP FUNCTION spies_append_many(jsonb)")
    backend.execute("DROP FUNCTION spies_append(jsonb)")
    backend.execute("DELETE FROM schema_migrations WHERE name = 'm005_append_checks_seqs'")
    with backend.open() as store:
        record = new_game(store).record
        rows = seal(
            record.head_hash,
            record.version + 2,
            [CounterTurnPassed(seat=0)],
            recorded_at=utc_now(),
            log=FORMAT_3,
        )
        gap = Append(
            game_id=record.id, version=record.version, head_hash=record.head_hash, rows=rows
        )
        with pytest.raises(ValueError, match="follow"):
            store.append(gap)
        play(store, record.id, 1)
    assert "m005_append_checks_seqs" in backend.migrations()  # recorded again


def test_every_append_notifies_its_game(backend: Backend) -> None:
    import psycopg

    with backend.open() as store, psycopg.connect(backend.location, autocommit=True) as listener:
        listener.execute("LISTEN spies_events")
        game_id = new_game(store).record.id
        play(store, game_id, 2)
        heard = [heard_notice(n.payload) for n in listener.notifies(timeout=10.0, stop_after=2)]
        record = store.get_game(game_id)
    assert [notice.game_id for notice in heard] == [game_id, game_id]
    first, last = (notice.version or 0 for notice in heard)
    assert 0 < first < last == record.version  # each its append's: the game's row after it
    assert heard[-1].head_hash == record.head_hash


def test_a_notice_of_an_older_engine_tells_the_game_alone() -> None:
    """During a rolling upgrade an engine from before ``m007`` may still notify the game id
    alone: a wake-up that tells nothing else (the listener reads the store, as before)."""
    assert heard_notice("g-1") == Appended(game_id="g-1")
    assert not heard_notice("g-1").told
    assert heard_notice("{not json") == Appended(game_id="{not json")
    notice = '{"game_id":"g-1","version":7,"head_hash":"ab","due_at":null,"finished":false}'
    assert heard_notice(notice) == Appended(game_id="g-1", version=7, head_hash="ab")


def test_a_token_is_found_by_its_index(backend: Backend) -> None:
    """``find_token`` (an unknown bearer token: 401 or 403?) can read the index of token
    hashes rather than every seat."""
    import psycopg

    with backend.open() as store:
        created = new_game(store)
        assert store.find_token(created.tokens[0]) == (created.record.id, 0)
        assert store.find_token("not-a-token") is None
    with psycopg.connect(backend.location, autocommit=True) as conn:
        indexes = [
            row[0]
            for row in conn.execute("SELECT indexdef FROM pg_indexes WHERE tablename = 'seats'")
        ]
        conn.execute("SET enable_seqscan = off")  # a table this small is scanned otherwise
        plan = " ".join(
            row[0]
            for row in conn.execute(
                "EXPLAIN SELECT game_id, seat FROM seats WHERE token_hash = %s LIMIT 1", ("0" * 64,)
            )
        )
    assert any(index.endswith("(token_hash)") for index in indexes), indexes
    assert "seats_token_hash" in plan, plan
