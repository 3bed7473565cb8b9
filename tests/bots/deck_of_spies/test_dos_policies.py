"""The Deck of Spies bots: legal, deterministic, and the greedy scores as §13.2 says."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from spies_bots.deck_of_spies import POLICIES, greedy
from spies_core import fold, get_game, start_game
from spies_core.cards import ALL_CARDS
from spies_core.deck_of_spies.commands import Assassinate, Command, Counter, Recruit
from spies_core.deck_of_spies.state import State
from spies_core.deck_of_spies.view import DeckOfSpiesView

SPEC = get_game("deck-of-spies")


def _position(
    spy: str, hand: str, *, draw: str = "", discard: str = "", spy_discard: str = ""
) -> tuple[DeckOfSpiesView, list[Command]]:
    """The player's view and legal commands: the named zones, every other card a spy."""
    zones = {
        "hand": hand.split(),
        "draw": draw.split(),
        "discard": discard.split(),
        "spy_discard": spy_discard.split(),
    }
    placed = {c for cards in zones.values() for c in cards} | {spy}
    spies = [spy, *(c for c in ALL_CARDS if c not in placed)]
    state = fold(SPEC, start_game(SPEC, 1, {"deal": {"spies": spies, **zones}}, Random(0)))
    return SPEC.view(state, 0), SPEC.legal_commands(state, 0)


def _greedy(view: DeckOfSpiesView, legal: list[Command]) -> Command:
    return greedy.choose(view, legal, Random(0))


def test_greedy_retires_pairs_down_to_eight_owned_cards() -> None:
    # W8 with ten owned cards: a retire of two leaves 8, of three only 7.
    view, legal = _position("7H", "2C 2H 2S 3S 9D", draw="4C 4D 4H 5C 6C")
    assert greedy.score(view, Counter(cards=("9D",), retire=("2C", "2H"))) == 4
    assert greedy.score(view, Counter(cards=("9D",), retire=("2C", "2H", "2S"))) == greedy.NEVER
    assert greedy.score(view, Counter(cards=("9D",))) == 0
    assert _greedy(view, legal) == Counter(cards=("9D",), retire=("2C", "2H"))
    # With eleven owned cards the three 2s go.
    view, legal = _position("7H", "2C 2H 2S 3S 9D", draw="4C 4D 4H 5C 6C 8C")
    assert _greedy(view, legal) == Counter(cards=("9D",), retire=("2C", "2H", "2S"))


def test_greedy_never_retires_aces_or_faces() -> None:
    view, legal = _position("6H", "JS JD AC AD 6C", draw="2C 3C 4C 5C 7C 8C 9C")
    assert greedy.score(view, Counter(cards=("6C",), retire=("JD", "JS"))) == greedy.NEVER
    assert greedy.score(view, Counter(cards=("6C",), retire=("AC", "AD"))) == greedy.NEVER
    assert _greedy(view, legal) == Counter(cards=("6C",))


def test_greedy_recruits_a_face_card_keeping_its_ace() -> None:
    # W13: both recruits score 100; keeping A♥ in hand adds 2.
    view, legal = _position("JH", "10H AH 2H 3C 4D", draw="2D 3D 4H 4S")
    assert greedy.score(view, Recruit(cards=("10H", "AH"))) == 100
    assert greedy.score(view, Recruit(cards=("10H", "2H"))) == 102
    assert greedy.score(view, Counter(cards=("10H", "3C"))) == 2
    assert _greedy(view, legal) == Recruit(cards=("2H", "10H"))


def test_greedy_recruits_another_spy_for_its_value() -> None:
    # W2: the only recruit scores 7, more than any counter.
    view, legal = _position("7H", "3H 5H 2S 4D AC")
    assert greedy.score(view, Recruit(cards=("3H", "5H"))) == 7 + 2
    assert _greedy(view, legal) == Recruit(cards=("3H", "5H"))


def test_greedy_breaks_ties_with_the_fewest_then_lowest_cards() -> None:
    # W1: every counter but {4♠, A♠} keeps the Ace (score 2); {7♦} uses the fewest cards.
    view, legal = _position("5C", "2D 3H 4S 7D AS")
    assert {greedy.score(view, c) for c in legal if isinstance(c, Counter)} == {0, 2}
    assert _greedy(view, legal) == Counter(cards=("7D",))


def test_greedy_assassinates_with_the_ace_of_the_suit_with_fewest_faces_to_come() -> None:
    # W11: A♦ in hand, A♠ in the draw deck, A♥ in the discard; the spades' faces are gone.
    view, legal = _position(
        "QD", "2C 2H 3S AD 3D", draw="AS 4C", discard="AH", spy_discard="JS QS KS AC"
    )
    assert all(isinstance(c, Assassinate) for c in legal)
    assert greedy.assassination_key(view, "AS")[0] == 0 < greedy.assassination_key(view, "AD")[0]
    assert _greedy(view, legal) == Assassinate(ace="AS")
    # With the spades still to come, diamonds (two faces left below Q♦) come first.
    view, legal = _position("QD", "2C 2H 3S AD 3D", draw="AS 4C", discard="AH", spy_discard="AC")
    assert _greedy(view, legal) == Assassinate(ace="AD")


def _playout(
    name: str, options: dict[str, Any], seed: int, random_share: float
) -> list[tuple[State, Command]]:
    """A playout where the bot chooses at every step (a share of moves then made at
    random, to reach odder positions); returns each state with the bot's choice."""
    policy = POLICIES[name]
    rng = Random(seed)
    state = fold(SPEC, start_game(SPEC, 1, options, rng))
    steps = []
    while SPEC.outcome(state) is None:
        legal = SPEC.legal_commands(state, 0)
        choice = policy(SPEC.view(state, 0), legal, Random(seed * 100 + len(steps)))
        assert choice in legal
        steps.append((state, choice))
        if rng.random() < random_share:
            choice = legal[rng.randrange(len(legal))]
        for event in SPEC.decide(state, 0, choice, rng):
            state = SPEC.evolve(state, event)
    return steps


OPTIONS: list[dict[str, bool]] = [
    {},
    {"strict_necessity": False},
    {"ace_counts_in_necessity": False},
    {"retire_multiple_ranks": True},
]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(o) or "defaults")
def test_greedy_plays_legal_commands(options: dict[str, bool]) -> None:
    for seed in range(30):
        _playout("greedy", options, seed, random_share=0.3 if seed % 2 else 0.0)


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(o) or "defaults")
def test_expert_plays_legal_commands(options: dict[str, bool]) -> None:
    _playout("expert", options, 7, random_share=0.0)
    _playout("expert", options, 8, random_share=0.5)


def test_expert_is_deterministic_given_its_rng() -> None:
    for state, choice in _playout("expert", {}, 11, random_share=0.3)[::4]:
        view = SPEC.view(state, 0)
        legal = SPEC.legal_commands(state, 0)
        seed = 11 * 100 + 0
        first = POLICIES["expert"](view, legal, Random(seed))
        assert POLICIES["expert"](view, legal, Random(seed)) == first
        assert choice in legal
