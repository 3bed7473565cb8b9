"""The players' tables, on every backend (the store contract's part for players): a player
is found by its token's hash only, its seats are recorded once and listed newest first, and
the token itself is stored nowhere.

SQLite always; PostgreSQL when ``SPIES_TEST_POSTGRES_URL`` is set (skipped otherwise).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from spies_replay.store.keyring import KeyDatabase
from spies_replay.store.players import (
    MIGRATION_NAME,
    add_player,
    find_player,
    own_seat,
    owned_seats,
)
from spies_replay.store.records import hash_token
from tests.support.backends import Backend


@pytest.fixture
def store(backend: Backend) -> Iterator[KeyDatabase]:
    with backend.open() as opened:
        assert isinstance(opened, KeyDatabase)
        yield opened


def test_the_migration_makes_the_tables(backend: Backend) -> None:
    backend.open().close()
    assert MIGRATION_NAME in backend.migrations()
    assert backend.execute("SELECT COUNT(*) FROM players")[0][0] == 0
    assert backend.execute("SELECT COUNT(*) FROM player_seats")[0][0] == 0


def test_a_player_is_found_by_its_tokens_hash_and_the_token_is_not_stored(
    store: KeyDatabase, backend: Backend
) -> None:
    token = "player.secret-token"
    added = add_player(store, "p1", hash_token(token), "Ada", "2026-12-01T00:00:00.000000Z")
    assert find_player(store, hash_token(token)) == added
    assert find_player(store, hash_token("player.other")) is None
    assert find_player(store, token) is None  # the hash column never matches the token
    stored = " ".join(str(cell) for row in backend.execute("SELECT * FROM players") for cell in row)
    assert token not in stored and hash_token(token) in stored


def test_one_token_hash_is_one_player(store: KeyDatabase) -> None:
    add_player(store, "p1", hash_token("player.a"), None, "2026-12-01T00:00:00.000000Z")
    with pytest.raises(Exception):  # noqa: B017, PT011  (each backend's unique violation)
        add_player(store, "p2", hash_token("player.a"), None, "2026-12-01T00:00:00.000000Z")
    assert find_player(store, hash_token("player.a")) is not None


def test_seats_are_recorded_once_and_listed_newest_first_in_pages(store: KeyDatabase) -> None:
    add_player(store, "p1", hash_token("player.a"), None, "2026-12-01T00:00:00.000000Z")
    add_player(store, "p2", hash_token("player.b"), None, "2026-12-01T00:00:00.000000Z")
    for second, game in enumerate(["g1", "g2", "g3"]):
        own_seat(store, "p1", game, 0, f"salt-{game}", f"2026-12-01T00:00:0{second}.000000Z")
    own_seat(store, "p1", "g2", 1, "salt-g2-1", "2026-12-01T00:00:09.000000Z")
    own_seat(store, "p1", "g1", 0, "another-salt", "2026-12-01T00:00:10.000000Z")  # a repeat
    own_seat(store, "p2", "g4", 0, "salt-g4", "2026-12-01T00:00:05.000000Z")
    first, total = owned_seats(store, "p1", limit=2, offset=0)
    rest, _ = owned_seats(store, "p1", limit=2, offset=2)
    assert total == 4
    assert [(s.game_id, s.seat) for s in first + rest] == [
        ("g2", 1),
        ("g3", 0),
        ("g2", 0),
        ("g1", 0),
    ]
    assert rest[-1].token_salt == "salt-g1"  # the first record is kept
    assert owned_seats(store, "p2", limit=10, offset=0)[1] == 1
    assert owned_seats(store, "nobody", limit=10, offset=0) == ([], 0)
