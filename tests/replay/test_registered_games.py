"""Every registered game through the store: random playouts stored, verified, moved.

Generic over :data:`spies_core.registry.GAMES` (no game is named): each game is played to
its end with random legal commands through :func:`submit_command`, then verified from its
revealed seed, exported and imported with identical hashes, and viewed at every few steps.
"""

from __future__ import annotations

from pathlib import Path
from random import Random
from typing import Any

import pytest

from spies_api.game import create_game, submit_command
from spies_core.registry import GAMES, get_game
from spies_replay.reading import load_state, view_at
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import GameStatus
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.transfer import export_lines, import_game
from spies_replay.verify import Rederivation, verify_game


def _cases() -> list[Any]:
    cases = []
    for spec in GAMES.values():
        for players in sorted({spec.min_players, spec.max_players}):
            cases.append(pytest.param(spec.name, players, id=f"{spec.name}-{players}p"))
    return cases


def play_out(store: EventStore, game: str, players: int, seed: int) -> str:
    spec = get_game(game)
    rng = Random(seed)
    created = create_game(store, game, players, None, seed=f"playout-{seed}")
    game_id, state, version = created.record.id, created.state, created.record.version
    for _ in range(spec.max_events):
        if spec.outcome(state) is not None:
            break
        seat = rng.choice(sorted(spec.to_act(state)))
        command = rng.choice(spec.legal_commands(state, seat))
        result = submit_command(store, game_id, seat, command, state=state, version=version)
        state, version = result.state, result.version
    return game_id


@pytest.mark.parametrize(("game", "players"), _cases())
def test_a_stored_playout_verifies_moves_and_replays(
    tmp_path: Path, game: str, players: int
) -> None:
    with (
        SQLiteEventStore(tmp_path / "a.db", snapshot_every=16) as store,
        SQLiteEventStore(tmp_path / "b.db") as other,
    ):
        game_id = play_out(store, game, players, seed=players)
        record = store.get_game(game_id)
        assert record.status is GameStatus.FINISHED
        report = verify_game(store, game_id)
        assert report.ok, report.problem
        assert report.rederived is Rederivation.REVEALED_SEED
        import_game(other, export_lines(store, game_id))
        assert other.read_rows(game_id) == store.read_rows(game_id)
        spec = get_game(game)
        for at in range(0, record.version + 1, max(1, record.version // 12)):
            for seat in [None, *range(players)]:
                shown = view_at(other, game_id, at=at, seat=seat)
                assert shown.view.seat == seat
                assert spec.render_view(shown.view)
            assert (
                load_state(other, game_id, at=at).state == load_state(store, game_id, at=at).state
            )
