"""Beliefs and sampled worlds never contradict the view they come from."""

from __future__ import annotations

import random
from typing import Any

import pytest

from spies_bots.spies_and_lies.belief import (
    consistent_rows,
    determinise,
    marginal,
    pool,
    public_row,
    tokens_out,
)
from spies_bots.spies_and_lies.expert import opponent_prior, wild_chance
from spies_core.decider import fold, start_game
from spies_core.spies_and_lies import SPEC
from spies_core.spies_and_lies.state import Phase, State

OPTIONS: list[dict[str, Any]] = [
    {},
    {"board_length": 1, "deception_reserve": "per-side"},
    {
        "intel_cards": [[1, 2, 3], [4, 5], [6, 7, 8, 9, 10], [1, 10], [2, 9], [4]],
        "deception_pays_on_forced_retreat": False,
    },
]


def _views(players: int, options: dict[str, Any], seed: int) -> list[tuple[State, int, Any]]:
    """Every (state, seat, view) of a random game, for every seat."""
    rng = random.Random(seed)
    state = fold(SPEC, start_game(SPEC, players, options, rng))
    found = []
    while SPEC.outcome(state) is None:
        found.extend((state, seat, SPEC.view(state, seat)) for seat in range(players))
        seat = rng.choice(sorted(SPEC.to_act(state)))
        command = rng.choice(SPEC.legal_commands(state, seat))
        for event in SPEC.decide(state, seat, command, rng):
            state = SPEC.evolve(state, event)
    return found


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("options", range(len(OPTIONS)))
def test_a_sampled_world_shows_the_seat_its_own_view(players: int, options: int) -> None:
    for seed in range(6):
        for state, seat, seen in _views(players, OPTIONS[options], seed):
            world = determinise(seen, random.Random(seed * 101 + seat))
            SPEC.check_invariants(world)
            assert SPEC.view(world, seat) == seen
            for acting in SPEC.to_act(world):
                assert SPEC.legal_commands(world, acting) or acting not in SPEC.to_act(state)


def test_sampled_worlds_vary_where_the_view_is_silent() -> None:
    """Over draws, the opponent's face-down soldiers take several values (not a copy of the
    real state), each of them allowed by the view."""
    for state, seat, seen in _views(2, {}, 5):
        if seen.phase is not Phase.MISSION or seen.turn != 1:
            continue
        rival = 1 - seat
        drawn = {
            determinise(seen, random.Random(i)).sides[rival].missions[3].rank for i in range(40)
        }
        hidden = seen.sides[rival].missions[3]
        known, tokens = public_row(seen.sides[rival].missions, tokens_out(seen))
        rows = consistent_rows(
            pool(seen.sides[rival].exhausted), known, tokens, seen.current_intel or ()
        )
        allowed = {rank for rank, _ in marginal(rows, 3)}
        assert hidden.rank is None
        assert drawn <= allowed
        assert state.sides[rival].missions[3].rank in allowed
        if len(allowed) > 2:
            assert len(drawn) > 1
        return
    pytest.fail("no mission phase reached")


@pytest.mark.parametrize("players", [2, 4])
def test_the_truth_is_always_among_the_consistent_deployments(players: int) -> None:
    for seed in range(8):
        for state, seat, seen in _views(players, {}, seed):
            rival = 1 - seat % 2
            side = seen.sides[rival]
            if not all(m.deployed for m in side.missions):
                continue
            known, tokens = public_row(side.missions, tokens_out(seen))
            rows = consistent_rows(pool(side.exhausted), known, tokens, seen.current_intel or ())
            truth = tuple(m.rank for m in state.sides[rival].missions)
            assert truth in rows


@pytest.mark.parametrize("players", [2, 4])
def test_a_world_drawn_with_the_experts_prior_shows_the_seat_its_own_view(players: int) -> None:
    """The expert weighs the opponent's deployments; the worlds it draws still agree with
    everything the seat sees."""
    for seed in range(3):
        for _, seat, seen in _views(players, {}, seed):
            prior = opponent_prior(seen, wild_chance(seen))
            world = determinise(seen, random.Random(seed * 53 + seat), prior)
            SPEC.check_invariants(world)
            assert SPEC.view(world, seat) == seen


def test_a_skewed_prior_draws_the_deployments_it_favours() -> None:
    """With a prior that favours one consistent deployment, that one is drawn most."""
    seat, seen = next((s, v) for _, s, v in _views(2, {}, 11) if v.phase is Phase.INTEL)
    rival = seen.sides[1 - seat]
    known, tokens = public_row(rival.missions, tokens_out(seen))
    rows = consistent_rows(pool(rival.exhausted), known, tokens, seen.current_intel or ())
    favourite = rows[-1]

    def prior(side: int, options: tuple[tuple[int, ...], ...]) -> list[float]:
        return [1e4 if row == favourite else 1.0 for row in options]

    drawn = []
    for draw in range(60):
        world = determinise(seen, random.Random(draw), prior)
        drawn.append(tuple(m.rank for m in world.sides[1 - seat].missions))
    assert len(rows) > 1
    assert drawn.count(favourite) > len(drawn) // 2
