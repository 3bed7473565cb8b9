"""The worked examples E1-E7 of docs/rules/spies-and-lies.md §17 (from the rulebook), each as
its own test."""

from __future__ import annotations

import pytest

from spies_core.errors import GameOverError, RuleError
from spies_core.spies_and_lies.commands import Deploy, Guess
from spies_core.spies_and_lies.deployment import is_ordered
from spies_core.spies_and_lies.events import (
    DeceptionDeclined,
    DeceptionPlayed,
    DeceptionTokenGained,
    DoubleAgentMoved,
    FlagCaptured,
    InfiltrationPointsGained,
    SoldierEffectStarted,
    SoldierRevealed,
    SpiesAndLiesEnded,
)
from spies_core.spies_and_lies.evolve import outcome
from spies_core.spies_and_lies.state import (
    EndReason,
    MoveCause,
    Phase,
    PointSource,
    SoldierEffect,
)
from spies_core.spies_and_lies.view import view
from tests.core.spies_and_lies.helpers import BLUE, RED, SpiesAndLies


def _spy_at_mission_1() -> SpiesAndLies:
    game = SpiesAndLies.dealt(starting=BLUE)
    game.day((1, 3, 5, 8), (1, 2, 3, 5))
    return game


def test_e1_wrong_guess_on_spy_gives_a_point_and_a_deception_token() -> None:
    """E1, §9 rank 1, [I-9]: "your Scout (2) under Mission 1" - it is Red's Spy."""
    game = _spy_at_mission_1()
    events = game.turn(guess=2)
    assert events == [
        DeceptionDeclined(seat=0, side=RED, mission=1),
        SoldierRevealed(
            day=1, turn=1, guesser=1, side=RED, mission=1, guess=2, rank=1, correct=False
        ),
        InfiltrationPointsGained(
            side=RED, source=PointSource.SOLDIER, rank=1, amount=1, infiltrated=False, tower=1
        ),
        DeceptionTokenGained(side=RED),
        SoldierEffectStarted(side=RED, effect=SoldierEffect.SPY),
    ]
    red = game.state.sides[RED]
    assert (red.tower, red.deception_tokens, game.state.reserve, red.spy) == (1, 2, 1, True)
    assert red.missions[0].face_up and not red.missions[0].retreated  # activated


def test_e2_correct_guess_scores_two_and_the_spy_retreats() -> None:
    """E2, §6 step 6: "your Spy (1) under Mission 1" - correct."""
    game = _spy_at_mission_1()
    events = game.turn(guess=1)
    assert events[1:] == [
        SoldierRevealed(
            day=1, turn=1, guesser=1, side=RED, mission=1, guess=1, rank=1, correct=True
        ),
        InfiltrationPointsGained(
            side=BLUE, source=PointSource.GUESS, amount=2, infiltrated=False, tower=2
        ),
    ]
    assert game.state.sides[RED].missions[0].retreated
    assert game.state.sides[BLUE].tower == 2


def test_e3_deception_on_the_sergeant_pays_four_then_four() -> None:
    """E3, §6 step 7, §10: Red's token on Mission 3; "your General (9)" - it is the Sergeant:
    +4 (Sergeant), then +4 (deception) = 8; the token leaves the game."""
    game = SpiesAndLies.dealt(starting=BLUE, exhausted=(1, 1))
    game.day((2, 7, 4, 10), (2, 3, 5, 6))
    game.play_to_turn(5)
    game.given_side(RED, tower=0)
    events = game.turn(guess=9, deceive=True)
    assert events == [
        DeceptionPlayed(seat=0, side=RED, mission=3),
        SoldierRevealed(
            day=1, turn=5, guesser=1, side=RED, mission=3, guess=9, rank=4, correct=False
        ),
        InfiltrationPointsGained(
            side=RED, source=PointSource.SOLDIER, rank=4, amount=4, infiltrated=False, tower=4
        ),
        InfiltrationPointsGained(
            side=RED, source=PointSource.DECEPTION, amount=4, infiltrated=False, tower=8
        ),
    ]
    red = game.state.sides[RED]
    assert red.deception_tokens == 0 and game.state.reserve == 2  # removed, not returned
    assert red.missions[2].deception


def test_e4_infiltration_on_day_2_moves_the_double_agent_two_steps() -> None:
    """E4, §7: Red's marker reaches 10 on day 2 - Double Agent 2 steps toward Blue; marker 0."""
    game = SpiesAndLies.dealt(starting=BLUE)
    game.play_to_day(2)
    assert game.state.starter == RED  # §5.3.1: day 2 starts with the other side
    game.day_where()
    game.given(double_agent=0)
    game.given_side(RED, tower=8)
    events = game.turn()
    assert events[-2:] == [
        InfiltrationPointsGained(
            side=RED, source=PointSource.GUESS, amount=2, infiltrated=True, tower=0
        ),
        DoubleAgentMoved(side=RED, cause=MoveCause.INFILTRATION, steps=2, position=2),
    ]


