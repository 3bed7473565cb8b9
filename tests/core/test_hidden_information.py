"""Hidden information, generic over the registry, at the level of the rules core.

For random playouts of every game, at every step, for every seat and the spectator:

- the viewer's view and legal commands are identical in the real state and in a state that
  differs only in what the viewer cannot see (``spec.scramble``: other hands, deck orders,
  face-down soldiers);
- the events of the next command, redacted for the viewer, are identical in both worlds
  whenever the viewer still cannot tell the worlds apart afterwards. If an event showed the
  viewer something its view does not (a deck order, another seat's pass), the two worlds
  would give different redacted events with equal views, and the test fails.

The same checks are made over HTTP in ``tests/attack/``.
"""

from __future__ import annotations

import os
from random import Random
from typing import Any

import pytest

from spies_core import GAMES, fold, start_game
from spies_core.decider import GameSpec
from spies_core.rng import FairRng

PLAYOUTS = int(os.environ.get("SPIES_HIDDEN_INFO_GAMES", "24"))


def _cases() -> list[Any]:
    cases = []
    for spec in GAMES.values():
        for players in sorted(spec.seat_counts):
            cases.append(pytest.param(spec.name, players, id=f"{spec.name}-{players}p"))
    return cases


def _apply(spec: GameSpec[Any, Any, Any, Any, Any], state: Any, events: list[Any]) -> Any:
    for event in events:
        state = spec.evolve(state, event)
    return state


def _redacted(
    spec: GameSpec[Any, Any, Any, Any, Any], events: list[Any], viewer: int | None
) -> list[Any]:
    return [r for r in (spec.redact(e, viewer) for e in events) if r is not None]


def _check_worlds(
    spec: GameSpec[Any, Any, Any, Any, Any],
    state: Any,
    viewer: int | None,
    move: tuple[int, Any],
    seed: bytes,
    version: int,
    rng: Random,
) -> bool:
    """Compare the real world with a scrambled one for ``viewer``; True if the next
    command could be compared."""
    other = spec.scramble(state, viewer, rng)
    assert spec.view(other, viewer) == spec.view(state, viewer), f"view of {viewer} leaks"
    if viewer is not None:
        assert spec.legal_commands(other, viewer) == spec.legal_commands(state, viewer)
    seat, command = move
    if command not in spec.legal_commands(other, seat):
        return False
    real = spec.decide(state, seat, command, FairRng(seed, version))
    scrambled = spec.decide(other, seat, command, FairRng(seed, version))
    after_real, after_scrambled = _apply(spec, state, real), _apply(spec, other, scrambled)
    if spec.view(after_real, viewer) != spec.view(after_scrambled, viewer):
        return True  # the command legitimately showed the viewer something new
    assert _redacted(spec, real, viewer) == _redacted(spec, scrambled, viewer), (
        f"events of seat {seat}'s {command} tell viewer {viewer} more than its view"
    )
    return True


@pytest.mark.parametrize(("name", "players"), _cases())
def test_views_legal_lists_and_redacted_events_ignore_hidden_state(name: str, players: int) -> None:
    spec = GAMES[name]
    compared = 0
    for game in range(PLAYOUTS):
        rng = Random(game)
        seed = (game + 1000).to_bytes(32, "big")
        events = start_game(spec, players, {}, FairRng(seed, 0))
        state = fold(spec, events)
        while spec.outcome(state) is None:
            moves = [
                (seat, command)
                for seat in sorted(spec.to_act(state))
                for command in spec.legal_commands(state, seat)
            ]
            move = rng.choice(moves)
            for viewer in [*range(players), None]:
                compared += _check_worlds(spec, state, viewer, move, seed, len(events), rng)
            new = spec.decide(state, move[0], move[1], FairRng(seed, len(events)))
            state = _apply(spec, state, new)
            events += new
    assert compared > 0
