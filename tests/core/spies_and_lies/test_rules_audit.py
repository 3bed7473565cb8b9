"""Rules that had no test of their own before the rules audit (``RULES_AUDIT.md``), one test
per normative statement, named after its rule number in ``docs/rules/spies-and-lies.md``."""

from __future__ import annotations

import pytest

from spies_core.spies_and_lies.commands import (
    ChooseCaptain,
    ChooseMarshal,
    Deceive,
    DeclineDeception,
    Deploy,
    Guess,
    MarkSergeant,
)
from spies_core.spies_and_lies.events import (
    CaptainChosen,
    DeceptionDeclined,
    DeceptionPlayed,
    DeceptionTokenGained,
    DoubleAgentMoved,
    DoubleDamageEarned,
    Event,
    InfiltrationPointsGained,
    InfiltrationPointsLost,
    IntelTokensRevealed,
    MarshalChosen,
    SoldierEffectStarted,
    SoldierRevealed,
    SpiesAndLiesDayEnded,
    SpiesAndLiesEnded,
)
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
    current_seats,
    deception_window_open,
    to_act,
)
from spies_core.spies_and_lies.view import view
from tests.core.spies_and_lies.helpers import BLUE, INTEL_ORDER, RED, SpiesAndLies

ALL_GUESSES = [Guess(rank=rank) for rank in range(1, 11)]


def _of(events: list[Event], kind: type[Event]) -> list[Event]:
    return [event for event in events if isinstance(event, kind)]


# --------------------------------------------------------------------------------------
# §4 setup, §5.1 deploy, §5.2 intel


def test_s4_8_the_setup_intel_card_is_never_a_days_intel_and_two_cards_stay_unseen() -> None:
    """§4.8, [I-23]: the card turned up at setup starts the old-intel pile; days 1-3 use the
    next three cards; each day's card joins the pile at the day's end; two are never seen."""
    game = SpiesAndLies.dealt(starting=RED)
    deck = [tuple(card) for card in INTEL_ORDER]
    for day in (1, 2, 3):
        game.day_where()
        assert game.state.current_intel == deck[day]
        assert game.state.old_intel == tuple(deck[:day])
        game.finish_day()
    turned = [event.card for event in game.events if hasattr(event, "card")]
    assert turned == deck[1:4]
    assert view(game.state, None).intel_deck_size == 2


def test_s5_1_4_a_side_sees_its_own_face_down_soldiers_all_day() -> None:
    """§5.1.4, §3: the owner may look at its deployed cards at any time; the opponent and
    spectators see them only once turned face up."""
    game = SpiesAndLies.dealt(starting=RED)
    game.day((1, 3, 6, 9), (2, 4, 5, 8))
    game.turn()
    own, other = view(game.state, RED).sides
    assert [m.rank for m in own.missions] == [1, 3, 6, 9]
    assert [m.rank for m in other.missions] == [2, None, None, None]
    assert [m.rank for m in view(game.state, None).sides[RED].missions] == [None] * 4


def test_s5_2_3_the_sergeant_may_carry_a_token_when_4_is_not_on_the_card() -> None:
    """§5.2.3, [I-13]: the Sergeant may give intel it should not give (4 not on {7-10});
    every other card is marked exactly."""
    order = [[1, 2, 3, 4], [7, 8, 9, 10], [4, 5, 6, 7], [1, 2, 3, 4], [4, 5, 6, 7], [7, 8, 9, 10]]
    game = SpiesAndLies.dealt(intel=order, exhausted=(5, 5))
    game.deploy((4, 7, 8, 9), (1, 2, 4, 10))
    assert game.state.current_intel == (7, 8, 9, 10)
    game.act(RED, MarkSergeant(token=True))
    events = game.act(BLUE, MarkSergeant(token=False))
    assert events[-1] == IntelTokensRevealed(
        tokens=((True, True, True, True), (False, False, False, True)), starting_side=RED
    )


# --------------------------------------------------------------------------------------
# §5.3 turn order


