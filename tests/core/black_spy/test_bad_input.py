"""Every refusal of Black Spy has its own code and names the card; nothing is applied
(decide is pure: the state is unchanged and no event comes out)."""

from __future__ import annotations

import msgspec
import pytest

from spies_core.black_spy.commands import Command, PassCards, PlayCard
from spies_core.black_spy.events import BlackSpyCardPlayed, BlackSpyCardsPassed
from spies_core.black_spy.options import BlackSpyFlags
from spies_core.black_spy.state import State
from spies_core.errors import GameOverError, NotYourTurnError, RuleError
from tests.core.black_spy.helpers import BlackSpy, end_of_game, position, split_deck


def refuse(state: State, seat: int, command: Command) -> RuleError:
    """Decide must raise; the state must be untouched."""
    before = msgspec.json.encode(state)
    error = BlackSpy.at(state).refused(seat, command)
    assert msgspec.json.encode(state) == before
    return error


# A trick in progress (not the first of the deal): seat 0 led the red 4, seat 1 to play.
FOLLOWING = position(
    ["blue-2 blue-3", "red-9 black-4 green-2", "blue-5 blue-6 blue-7"], trick="red-4"
)
# The first trick of a deal: seat 0 to lead, holding the red 1.
LEADING_FIRST = position(["red-1 black-2 blue-5", "blue-3 red-3", "blue-4 red-4"], first_trick=True)


@pytest.mark.parametrize(
    ("state", "seat", "command", "code", "named"),
    [
        pytest.param(
            FOLLOWING,
            1,
            PlayCard(card="red-10"),
            "card-not-in-hand",
            "red-10",
            id="play-not-in-hand",
        ),
        pytest.param(
            FOLLOWING, 2, PlayCard(card="blue-5"), "not-your-turn", "blue-5", id="play-out-of-turn"
        ),
        pytest.param(
            FOLLOWING,
            0,
            PlayCard(card="blue-2"),
            "not-your-turn",
            "blue-2",
            id="play-after-own-card",
        ),
        pytest.param(
            FOLLOWING, 1, PlayCard(card="green-2"), "must-follow", "green-2", id="not-following"
        ),
        pytest.param(
            LEADING_FIRST,
            0,
            PlayCard(card="black-2"),
            "black-lead-first-trick",
            "black-2",
            id="black-lead-trick-1",
        ),
        pytest.param(
            FOLLOWING, 1, PlayCard(card="red-12"), "unknown-card", "red-12", id="unknown-rank"
        ),
        pytest.param(
            FOLLOWING, 1, PlayCard(card="purple-3"), "unknown-card", "purple-3", id="unknown-colour"
        ),
        pytest.param(
            FOLLOWING, 1, PlayCard(card="red 9"), "unknown-card", "red 9", id="bad-notation"
        ),
        pytest.param(
            FOLLOWING,
            1,
            PassCards(cards=("red-9", "black-4", "green-2")),
            "already-passed",
            "red-9",
            id="pass-during-play",
        ),
        pytest.param(FOLLOWING, 7, PlayCard(card="red-9"), "not-your-turn", "7", id="no-such-seat"),
    ],
)
def test_trick_play_refusals(
    state: State, seat: int, command: Command, code: str, named: str
) -> None:
    """§4.3, §5.1, §5.2: each refusal has its own code and names the card."""
    error = refuse(state, seat, command)
    assert error.code == code
    assert named in error.message


def test_must_follow_names_the_cards_that_follow() -> None:
    """§5.2: the message lists what may be played instead."""
    error = refuse(FOLLOWING, 1, PlayCard(card="green-2"))
    assert "red-9" in error.message and "black-4" in error.message and "red-4" in error.message


def test_out_of_turn_is_a_not_your_turn_error() -> None:
    """Conventions: a seat not to act gets ``NotYourTurnError``."""
    BlackSpy.at(FOLLOWING).refused(2, PlayCard(card="blue-5"), NotYourTurnError)


def test_black_lead_allowed_after_the_first_trick() -> None:
    """§4.5, §5.8, §10.7: no breaking rule; black may be led from trick 2 on."""
    game = BlackSpy.at(position(["black-2 red-1", "blue-3", "blue-4"]))
    game.act(0, PlayCard(card="black-2"))


def test_classic_leader_holding_only_black_may_lead_black() -> None:
    """Appendix A edge case: in the classic preset the dealer's left may hold only black
    cards; then a black lead to trick 1 is allowed."""
    game = BlackSpy.at(
        position(
            ["black-2 black-3", "blue-3 red-3", "blue-4 red-4"],
            first_trick=True,
            flags=BlackSpyFlags(classic=True),
        )
    )
    assert game.legal(0) == [PlayCard(card="black-2"), PlayCard(card="black-3")]
    game.act(0, PlayCard(card="black-2"))
    mixed = position(
        ["black-2 red-2", "blue-3", "blue-4"], first_trick=True, flags=BlackSpyFlags(classic=True)
    )
    assert refuse(mixed, 0, PlayCard(card="black-2")).code == "black-lead-first-trick"


