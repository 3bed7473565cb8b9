"""Intel (§5.2), the end of a day (§11), points (§7) and the Double Agent (§8)."""

from __future__ import annotations

from spies_core.spies_and_lies.commands import MarkSergeant
from spies_core.spies_and_lies.events import (
    DoubleAgentMoved,
    FlagCaptured,
    InfiltrationPointsGained,
    IntelMarked,
    IntelTokensRevealed,
    SpiesAndLiesDayEnded,
    SpiesAndLiesEnded,
)
from spies_core.spies_and_lies.state import EndReason, MoveCause, Phase, PointSource
from spies_core.spies_and_lies.view import redact, view
from tests.core.spies_and_lies.helpers import BLUE, RED, SpiesAndLies


def test_intel_tokens_follow_the_card_and_the_sergeant_lies_freely() -> None:
    """§5.2.2-§5.2.4, [I-13]: day-1 card {4,5,6,7}: tokens on 5, 6 and 7 automatically; Red
    marks its Sergeant, Blue leaves its Sergeant bare although 4 is on the card; each mark is
    secret until both sides' tokens are revealed together."""
    game = SpiesAndLies.dealt()
    game.deploy((1, 4, 5, 9), (4, 6, 7, 8))
    assert game.state.current_intel == (4, 5, 6, 7)
    red_mark = game.act(RED, MarkSergeant(token=True))
    assert redact(red_mark[0], BLUE) == IntelMarked(seat=0, side=RED, sergeant_token=None)
    assert redact(red_mark[0], RED) == red_mark[0]
    assert all(m.intel is None for m in view(game.state, RED).sides[BLUE].missions)
    events = game.act(BLUE, MarkSergeant(token=False))
    assert events[-1] == IntelTokensRevealed(
        tokens=((False, True, True, False), (False, True, True, False)), starting_side=RED
    )
    assert game.state.phase is Phase.MISSION
    red, blue = view(game.state, None).sides
    assert [m.intel for m in red.missions] == [False, True, True, False]
    assert [m.intel for m in blue.missions] == [False, True, True, False]


def test_end_of_day_exhausts_one_deployed_soldier_and_returns_the_rest() -> None:
    """§11: one of the 4 deployed soldiers drawn per side; the old exhausted one and the
    others return; intel card to the old pile; tokens and flags cleared; markers, Double Agent
    and held tokens stay; the other side starts day 2, the day-1 starter day 3."""
    game = SpiesAndLies.dealt(starting=BLUE, exhausted=(10, 9))
    game.day((1, 3, 5, 8), (2, 4, 6, 10))
    game.turn(guess=2)  # Red's Spy: a token and the Spy effect
    game.finish_day()
    ended = next(e for e in game.events if isinstance(e, SpiesAndLiesDayEnded))
    assert ended.day == 1 and ended.next_starting_side == RED
    state = game.state
    for side, deployed, old in ((RED, {1, 3, 5, 8}, 10), (BLUE, {2, 4, 6, 10}, 9)):
        team = state.sides[side]
        assert len(team.exhausted) == 1 and set(team.exhausted) <= deployed
        assert ended.exhausted[side] == team.exhausted
        assert len(team.hand) == 9 and old in team.hand
        assert all(m.rank is None and not m.intel and not m.deception for m in team.missions)
        assert not (team.spy or team.scout or team.miner or team.bomb or team.double_damage)
    assert state.sides[RED].deception_tokens == 2  # held tokens stay (§11.7)
    assert state.old_intel == ((1, 2, 3, 4), (4, 5, 6, 7)) and state.current_intel is None
    assert (state.day, state.phase, state.starter) == (2, Phase.DEPLOY, RED)
    game.day_where()
    game.finish_day()
    assert game.state.day == 3 and game.state.starter == BLUE


def test_general_moves_two_steps_and_stops_in_front_of_the_gate() -> None:
    """§8 gate rule: from +2 the General's 2 steps stop at +3; the rest is lost."""
    game = SpiesAndLies.dealt(starting=BLUE, exhausted=(1, 1))
    game.day((8, 9, 10, 4), (2, 3, 5, 6))
    game.play_to_turn(3)
    game.given(double_agent=2)
    events = game.turn(guess=1)
    assert events[-1] == DoubleAgentMoved(side=RED, cause=MoveCause.GENERAL, steps=2, position=3)


