"""Every Black Spy bot returns one of the legal commands, at every seat count and option
set, and the same one again for the same view and seed."""

from __future__ import annotations

from random import Random

import pytest

from spies_bots.black_spy import POLICIES
from spies_bots.random_bot import choose as random_choice
from tests.bots.black_spy.helpers import OPTION_SETS, decisions


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_greedy_plays_whole_games_legally(players: int, options: str) -> None:
    greedy = POLICIES["greedy"]
    for seed in range(3):
        seats = [greedy if s % 2 else random_choice for s in range(players)]
        steps = 0
        for d in decisions(players, seats, seed=seed, options=OPTION_SETS[options], deals=99):
            assert d.command in d.legal
            steps += 1
        assert steps > 60


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_expert_plays_a_deal_legally_and_deterministically(players: int, options: str) -> None:
    expert = POLICIES["expert"]
    seats = [expert, POLICIES["greedy"], *[random_choice] * (players - 2)]
    seen = {"passing": 0, "playing": 0}
    for i, d in enumerate(
        decisions(players, seats, seed=players, options=OPTION_SETS[options], deals=1)
    ):
        if d.seat != 0:
            continue
        assert d.command in d.legal
        seen[d.view.phase] += 1
        if i % 4 == 0:
            again = expert(d.view, d.legal, Random(d.state.deal * 100 + i))
            assert again == expert(d.view, d.legal, Random(d.state.deal * 100 + i))
    assert seen["passing"] == 1 and seen["playing"] == 60 // players


@pytest.mark.slow  # four experts decide every card of whole deals
def test_experts_at_every_seat_play_whole_deals_legally() -> None:
    expert = POLICIES["expert"]
    for seed in range(6):
        players = 3 + seed % 4
        seats = [expert] * players
        for d in decisions(players, seats, seed=100 + seed, deals=1):
            assert d.command in d.legal
