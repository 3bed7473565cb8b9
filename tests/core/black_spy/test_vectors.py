"""The worked test vectors of spec §9, each as its own test: through the card-level
functions of ``scoring`` and through the engine (``legal_commands``, ``decide``, ``evolve``).
Players P1..P4 of the spec are seats 0..3."""

from __future__ import annotations

from spies_core.black_spy.commands import PlayCard
from spies_core.black_spy.events import (
    BlackSpyCardsExchanged,
    BlackSpyDealScored,
    BlackSpyDealt,
    BlackSpyTrickWon,
    PassDirection,
)
from spies_core.black_spy.options import BlackSpyFlags
from spies_core.black_spy.rules import pass_direction
from spies_core.black_spy.scoring import legal_plays, score_deal, trick_points, trick_winner
from spies_core.black_spy.state import State
from tests.core.black_spy.helpers import (
    SPEC,
    BlackSpy,
    cards,
    last_trick_position,
    position,
    random_playout,
)

LEFT, RIGHT, ACROSS = PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS


def legal_cards(state: State, seat: int) -> set[str]:
    """The cards of the seat's legal plays."""
    return {c.card for c in SPEC.legal_commands(state, seat) if isinstance(c, PlayCard)}


def test_vector_1_follow_choice_colour_or_rank() -> None:
    """§5.2: red 4 led, follower holds red 9, black 4, green 2 -> red 9 or black 4."""
    assert set(legal_plays(cards("red-9 black-4 green-2"), ("red-4",), first_trick=False)) == {
        "red-9",
        "black-4",
    }
    game = BlackSpy.at(position(["blue-2", "red-9 black-4 green-2", "blue-3"], trick="red-4"))
    assert legal_cards(game.state, 1) == {"red-9", "black-4"}
    for card in ("red-9", "black-4"):
        BlackSpy.at(game.state).act(1, PlayCard(card=card))


def test_vector_2_void_in_both_plays_anything() -> None:
    """§5.2: red 4 led, follower holds green 2, black 7 -> either."""
    assert set(legal_plays(cards("green-2 black-7"), ("red-4",), first_trick=False)) == {
        "green-2",
        "black-7",
    }
    game = BlackSpy.at(position(["blue-2", "green-2 black-7", "blue-3"], trick="red-4"))
    assert legal_cards(game.state, 1) == {"green-2", "black-7"}


def test_vector_3_first_trick_lead_not_black() -> None:
    """§4.3: the leader of trick 1 holding red 1, black 2, blue 5 may lead red 1 or blue 5."""
    assert set(legal_plays(cards("red-1 black-2 blue-5"), (), first_trick=True)) == {
        "red-1",
        "blue-5",
    }
    game = BlackSpy.at(position(["red-1 black-2 blue-5", "blue-3", "blue-4"], first_trick=True))
    assert legal_cards(game.state, 0) == {"red-1", "blue-5"}


def test_vector_4_first_trick_follow_black_by_rank_allowed() -> None:
    """§4.4, §10.5: red 1 led to trick 1, follower holds black 1, yellow 3 -> black 1."""
    assert legal_plays(cards("black-1 yellow-3"), ("red-1",), first_trick=True) == ("black-1",)
    game = BlackSpy.at(position(["red-1 blue-5", "black-1 yellow-3", "blue-4"], first_trick=True))
    game.act(0, PlayCard(card="red-1"))
    assert legal_cards(game.state, 1) == {"black-1"}
    game.act(1, PlayCard(card="black-1"))


def test_vector_5_black_7_tie_led_card_wins() -> None:
    """§5.5: black 7, black 7, green 7, black 5 -> P1 (the earliest black 7); 16 points."""
    trick = ("black-7", "black-7", "green-7", "black-5")
    assert trick_winner(trick) == 0
    assert trick_points(trick, good_spies=True) == 16
    game = BlackSpy.at(
        position(["black-7 blue-1", "black-7 blue-2", "green-7 blue-3", "black-5 blue-4"])
    )
    events = game.finish_trick(trick)
    assert events[-1] == BlackSpyTrickWon(trick=2, winner=0, cards=trick, points=16)


def test_vector_6_black_7_tie_not_led_first_played_wins() -> None:
    """§5.5: black 3, black 7, black 7, yellow 3 -> P2 (first black 7); 21 points."""
    trick = ("black-3", "black-7", "black-7", "yellow-3")
    assert trick_winner(trick) == 1
    assert trick_points(trick, good_spies=True) == 21
    game = BlackSpy.at(
        position(["black-3 blue-1", "black-7 blue-2", "black-7 blue-3", "yellow-3 blue-4"])
    )
    events = game.finish_trick(trick)
    assert events[-1] == BlackSpyTrickWon(trick=2, winner=1, cards=trick, points=21)