@pytest.mark.parametrize("starting", [RED, BLUE])
def test_s5_3_2_eight_guess_turns_alternate_starter_first_over_missions_1_to_4(
    starting: int,
) -> None:
    """§5.3.2-§5.3.3: P guesses Q's Mission 1, Q guesses P's Mission 1, P guesses Q's
    Mission 2, ... Q guesses P's Mission 4; the target is never chosen."""
    game = SpiesAndLies.dealt(starting=starting)
    game.day((1, 2, 3, 5), (1, 2, 3, 5))
    other = 1 - starting
    order = []
    while game.state.phase is Phase.MISSION:
        guesser, defender, index = current_seats(game.state)
        revealed = _of(game.turn(), SoldierRevealed)
        assert len(revealed) == 1 and isinstance(revealed[0], SoldierRevealed)
        assert (revealed[0].guesser, revealed[0].side, revealed[0].mission) == (
            guesser,
            defender,
            index + 1,
        )
        order.append((guesser, index + 1))
    expected = [(side, mission) for mission in (1, 2, 3, 4) for side in (starting, other)]
    assert order == expected


# --------------------------------------------------------------------------------------
# §6 resolving a guess-turn


def test_s6_1_deception_window_only_when_the_defender_holds_a_token() -> None:
    """§6 step 1, §6.1: the defender holding a token is asked first (deceive or decline);
    a defender holding none is passed over and the guesser names a rank at once."""
    game = SpiesAndLies.dealt(starting=BLUE)
    game.day((1, 3, 5, 8), (1, 2, 3, 5))
    assert to_act(game.state) == {RED}
    assert legal_commands(game.state, RED) == [Deceive(), DeclineDeception()]
    assert legal_commands(game.state, BLUE) == []
    game.act(RED, Deceive())
    assert legal_commands(game.state, RED) == [] and legal_commands(game.state, BLUE) == (
        ALL_GUESSES
    )
    game.act(BLUE, Guess(rank=1))  # correct: the token is lost (§10)
    assert game.state.sides[RED].deception_tokens == 0
    game.turn()  # Red guesses Blue's Mission 1; Blue's window
    game.play_to_turn(3)
    assert to_act(game.state) == {BLUE}  # Red holds no token: its window is passed over
    assert legal_commands(game.state, BLUE) == ALL_GUESSES
    assert legal_commands(game.state, RED) == []


def test_s6_1_a_card_carries_at_most_one_deception_token() -> None:
    """§6 step 1, [I-9]: once a token lies on the target the window is closed; a second
    token cannot follow, even when the defender holds one more."""
    game = SpiesAndLies.dealt(starting=BLUE)
    game.day((1, 3, 5, 8), (1, 2, 3, 5))
    game.given_side(RED, deception_tokens=2)
    game.given(reserve=1)
    game.given_side(RED, reserve_taken=1)
    game.act(RED, Deceive())
    assert game.refused(RED, Deceive()).code == "outside-deception-window"
    assert game.state.sides[RED].deception_tokens == 1


def test_i14_any_rank_may_be_named_even_an_exhausted_or_revealed_one() -> None:
    """§6 step 2, [I-14]: the guesser may name any rank 1-10, also one that cannot be there
    (the defender's exhausted soldier, or a rank already revealed)."""
    game = SpiesAndLies.dealt(starting=BLUE, exhausted=(10, 9))
    game.day((1, 3, 5, 8), (1, 2, 3, 5))
    game.act(RED, DeclineDeception())
    assert legal_commands(game.state, BLUE) == ALL_GUESSES
    events = game.act(BLUE, Guess(rank=10))  # Red's exhausted Marshal
    assert isinstance(events[0], SoldierRevealed) and not events[0].correct
    game.turn()
    game.act(RED, DeclineDeception())
    assert legal_commands(game.state, BLUE) == ALL_GUESSES
    events = game.act(BLUE, Guess(rank=1))  # the Spy, revealed at Mission 1 already
    assert isinstance(events[0], SoldierRevealed) and not events[0].correct


def _bomb_pending() -> SpiesAndLies:
    """Blue starts; Red's Bomb at Mission 2 is guessed wrong by Blue in guess-turn 3."""
    game = SpiesAndLies.dealt(starting=BLUE)
    game.day((1, 7, 8, 9), (2, 3, 5, 6))
    game.play_to_turn(3)
    game.turn(guess=3)
    assert game.state.sides[RED].bomb
    return game


