"""The ``expert`` bot of Black Spy: determinised Monte-Carlo search over the rest of the deal.

For each decision the bot samples a few deals that agree with its view
(:mod:`spies_bots.black_spy.worlds`: unseen cards, its own pass, the red 1, known voids),
and in each of them plays every candidate and then the rest of the deal with the
``greedy`` rule for every seat, on the compact model of :mod:`spies_bots.black_spy.model`.
The candidates compared meet the same sampled deals. The candidate with the best mean result
wins: the points the other seats take on average less the points the bot takes, plus a
bonus (or malus) when the deal ends the game and the bot then has (or has not) the lowest
total (§7).

Candidates: every distinct legal card in play; while passing, every three of the seven
cards the greedy bot most wants to pass (the other seats pass as the greedy bot would).
They are compared by sequential halving, so the promising ones meet the most worlds.
The work is budgeted in cards played out, so a decision costs about the same whatever
the phase or the number of seats, and the bot reads no clock.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from random import Random
from typing import Any, Final, TypeVar

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
    Kind,
    Scoring,
    exchange,
    first_leader,
    play_out,
    scoring,
)
from spies_bots.black_spy.worlds import deal_of, knowledge, sample
from spies_core.black_spy.cards import DECK
from spies_core.black_spy.commands import PassCards
from spies_core.black_spy.state import PASS_SIZE
from spies_core.black_spy.view import BlackSpyView

__all__ = ["choose"]

PLAY_BUDGET: Final[int] = 24000
"""Cards played out per decision in trick play (over all rounds: candidates x worlds x
cards left)."""
PASS_BUDGET: Final[int] = 30000
"""Cards played out per pass decision."""
MIN_WORLDS: Final[int] = 3
"""Fewest sampled worlds in one round of the halving, whatever the budget."""
MAX_WORLDS: Final[int] = 120
"""Most sampled worlds in one round (decisions between few candidates late in a deal)."""
PASS_POOL: Final[int] = 7
"""The pass candidates are the passes (``PASS_SIZE`` cards) among this many most dangerous
cards."""
END_BONUS: Final[float] = 30.0
"""Worth of ending the game with the lowest total (minus: with a higher one)."""


_World = TypeVar("_World")


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


def _search(
    count: int,
    cost: int,
    budget: int,
    world: Callable[[], _World],
    value: Callable[[_World, int], float],
) -> int:
    """The best of ``count`` candidates by sequential halving.

    The budget (cards played out; one play-out costs ``cost``) is split evenly over
    ``ceil(log2(count))`` rounds. In each round every surviving candidate is played out in
    the same new sampled worlds, then the better half (by its total so far) survives.
    """
    alive = list(range(count))
    if count == 1:
        return 0
    totals = [0.0] * count
    rounds = (count - 1).bit_length()
    for _ in range(rounds):
        worlds = _worlds(budget // rounds, len(alive), cost)
        for _ in range(worlds):
            w = world()
            for i in alive:
                totals[i] += value(w, i)
        alive.sort(key=lambda i: (-totals[i], i))
        alive = alive[: (len(alive) + 1) // 2]
    return alive[0]


def _choose_play(view: BlackSpyView, legal: Sequence[Any], rng: Random) -> Any:
    me = view.seat
    assert me is not None
    rules = scoring(view.flags)
    know = knowledge(view)
    candidates = list(dict.fromkeys(KIND[c.card] for c in legal))

    def world() -> Deal:
        return deal_of(view, sample(know, rng), rules)

    def value(deal: Deal, i: int) -> float:
        trial = deal.copy()
        trial.play(candidates[i], rules)
        scores = play_out(trial, choose_play, rules)
        return _utility(scores, me, view.totals, view.threshold)

    best = _search(len(candidates), sum(know.sizes), PLAY_BUDGET, world, value)
    return play_command(candidates[best], legal)


def _choose_pass(view: BlackSpyView, legal: Sequence[Any], rng: Random) -> Any:
    me = view.seat
    assert me is not None
    rules: Scoring = scoring(view.flags)
    know = knowledge(view)
    order = pass_order(list(know.hand), rules)
    candidates = list(
        dict.fromkeys(tuple(sorted(c)) for c in combinations(order[:PASS_POOL], PASS_SIZE))
    )
    offset = view.pass_direction.offset

    def world() -> tuple[list[list[Kind]], list[list[Kind]]]:
        hands = sample(know, rng)
        return hands, [choose_pass(hand, rules) for hand in hands]

    def value(w: tuple[list[list[Kind]], list[list[Kind]]], i: int) -> float:
        hands, passes = w
        passes = [list(candidates[i]) if s == me else p for s, p in enumerate(passes)]
        after = exchange(hands, passes, offset)
        deal = Deal(after, first_leader(after, view.flags, view.dealer))
        scores = play_out(deal, choose_play, rules)
        return _utility(scores, me, view.totals, view.threshold)

    best = _search(len(candidates), len(DECK), PASS_BUDGET, world, value)
    return pass_command(candidates[best], legal)


def choose(view: BlackSpyView, legal: Sequence[Any], rng: Random) -> Any:
    """The ``expert`` policy: one of ``legal``, the best of a determinised search."""
    if len(legal) == 1:
        return legal[0]
    if isinstance(legal[0], PassCards):
        return _choose_pass(view, legal, rng)
    return _choose_play(view, legal, rng)
