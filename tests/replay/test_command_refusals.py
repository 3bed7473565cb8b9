"""The application layer refuses a command on its head in one place and one order
(:func:`spies_api.game.commands.prepare_command`): a finished game first, then a stale
version (the caller's strict one, then the API's own stale-version refusal handed down as
data), then the rules. Each refusal is the store's own typed error, so the store's append
stays the authority: these are only the early answers, before anything is decided."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from spies_api.game import load_head, prepare_command
from spies_core.errors import RuleError
from spies_replay.errors import GameFinishedError, VersionConflictError
from spies_replay.store.protocols import EventStore
from spies_replay.store.sqlite import SQLiteEventStore
from tests.support.counter import finish, new_game, play
from tests.support.countergame import GAMES, Bump

SPEC = GAMES["counter"]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EventStore]:
    with SQLiteEventStore(tmp_path / "refusals.db") as opened:
        yield opened


def test_a_finished_game_is_refused_before_a_stale_version(store: EventStore) -> None:
    game_id = new_game(store).record.id
    final = finish(store, game_id)
    head = load_head(store, game_id, games=GAMES)
    stale = VersionConflictError(game_id, final - 1, final)
    with pytest.raises(GameFinishedError):
        prepare_command(SPEC, head, 0, Bump(by=1), expected_version=final - 1, stale=stale)


def test_a_stale_version_is_refused_before_the_rules_decide(store: EventStore) -> None:
    game_id = new_game(store).record.id
    version = play(store, game_id, 2)
    head = load_head(store, game_id, games=GAMES)
    idle = 1 - head.state.turn  # the rules would refuse this seat: it is not its turn
    with pytest.raises(RuleError):
        prepare_command(SPEC, head, idle, Bump(by=1))
    with pytest.raises(VersionConflictError) as caught:
        prepare_command(SPEC, head, idle, Bump(by=1), expected_version=version - 1)
    assert (caught.value.expected_version, caught.value.current_version) == (version - 1, version)


def test_the_callers_stale_version_refusal_comes_after_the_strict_version(
    store: EventStore,
) -> None:
    game_id = new_game(store).record.id
    version = play(store, game_id, 2)
    head = load_head(store, game_id, games=GAMES)
    seat = head.state.turn
    mine = VersionConflictError(game_id, version - 2, version)
    with pytest.raises(VersionConflictError) as caught:
        prepare_command(SPEC, head, seat, Bump(by=1), expected_version=version - 1, stale=mine)
    assert caught.value is not mine and caught.value.expected_version == version - 1
    with pytest.raises(VersionConflictError) as handed:
        prepare_command(SPEC, head, seat, Bump(by=1), stale=mine)
    assert handed.value is mine
    prepared = prepare_command(SPEC, head, seat, Bump(by=1), expected_version=version)
    assert prepared.append.version == version  # sealed after the head it was decided on
