"""Players' seats in the store (both backends): a seat a player takes is recorded in the very
write that gives the seat its token, the creation's transaction or the join's append
(PostgreSQL's ``spies_append``), so no failure leaves a seat taken without its owner, nor
an owner of a seat nobody took."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import msgspec
import pytest

from spies_api.game import append_seat_change, create_game, prepare_seat_change, read_seats
from spies_replay.errors import RematchExistsError, ReplayError, VersionConflictError
from spies_replay.meta import SeatJoined, SeatState, SeatType
from spies_replay.store.keyring import KeyDatabase
from spies_replay.store.players import add_player, owned_seats, seat_owner
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import SeatOwner, hash_token
from tests.support.backends import Backend
from tests.support.counter import finish, new_game
from tests.support.countergame import GAMES

ADA = SeatOwner("ada", "salt-ada")
BO = SeatOwner("bo", "salt-bo")


@pytest.fixture
def store(backend: Backend) -> Iterator[EventStore]:
    with backend.open() as opened:
        assert isinstance(opened, KeyDatabase)
        for player in (ADA, BO):
            add_player(opened, player.player_id, hash_token(player.player_id), None, "2026-01-01Z")
        yield opened


def lobby(store: EventStore) -> str:
    """A counter game whose seat 1 is open (seat 0 the creator's)."""
    seats = [SeatState(seat=0), SeatState(seat=1, type=SeatType.OPEN)]
    created = create_game(
        store, "counter", 2, {}, seats=seats, tokens={0: "creator-token"}, games=GAMES
    )
    return created.record.id


def owned(store: EventStore, player: SeatOwner) -> list[tuple[str, int, str]]:
    assert isinstance(store, KeyDatabase)
    seats, _ = owned_seats(store, player.player_id, limit=10, offset=0)
    return [(s.game_id, s.seat, s.token_salt) for s in seats]


def test_a_join_records_its_owner_with_its_token(store: EventStore) -> None:
    game_id = lobby(store)
    table = read_seats(store, game_id, games=GAMES)
    joined = SeatJoined(seat=1, name="Ada")
    append_seat_change(
        store, table, joined, token_hash=hash_token("ada-seat"), owner=ADA, games=GAMES
    )
    assert store.check_token(game_id, "ada-seat") == 1
    assert isinstance(store, KeyDatabase)
    assert seat_owner(store, game_id, 1) == ADA
    assert seat_owner(store, game_id, 0) is None  # the creator's seat is nobody's
    assert owned(store, ADA) == [(game_id, 1, ADA.token_salt)]


def test_a_join_that_loses_its_race_records_no_owner(store: EventStore) -> None:
    game_id = lobby(store)
    table = read_seats(store, game_id, games=GAMES)
    append_seat_change(
        store, table, SeatJoined(seat=1, name="Cy"), token_hash=hash_token("cy"), games=GAMES
    )
    with pytest.raises(VersionConflictError):  # decided on the seats as they were
        append_seat_change(
            store,
            table,
            SeatJoined(seat=1, name="Bo"),
            token_hash=hash_token("bo"),
            owner=BO,
            games=GAMES,
        )
    assert owned(store, BO) == []
    assert store.check_token(game_id, "bo") is None


def test_a_join_failing_after_its_owner_is_written_leaves_neither(
    store: EventStore, backend: Backend
) -> None:
    """The owner's row is written before the events in the one transaction: an event the
    database refuses after it (a payload that breaks ``NOT NULL``) takes the owner, the
    token and the seat's holder back with it."""
    game_id = lobby(store)
    table = read_seats(store, game_id, games=GAMES)
    prepared = prepare_seat_change(
        table.record,
        table.seats,
        SeatJoined(seat=1, name="Ada"),
        log=table.log,
        token_hash=hash_token("ada-seat"),
        owner=ADA,
    )
    rows = prepared.append.rows
    # the database's NOT NULL refuses the last row, written after the seat and its owner
    broken = [*rows[:-1], msgspec.structs.replace(rows[-1], payload=None)]
    with pytest.raises((ReplayError, *backend.refused)):
        store.append(dataclasses.replace(prepared.append, rows=broken))
    assert owned(store, ADA) == []
    assert store.check_token(game_id, "ada-seat") is None
    assert store.seat_states(game_id)[1].type is SeatType.OPEN
    assert store.get_game(game_id).version == table.record.version
    # and the same join, whole, goes through
    store.append(prepared.append)
    assert owned(store, ADA) == [(game_id, 1, ADA.token_salt)]


def test_a_creation_records_its_owners_and_a_refused_one_none(store: EventStore) -> None:
    first = new_game(store).record.id
    finish(store, first)
    rematch = create_game(
        store,
        "counter",
        2,
        {},
        rematch_of=first,
        tokens={0: "ada-rematch"},
        owners={0: ADA},
        games=GAMES,
    ).record.id
    assert owned(store, ADA) == [(rematch, 0, ADA.token_salt)]
    with pytest.raises(RematchExistsError):  # the link is refused after the seats are written
        create_game(
            store,
            "counter",
            2,
            {},
            game_id="second-rematch",
            rematch_of=first,
            tokens={1: "bo-rematch"},
            owners={1: BO},
            games=GAMES,
        )
    assert owned(store, BO) == []
