"""A game in a store played to its end by random legal commands, below the API."""

from __future__ import annotations

from random import Random

from spies_api.game import load_head, submit_command
from spies_core.registry import get_game
from spies_replay.store.protocols import EventStore

__all__ = ["play_out"]


def play_out(store: EventStore, game_id: str, seed: int) -> None:
    """Play ``game_id`` to its end: the lowest seat to act sends a legal command chosen by
    ``Random(seed)``, each at the version the last one left."""
    spec = get_game(store.get_game(game_id).game)
    rng = Random(seed)
    head = load_head(store, game_id)
    state, version = head.state, head.version
    while spec.outcome(state) is None:
        seat = min(spec.to_act(state))
        command = rng.choice(spec.legal_commands(state, seat))
        result = submit_command(store, game_id, seat, command, state=state, version=version)
        state, version = result.state, result.version
