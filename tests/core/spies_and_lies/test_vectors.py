"""The test vectors T1-T11 of docs/rules/spies-and-lies.md §17 (G = 3), each as its own test, with
the neighbouring cases the vector's rule implies."""

from __future__ import annotations

from spies_core.spies_and_lies.commands import ChooseCaptain, ChooseMarshal, Guess
from spies_core.spies_and_lies.events import (
    CaptainChosen,
    DeceptionDeclined,
    DeceptionPlayed,
    DeceptionTokenGained,
    DoubleAgentMoved,
    DoubleDamageEarned,
    FlagCaptured,
    InfiltrationPointsGained,
    InfiltrationPointsLost,
    MarshalChosen,
    SoldierEffectStarted,
    SoldierRevealed,
    SpiesAndLiesDayEnded,
    SpiesAndLiesEnded,
)
from spies_core.spies_and_lies.evolve import outcome
from spies_core.spies_and_lies.legal import legal_commands
from spies_core.spies_and_lies.state import (
    EndReason,
    ForcedBy,
    MarshalOption,
    MoveCause,
    Phase,
    PointSource,
    SoldierEffect,
    Stage,
)
from spies_core.spies_and_lies.state import (
    to_act as seats_to_act,
)
from tests.core.spies_and_lies.helpers import BLUE, RED, SpiesAndLies


def test_t1_sergeant_with_deception_on_marker_8_infiltrates_then_scores_4() -> None:
    """T1, §7, [I-16]: 8+4 = 10 -> infiltrate (2 lost) -> 0 -> +4 -> 4."""
    game = SpiesAndLies.dealt(starting=BLUE)
    game.day((4, 1, 2, 3), (1, 2, 3, 5))
    game.given_side(RED, tower=8)
    events = game.turn(guess=1, deceive=True)
    assert events[2:] == [
        InfiltrationPointsGained(
            side=RED, source=PointSource.SOLDIER, rank=4, amount=4, infiltrated=True, tower=0
        ),
        DoubleAgentMoved(side=RED, cause=MoveCause.INFILTRATION, steps=1, position=1),
        InfiltrationPointsGained(
            side=RED, source=PointSource.DECEPTION, amount=4, infiltrated=False, tower=4
        ),
    ]


def _marshal_at_mission_3() -> SpiesAndLies:
    game = SpiesAndLies.dealt(starting=BLUE, exhausted=(9, 9))
    game.day((1, 2, 10, 4), (2, 3, 5, 6))
    game.play_to_turn(5)
    game.given_side(RED, tower=6)
    game.given_side(BLUE, tower=3)
    events = game.turn(guess=9)
    assert events == [
        DeceptionDeclined(seat=0, side=RED, mission=3),
        SoldierRevealed(
            day=1, turn=5, guesser=1, side=RED, mission=3, guess=9, rank=10, correct=False
        ),
    ]
    assert game.state.stage is Stage.MARSHAL and seats_to_act(game.state) == {0}
    assert legal_commands(game.state, 0) == [
        ChooseMarshal(option=MarshalOption.POINTS),
        ChooseMarshal(option=MarshalOption.SABOTAGE),
    ]
    return game


def test_t2_marshal_sabotage_zeroes_the_opponent_and_infiltrates() -> None:
    """T2, §9 rank 10 (b), [I-18]: opponent 3 -> 0; own 6 -> 6+5 -> infiltrate (1 lost) -> 0."""
    game = _marshal_at_mission_3()
    events = game.act(0, ChooseMarshal(option=MarshalOption.SABOTAGE))
    assert events == [
        MarshalChosen(seat=0, side=RED, option=MarshalOption.SABOTAGE),
        InfiltrationPointsGained(
            side=RED, source=PointSource.SOLDIER, rank=10, amount=5, infiltrated=True, tower=0
        ),
        DoubleAgentMoved(side=RED, cause=MoveCause.INFILTRATION, steps=1, position=1),
        InfiltrationPointsLost(side=BLUE, amount=5, tower=0),
    ]
    assert game.state.stage is Stage.DECEPTION and game.state.turn == 5