# --- the pass --------------------------------------------------------------------------------

PASSING = BlackSpy.start(4, seed=3).state
HAND0 = PASSING.hands[0]
NOT_HELD = next(c for c in ("red-1", "blue-11", "green-5", "yellow-6") if c not in HAND0)


@pytest.mark.parametrize(
    ("seat", "command", "code", "named"),
    [
        pytest.param(0, PassCards(cards=HAND0[:2]), "wrong-pass-count", HAND0[1], id="two-cards"),
        pytest.param(0, PassCards(cards=HAND0[:4]), "wrong-pass-count", HAND0[3], id="four-cards"),
        pytest.param(0, PassCards(cards=()), "wrong-pass-count", "0", id="no-card"),
        pytest.param(
            0,
            PassCards(cards=(*HAND0[:2], NOT_HELD)),
            "card-not-in-hand",
            NOT_HELD,
            id="not-in-hand",
        ),
        pytest.param(
            0, PassCards(cards=(HAND0[0],) * 3), "card-not-in-hand", HAND0[0], id="same-card-thrice"
        ),
        pytest.param(
            0,
            PassCards(cards=(*HAND0[:2], "black-0")),
            "unknown-card",
            "black-0",
            id="unknown-card",
        ),
        pytest.param(
            0, PlayCard(card=HAND0[0]), "passing-not-over", HAND0[0], id="play-during-pass"
        ),
    ],
)
def test_pass_refusals(seat: int, command: Command, code: str, named: str) -> None:
    """§3.1: exactly three cards of the hand; no play before every seat has passed (§3.4)."""
    error = refuse(PASSING, seat, command)
    assert error.code == code
    assert named in error.message


def test_passing_twice_is_refused_and_the_first_pass_stands() -> None:
    """§3.4: a pass is made once and cannot be changed."""
    first = PassCards(cards=HAND0[:3])
    game = BlackSpy.at(PASSING)
    game.act(0, first)
    error = refuse(game.state, 0, PassCards(cards=HAND0[3:6]))
    assert error.code == "already-passed"
    assert isinstance(error, NotYourTurnError)  # seat 0 is no longer to act
    assert HAND0[3] in error.message and HAND0[0] in error.message
    assert game.state.passes[0] == HAND0[:3]
    # A seat that has passed may not play either, while others still pass.
    error = refuse(game.state, 0, PlayCard(card=HAND0[5]))
    assert error.code == "passing-not-over" and HAND0[5] in error.message


def test_passing_a_black_7_twice_needs_two() -> None:
    """§1.7: black 7s are a multiset: passing "black-7" twice needs two of them."""
    game = BlackSpy.start(3, {"deal": {"dealer": 0, "hands": three_hands_with_one_black_7()}})
    hand = game.state.hands[0]
    assert hand.count("black-7") == 1
    error = refuse(game.state, 0, PassCards(cards=("black-7", "black-7", hand[0])))
    assert error.code == "card-not-in-hand"
    assert "black-7" in error.message and "hold 1" in error.message


def three_hands_with_one_black_7() -> list[list[str]]:
    """A 3-player deal where seat 0 holds exactly one black 7 (swapped for its blue 1)."""
    hands = split_deck(3)
    hands[0].remove("blue-1")
    hands[0].append("black-7")
    hands[2].remove("black-7")
    hands[2].append("blue-1")
    return hands


def test_case_and_spaces_are_normalised() -> None:
    """Card notation: " Red-9 " is "red-9" (the event records the normal form)."""
    events = BlackSpy.at(FOLLOWING).act(1, PlayCard(card=" Red-9 "))
    assert events[0] == BlackSpyCardPlayed(seat=1, card="red-9")
    game = BlackSpy.at(PASSING)
    events = game.act(0, PassCards(cards=tuple(c.upper() for c in HAND0[:3])))
    assert events[0] == BlackSpyCardsPassed(seat=0, to_seat=1, cards=HAND0[:3])
    assert game.state.passes[0] == HAND0[:3]


def test_no_command_after_the_end() -> None:
    """§7: once the game is over every command is refused with ``game-over``."""
    game = BlackSpy.at(end_of_game())
    for seat in range(game.state.players):
        game.refused(seat, PlayCard(card="red-1"), GameOverError)
        game.refused(seat, PassCards(cards=("red-1", "red-2", "red-3")), GameOverError)
