"""The Spies & Lies bots play legally, deterministically and from their view alone.

Games are played out with 2 and 4 seats and under the creation options; at every decision
each bot under test is asked what it would play, and must answer one of the legal commands.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from spies_bots.registry import policy_for
from spies_core.decider import fold, start_game
from spies_core.spies_and_lies import SPEC
from spies_core.spies_and_lies.state import State
from spies_core.spies_and_lies.view import SpiesAndLiesView

GAME = "spies-and-lies"

OPTIONS: dict[str, dict[str, Any]] = {
    "default": {},
    "short-board": {"board_length": 1},
    "long-board": {"board_length": 6},
    "odd-intel": {
        "intel_cards": [[1, 2, 3], [4, 5], [6, 7, 8, 9, 10], [1, 10], [2, 9], [4]],
        "deception_pays_on_forced_retreat": False,
        "deception_reserve": "per-side",
    },
    "per-side": {"deception_reserve": "per-side", "deception_pays_on_forced_retreat": False},
    "dealt": {"deal": {"exhausted": [4, 10], "starting": 1}},
}


def _decisions(
    players: int, options: dict[str, Any], seed: int, seats: list[str]
) -> Iterator[tuple[State, int, SpiesAndLiesView, list[Any]]]:
    """Every decision of a game whose seats play the named bots."""
    rng = random.Random(seed)
    state = fold(SPEC, start_game(SPEC, players, options, rng))
    bots = [policy_for(name, GAME) for name in seats]
    bot_rngs = [random.Random(f"{seed}/{seat}") for seat in range(players)]
    while SPEC.outcome(state) is None:
        seat = rng.choice(sorted(SPEC.to_act(state)))
        seen = SPEC.view(state, seat)
        legal = SPEC.legal_commands(state, seat)
        yield state, seat, seen, legal
        command = bots[seat](seen, legal, bot_rngs[seat])
        assert command in legal
        for event in SPEC.decide(state, seat, command, rng):
            state = SPEC.evolve(state, event)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("options", list(OPTIONS), ids=list(OPTIONS))
def test_greedy_answers_legally_at_every_decision(players: int, options: str) -> None:
    greedy = policy_for("greedy", GAME)
    for seed in range(4):
        seats = ["random", "greedy", "random", "greedy"][:players]
        asked = 0
        for _, seat, seen, legal in _decisions(players, OPTIONS[options], seed, seats):
            assert greedy(seen, legal, random.Random(seed * 31 + seat)) in legal
            asked += 1
        assert asked > 0


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("options", ["default", "short-board", "odd-intel"])
def test_expert_answers_legally_at_every_decision(players: int, options: str) -> None:
    seats = ["expert", "greedy", "random", "expert"][:players]
    for seed in range(2):
        for _ in _decisions(players, OPTIONS[options], seed, seats):
            pass  # _decisions asserts each bot's answer is legal


@pytest.mark.parametrize("bot", ["greedy", "expert"])
def test_same_view_and_seed_give_the_same_command(bot: str) -> None:
    policy = policy_for(bot, GAME)
    for index, (_, _, seen, legal) in enumerate(_decisions(2, {}, 7, ["random", "random"])):
        if index % 3:
            continue
        first = policy(seen, legal, random.Random(index))
        assert policy(seen, legal, random.Random(index)) == first


def test_bots_see_only_the_view() -> None:
    """A state scrambled in everything the seat cannot see gives the same view, hence the
    same command: the policies receive nothing else."""
    policy = policy_for("expert", GAME)
    for index, (state, seat, seen, legal) in enumerate(_decisions(2, {}, 3, ["greedy", "random"])):
        if index % 4:
            continue
        other = SPEC.scramble(state, seat, random.Random(index))
        assert SPEC.view(other, seat) == seen
        assert SPEC.legal_commands(other, seat) == legal
        answer = policy(SPEC.view(other, seat), legal, random.Random(index))
        assert answer == policy(seen, legal, random.Random(index))