def test_s6_5a_bomb_pending_consumed_by_next_reveal_even_when_wrong() -> None:
    """§6 step 5a, [I-10]: the pending Bomb is used up by the Bomb owner's very next reveal,
    whatever the guess; Red's reveal after that is not forced."""
    game = _bomb_pending()
    events = game.turn(guess=9)  # guess-turn 4, wrong
    revealed = _of(events, SoldierRevealed)
    assert isinstance(revealed[0], SoldierRevealed) and revealed[0].forced_by is ForcedBy.BOMB
    assert not game.state.sides[RED].bomb
    assert not _of(events, DoubleDamageEarned) and not game.state.sides[RED].double_damage
    game.turn()  # guess-turn 5: Blue guesses Red's Mission 3
    events = game.turn(guess=1)  # guess-turn 6: Red guesses Blue's Mission 3 (5) wrong
    revealed = _of(events, SoldierRevealed)
    assert isinstance(revealed[0], SoldierRevealed) and revealed[0].forced_by is None
    assert game.state.sides[BLUE].missions[2].face_up
    assert not game.state.sides[BLUE].missions[2].retreated  # the Lieutenant activated
    assert game.state.double_agent == -1


def test_s6_6_bomb_forced_card_guessed_right_scores_four_with_the_scout_and_doubles() -> None:
    """§6 step 6, [I-6]: a correct guess on the force-retreated card scores as usual (4 with
    an active Scout) and earns double damage."""
    game = _bomb_pending()
    game.given_side(RED, scout=True, tower=0)
    events = game.turn()
    assert events[-2:] == [
        InfiltrationPointsGained(
            side=RED, source=PointSource.GUESS, amount=4, infiltrated=False, tower=4
        ),
        DoubleDamageEarned(side=RED),
    ]


def _spy_active() -> SpiesAndLies:
    """Blue starts; Red's Spy activated in guess-turn 1; Blue's Marshal under Mission 4."""
    game = SpiesAndLies.dealt(starting=BLUE, exhausted=(2, 2))
    game.day((1, 3, 5, 6), (3, 5, 6, 10))
    game.turn(guess=2)
    assert game.state.sides[RED].spy
    game.play_to_turn(8)
    return game


def test_i6_spy_owner_guessing_the_marshal_right_scores_normally_without_double_damage() -> None:
    """[I-6], §6 step 6: the Spy's owner names the Marshal correctly: it retreats, the owner
    scores 2, and no double damage (that is the Bomb's alone)."""
    game = _spy_active()
    game.given_side(RED, tower=0)
    events = game.turn()
    assert events[-3:-1] == [
        SoldierRevealed(
            day=1,
            turn=8,
            guesser=0,
            side=BLUE,
            mission=4,
            guess=10,
            rank=10,
            correct=True,
            forced_by=ForcedBy.SPY,
        ),
        InfiltrationPointsGained(
            side=RED, source=PointSource.GUESS, amount=2, infiltrated=False, tower=2
        ),
    ]
    assert isinstance(events[-1], SpiesAndLiesDayEnded) and not _of(events, DoubleDamageEarned)


def test_s6_7_deception_pays_after_the_captains_borrowed_ability() -> None:
    """§6 step 7, [I-16]: with a token on the Captain, the +4 comes after the Captain's
    choice is fully resolved."""
    game = SpiesAndLies.dealt(starting=BLUE, exhausted=(9, 9))
    game.day((6, 7, 8, 10), (2, 3, 5, 8))
    game.given(double_agent=2)
    game.given_side(RED, tower=7)
    game.turn(guess=1, deceive=True)
    assert game.state.stage is Stage.CAPTAIN
    events = game.act(RED, ChooseCaptain(borrow=9))
    assert events == [
        CaptainChosen(seat=0, side=RED, borrow=9),
        DoubleAgentMoved(side=RED, cause=MoveCause.GENERAL, steps=2, position=3),
        InfiltrationPointsGained(
            side=RED, source=PointSource.DECEPTION, amount=4, infiltrated=True, tower=0
        ),
        *events[3:],
    ]
    assert game.state.phase is Phase.OVER and game.state.winner == RED  # [I-3]: the flag


