"""The ``expert`` bot of Black Spy: determinised Monte-Carlo search over the rest of the deal.

For each decision the bot samples a few deals that agree with its view
(:mod:`spies_bots.black_spy.worlds`: unseen cards, its own pass, the red 1, known voids),
and in each of them plays every candidate and then the rest of the deal with the
``greedy`` rule for every seat, on the compact model of :mod:`spies_bots.black_spy.model`.
Every candidate meets the same sampled deals. The candidate with the best mean result
wins: the points the other seats take on average less the points the bot takes, plus a
bonus (or malus) when the deal ends the game and the bot then has (or has not) the lowest
total (§7).

Candidates: every distinct legal card in play; while passing, every three of the five
cards the greedy bot most wants to pass (the other seats pass as the greedy bot would).
The work is budgeted in cards played out, so a decision costs about the same whatever
the phase or the number of seats, and the bot reads no clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from random import Random
from typing import Any, Final

from spies_bots.black_spy.greedy import (
    choose_pass,
    choose_play,
    pass_command,
    pass_order,
    play_command,
)
from spies_bots.black_spy.model import (
    KIND,
    Deal,
    Scoring,
    exchange,
    first_leader,
    play_out,
    scoring,
)
from spies_bots.black_spy.worlds import deal_of, knowledge, sample
from spies_core.black_spy.cards import DECK
from spies_core.black_spy.commands import PassCards
from spies_core.black_spy.view import BlackSpyView

__all__ = ["choose"]

PLAY_BUDGET: Final[int] = 24000
"""Cards played out per decision in trick play (candidates x worlds x cards left)."""
PASS_BUDGET: Final[int] = 20000
"""Cards played out per pass decision."""
MIN_WORLDS: Final[int] = 3
MAX_WORLDS: Final[int] = 120
PASS_POOL: Final[int] = 5
"""The pass candidates are the 3-card subsets of this many most dangerous cards."""
END_BONUS: Final[float] = 30.0
"""Worth of ending the game with the lowest total (minus: with a higher one)."""


def _worlds(budget: int, candidates: int, cards: int) -> int:
    return max(MIN_WORLDS, min(MAX_WORLDS, budget // max(1, candidates * cards)))


def _utility(scores: Sequence[int], me: int, totals: Sequence[int], limit: int) -> float:
    n = len(scores)
    mine = scores[me]
    value = (sum(scores) - mine) / (n - 1) - mine
    final = [t + s for t, s in zip(totals, scores, strict=True)]
    if max(final) >= limit:
        value += END_BONUS if final[me] == min(final) else -END_BONUS
    return value


def _best(values: Sequence[float]) -> int:
    return max(range(len(values)), key=values.__getitem__)


def _choose_play(view: BlackSpyView, legal: Sequence[Any], rng: Random) -> Any:
    me = view.seat
    assert me is not None
    rules = scoring(view.flags)
    know = knowledge(view)
    candidates = list(dict.fromkeys(KIND[c.card] for c in legal))
    worlds = _worlds(PLAY_BUDGET, len(candidates), sum(know.sizes))
    values = [0.0] * len(candidates)
    for _ in range(worlds):
        deal = deal_of(view, sample(know, rng), rules)
        for i, card in enumerate(candidates):
            trial = deal.copy()
            trial.play(card, rules)
            scores = play_out(trial, choose_play, rules)
            values[i] += _utility(scores, me, view.totals, view.threshold)
    return play_command(candidates[_best(values)], legal)


def _choose_pass(view: BlackSpyView, legal: Sequence[Any], rng: Random) -> Any:
    me = view.seat
    assert me is not None
    rules: Scoring = scoring(view.flags)
    know = knowledge(view)
    order = pass_order(list(know.hand), rules)
    candidates = list(dict.fromkeys(tuple(sorted(c)) for c in combinations(order[:PASS_POOL], 3)))
    offset = view.pass_direction.offset
    worlds = _worlds(PASS_BUDGET, len(candidates), len(DECK))
    values = [0.0] * len(candidates)
    for _ in range(worlds):
        hands = sample(know, rng)
        passes = [choose_pass(hand, rules) for hand in hands]
        for i, mine in enumerate(candidates):
            passes[me] = list(mine)
            after = exchange(hands, passes, offset)
            deal = Deal(after, first_leader(after, view.flags, view.dealer))
            scores = play_out(deal, choose_play, rules)
            values[i] += _utility(scores, me, view.totals, view.threshold)
    return pass_command(candidates[_best(values)], legal)


def choose(view: BlackSpyView, legal: Sequence[Any], rng: Random) -> Any:
    """The ``expert`` policy: one of ``legal``, the best of a determinised search."""
    if len(legal) == 1:
        return legal[0]
    if isinstance(legal[0], PassCards):
        return _choose_pass(view, legal, rng)
    return _choose_play(view, legal, rng)
