"""The ``greedy`` of :mod:`.greedy`, played on the compact model for the ``expert``'s rollouts.

:mod:`.greedy` scores every legal command of a view; the ``expert`` plays the greedy for
thousands of turns per decision, where that is far too slow. This is the same greedy on a
:class:`~.model.Table`: its weights, the values it retires and the score of a recruit are
read from :mod:`.greedy` (their one definition), and it breaks ties the same way, so on
every position it chooses the move that :func:`.greedy.choose` chooses from the core's legal
commands. A differential test in ``tests/bots/deck_of_spies`` holds the two to that.

Its speed comes from a memo: the greedy's choice depends on the suits only through which
cards are of the spy's suit, so the moves worth playing are listed once per spy value,
hand values, place of the spy's Ace, retire allowance and rule flags, and kept in a
:class:`~spies_bots.memo.SharedMemo` that every thread of the process shares.
"""

from __future__ import annotations

import itertools
from itertools import combinations
from typing import Final

from spies_bots.deck_of_spies.greedy import (
    ACE_WEIGHT,
    MIN_OWNED,
    RETIRE_VALUES,
    RETIRE_WEIGHT,
    recruit_score,
)
from spies_bots.deck_of_spies.model import (
    ACE_OF_SUIT,
    ASSASSINATE,
    CARDS,
    COUNTER,
    FACE,
    PLAYING,
    RECRUIT,
    SUIT,
    VALUE,
    Move,
    Shuffle,
    Table,
    apply,
    owned_aces,
)
from spies_bots.memo import SharedMemo
from spies_core.deck_of_spies.state import HAND_SIZE

__all__ = ["OPTIONS", "assassination_ace", "greedy_move", "play_out"]

_Key = tuple[int | bool, ...]
"""``(spy value, recruit score, place of the spy's Ace or -1, retire allowance, the three
rule flags, *the hand's values in ascending order)``."""

_Option = tuple[int, int, tuple[int, ...], tuple[int, ...]]
"""``(kind, off_suit, used, retired)``, cards as indices into the hand: a move the greedy
may play, legal unless a card of ``off_suit`` (a mask) is not of the spy's suit."""

_RECRUIT_SCORE: Final[tuple[int, ...]] = tuple(recruit_score(c) for c in CARDS)
""":func:`.greedy.recruit_score` of each card, by its int."""
_ACE_VALUE: Final = VALUE[ACE_OF_SUIT[0]]
_ABOVE_ALL: Final = max(VALUE) + 1
"""Above every card's value: the lowest value of no cards."""
_MAX_RETIRE: Final = HAND_SIZE - 1
"""A retire takes at most the hand less the one card a counter or recruit uses."""

_MASKED_SUBSETS: Final = tuple(
    tuple(
        (sum(1 << i for i in picked), picked)
        for size in range(1, n + 1)
        for picked in combinations(range(n), size)
    )
    for n in range(HAND_SIZE + 1)
)
"""Per hand size n, every non-empty subset of the hand's places as ``(mask, places)``, by
size then lexicographically: the greedy's tie order (fewest cards, then the lowest)."""


def assassination_ace(t: Table) -> int:
    """The greedy's Ace (:func:`.greedy.assassination_key`): the suit with the fewest face
    cards, then the least value, left in the spy deck below the spy faced now; ties to the
    first Ace in canonical order."""
    below = t.spies[t.top + 1 :]
    best = -1
    best_key = (0, 0)
    for ace in owned_aces(t):
        s = SUIT[ace]
        faces = 0
        total = 0
        for c in below:
            if SUIT[c] == s:
                total += VALUE[c]
                if FACE[c]:
                    faces += 1
        key = (faces, total)
        if best < 0 or key < best_key:
            best, best_key = ace, key
    return best


def greedy_move(t: Table) -> Move:
    """The greedy's move (§13.2), as :func:`.greedy.choose` plays it.

    The counters and recruits worth playing come from :data:`OPTIONS`; the first of them
    whose cards the suits allow is played; with none, the assassination of
    :func:`assassination_ace`.
    """
    spy = t.spies[t.top]
    hand = t.hand
    ace = ACE_OF_SUIT[SUIT[spy]]
    values = [VALUE[c] for c in hand]
    cap = t.owned - MIN_OWNED
    if cap > _MAX_RETIRE:
        cap = _MAX_RETIRE
    elif cap < 1 or len(set(values)) == len(values):
        cap = 0  # no retire is possible: the same choice for any owned count
    key = (
        VALUE[spy],
        _RECRUIT_SCORE[spy],
        hand.index(ace) if ace in hand else -1,
        cap,
        t.strict,
        t.ace_counts,
        t.multi,
        *values,
    )
    options = _known(key)
    if options is None:
        options = OPTIONS(key)
    if not options:
        return (ASSASSINATE, (assassination_ace(t),), ())
    if len(options) > 1:
        spy_suit = SUIT[spy]
        off_suit = 0
        for i, c in enumerate(hand):
            if SUIT[c] != spy_suit:
                off_suit |= 1 << i
        for option in options:
            if not option[1] & off_suit:
                break
        kind, _, used, retired = option
    else:
        kind, _, used, retired = options[0]
    return (
        kind,
        tuple([hand[i] for i in used]),
        tuple([hand[i] for i in retired]) if retired else (),
    )


