"""Helpers for the Black Spy bot tests: seeded games played by bots, decision by decision."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from spies_bots.base import Policy
from spies_core import fold, get_game, start_game
from spies_core.black_spy.state import Phase, State
from spies_core.black_spy.view import BlackSpyView
from spies_core.decider import GameSpec

SPEC: GameSpec[State, Any, Any, BlackSpyView, Any] = get_game("black-spy")
OPTION_SETS: dict[str, dict[str, Any]] = {
    "modern": {},
    "no-good-spies": {"no_good_spies": True},
    "classic": {"classic": True},
}


@dataclass(frozen=True)
class Decision:
    """One seat about to act: the true state, and what the seat's bot is given."""

    state: State
    seat: int
    view: BlackSpyView
    legal: list[Any]
    command: Any
    """What the seat's policy chose."""


def decisions(
    players: int,
    policies: Sequence[Policy],
    *,
    seed: int,
    options: dict[str, Any] | None = None,
    deals: int = 1,
) -> Iterator[Decision]:
    """Play a seeded game, seat ``s`` by ``policies[s]``, for at most ``deals`` deals (or to
    its end), yielding every decision before it is applied."""
    rng = Random(seed)
    state = fold(SPEC, start_game(SPEC, players, options or {}, rng))
    bots = [Random(seed * 10 + s) for s in range(players)]
    while SPEC.outcome(state) is None and state.deal <= deals:
        acting = sorted(SPEC.to_act(state))
        seat = acting[rng.randrange(len(acting))] if state.phase is Phase.PASSING else acting[0]
        view = SPEC.view(state, seat)
        legal = SPEC.legal_commands(state, seat)
        command = policies[seat](view, legal, bots[seat])
        yield Decision(state, seat, view, legal, command)
        assert command in legal, f"seat {seat} chose {command!r}, not a legal command"
        for event in SPEC.decide(state, seat, command, rng):
            state = SPEC.evolve(state, event)