def test_t2_marshal_points_option_always_infiltrates_once() -> None:
    """§9 rank 10 (a): 10 points, the excess lost: 6 + 10 -> infiltration -> 0."""
    game = _marshal_at_mission_3()
    events = game.act(0, ChooseMarshal(option=MarshalOption.POINTS))
    assert events[1:] == [
        InfiltrationPointsGained(
            side=RED, source=PointSource.SOLDIER, rank=10, amount=10, infiltrated=True, tower=0
        ),
        DoubleAgentMoved(side=RED, cause=MoveCause.INFILTRATION, steps=1, position=1),
    ]
    assert game.state.sides[BLUE].tower == 3


def test_t3_gate_stops_the_infiltration_then_the_lieutenant_captures_the_flag() -> None:
    """T3, §8, [I-3]: day 3, Double Agent +2, Red infiltrates (3 steps) -> +3, 2 steps lost;
    later the same day Red's Lieutenant activates -> flag captured -> Red wins."""
    game = SpiesAndLies.dealt(starting=RED)
    game.play_to_day(2)
    game.day_where(red=lambda row: 5 not in row)  # keep the Lieutenant out of exhaustion
    game.finish_day()
    assert game.state.day == 3 and game.state.starter == RED
    game.day_where(red=lambda row: row[0] == 5)
    game.given(double_agent=2)
    game.given_side(RED, tower=8)
    events = game.turn()
    assert events[-2:] == [
        InfiltrationPointsGained(
            side=RED, source=PointSource.GUESS, amount=2, infiltrated=True, tower=0
        ),
        DoubleAgentMoved(side=RED, cause=MoveCause.INFILTRATION, steps=3, position=3),
    ]
    events = game.turn(guess=1)
    assert events[-2:] == [
        FlagCaptured(side=RED, cause=MoveCause.LIEUTENANT),
        SpiesAndLiesEnded(
            winner=RED,
            reason=EndReason.FLAG_CAPTURED,
            double_agent=4,
            towers=(0, game.state.sides[BLUE].tower),
        ),
    ]
    result = outcome(game.state)
    assert result is not None and result.winners == (0,)


def test_t4_lieutenant_to_the_gate_then_deception_infiltration_captures_the_flag() -> None:
    """T4, [I-3], [I-16]: Double Agent +2, marker 6; Blue guesses Red's Lieutenant wrongly
    under Red's deception token -> +3 (gate, stop); deception +4 -> 10 -> infiltration, a
    separate move starting at the gate -> flag captured."""
    game = SpiesAndLies.dealt(starting=BLUE)
    game.day((5, 6, 7, 8), (1, 2, 3, 5))
    game.given(double_agent=2)
    game.given_side(RED, tower=6)
    events = game.turn(guess=1, deceive=True)
    assert events == [
        DeceptionPlayed(seat=0, side=RED, mission=1),
        SoldierRevealed(
            day=1, turn=1, guesser=1, side=RED, mission=1, guess=1, rank=5, correct=False
        ),
        DoubleAgentMoved(side=RED, cause=MoveCause.LIEUTENANT, steps=1, position=3),
        InfiltrationPointsGained(
            side=RED, source=PointSource.DECEPTION, amount=4, infiltrated=True, tower=0
        ),
        FlagCaptured(side=RED, cause=MoveCause.INFILTRATION),
        SpiesAndLiesEnded(
            winner=RED, reason=EndReason.FLAG_CAPTURED, double_agent=4, towers=(0, 0)
        ),
    ]


def _bomb_pending() -> SpiesAndLies:
    """Blue starts; Red's Bomb at Mission 2 is guessed wrong by Blue in guess-turn 3."""
    game = SpiesAndLies.dealt(starting=BLUE)
    game.day((1, 7, 8, 9), (2, 3, 5, 6))
    game.play_to_turn(3)
    events = game.turn(guess=3)
    assert events[-1] == SoldierEffectStarted(side=RED, effect=SoldierEffect.BOMB)
    assert game.state.sides[RED].bomb
    return game


