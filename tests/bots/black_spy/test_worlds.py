"""The expert's determinisation: what it reads from a view is true of the real deal, and
every sampled deal agrees with the view (cards seen elsewhere, the pass, the red 1, voids)."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest

from spies_bots.black_spy import POLICIES
from spies_bots.black_spy.model import KIND, NAME
from spies_bots.black_spy.worlds import Knowledge, knowledge, sample
from spies_bots.random_bot import choose as random_choice
from spies_core.black_spy.cards import DECK, FOLLOWERS, RED_1
from spies_core.black_spy.state import Phase, State
from spies_core.black_spy.view import BlackSpyView
from tests.bots.black_spy.helpers import OPTION_SETS, decisions


def _played(view: BlackSpyView) -> list[tuple[int, str, str]]:
    """(seat, card, led card) of every card played this deal."""
    tricks = [t.cards for t in view.tricks] + ([view.trick] if view.trick else [])
    return [(p.seat, p.card, cards[0].card) for cards in tricks for p in cards]


def _voids(view: BlackSpyView) -> dict[int, set[str]]:
    """Cards each seat cannot hold: it once played neither the led colour nor the led rank."""
    voids: dict[int, set[str]] = {}
    for seat, card, led in _played(view):
        if card not in FOLLOWERS[led]:
            voids.setdefault(seat, set()).update(FOLLOWERS[led])
    return voids


def _true_hands(state: State) -> list[Counter[str]]:
    """Each seat's real hand in the deal the view describes (passes not yet handed over
    are still the passer's)."""
    hands = [Counter(h) for h in state.hands]
    if state.phase is Phase.PASSING:
        for seat, passed in enumerate(state.passes):
            hands[seat].update(passed or ())
    return hands


def _check_sample(view: BlackSpyView, know: Knowledge, hands: list[list[int]]) -> None:
    me = view.seat
    assert me is not None and view.hand is not None
    named = [Counter(NAME[c] for c in hand) for hand in hands]
    assert named[me] == Counter(view.hand)
    played = Counter(card for _, card, _ in _played(view))
    assert sum(named, Counter()) + played == Counter(DECK), "a card dealt twice or lost"
    sizes = [len(DECK) // view.players] * view.players
    if view.phase is Phase.PLAYING:
        sizes = list(view.hand_sizes)
    assert [len(h) for h in hands] == sizes
    seen_elsewhere = set(view.hand) | set(played) | set(view.received or ())
    for seat, hand in enumerate(named):
        if seat != me:
            assert not (set(hand) & seen_elsewhere - {"black-7"}), "a card seen elsewhere"
    for seat, void in _voids(view).items():
        assert not set(named[seat]) & void, f"seat {seat} dealt a card of a known void"
    if view.phase is Phase.PLAYING and view.my_pass and view.pass_to is not None:
        gone = Counter(card for seat, card, _ in _played(view) if seat == view.pass_to)
        assert not Counter(view.my_pass) - gone - named[view.pass_to], "the pass not kept"
    if view.phase is Phase.PLAYING and not view.flags.classic and RED_1 not in seen_elsewhere:
        first = view.tricks[0].cards[0].seat if view.tricks else view.leader
        assert first is not None and RED_1 in named[first]


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_knowledge_is_true_of_the_real_deal_and_samples_agree_with_the_view(
    players: int, options: str
) -> None:
    seats = [POLICIES["greedy"], random_choice] * 3
    checked = 0
    for seed in range(2):
        rng = Random(seed)
        for d in decisions(players, seats, seed=seed, options=OPTION_SETS[options], deals=3):
            know = knowledge(d.view)
            truth = _true_hands(d.state)
            for seat in range(players):
                hand = truth[seat]
                assert sum(hand.values()) == know.sizes[seat]
                assert not Counter(NAME[c] for c in know.known[seat]) - hand, "a wrong known card"
                assert not {KIND[c] for c in hand} & know.voids[seat], "a wrong void"
            others = sum((truth[s] for s in range(players) if s != d.seat), Counter())
            known = Counter(NAME[c] for held in know.known for c in held)
            assert others - known == Counter(NAME[c] for c in know.unseen)
            for _ in range(2):
                _check_sample(d.view, know, sample(know, rng))
            checked += 1
    assert checked > 100


def test_samples_keep_to_many_voids_late_in_a_deal() -> None:
    """Late in deals of random play many seats are void in several colours and ranks:
    every sample still keeps out of all of them."""
    voided = 0
    rng = Random(7)
    for seed in range(6):
        seats = [random_choice] * 4
        for d in decisions(4, seats, seed=seed, deals=2):
            if d.view.phase is Phase.PLAYING and len(_voids(d.view)) >= 2:
                voided += 1
                know = knowledge(d.view)
                for _ in range(3):
                    _check_sample(d.view, know, sample(know, rng))
    assert voided > 50