def test_s6_7_deception_pays_after_the_marshals_choice() -> None:
    """§6 step 7, [I-16]: token on the Marshal; option (b): +5 (infiltration, 1 lost, 0),
    opponent -5, then the +4 as a separate gain."""
    game = SpiesAndLies.dealt(starting=BLUE, exhausted=(9, 9))
    game.day((1, 2, 10, 4), (2, 3, 5, 6))
    game.play_to_turn(5)
    game.given_side(RED, tower=6)
    game.given_side(BLUE, tower=3)
    game.turn(guess=9, deceive=True)
    assert game.state.stage is Stage.MARSHAL
    events = game.act(RED, ChooseMarshal(option=MarshalOption.SABOTAGE))
    assert events == [
        MarshalChosen(seat=0, side=RED, option=MarshalOption.SABOTAGE),
        InfiltrationPointsGained(
            side=RED, source=PointSource.SOLDIER, rank=10, amount=5, infiltrated=True, tower=0
        ),
        DoubleAgentMoved(side=RED, cause=MoveCause.INFILTRATION, steps=1, position=1),
        InfiltrationPointsLost(side=BLUE, amount=5, tower=0),
        InfiltrationPointsGained(
            side=RED, source=PointSource.DECEPTION, amount=4, infiltrated=False, tower=4
        ),
    ]


# --------------------------------------------------------------------------------------
# §7 points


def test_i17_scout_bonus_never_carries_overflow() -> None:
    """§7, [I-17]: marker 7, a Scout-boosted correct guess (+4) reaches 10: infiltration, the
    1 point over is lost, marker 0."""
    game = SpiesAndLies.dealt(starting=RED)
    game.day((1, 2, 3, 5), (1, 2, 3, 5))
    game.given_side(RED, scout=True, tower=7)
    events = game.turn()
    assert events[-2:] == [
        InfiltrationPointsGained(
            side=RED, source=PointSource.GUESS, amount=4, infiltrated=True, tower=0
        ),
        DoubleAgentMoved(side=RED, cause=MoveCause.INFILTRATION, steps=1, position=1),
    ]


def test_i15_colonel_carry_then_the_deception_bonus_as_a_separate_gain() -> None:
    """§7, §9 Colonel, [I-15], [I-16]: marker 7, Colonel under a token: 7+8 -> 10, move, 5
    carried; then +4 -> 9."""
    game = SpiesAndLies.dealt(starting=BLUE, exhausted=(1, 1))
    game.day((8, 9, 10, 4), (2, 3, 5, 6))
    game.given_side(RED, tower=7)
    events = game.turn(guess=9, deceive=True)
    assert events[2:] == [
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
        InfiltrationPointsGained(
            side=RED, source=PointSource.DECEPTION, amount=4, infiltrated=False, tower=9
        ),
    ]


def test_i15_only_the_colonels_own_points_carry_not_the_deception_bonus() -> None:
    """[I-15], [I-17]: marker 0, Colonel under a token: 8, then +4 -> 12: infiltration, the
    2 over are lost (the bonus is not the Colonel's)."""
    game = SpiesAndLies.dealt(starting=BLUE, exhausted=(1, 1))
    game.day((8, 9, 10, 4), (2, 3, 5, 6))
    events = game.turn(guess=9, deceive=True)
    assert events[-2:] == [
        InfiltrationPointsGained(
            side=RED, source=PointSource.DECEPTION, amount=4, infiltrated=True, tower=0
        ),
        DoubleAgentMoved(side=RED, cause=MoveCause.INFILTRATION, steps=1, position=1),
    ]


def test_s7_s11_7_markers_double_agent_and_held_tokens_persist_between_days() -> None:
    """§7 "points and the Double Agent persist between days", §11.7: the end of the day
    changes neither markers, Double Agent nor held deception tokens."""
    game = SpiesAndLies.dealt(starting=RED)
    game.day((1, 2, 3, 5), (1, 2, 3, 5))
    game.play_to_turn(8)
    game.given(double_agent=-2)
    game.given_side(RED, tower=3, deception_tokens=2)
    game.given_side(BLUE, tower=0)
    game.given(reserve=1)
    game.given_side(RED, reserve_taken=1)
    before = len(game.events)
    game.turn()
    *turn, ended = game.events[before:]
    assert isinstance(ended, SpiesAndLiesDayEnded)
    state = game.state
    assert (state.day, state.double_agent, state.reserve) == (2, -2, 1)
    assert [team.tower for team in state.sides] == [3, 2]  # Blue's last guess scored 2
    assert [team.deception_tokens for team in state.sides] == [2, 1]
    assert turn  # the last guess-turn's own events came before the day's end


# --------------------------------------------------------------------------------------
# §8 the Double Agent


