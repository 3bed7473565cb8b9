"""The compact deal model plays exactly the game of the rules core.

Seeded deals are played twice with the greedy bot at every seat: once through the core
(views, legal commands, ``decide`` and ``evolve``) and once on the model from the same
dealt hands. The passes, the hands after the exchange, the first leader, every card with
its seat and the deal's scores must agree.
"""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from spies_bots.black_spy import POLICIES
from spies_bots.black_spy.greedy import choose_pass, choose_play
from spies_bots.black_spy.model import (
    BLACK,
    COLOUR,
    KIND,
    NAME,
    Deal,
    Kind,
    Scoring,
    exchange,
    first_leader,
    play_out,
    scoring,
    trick_winner,
)
from spies_core.black_spy import scoring as core
from spies_core.black_spy.cards import DECK, sort_cards
from spies_core.black_spy.events import BlackSpyCardPlayed, BlackSpyDealScored
from spies_core.black_spy.options import BlackSpyFlags, good_spies, moon_applies
from spies_core.black_spy.state import Phase, State
from spies_core.decider import fold, start_game
from tests.bots.black_spy.helpers import OPTION_SETS, SPEC


def _model_deal(state: State) -> tuple[list[list[Kind]], int, list[tuple[int, str]], list[int]]:
    """The deal of ``state`` (just dealt) on the model: hands after the pass, first leader,
    the cards played with their seats, and the scores."""
    rules = scoring(state.flags)
    hands = [[KIND[c] for c in hand] for hand in state.hands]
    passes = [choose_pass(hand, rules) for hand in hands]
    after = exchange(hands, passes, state.direction.offset)
    leader = first_leader(after, state.flags, state.dealer)
    deal = Deal([list(h) for h in after], leader)
    played: list[tuple[int, str]] = []

    def recording(
        hand: list[Kind], trick: list[Kind], first: bool, players: int, r: Scoring
    ) -> Kind:
        card = choose_play(hand, trick, first, players, r)
        seat = next(s for s, h in enumerate(deal.hands) if h is hand)
        played.append((seat, NAME[card]))
        return card

    scores = play_out(deal, recording, rules)
    return after, leader, played, scores


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_model_plays_seeded_deals_as_the_core(players: int, options: str) -> None:
    greedy = POLICIES["greedy"]
    compared = 0
    for seed in range(3):
        rng = Random(seed)
        state = fold(SPEC, start_game(SPEC, players, OPTION_SETS[options], rng))
        while SPEC.outcome(state) is None:
            after, leader, model_played, model_scores = _model_deal(state)
            played: list[tuple[int, str]] = []
            scores: tuple[int, ...] | None = None
            while scores is None:
                seat = min(SPEC.to_act(state))
                legal: list[Any] = SPEC.legal_commands(state, seat)
                command = greedy(SPEC.view(state, seat), legal, Random(0))
                for event in SPEC.decide(state, seat, command, rng):
                    if isinstance(event, BlackSpyCardPlayed):
                        played.append((event.seat, event.card))
                    if isinstance(event, BlackSpyDealScored):
                        scores = event.scores
                    state = SPEC.evolve(state, event)
                if state.phase is Phase.PLAYING and not played and state.turn is not None:
                    assert [sort_cards(NAME[k] for k in h) for h in after] == [
                        h for h in state.hands
                    ]
                    assert leader == state.turn
            assert played == model_played
            assert list(scores) == model_scores
            compared += 1
    assert compared >= 6


def _piles(rng: Random, players: int, moon: bool) -> list[list[str]]:
    cards = list(DECK)
    rng.shuffle(cards)
    piles: list[list[str]] = [[] for _ in range(players)]
    shooter = rng.randrange(players)
    for c in cards:
        black = COLOUR[KIND[c]] == BLACK
        piles[shooter if moon and black else rng.randrange(players)].append(c)
    return piles


@pytest.mark.parametrize(
    "flags", [BlackSpyFlags(), BlackSpyFlags(no_good_spies=True), BlackSpyFlags(classic=True)]
)
def test_the_model_scores_piles_as_the_core_moon_included(flags: BlackSpyFlags) -> None:
    rules = scoring(flags)
    rng = Random(1)
    for i in range(200):
        players = 3 + i % 4
        piles = _piles(rng, players, moon=i % 2 == 0)
        deal = Deal([[] for _ in range(players)], 0)
        for seat, pile in enumerate(piles):
            kinds = [KIND[c] for c in pile]
            deal.points[seat] = sum(rules.points[k] for k in kinds)
            blacks = [k for k in kinds if COLOUR[k] == BLACK]
            deal.blacks[seat] = len(blacks)
            deal.black_points[seat] = sum(rules.points[k] for k in blacks)
        expected, _ = core.score_deal(piles, good_spies=good_spies(flags), moon=moon_applies(flags))
        assert deal.scores(rules) == list(expected)


def test_the_model_wins_a_trick_as_the_core() -> None:
    """The winner of random tricks heavy in black 7s, as the core says."""
    rng = Random(2)
    deck = list(DECK) + ["black-7"] * 6
    for i in range(3000):
        players = 3 + i % 4
        rng.shuffle(deck)
        trick = deck[:players]
        assert trick_winner([KIND[c] for c in trick]) == core.trick_winner(trick)


def test_the_greedy_plays_only_what_the_core_allows() -> None:
    """Every card ``choose_play`` picks from random hands and tricks (black 7s many, first
    tricks included) is one the core's ``legal_plays`` allows."""
    rng = Random(3)
    deck = list(DECK) + ["black-7"] * 6
    rules = scoring(BlackSpyFlags())
    for i in range(3000):
        players = 3 + i % 4
        rng.shuffle(deck)
        trick = deck[: i % players]
        hand = sorted(deck[players : players + 1 + i % 12])
        first = i % 3 == 0
        card = choose_play([KIND[c] for c in hand], [KIND[c] for c in trick], first, players, rules)
        assert NAME[card] in core.legal_plays(hand, trick, first_trick=first)