def test_e5_colonel_carries_its_excess_past_the_infiltration() -> None:
    """E5, §9 rank 8: marker 7, Colonel: 7 -> 10, Double Agent moves, 0, +5 -> 5."""
    game = SpiesAndLies.dealt(starting=BLUE, exhausted=(1, 1))
    game.day((8, 9, 10, 4), (2, 3, 5, 6))
    game.given_side(RED, tower=7)
    events = game.turn(guess=9)
    assert events[-2:] == [
        InfiltrationPointsGained(
            side=RED,
            source=PointSource.SOLDIER,
            rank=8,
            amount=8,
            infiltrated=True,
            carried=5,
            tower=5,
        ),
        DoubleAgentMoved(side=RED, cause=MoveCause.INFILTRATION, steps=1, position=1),
    ]
    assert game.state.sides[RED].tower == 5


LEGAL_ROWS = [(2, 7, 4, 10), (1, 3, 6, 9), (4, 1, 2, 3), (5, 6, 8, 4)]
ILLEGAL_ROWS = [(1, 2, 7, 6), (3, 2, 5, 9), (1, 5, 3, 9), (2, 8, 7, 10)]


@pytest.mark.parametrize("row", LEGAL_ROWS)
def test_e6_ordering_rule_accepts_sergeant_anywhere(row: tuple[int, ...]) -> None:
    """E6, §5.1.2: 2-7-4-10 and the other valid rows of §5.1 are accepted."""
    spare = min(set(range(1, 11)) - set(row))
    game = SpiesAndLies.dealt(exhausted=(spare, spare))
    assert is_ordered(row)
    assert Deploy(soldiers=row) in game.pick_all(RED)
    game.act(RED, Deploy(soldiers=row))
    assert [m.rank for m in game.state.sides[RED].missions] == list(row)


@pytest.mark.parametrize("row", ILLEGAL_ROWS)
def test_e6_ordering_rule_refuses_miner_or_bomb_out_of_order(row: tuple[int, ...]) -> None:
    """E6, §5.1.2: 1-2-7-6, 3-2-5-9, a Miner (3) after a higher card, a Bomb (7) after the
    Colonel are refused."""
    spare = min(set(range(1, 11)) - set(row))
    game = SpiesAndLies.dealt(exhausted=(spare, spare))
    assert not is_ordered(row)
    with pytest.raises(RuleError) as error:
        game.act(RED, Deploy(soldiers=row))
    assert error.value.code == "deployment-out-of-order"


def test_e7_double_agent_on_reds_side_after_day_3_blue_wins() -> None:
    """E7, §12.2: the Double Agent in Red's territory after day 3 - Blue wins, however far."""
    game = SpiesAndLies.dealt(starting=RED)
    game.play_to_day(3)
    game.day_where()
    game.play_to_turn(8)
    game.given(double_agent=-1)
    game.given_side(RED, tower=0)
    game.given_side(BLUE, tower=0)
    events = game.turn()
    assert events[-1] == SpiesAndLiesEnded(
        winner=BLUE, reason=EndReason.TERRITORY, double_agent=-1, towers=(0, 2)
    )
    result = outcome(game.state)
    assert result is not None
    assert (result.winners, result.reason, result.draw) == ((1,), "territory", False)


def test_e7_double_agent_on_blues_flag_on_day_2_red_wins_at_once() -> None:
    """E7, §8, §12.1: the Double Agent reaches Blue's flag on day 2 - Red wins at once."""
    game = SpiesAndLies.dealt(starting=BLUE)
    game.play_to_day(2)
    game.day_where()
    game.given(double_agent=3)  # in front of Blue's gate
    game.given_side(RED, tower=8)
    events = game.turn()
    assert events[-2:] == [
        FlagCaptured(side=RED, cause=MoveCause.INFILTRATION),
        SpiesAndLiesEnded(
            winner=RED,
            reason=EndReason.FLAG_CAPTURED,
            double_agent=4,
            towers=(0, game.state.sides[BLUE].tower),
        ),
    ]
    assert game.state.phase is Phase.OVER and game.state.day == 2
    assert view(game.state, None).double_agent == 4
    result = outcome(game.state)
    assert result is not None and result.winners == (0,) and result.reason == "flag-captured"
    with pytest.raises(GameOverError):
        game.act(BLUE, Guess(rank=1))