def test_s8_infiltration_on_day_2_stops_in_front_of_the_gate() -> None:
    """§8 gate rule for an infiltration: day 2, from +2 the 2 steps stop at +3, 1 lost."""
    game = SpiesAndLies.dealt(starting=BLUE)
    game.play_to_day(2)
    game.day_where()
    game.given(double_agent=2)
    game.given_side(RED, tower=8)
    events = game.turn()
    assert events[-1] == DoubleAgentMoved(
        side=RED, cause=MoveCause.INFILTRATION, steps=2, position=3
    )
    assert game.state.phase is Phase.MISSION


def test_s8_moving_away_from_a_gate_and_across_the_centre_is_unrestricted() -> None:
    """§8: Blue moves the Double Agent away from Blue's gate (+3 -> +2) and later across the
    centre (+1 -> -1)."""
    game = SpiesAndLies.dealt(starting=RED, exhausted=(1, 1))
    game.day((2, 3, 5, 6), (5, 6, 9, 10))
    game.given(double_agent=3)
    game.turn(guess=1)  # Red guesses Blue's Lieutenant wrong
    assert game.state.double_agent == 2
    game.given(double_agent=1)
    game.play_to_turn(5)
    events = game.turn(guess=1)  # Red guesses Blue's General wrong
    assert events[-1] == DoubleAgentMoved(side=BLUE, cause=MoveCause.GENERAL, steps=2, position=-1)


# --------------------------------------------------------------------------------------
# §9 abilities


def test_i4_spy_effect_is_not_retroactive_for_an_already_activated_marshal() -> None:
    """[I-4], §9 Spy: Blue's Marshal was activated before Red's Captain borrowed the Spy;
    it stays activated (face up, not retreated) and its points stay."""
    game = SpiesAndLies.dealt(starting=RED, exhausted=(1, 1))
    game.day((2, 3, 6, 8), (2, 3, 10, 4))
    game.play_to_turn(5)
    game.given_side(BLUE, tower=0)
    game.turn(guess=9)  # Red guesses Blue's Marshal wrong
    game.act(BLUE, ChooseMarshal(option=MarshalOption.POINTS))
    game.turn(guess=1)  # Blue guesses Red's Captain wrong
    game.act(RED, ChooseCaptain(borrow=1))
    assert game.state.sides[RED].spy
    marshal = game.state.sides[BLUE].missions[2]
    assert marshal.face_up and not marshal.retreated
    assert game.state.double_agent == -1  # Blue's Marshal infiltrated; nothing is undone


def test_i4_miner_effect_is_not_retroactive_for_an_already_exploded_bomb() -> None:
    """[I-4], §9 Miner: Blue's Bomb exploded before Red's Captain borrowed the Miner; the
    Bomb stays activated and its effect was already used."""
    game = SpiesAndLies.dealt(starting=RED, exhausted=(3, 3))
    game.day((1, 2, 6, 8), (2, 7, 8, 9))
    game.play_to_turn(3)
    game.turn(guess=1)  # Red guesses Blue's Bomb wrong: it explodes
    assert game.state.sides[BLUE].bomb
    game.turn()  # Blue's next reveal is forced (the pending Bomb is used up)
    game.play_to_turn(6)
    game.turn(guess=1)  # Blue guesses Red's Captain wrong
    game.act(RED, ChooseCaptain(borrow=3))
    assert game.state.sides[RED].miner
    bomb = game.state.sides[BLUE].missions[1]
    assert bomb.face_up and not bomb.retreated


def test_i10_the_bomb_scores_no_points() -> None:
    """§9 Bomb, [I-10]: the activation itself gives no infiltration points."""
    game = SpiesAndLies.dealt(starting=BLUE)
    game.day((1, 7, 8, 9), (2, 3, 5, 6))
    game.play_to_turn(3)
    events = game.turn(guess=3)
    assert events[-1] == SoldierEffectStarted(side=RED, effect=SoldierEffect.BOMB)
    assert not _of(events, InfiltrationPointsGained)