def test_blue_moves_toward_reds_fortress_and_captures_reds_flag() -> None:
    """§8: movement is toward the mover's opponent: negative for Blue; -(G+1) is Red's flag."""
    game = SpiesAndLies.dealt(starting=RED)
    game.day((1, 2, 3, 5), (5, 6, 7, 8))
    events = game.turn(guess=1)
    assert events[-1] == DoubleAgentMoved(
        side=BLUE, cause=MoveCause.LIEUTENANT, steps=1, position=-1
    )
    game.given(double_agent=-3)
    game.given_side(BLUE, tower=8)
    events = game.turn()  # Blue's correct guess: 8 + 2 -> infiltration from the gate
    assert events[-2:] == [
        FlagCaptured(side=BLUE, cause=MoveCause.INFILTRATION),
        SpiesAndLiesEnded(
            winner=BLUE,
            reason=EndReason.FLAG_CAPTURED,
            double_agent=-4,
            towers=(0, 0),
        ),
    ]


def test_colonel_carries_nothing_when_its_infiltration_takes_the_flag() -> None:
    """§7 reference procedure: the carry comes after the move, which may end the game."""
    game = SpiesAndLies.dealt(starting=BLUE, exhausted=(1, 1))
    game.day((8, 9, 10, 4), (2, 3, 5, 6))
    game.given(double_agent=3)
    game.given_side(RED, tower=7)
    events = game.turn(guess=1)
    assert events[-3] == InfiltrationPointsGained(
        side=RED, source=PointSource.SOLDIER, rank=8, amount=8, infiltrated=True, tower=0
    )
    assert isinstance(events[-2], FlagCaptured)


def test_infiltrations_are_unlimited_within_a_day() -> None:
    """§7: no maximum of infiltrations per day."""
    game = SpiesAndLies.dealt(starting=RED)
    game.day((1, 2, 3, 5), (1, 2, 3, 5))
    game.given_side(RED, tower=8)
    game.turn()
    game.turn()
    game.given_side(RED, tower=8)
    game.turn()
    moves = [e for e in game.events if isinstance(e, DoubleAgentMoved) and e.side == RED]
    assert [e.position for e in moves] == [1, 2]


def test_a_deception_token_on_a_correct_guess_is_lost_without_effect() -> None:
    """§6 step 6, §10: the token leaves the game; only the guesser scores."""
    game = SpiesAndLies.dealt(starting=BLUE)
    game.day((1, 3, 5, 8), (1, 2, 3, 5))
    events = game.turn(deceive=True)
    assert events[-1] == InfiltrationPointsGained(
        side=BLUE, source=PointSource.GUESS, amount=2, infiltrated=False, tower=2
    )
    assert game.state.sides[RED].deception_tokens == 0 and game.state.reserve == 2


def test_the_scout_bonus_is_not_retroactive() -> None:
    """§9 Scout: a correct guess before the activation scores 2, after it 4."""
    game = SpiesAndLies.dealt(starting=RED)
    game.day((2, 3, 5, 6), (1, 2, 3, 5))
    before = game.turn()[-1]
    game.turn(guess=1)  # Red's Scout activated
    after = game.turn()[-1]
    assert isinstance(before, InfiltrationPointsGained) and before.amount == 2
    assert isinstance(after, InfiltrationPointsGained) and after.amount == 4


def test_the_view_keeps_the_revealed_days() -> None:
    """§11: the cards go back to the hands, but what was revealed stays public: every viewer
    sees past days' rows, tokens and retreats."""
    game = SpiesAndLies.dealt(starting=BLUE, exhausted=(10, 9))
    game.day((1, 3, 5, 8), (2, 4, 6, 10))
    game.turn(guess=2)  # Red's Spy activated, the rest guessed correctly
    game.finish_day()
    for viewer in (RED, BLUE, None):
        (record,) = view(game.state, viewer).history
        assert (record.day, record.intel) == (1, (4, 5, 6, 7))
        red, blue = record.missions
        assert [m.rank for m in red] == [1, 3, 5, 8] and [m.rank for m in blue] == [2, 4, 6, 10]
        assert [m.retreated for m in red] == [False, True, True, True]
        assert [m.intel for m in red] == [False, False, True, False]