def test_t5_bomb_forces_the_next_reveal_and_a_correct_guess_doubles_the_damage() -> None:
    """T5, §6 step 5a, §9 Bomb, §11.1, [I-10], [I-11]: guess-turn 4 Red guesses Blue's Mission
    2 correctly -> forced retreat, +2, double damage; at day end Red draws 2 of Blue's 4
    deployed cards; Blue's old exhausted card returns; Blue holds 8 cards next day."""
    game = _bomb_pending()
    events = game.turn()
    assert events[-3:] == [
        SoldierRevealed(
            day=1,
            turn=4,
            guesser=0,
            side=BLUE,
            mission=2,
            guess=3,
            rank=3,
            correct=True,
            forced_by=ForcedBy.BOMB,
        ),
        InfiltrationPointsGained(
            side=RED,
            source=PointSource.GUESS,
            amount=2,
            infiltrated=False,
            tower=game.state.sides[RED].tower,
        ),
        DoubleDamageEarned(side=RED),
    ]
    red = game.state.sides[RED]
    assert not red.bomb and red.double_damage  # the bomb is consumed by this reveal
    assert game.state.sides[BLUE].missions[1].retreated
    game.finish_day()
    ended = [e for e in game.events if isinstance(e, SpiesAndLiesDayEnded)]
    assert len(ended) == 1
    red_out, blue_out = ended[0].exhausted
    assert len(red_out) == 1 and set(red_out) <= {1, 7, 8, 9}
    assert len(blue_out) == 2 and set(blue_out) <= {2, 3, 5, 6}
    blue = game.state.sides[BLUE]
    assert blue.exhausted == blue_out and len(blue.hand) == 8 and 10 in blue.hand
    assert not game.state.sides[RED].double_damage  # cleared with the day (§11.5)


def test_t5_bomb_forced_card_guessed_wrong_retreats_without_activation() -> None:
    """T5, §6 step 7: a wrong guess on the forced card: retreat, no activation, no damage."""
    game = _bomb_pending()
    events = game.turn(guess=9)
    assert events[-1] == SoldierRevealed(
        day=1,
        turn=4,
        guesser=0,
        side=BLUE,
        mission=2,
        guess=9,
        rank=3,
        correct=False,
        forced_by=ForcedBy.BOMB,
    )
    assert game.state.sides[BLUE].missions[1].retreated
    assert not game.state.sides[BLUE].miner and not game.state.sides[RED].double_damage


def _spy_then_marshal(**options: bool) -> SpiesAndLies:
    game = SpiesAndLies.dealt(starting=BLUE, exhausted=(2, 2), **options)
    game.day((1, 3, 5, 6), (3, 5, 6, 10))
    events = game.turn(guess=2)
    assert SoldierEffectStarted(side=RED, effect=SoldierEffect.SPY) in events
    game.play_to_turn(8)
    return game


def test_t6_spy_forces_the_marshal_to_retreat_and_deception_still_pays() -> None:
    """T6, §9 Spy, [I-4], [I-5]: Red's Spy active; Red guesses "General" at Blue's Marshal:
    wrong, the Marshal retreats without activation; Blue's deception token pays +4."""
    game = _spy_then_marshal()
    game.given_side(BLUE, tower=3)
    events = game.turn(guess=9, deceive=True)
    assert events[:3] == [
        DeceptionPlayed(seat=1, side=BLUE, mission=4),
        SoldierRevealed(
            day=1,
            turn=8,
            guesser=0,
            side=BLUE,
            mission=4,
            guess=9,
            rank=10,
            correct=False,
            forced_by=ForcedBy.SPY,
        ),
        InfiltrationPointsGained(
            side=BLUE, source=PointSource.DECEPTION, amount=4, infiltrated=False, tower=7
        ),
    ]
    assert isinstance(events[3], SpiesAndLiesDayEnded)  # no Marshal choice was asked


def test_t6_deception_on_a_forced_retreat_pays_nothing_when_the_option_is_off() -> None:
    """[I-5] as an option: ``deception_pays_on_forced_retreat = false``."""
    game = _spy_then_marshal(deception_pays_on_forced_retreat=False)
    events = game.turn(guess=9, deceive=True)
    assert not any(isinstance(event, InfiltrationPointsGained) for event in events)