def test_i10_bomb_pending_lapses_when_the_owner_has_no_further_guess_turn() -> None:
    """§9 Bomb, [I-10]: Red's Bomb under Mission 4 explodes in guess-turn 8 (Red started);
    Red has no guess-turn left, the effect lapses, and day 2's first Red reveal is free."""
    game = SpiesAndLies.dealt(starting=RED)
    game.day((1, 2, 3, 7), (1, 2, 3, 5))
    game.play_to_turn(8)
    events = game.turn(guess=1)
    assert SoldierEffectStarted(side=RED, effect=SoldierEffect.BOMB) in events
    assert isinstance(events[-1], SpiesAndLiesDayEnded)
    assert not game.state.sides[RED].bomb
    game.day_where()
    game.turn()  # day 2: Blue starts, guesses Red's Mission 1
    events = game.turn()
    revealed = _of(events, SoldierRevealed)
    assert isinstance(revealed[0], SoldierRevealed) and revealed[0].forced_by is None


def _captain_at_mission_1(red_exhausted: tuple[int, ...], row: tuple[int, ...]) -> SpiesAndLies:
    """Blue starts; Red's Captain under Mission 1 is guessed wrong in guess-turn 1."""
    game = SpiesAndLies.dealt(starting=BLUE, exhausted=(red_exhausted[0], 1))
    hand = tuple(rank for rank in range(1, 11) if rank not in red_exhausted)
    game.given_side(RED, hand=hand, exhausted=red_exhausted)
    game.day(row, (2, 3, 5, 8))
    game.turn(guess=1)
    assert game.state.stage is Stage.CAPTAIN
    return game


def test_s9_captain_offers_each_of_two_exhausted_soldiers() -> None:
    """§9 Captain, [I-8]: after enemy double damage two soldiers are exhausted; the Captain
    may take 6 points or borrow either one (one of them)."""
    game = _captain_at_mission_1((1, 9), (6, 7, 8, 10))
    assert legal_commands(game.state, RED) == [
        ChooseCaptain(borrow=None),
        ChooseCaptain(borrow=1),
        ChooseCaptain(borrow=9),
    ]


def test_i8_captain_borrows_only_its_own_exhausted_soldiers_never_a_captain() -> None:
    """§9 Captain, [I-8]: not the enemy's exhausted soldier, not a soldier in hand or
    deployed, and never a Captain (its own is at the mission, so it cannot be exhausted)."""
    game = SpiesAndLies.dealt(starting=BLUE, exhausted=(10, 9))
    game.day((6, 7, 8, 9), (2, 3, 5, 8))
    game.turn(guess=1)
    assert legal_commands(game.state, RED) == [ChooseCaptain(borrow=None), ChooseCaptain(borrow=10)]
    for borrow in (9, 6, 7, 5):  # Blue's exhausted General, the Captain, deployed, in hand
        refusal = game.refused(RED, ChooseCaptain(borrow=borrow))
        assert refusal.code == "borrow-not-exhausted"


BORROWED: list[tuple[int, tuple[int, ...], list[Event]]] = [
    (
        2,
        (6, 7, 8, 9),
        [
            InfiltrationPointsGained(
                side=RED, source=PointSource.SOLDIER, rank=2, amount=2, infiltrated=False, tower=2
            ),
            SoldierEffectStarted(side=RED, effect=SoldierEffect.SCOUT),
        ],
    ),
    (
        3,
        (6, 7, 8, 9),
        [
            InfiltrationPointsGained(
                side=RED, source=PointSource.SOLDIER, rank=3, amount=3, infiltrated=False, tower=3
            ),
            SoldierEffectStarted(side=RED, effect=SoldierEffect.MINER),
        ],
    ),
    (
        4,
        (6, 7, 8, 9),
        [
            InfiltrationPointsGained(
                side=RED, source=PointSource.SOLDIER, rank=4, amount=4, infiltrated=False, tower=4
            )
        ],
    ),
    (
        5,
        (6, 7, 8, 9),
        [DoubleAgentMoved(side=RED, cause=MoveCause.LIEUTENANT, steps=1, position=1)],
    ),
    (7, (6, 8, 9, 10), [SoldierEffectStarted(side=RED, effect=SoldierEffect.BOMB)]),
    (
        8,
        (6, 7, 9, 10),
        [
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
        ],
    ),
]