def test_vector_7_higher_black_beats_black_7s() -> None:
    """§5.5: black 3, black 7, black 7, black 9 -> P4; 24 points."""
    trick = ("black-3", "black-7", "black-7", "black-9")
    assert trick_winner(trick) == 3
    assert trick_points(trick, good_spies=True) == 24
    game = BlackSpy.at(
        position(["black-3 blue-1", "black-7 blue-2", "black-7 blue-3", "black-9 blue-4"])
    )
    events = game.finish_trick(trick)
    assert events[-1] == BlackSpyTrickWon(trick=2, winner=3, cards=trick, points=24)


def test_vector_8_no_trumps_black_7_following_rank_loses() -> None:
    """§5.3: yellow 7, black 7 (same rank), yellow 2 -> P1; -5 + 10 + 0 = 5 points."""
    trick = ("yellow-7", "black-7", "yellow-2")
    assert trick_winner(trick) == 0
    assert trick_points(trick, good_spies=True) == 5
    game = BlackSpy.at(position(["yellow-7 blue-1", "black-7 blue-2", "yellow-2 blue-3"]))
    events = game.finish_trick(trick)
    assert events[-1] == BlackSpyTrickWon(trick=2, winner=0, cards=trick, points=5)


BLACKS = "black-1 black-2 black-3 black-4 black-5 black-6 black-7 black-7 black-7 black-7"
BLACKS += " black-7 black-7 black-8 black-9 black-10"


def test_vector_9_moon_four_players() -> None:
    """§6.4: P2 took all 16 black cards and the blue 7, P1 the red and green 7s, P3 the
    yellow 7 -> P2 -5, P1 50, P3 55, P4 60; sum 160 = 60*3 - 20 (§6.5)."""
    piles = [
        ["red-7", "green-7"],
        (BLACKS + " black-11 blue-7").split(),
        ["yellow-7"],
        [],
    ]
    assert score_deal(piles, good_spies=True, moon=True) == ((50, -5, 55, 60), 1)
    # Through the engine: P2 (seat 1) takes the last black card in the deal's last trick.
    game = BlackSpy.at(
        last_trick_position(
            {
                0: "red-7 green-7 red-2 red-3",
                1: BLACKS + " blue-7 blue-2 blue-3 blue-4 blue-5",
                2: "yellow-7 yellow-2 yellow-3 yellow-4",
            },
            ["green-1", "black-11", "green-2", "green-3"],
            leader=1,
        )
    )
    SPEC.check_invariants(game.state)
    events = game.finish_trick(["black-11", "green-2", "green-3", "green-1"])
    after = game.state
    scored = next(e for e in events if isinstance(e, BlackSpyDealScored))
    assert scored.scores == (50, -5, 55, 60)
    assert scored.moon == 1
    assert sum(scored.scores) == 60 * 3 - 20
    assert isinstance(events[-1], BlackSpyDealt)
    assert after.totals == (50, -5, 55, 60)


def test_vector_10_pass_cycle_four_and_five_players() -> None:
    """§3.3, §10.1: 4 players deals 1-6 left, right, across, left, right, across;
    5 players deals 1-3 left, right, left."""
    flags = BlackSpyFlags()
    assert [pass_direction(flags, 4, d) for d in range(1, 7)] == [LEFT, RIGHT, ACROSS] * 2
    assert [pass_direction(flags, 5, d) for d in range(1, 4)] == [LEFT, RIGHT, LEFT]
    # Through the engine: the dealt events of real games carry the same cycle.
    four = random_playout(4, seed=3)
    assert [d.direction for d in four.deals][:6] == [LEFT, RIGHT, ACROSS] * 2
    five = random_playout(5, seed=3)
    assert [d.direction for d in five.deals][:3] == [LEFT, RIGHT, LEFT]


def test_vector_10_first_deal_passes_left_to_the_next_seat() -> None:
    """§2.1, §10.4: left is the clockwise next seat, (i + 1) mod n."""
    game = BlackSpy.start(4, seed=5)
    hands = game.state.hands
    events = game.pass_all()
    exchanged = events[-1]
    assert isinstance(exchanged, BlackSpyCardsExchanged)
    for seat in range(4):
        assert exchanged.received[(seat + 1) % 4] == hands[seat][:3]