def _greedy_options(key: _Key) -> tuple[_Option, ...]:
    """The greedy's moves for a hand, best first, cut after the first that is always legal.

    The key holds everything the choice depends on but the suits (:data:`_Key`); the
    retire allowance is how many cards a counter's retire may take, clipped. An empty tuple
    means no counter is possible.
    """
    v, recruit_base, ace_at, cap, strict, ace_counts, multi, *values = (int(k) for k in key)
    n = len(values)
    # The necessity tests of §4.2 and §5.3 (I-1, I-2, I-15), on values: the core's
    # is_legal_counter and is_legal_recruit, with the suits left to ``off_suit``.
    ace_bonus = 0 if ace_counts else 1
    totals = [0] * (1 << n)
    lows = [_ABOVE_ALL] * (1 << n)
    for mask in range(1, 1 << n):
        low_bit = mask & -mask
        card_value = values[low_bit.bit_length() - 1]
        others = mask ^ low_bit
        totals[mask] = totals[others] + card_value
        lows[mask] = min(lows[others], card_value)
    ace_bit = 1 << ace_at if ace_at >= 0 else 0
    by_value: dict[int, list[int]] = {}
    for i, card_value in enumerate(values):
        if card_value in RETIRE_VALUES:
            by_value.setdefault(card_value, []).append(i)
    groups = [g for g in by_value.values() if len(g) >= 2]
    ranked: list[tuple[int, int, _Option]] = []
    for order, (mask, picked) in enumerate(_MASKED_SUBSETS[n]):
        total = totals[mask]
        if total < v:
            continue
        counter = not strict or total - lows[mask] < v
        needs = 0
        if mask & ace_bit:
            others = mask ^ ace_bit
            recruit = others != 0 and (not strict or total - ace_bonus - lows[others] < v)
        else:
            recruit = counter
            needs = mask
        if not (counter or recruit):
            continue
        rest = ((1 << n) - 1) ^ mask
        kept = ACE_WEIGHT * sum(1 for i in range(n) if rest >> i & 1 and values[i] == _ACE_VALUE)
        if counter:
            retired = _retire_choice(groups, rest, cap, bool(multi))
            score = kept + RETIRE_WEIGHT * len(retired)
            ranked.append((-score, 2 * order, (COUNTER, 0, picked, retired)))
        if recruit:
            retired = _retire_choice(groups, rest, cap + 1, bool(multi))
            score = recruit_base + kept + RETIRE_WEIGHT * len(retired)
            ranked.append((-score, 2 * order + 1, (RECRUIT, needs, picked, retired)))
    ranked.sort()
    options: list[_Option] = []
    for _, _, option in ranked:
        options.append(option)
        if not option[1]:
            break
    return tuple(options)


OPTIONS: Final[SharedMemo[_Key, tuple[_Option, ...]]] = SharedMemo(_greedy_options, limit=40_000)
"""The greedy's moves for a hand (:func:`_greedy_options`), remembered: hands of the same
values recur all through the rollouts. Shared by every thread, and safe to be."""
_known: Final = OPTIONS.known


def _retire_choice(groups: list[list[int]], rest: int, cap: int, multi: bool) -> tuple[int, ...]:
    """The greedy's retire from the hand cards in the mask ``rest``: the most cards, at
    most ``cap``, of one same-value group of ``groups`` (or several, under
    ``retire_multiple_ranks``); of those, the lowest cards. ``groups`` lists the hand's
    indices of each retirable value held twice or more, lowest value first."""
    left = [[i for i in g if rest >> i & 1] for g in groups]
    left = [g for g in left if len(g) >= 2]
    if not left or cap < 2:
        return ()
    if not multi:
        best: list[int] = []
        for g in left:
            if min(len(g), cap) > len(best):
                best = g[:cap]
        return tuple(best)
    chosen: tuple[int, ...] = ()
    for sizes in itertools.product(*([0, *range(2, len(g) + 1)] for g in left)):
        if sum(sizes) > cap:
            continue
        retired = tuple(i for g, size in zip(left, sizes, strict=True) for i in g[:size])
        if len(retired) > len(chosen) or (len(retired) == len(chosen) and retired < chosen):
            chosen = retired
    return chosen


def play_out(t: Table, shuffle: Shuffle) -> None:
    """Play the greedy to the end of the game."""
    while t.result == PLAYING:
        apply(t, greedy_move(t), shuffle)