@pytest.mark.parametrize(("borrow", "row", "expected"), BORROWED, ids=lambda x: str(x))
def test_i8_a_borrowed_soldier_resolves_fully_as_if_activated(
    borrow: int, row: tuple[int, ...], expected: list[Event]
) -> None:
    """§9 Captain, [I-8]: Scout 2 + bonus, Miner 3 + Bomb effect, Sergeant 4, Lieutenant 1
    step, Bomb its effect and no points, Colonel 8 with its carry (marker 7 -> 5); the
    borrowed card stays exhausted, the Captain at its mission (Spy, General and Marshal are
    test vector T8)."""
    game = _captain_at_mission_1((borrow,), row)
    if borrow == 8:
        game.given_side(RED, tower=7)
    events = game.act(RED, ChooseCaptain(borrow=borrow))
    assert events == [CaptainChosen(seat=0, side=RED, borrow=borrow), *expected]
    red = game.state.sides[RED]
    assert red.exhausted == (borrow,) and borrow not in red.hand
    assert red.missions[0].rank == 6 and red.missions[0].face_up and not red.missions[0].retreated
    assert game.state.turn == 1 and game.state.stage is Stage.DECEPTION


def test_s9_borrowed_bomb_forces_the_owners_next_reveal() -> None:
    """§9 Captain + Bomb, [I-8]: the borrowed Bomb's effect works like its own."""
    game = _captain_at_mission_1((7,), (6, 8, 9, 10))
    game.act(RED, ChooseCaptain(borrow=7))
    events = game.turn()
    revealed = _of(events, SoldierRevealed)
    assert isinstance(revealed[0], SoldierRevealed) and revealed[0].forced_by is ForcedBy.BOMB
    assert DoubleDamageEarned(side=RED) in events


def test_i18_marshal_sabotage_takes_five_from_an_opponent_above_five() -> None:
    """§9 Marshal (b): the opponent's marker 7 -> 2; own 0 -> 5."""
    game = SpiesAndLies.dealt(starting=BLUE, exhausted=(9, 9))
    game.day((1, 2, 10, 4), (2, 3, 5, 6))
    game.play_to_turn(5)
    game.given_side(RED, tower=0)
    game.given_side(BLUE, tower=7)
    game.turn(guess=9)
    events = game.act(RED, ChooseMarshal(option=MarshalOption.SABOTAGE))
    assert events[1:] == [
        InfiltrationPointsGained(
            side=RED, source=PointSource.SOLDIER, rank=10, amount=5, infiltrated=False, tower=5
        ),
        InfiltrationPointsLost(side=BLUE, amount=5, tower=2),
    ]


# --------------------------------------------------------------------------------------
# §10 deception tokens


def test_t11_deception_supply_played_out() -> None:
    """T11, §10, [I-9] without shortcuts: day 1 both Spies take the two reserve tokens;
    tokens are played (and leave the game); on day 2 Red's Spy is activated again and gets
    nothing from the empty reserve although Red holds fewer than 2."""
    game = SpiesAndLies.dealt(starting=BLUE, exhausted=(10, 10))
    game.day((1, 3, 5, 8), (1, 2, 3, 5))
    events = game.turn(guess=2)  # Red's Spy: +1 token (reserve 1)
    assert DeceptionTokenGained(side=RED) in events
    events = game.turn(guess=3)  # Blue's Spy: +1 token (reserve 0)
    assert DeceptionTokenGained(side=BLUE) in events
    assert game.state.reserve == 0
    assert [team.deception_tokens for team in game.state.sides] == [2, 2]
    for _ in range(6):  # every remaining card under a token: 3 each
        game.turn(deceive=deception_window_open(game.state))
    assert [team.deception_tokens for team in game.state.sides] == [0, 0]
    assert game.state.day == 2 and game.state.reserve == 0
    game.day_where(red=lambda row: row[0] == 1)
    assert game.state.starter == RED
    game.turn()
    events = game.turn(guess=2)  # Blue guesses Red's Spy wrong
    assert SoldierEffectStarted(side=RED, effect=SoldierEffect.SPY) in events
    assert not _of(events, DeceptionTokenGained)
    assert game.state.sides[RED].deception_tokens == 0


# --------------------------------------------------------------------------------------
# §11 end of a day, §12 end of the game


