"""Which commands Deck of Spies accepts: the tests of a counter (§4.2), a recruit (§5.2-5.3)
and a retire (§7), every legal command now, and the near misses the suites try.

Section numbers (§) and interpretations (I-n) refer to ``docs/rules/deck-of-spies.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from spies_core.cards import ALL_CARDS, Card, is_ace, is_face, suit, value
from spies_core.decider import Seat
from spies_core.deck_of_spies.commands import Assassinate, Command, Counter, Recruit
from spies_core.deck_of_spies.options import DeckOfSpiesFlags
from spies_core.deck_of_spies.piles import ace_of, sorted_cards, total_value, without
from spies_core.deck_of_spies.state import HAND_SIZE, Phase, State, owned_aces

__all__ = [
    "is_legal_counter",
    "is_legal_recruit",
    "legal_commands",
    "probe_commands",
    "retire_options",
]


def is_legal_counter(flags: DeckOfSpiesFlags, cards: Sequence[Card], spy: Card) -> bool:
    """§4.2: Σ(S) ≥ v and every card necessary, Σ(S) − min(S) < v (I-1, I-15).

    >>> flags = DeckOfSpiesFlags()
    >>> is_legal_counter(flags, ["3H", "4S"], "5C"), is_legal_counter(flags, ["7D", "AS"], "5C")
    (True, False)
    """
    if not cards:
        return False
    v = value(spy)
    total = total_value(cards)
    if total < v:
        return False
    return not flags.strict_necessity or total - min(value(c) for c in cards) < v


def is_legal_recruit(flags: DeckOfSpiesFlags, cards: Sequence[Card], spy: Card) -> bool:
    """§5.2 plain recruit, or §5.3 with the spy's Ace as double agent (I-2, I-3, I-12).

    >>> is_legal_recruit(DeckOfSpiesFlags(), ["AC", "4C", "3D", "2H"], "9C")
    True
    """
    if not cards:
        return False
    v = value(spy)
    total = total_value(cards)
    if total < v:
        return False
    ace = ace_of(spy)
    if ace not in cards:
        spy_suit = suit(spy)
        return all(suit(c) == spy_suit for c in cards) and is_legal_counter(flags, cards, spy)
    others = [c for c in cards if c != ace]
    if not others:
        return False
    if not flags.strict_necessity:
        return True
    smallest = min(value(c) for c in others)
    tested = total if flags.ace_counts_in_necessity else total - 1
    return tested - smallest < v


def retire_options(flags: DeckOfSpiesFlags, hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """§7.1-7.2 (I-6): no retire, or two or more cards of one value (several values under
    ``retire_multiple_ranks``), in canonical order; the empty retire comes first."""
    by_value: dict[int, list[Card]] = {}
    for c in hand:
        by_value.setdefault(value(c), []).append(c)
    groups = [
        [combo for size in range(2, len(cards) + 1) for combo in combinations(cards, size)]
        for cards in by_value.values()
        if len(cards) >= 2
    ]
    if not flags.retire_multiple_ranks:
        return [(), *(combo for options in groups for combo in options)]
    results: list[tuple[Card, ...]] = [()]
    for options in groups:
        results += [prefix + combo for prefix in results for combo in options]
    return [sorted_cards(r) for r in results]


def legal_commands(state: State, seat: Seat) -> list[Command]:
    """Every command ``decide`` accepts now, cards in canonical order (§10.2).

    The hot path of every bot and of the conformance suite: it applies the tests of
    :func:`is_legal_counter` and :func:`is_legal_recruit` to precomputed values of the
    hand's subsets (the conformance suite checks both agree with ``decide``).
    """
    if state.phase is not Phase.PLAYING or seat != 0:
        return []
    spy = state.spy_deck[0]
    hand = state.hand
    v = value(spy)
    values = [value(c) for c in hand]
    if sum(values) < v:
        return [Assassinate(ace=ace) for ace in owned_aces(state)]
    flags = state.flags
    strict = flags.strict_necessity
    ace_bonus = 0 if flags.ace_counts_in_necessity else 1
    spy_suit = suit(spy)
    in_suit = [suit(c) == spy_suit for c in hand]
    ace = ace_of(spy)
    ace_at = hand.index(ace) if ace in hand else -1
    commands: list[Command] = []
    for picked in _SUBSETS[len(hand)]:
        total = sum(values[i] for i in picked)
        if total < v:
            continue
        counter = not strict or total - min(values[i] for i in picked) < v
        if ace_at in picked:
            others = [values[i] for i in picked if i != ace_at]
            recruit = bool(others) and (not strict or total - ace_bonus - min(others) < v)
        else:
            recruit = counter and all(in_suit[i] for i in picked)
        if not (counter or recruit):
            continue
        used = tuple(hand[i] for i in picked)
        retires = retire_options(flags, [hand[i] for i in range(len(hand)) if i not in picked])
        if counter:
            commands += [Counter(cards=used, retire=r) for r in retires]
        if recruit:
            commands += [Recruit(cards=used, retire=r) for r in retires]
    return commands


_SUBSETS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(c for size in range(1, n + 1) for c in combinations(range(n), size))
    for n in range(HAND_SIZE + 1)
)
"""Index subsets of a hand of n cards, by size then lexicographically."""


def probe_commands(state: State, seat: Seat) -> list[Command]:
    """Near-miss commands for the conformance suite: every subset as counter and recruit,
    with and without retires, every Ace (owned or not) and a few cards not in hand."""
    probes: list[Command] = []
    hand = state.hand
    for size in range(1, len(hand) + 1):
        for used in combinations(hand, size):
            rest = without(hand, used)
            retires: list[tuple[Card, ...]] = [(), *combinations(rest, 2), rest]
            for r in retires:
                probes.append(Counter(cards=used, retire=sorted_cards(r)))
                probes.append(Recruit(cards=used, retire=sorted_cards(r)))
    probes += [Assassinate(ace=c) for c in ALL_CARDS if is_ace(c)]
    outside = [c for c in ALL_CARDS if c not in hand][:3]
    probes += [Counter(cards=(c,)) for c in outside]
    probes += [Assassinate(ace=c) for c in outside if not is_face(c)][:1]
    probes.append(Counter(cards=()))
    return probes
