"""Replays ``as`` a chosen seat: any seat once the game is over, only one's own before."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings
from spies_core.registry import get_game
from spies_core.step import Table, view_at
from spies_replay.reading import load_state, seat_names_at
from spies_replay.store.sqlite import SQLiteEventStore
from tests.support.api import Game, assert_problem, new_game, play_to_end, play_turn


def core_view(settings: Settings, game: Game, seq: int, seat: int | None) -> Any:
    """The core's view of ``seat`` after event ``seq``, as JSON (read from the log apart)."""
    with SQLiteEventStore(settings.db_path) as store:
        loaded = load_state(store, game.id, at=seq)
        record = loaded.record
        names = seat_names_at(store, game.id, seq)
        table = Table(record.players, record.options, names)
        view = view_at(get_game(record.game), loaded.state, seat, seq, None, table)
    return msgspec.json.decode(msgspec.json.encode(view))


def replay(
    client: TestClient[Litestar], game: Game, seq: int, seat: Any, headers: Any = None
) -> Any:
    return client.get(game.url(f"/replay/{seq}"), params={"as": seat}, headers=headers)


@pytest.mark.parametrize(("name", "players"), [("black-spy", 3), ("spies-and-lies", 2)])
def test_after_the_end_anyone_replays_as_any_seat(
    client: TestClient[Litestar], settings: Settings, name: str, players: int
) -> None:
    game = new_game(client, name, players)
    summary = play_to_end(client, game, random.Random(3))
    version = summary["version"]
    for seq in sorted({0, 1, version // 3, version // 2, version - 1, version}):
        for seat in range(players):
            expected = core_view(settings, game, seq, seat)
            anyone = replay(client, game, seq, seat)
            assert anyone.status_code == 200, anyone.text
            assert anyone.json() == expected
            assert anyone.json()["seat"] == seat
            # a token of another seat does not get in the way once the game is over
            other = replay(client, game, seq, seat, game.seats[(seat + 1) % players])
            assert other.json() == expected
    # the hands differ between seats (so `as` chose the view, not the token)
    mid = version // 2
    hands = [replay(client, game, mid, seat).json() for seat in range(players)]
    assert len({msgspec.json.encode(view).decode() for view in hands}) == players


def test_in_progress_as_another_seat_is_refused_and_reveals_nothing(
    client: TestClient[Litestar], settings: Settings
) -> None:
    game = new_game(client, "black-spy", 4)
    rng = random.Random(7)
    for _ in range(3):
        play_turn(client, game, rng)
    version = client.get(game.url()).json()["version"]
    hands = {seat: core_view(settings, game, version, seat)["hand"] for seat in range(4)}
    for seat in range(4):
        for headers in (None, game.seats[(seat + 1) % 4]):
            for seq in (0, version):
                refused = replay(client, game, seq, seat, headers)
                body = assert_problem(refused, 403, "replay-seat-hidden")
                assert msgspec.json.encode(hands[seat]).decode() not in refused.text
                assert "hand" not in body
        # its own token still replays as itself, with or without `as`
        own = replay(client, game, version, seat, game.seats[seat])
        assert own.status_code == 200 and own.json()["hand"] == hands[seat]
        assert own.json() == core_view(settings, game, version, seat)


def test_a_seat_the_game_does_not_have_is_404(client: TestClient[Litestar]) -> None:
    game = new_game(client, "black-spy", 3)
    seats = ["-1", "3", "4", "99999999999"]
    for seat in seats:
        assert_problem(replay(client, game, 0, seat), 404, "seat-not-found")
    play_to_end(client, game, random.Random(1))
    for seat in seats:
        assert_problem(replay(client, game, 0, seat), 404, "seat-not-found")


def test_a_seat_that_is_not_a_number_is_400(client: TestClient[Litestar]) -> None:
    game = new_game(client, "black-spy", 3)
    assert_problem(replay(client, game, 0, "x"), 400, "invalid-parameter")


def test_a_step_out_of_range_is_still_404_with_as(client: TestClient[Litestar]) -> None:
    game = new_game(client, "spies-and-lies", 2)
    summary = play_to_end(client, game, random.Random(2))
    step = summary["version"] + 1
    assert_problem(replay(client, game, step, 1), 404, "seq-out-of-range")