def test_s11_new_exhausted_soldiers_are_drawn_at_random_from_the_four_deployed() -> None:
    """§11.1, [I-11]: the draw is blind: over many seeds every deployed soldier is drawn."""
    drawn: set[int] = set()
    for seed in range(40):
        game = SpiesAndLies.dealt(starting=RED, seed=seed)
        game.day((1, 3, 6, 9), (2, 4, 5, 8))
        game.finish_day()
        (ended,) = _of(game.events, SpiesAndLiesDayEnded)
        assert isinstance(ended, SpiesAndLiesDayEnded)
        drawn.update(ended.exhausted[RED])
        assert len(game.state.sides[RED].hand) == 9
    assert drawn == {1, 3, 6, 9}


def test_s12_2_double_agent_in_blues_territory_after_day_3_red_wins() -> None:
    """§12.2: Double Agent at +1 after day 3 -> Red wins, whatever the markers."""
    game = SpiesAndLies.dealt(starting=RED)
    game.play_to_day(3)
    game.day_where()
    game.play_to_turn(8)
    game.given(double_agent=1)
    game.given_side(RED, tower=0)
    game.given_side(BLUE, tower=7)
    events = game.turn()
    assert events[-1] == SpiesAndLiesEnded(
        winner=RED, reason=EndReason.TERRITORY, double_agent=1, towers=(0, 9)
    )


def test_s12_2_nothing_happens_after_day_3_but_the_result() -> None:
    """§11, §12.2: after guess-turn 8 of day 3 there is no day end, no exhausted draw."""
    game = SpiesAndLies.dealt(starting=RED)
    game.play_to_day(3)
    game.day_where()
    game.finish_day()
    assert len(_of(game.events, SpiesAndLiesDayEnded)) == 2
    assert game.state.phase is Phase.OVER and game.state.day == 3
    assert all(legal_commands(game.state, seat) == [] for seat in (RED, BLUE))


# --------------------------------------------------------------------------------------
# §14 team play


def test_i20_team_points_and_round_effects_belong_to_the_whole_team() -> None:
    """§14.1, [I-20]: one marker per team; a round effect started under one teammate's
    mission (the Scout under Mission 1) counts for the other teammate's guesses too.

    The marker is shared by the spec; that round effects (Scout, Spy, Miner, Bomb pending,
    double damage) are the team's too is the engine's reading of [I-20] ("resources are
    shared per team", §3 keeps the flags per colour). §14.1 lists only deck, marker, tokens
    and exhausted soldiers, so a per-teammate reading is possible: see RULES_AUDIT.md, A-2."""
    game = SpiesAndLies.dealt(players=4, starting=BLUE, exhausted=(1, 1))
    game.day((2, 3, 5, 6), (2, 3, 5, 6))
    game.turn(guess=9)  # seat 1 guesses seat 0's Scout wrong
    assert game.state.sides[RED].scout
    game.play_to_turn(6)
    guesser, _, _ = current_seats(game.state)
    assert guesser == 2
    tower = game.state.sides[RED].tower
    events = game.turn()
    assert events[-1] == InfiltrationPointsGained(
        side=RED, source=PointSource.GUESS, amount=4, infiltrated=False, tower=tower + 4
    )


def test_s14_2_team_deception_and_guesses_on_missions_3_4_are_the_second_teammates() -> None:
    """§14.2, [I-20]: on Missions 3-4 the window is the second defender's, the guess the
    second guesser's; the first teammates may do neither."""
    game = SpiesAndLies.dealt(players=4, starting=RED, exhausted=(1, 1))
    game.day((2, 3, 5, 6), (2, 3, 5, 6))
    game.play_to_turn(5)
    assert to_act(game.state) == {3}
    for seat in (0, 1, 2):
        assert legal_commands(game.state, seat) == []
    assert game.act(3, DeclineDeception()) == [DeceptionDeclined(seat=3, side=BLUE, mission=3)]
    assert legal_commands(game.state, 2) == ALL_GUESSES
    game.refused(0, Guess(rank=5))
    game.turn()
    assert game.act(2, Deceive()) == [DeceptionPlayed(seat=2, side=RED, mission=3)]


def test_s14_4_team_deploy_second_teammate_waits_for_the_first() -> None:
    """§14.4: the second teammate deploys after the first chose Missions 1-2."""
    game = SpiesAndLies.dealt(players=4, exhausted=(1, 1))
    assert legal_commands(game.state, 2) == []
    game.refused(2, Deploy(soldiers=(8, 9)))
    game.act(0, Deploy(soldiers=(2, 3)))
    assert Deploy(soldiers=(8, 9)) in legal_commands(game.state, 2)