def test_t7_scout_makes_later_correct_guesses_worth_four() -> None:
    """T7, §9 Scout: Red's Scout at Mission 1 activated; Red later guesses Blue's Mission 3
    correctly -> +4."""
    game = SpiesAndLies.dealt(starting=BLUE)
    game.day((2, 3, 5, 6), (1, 3, 5, 6))
    game.turn(guess=1)
    assert game.state.sides[RED].scout
    game.play_to_turn(6)
    game.given_side(RED, tower=0)
    events = game.turn()
    assert events[-1] == InfiltrationPointsGained(
        side=RED, source=PointSource.GUESS, amount=4, infiltrated=False, tower=4
    )


def _captain_activated(exhausted: tuple[int, int]) -> SpiesAndLies:
    game = SpiesAndLies.dealt(starting=BLUE, exhausted=exhausted)
    red = (6, 7, 8, 9) if exhausted[RED] == 10 else (6, 7, 8, 10)
    game.day(red, (2, 3, 5, 8))
    game.turn(guess=1)
    assert game.state.stage is Stage.CAPTAIN and seats_to_act(game.state) == {0}
    assert legal_commands(game.state, 0) == [
        ChooseCaptain(borrow=None),
        ChooseCaptain(borrow=exhausted[RED]),
    ]
    return game


def test_t8_captain_borrows_the_exhausted_general() -> None:
    """T8, §9 Captain, [I-8]: borrow the exhausted General -> Double Agent 2 steps; the
    Captain stays at its mission, the General stays exhausted."""
    game = _captain_activated((9, 9))
    events = game.act(0, ChooseCaptain(borrow=9))
    assert events == [
        CaptainChosen(seat=0, side=RED, borrow=9),
        DoubleAgentMoved(side=RED, cause=MoveCause.GENERAL, steps=2, position=2),
    ]
    red = game.state.sides[RED]
    assert red.missions[0].rank == 6 and red.missions[0].face_up and not red.missions[0].retreated
    assert red.exhausted == (9,)


def test_t8_captain_takes_six_points_instead() -> None:
    """§9 Captain: without borrowing, 6 points."""
    game = _captain_activated((9, 9))
    events = game.act(0, ChooseCaptain(borrow=None))
    assert events[1] == InfiltrationPointsGained(
        side=RED, source=PointSource.SOLDIER, rank=6, amount=6, infiltrated=False, tower=6
    )


def test_t8_captain_borrowing_the_marshal_asks_the_marshal_choice() -> None:
    """§9 Captain: a borrowed Marshal resolves with its own choice."""
    game = _captain_activated((10, 10))
    assert game.act(0, ChooseCaptain(borrow=10)) == [CaptainChosen(seat=0, side=RED, borrow=10)]
    assert game.state.stage is Stage.MARSHAL and seats_to_act(game.state) == {0}
    events = game.act(0, ChooseMarshal(option=MarshalOption.SABOTAGE))
    assert isinstance(events[-1], InfiltrationPointsLost)
    assert game.state.turn == 1 and game.state.stage is Stage.DECEPTION


def test_t8_captain_borrowing_the_spy_gains_its_token_and_effect() -> None:
    """§9 Captain, [I-8]: a borrowed Spy gives 1 point, a token and its round effect."""
    game = _captain_activated((1, 1))
    events = game.act(0, ChooseCaptain(borrow=1))
    assert events[1:] == [
        InfiltrationPointsGained(
            side=RED, source=PointSource.SOLDIER, rank=1, amount=1, infiltrated=False, tower=1
        ),
        DeceptionTokenGained(side=RED),
        SoldierEffectStarted(side=RED, effect=SoldierEffect.SPY),
    ]


def test_t9_miner_makes_the_bomb_retreat_without_exploding() -> None:
    """T9, §9 Miner, [I-4]: Red's Miner active; Red reveals Blue's Bomb with a wrong guess ->
    the Bomb retreats and does not explode."""
    game = SpiesAndLies.dealt(starting=BLUE, exhausted=(1, 1))
    game.day((3, 5, 6, 8), (7, 8, 9, 10))
    game.turn(guess=2)
    assert game.state.sides[RED].miner
    events = game.turn(guess=1)
    assert events[-1] == SoldierRevealed(
        day=1,
        turn=2,
        guesser=0,
        side=BLUE,
        mission=1,
        guess=1,
        rank=7,
        correct=False,
        forced_by=ForcedBy.MINER,
    )
    assert not game.state.sides[BLUE].bomb and game.state.sides[BLUE].missions[0].retreated


def test_t10_centre_and_equal_markers_after_day_3_is_a_draw() -> None:
    """T10, §12.2, [I-19]: Double Agent at 0, both markers 6 -> draw."""
    game = SpiesAndLies.dealt(starting=RED)
    game.play_to_day(3)
    game.day_where()
    game.play_to_turn(8)  # Blue guesses last on day 3
    game.given(double_agent=0)
    game.given_side(RED, tower=6)
    game.given_side(BLUE, tower=4)
    events = game.turn()
    assert events[-1] == SpiesAndLiesEnded(
        winner=None, reason=EndReason.INFILTRATION, draw=True, double_agent=0, towers=(6, 6)
    )
    result = outcome(game.state)
    assert result is not None
    assert (result.winners, result.draw, result.scores) == ((), True, (6, 6))


def test_t10_centre_and_higher_marker_wins() -> None:
    """§12.2: Double Agent at 0 - the higher marker wins."""
    game = SpiesAndLies.dealt(starting=RED)
    game.play_to_day(3)
    game.day_where()
    game.play_to_turn(8)
    game.given(double_agent=0)
    game.given_side(RED, tower=6)
    game.given_side(BLUE, tower=5)
    game.turn()
    result = outcome(game.state)
    assert result is not None and result.winners == (1,) and result.reason == "infiltration"


def test_t11_no_token_once_the_reserve_is_spent() -> None:
    """T11, [I-9]: both starting tokens used, both reserve tokens taken and used -> a later
    Spy activation gives no token; with no token the deception window is passed over."""
    game = SpiesAndLies.dealt(starting=BLUE)
    game.day((1, 3, 5, 8), (1, 2, 3, 5))
    game.given(reserve=0)
    game.given_side(RED, deception_tokens=0, reserve_taken=1)
    game.given_side(BLUE, deception_tokens=0, reserve_taken=1)
    assert seats_to_act(game.state) == {1}  # the window is passed over (§6 step 1)
    events = game.act(1, Guess(rank=2))
    assert not any(isinstance(event, DeceptionTokenGained) for event in events)
    assert events[-1] == SoldierEffectStarted(side=RED, effect=SoldierEffect.SPY)
    assert game.state.sides[RED].deception_tokens == 0


def test_t11_no_token_beyond_the_holding_limit_of_two() -> None:
    """§10, [I-9]: a side holding 2 tokens gains none, the reserve stays."""
    game = SpiesAndLies.dealt(starting=BLUE)
    game.day((1, 3, 5, 8), (1, 2, 3, 5))
    game.given(reserve=1)
    game.given_side(RED, deception_tokens=2, reserve_taken=1)
    game.given_side(BLUE, deception_tokens=0)
    events = game.turn(guess=2)
    assert not any(isinstance(event, DeceptionTokenGained) for event in events)
    assert game.state.reserve == 1 and game.state.phase is Phase.MISSION


def test_t11_per_side_reserve_gives_each_side_one_token_at_most() -> None:
    """[U-6] as an option (``deception_reserve = per-side``): a side that took its reserve
    token gets no second one although the other side's is still there."""
    for rule, gains in (("per-side", False), ("shared", True)):
        game = SpiesAndLies.dealt(starting=BLUE, deception_reserve=rule)
        game.day((1, 3, 5, 8), (1, 2, 3, 5))
        game.given(reserve=1)
        game.given_side(RED, deception_tokens=0, reserve_taken=1)
        game.given_side(BLUE, deception_tokens=0)
        events = game.act(1, Guess(rank=2))
        assert any(isinstance(event, DeceptionTokenGained) for event in events) is gains, rule
