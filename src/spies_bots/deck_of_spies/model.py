"""A compact model of Deck of Spies for rollouts: the rules of ``spies_core`` on plain ints.

Search bots play thousands of turns per decision, so this model keeps a table in mutable
lists of ints (no Structs, no validation, no events), which makes a turn far cheaper than in
the core. It follows the core card for card: the same legal moves in the same order
(§10.2), the same zones after every turn, the same lazy reshuffles of the sorted discard
(§8) and the same shuffle after an Ace leaves the draw deck (§6.3), so with the same
shuffles it plays the same game. The differential test in ``tests/bots/deck_of_spies``
holds it to that.

A card is an int ordered by value, then suit (``4 * (value - 1) + suit``), so a sorted hand
lists its values in ascending order and the greedy's choice depends on the values, the
place of the spy's Ace and the suits alone, which keeps its memo small. Zones the core
keeps in canonical order (suit-major, :data:`spies_core.cards.ALL_CARDS`) are put in that
order where it matters: the discard before a reshuffle, and the hand when listing moves.
A move is ``(kind, used, retired)`` with ``kind`` one of :data:`COUNTER`, :data:`RECRUIT` or
:data:`ASSASSINATE` (``used`` is then the Ace alone).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations
from typing import Final, assert_never

from spies_bots.memo import SharedMemo
from spies_core.cards import ALL_CARDS, Card, sort_key, suit, value
from spies_core.deck_of_spies.commands import Assassinate, Command, Counter, Recruit
from spies_core.deck_of_spies.options import DeckOfSpiesFlags

__all__ = [
    "ASSASSINATE",
    "CARDS",
    "CARD_INDEX",
    "COUNTER",
    "LOST",
    "LOST_NO_ACE",
    "OPTIONS",
    "PLAYING",
    "RECRUIT",
    "WON",
    "Move",
    "Shuffle",
    "Table",
    "apply",
    "assassination_ace",
    "greedy_move",
    "legal_moves",
    "model_move",
    "new_table",
    "play_out",
    "retire_options",
]

HAND_SIZE: Final = 5
WIN_FACES: Final = 7

COUNTER: Final = 0
RECRUIT: Final = 1
ASSASSINATE: Final = 2

PLAYING: Final = 0
WON: Final = 1
LOST: Final = 2
LOST_NO_ACE: Final = 3

Move = tuple[int, tuple[int, ...], tuple[int, ...]]
"""``(kind, used, retired)``: cards as ascending ints; an assassination uses its Ace."""

Shuffle = Callable[[list[int]], None]
"""Shuffles a list in place, as :func:`spies_core.decider.shuffled` orders a tuple."""

_SUITS: Final = "CDHS"

CARDS: Final[tuple[Card, ...]] = tuple(
    sorted(ALL_CARDS, key=lambda c: (value(c), _SUITS.index(suit(c).value)))
)
"""The card of each int of this model."""
CARD_INDEX: Final[dict[str, int]] = {c: i for i, c in enumerate(CARDS)}
"""A card's int in this model, by its JSON notation."""
CANON: Final[tuple[int, ...]] = tuple(sort_key(c) for c in CARDS)
"""A card's place in the core's canonical order."""
VALUE: Final[tuple[int, ...]] = tuple(i // 4 + 1 for i in range(52))
SUIT: Final[tuple[int, ...]] = tuple(i % 4 for i in range(52))
ACE_OF_SUIT: Final[tuple[int, ...]] = (0, 1, 2, 3)

MIN_OWNED: Final = 8
"""The greedy never retires below this many owned cards (§13.2)."""
ACE_WEIGHT: Final = 2
"""The greedy's score per Ace kept in hand (§13.2, ``w_ace``)."""
RETIRE_WEIGHT: Final = 2
"""The greedy's score per retired card of rank 2 to 10 (§13.2)."""
FACE_RECRUIT: Final = 100
"""The greedy's score for recruiting a face card (§13.2)."""

_SUBSETS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(c for size in range(1, n + 1) for c in combinations(range(n), size))
    for n in range(HAND_SIZE + 1)
)
"""Index subsets of a hand of n cards, by size then lexicographically, as the core lists them."""
_MASKED_SUBSETS: Final = tuple(
    tuple((sum(1 << i for i in picked), picked) for picked in subsets) for subsets in _SUBSETS
)


class Table:
    """Every zone of one game, mutable. Decks are top first; the other zones are unordered,
    except the hand, which stays sorted."""

    __slots__ = (
        "ace_counts",
        "aces",
        "deck",
        "discard",
        "faces",
        "hand",
        "multi",
        "owned",
        "removed",
        "result",
        "spies",
        "spy_discard",
        "strict",
        "top",
    )

    def __init__(
        self,
        spies: list[int],
        top: int,
        deck: list[int],
        hand: list[int],
        discard: list[int],
        spy_discard: list[int],
        removed: list[int],
        flags: tuple[bool, bool, bool],
        result: int,
    ) -> None:
        self.spies = spies
        """The spy deck, top first; ``spies[top]`` is the spy faced now."""
        self.top = top
        self.deck = deck
        self.hand = hand
        self.discard = discard
        self.spy_discard = spy_discard
        self.removed = removed
        self.strict, self.ace_counts, self.multi = flags
        self.result = result
        owned = hand + deck + discard
        self.owned = len(owned)
        """Owned cards (§1.5)."""
        self.faces = sum(1 for c in owned if VALUE[c] > 10)
        """Owned face cards (§9.2)."""
        self.aces = sum(1 for c in owned if VALUE[c] == 1)
        """Owned Aces (§6.2)."""

    def copy(self) -> Table:
        """An independent copy (the spy deck is shared: it is never written)."""
        t = Table.__new__(Table)
        t.spies = self.spies
        t.top = self.top
        t.deck = self.deck[:]
        t.hand = self.hand[:]
        t.discard = self.discard[:]
        t.spy_discard = self.spy_discard[:]
        t.removed = self.removed[:]
        t.strict = self.strict
        t.ace_counts = self.ace_counts
        t.multi = self.multi
        t.result = self.result
        t.owned = self.owned
        t.faces = self.faces
        t.aces = self.aces
        return t


def new_table(
    flags: DeckOfSpiesFlags,
    *,
    spies: Iterable[Card],
    deck: Iterable[Card],
    hand: Iterable[Card],
    discard: Iterable[Card] = (),
    spy_discard: Iterable[Card] = (),
    removed: Iterable[Card] = (),
) -> Table:
    """A table in play from its zones (decks top first), its game-end test already made."""
    ix = CARD_INDEX
    table = Table(
        spies=[ix[c] for c in spies],
        top=0,
        deck=[ix[c] for c in deck],
        hand=sorted(ix[c] for c in hand),
        discard=[ix[c] for c in discard],
        spy_discard=[ix[c] for c in spy_discard],
        removed=[ix[c] for c in removed],
        flags=(flags.strict_necessity, flags.ace_counts_in_necessity, flags.retire_multiple_ranks),
        result=PLAYING,
    )
    _check_end(table)
    return table


# -- legal moves (§10.2) ---------------------------------------------------------------------


def retire_options(hand: Sequence[int], multi: bool) -> list[tuple[int, ...]]:
    """§7 (I-6): no retire first, then same-value groups, as ``spies_core`` lists them
    for a hand in canonical order."""
    by_value: dict[int, list[int]] = {}
    for c in hand:
        by_value.setdefault(VALUE[c], []).append(c)
    groups = [
        [combo for size in range(2, len(cards) + 1) for combo in combinations(cards, size)]
        for cards in by_value.values()
        if len(cards) >= 2
    ]
    if not multi:
        return [(), *(combo for options in groups for combo in options)]
    results: list[tuple[int, ...]] = [()]
    for options in groups:
        results += [prefix + combo for prefix in results for combo in options]
    return [tuple(sorted(r, key=CANON.__getitem__)) for r in results]


def _owned_aces(t: Table) -> list[int]:
    return sorted(c for zone in (t.hand, t.deck, t.discard) for c in zone if VALUE[c] == 1)


def legal_moves(t: Table) -> list[Move]:
    """Every legal move now, in the order of ``spies_core``'s ``legal_commands``."""
    if t.result != PLAYING:
        return []
    spy = t.spies[t.top]
    v = VALUE[spy]
    hand = sorted(t.hand, key=CANON.__getitem__)
    values = [VALUE[c] for c in hand]
    if sum(values) < v:
        return [(ASSASSINATE, (a,), ()) for a in _owned_aces(t)]
    ace_bonus = 0 if t.ace_counts else 1
    spy_suit = SUIT[spy]
    ace = ACE_OF_SUIT[spy_suit]
    ace_at = hand.index(ace) if ace in hand else -1
    moves: list[Move] = []
    for picked in _SUBSETS[len(hand)]:
        total = sum(values[i] for i in picked)
        if total < v:
            continue
        counter = not t.strict or total - min(values[i] for i in picked) < v
        if ace_at in picked:
            others = [values[i] for i in picked if i != ace_at]
            recruit = bool(others) and (not t.strict or total - ace_bonus - min(others) < v)
        else:
            recruit = counter and all(SUIT[hand[i]] == spy_suit for i in picked)
        if not (counter or recruit):
            continue
        used = tuple(sorted(hand[i] for i in picked))
        rest = [c for i, c in enumerate(hand) if i not in picked]
        retires = [tuple(sorted(r)) for r in retire_options(rest, t.multi)]
        if counter:
            moves += [(COUNTER, used, r) for r in retires]
        if recruit:
            moves += [(RECRUIT, used, r) for r in retires]
    return moves


def model_move(command: Command) -> Move:
    """The model's move for a command."""
    ix = CARD_INDEX
    match command:
        case Counter(cards=cards, retire=retire):
            return (
                COUNTER,
                tuple(sorted(ix[c] for c in cards)),
                tuple(sorted(ix[c] for c in retire)),
            )
        case Recruit(cards=cards, retire=retire):
            return (
                RECRUIT,
                tuple(sorted(ix[c] for c in cards)),
                tuple(sorted(ix[c] for c in retire)),
            )
        case Assassinate(ace=ace):
            return (ASSASSINATE, (ix[ace],), ())
        case _:
            assert_never(command)


# -- one turn (§3-§9) ------------------------------------------------------------------------


def apply(t: Table, move: Move, shuffle: Shuffle) -> None:
    """Play a legal move: the action, the retire, the refill and the next spy or the end."""
    kind, used, retired = move
    spy = t.spies[t.top]
    t.top += 1
    hand = t.hand
    if kind == ASSASSINATE:
        ace = used[0]
        shuffle_deck = False
        if ace in hand:
            hand.remove(ace)
        elif ace in t.deck:
            t.deck.remove(ace)
            shuffle_deck = True
        else:
            t.discard.remove(ace)
        t.discard += hand
        hand.clear()
        t.spy_discard.append(spy)
        t.removed.append(ace)
        t.owned -= 1
        t.aces -= 1
        if shuffle_deck and t.deck:
            shuffle(t.deck)
    else:
        for c in used:
            hand.remove(c)
        t.discard += used
        if kind == RECRUIT:
            t.discard.append(spy)
            t.owned += 1
            sv = VALUE[spy]
            if sv > 10:
                t.faces += 1
            elif sv == 1:
                t.aces += 1
        else:
            t.spy_discard.append(spy)
        if retired:
            for c in retired:
                hand.remove(c)
                rv = VALUE[c]
                if rv > 10:
                    t.faces -= 1
                elif rv == 1:
                    t.aces -= 1
            t.spy_discard += retired
            t.owned -= len(retired)
    if t.top < len(t.spies):  # I-20: no refill after the last spy
        _refill(t, shuffle)
    _check_end(t)


def _refill(t: Table, shuffle: Shuffle) -> None:
    """§8.1: draw up to five, reshuffling the (sorted) discard only when a card is needed."""
    hand = t.hand
    need = HAND_SIZE - len(hand)
    if need <= 0:
        return
    deck = t.deck
    while need > 0:
        if not deck:
            discard = t.discard
            if not discard:
                break
            discard.sort(key=CANON.__getitem__)
            shuffle(discard)
            t.deck = deck = discard
            t.discard = []
        taken = deck[:need]
        del deck[:need]
        hand += taken
        need -= len(taken)
    hand.sort()


def _check_end(t: Table) -> None:
    """§9: after the last spy score the game; a forced assassination with no Ace loses."""
    if t.top >= len(t.spies):
        t.result = WON if t.faces >= WIN_FACES else LOST
    elif t.aces == 0:
        v = VALUE[t.spies[t.top]]
        if sum(VALUE[c] for c in t.hand) < v:
            t.result = LOST_NO_ACE


# -- the tuned greedy of §13.2 ---------------------------------------------------------------


def assassination_ace(t: Table) -> int:
    """The greedy's Ace: the suit with the fewest face cards, then the least value, left
    in the spy deck below the spy faced now; ties to the first Ace in canonical order."""
    below = t.spies[t.top + 1 :]
    best = -1
    best_key = (99, 999)
    for ace in _owned_aces(t):
        s = SUIT[ace]
        faces = 0
        total = 0
        for c in below:
            if SUIT[c] == s:
                total += VALUE[c]
                if VALUE[c] > 10:
                    faces += 1
        key = (faces, total)
        if key < best_key:
            best, best_key = ace, key
    return best


_Option = tuple[int, int, tuple[int, ...], tuple[int, ...]]
"""``(kind, off_suit, used, retired)``, cards as indices into the hand: a move the greedy
may play, legal unless a card of ``off_suit`` (a mask) is not of the spy's suit."""

_Key = tuple[int | bool, ...]


def greedy_move(t: Table) -> Move:
    """The tuned greedy's move (§13.2), as :mod:`spies_bots.deck_of_spies.greedy` plays it.

    Score: 100 for recruiting a face card or the spy's value for another recruit, 2 per
    Ace kept in hand, 2 per retired card of rank 2 to 10 (never Aces or faces, never
    below 8 owned cards). Ties go to the fewest cards used, then the lowest (by value,
    then suit), a counter before a recruit, then the lowest retired cards.
    Assassinations take :func:`assassination_ace`.
    """
    spy = t.spies[t.top]
    hand = t.hand
    ace = ACE_OF_SUIT[SUIT[spy]]
    values = [VALUE[c] for c in hand]
    cap = t.owned - MIN_OWNED
    if cap > 4:
        cap = 4
    elif cap < 1 or len(set(values)) == len(values):
        cap = 0  # no retire is possible: the same choice for any owned count
    key = (
        spy >> 2,
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

    The key holds everything the choice depends on but the suits: the spy's value less
    one, where the spy's Ace lies in the hand, how many cards a retire may take (clipped),
    the three rule flags and the hand's values in ascending order. An empty tuple means
    no counter is possible.
    """
    rank, ace_at, cap, strict, ace_counts, multi, *values = key
    v = int(rank) + 1
    n = len(values)
    ace_bonus = 0 if ace_counts else 1
    recruit_base = FACE_RECRUIT if v > 10 else v
    totals = [0] * (1 << n)
    lows = [99] * (1 << n)
    for mask in range(1, 1 << n):
        low_bit = mask & -mask
        card_value = values[low_bit.bit_length() - 1]
        others = mask ^ low_bit
        totals[mask] = totals[others] + card_value
        lows[mask] = min(lows[others], card_value)
    ace_bit = 1 << ace_at if ace_at >= 0 else 0
    by_rank: dict[int, list[int]] = {}
    for i, card_value in enumerate(values):
        if 2 <= card_value <= 10:
            by_rank.setdefault(card_value, []).append(i)
    groups = [g for g in by_rank.values() if len(g) >= 2]
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
        kept = ACE_WEIGHT * sum(1 for i in range(n) if rest >> i & 1 and values[i] == 1)
        if counter:
            retired = _retire_choice(groups, rest, int(cap), bool(multi))
            score = kept + RETIRE_WEIGHT * len(retired)
            ranked.append((-score, 2 * order, (COUNTER, 0, picked, retired)))
        if recruit:
            retired = _retire_choice(groups, rest, int(cap) + 1, bool(multi))
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
values recur all through the rollouts. Shared by every thread, and safe to be: the server
plays its bots on a pool of threads."""
_known: Final = OPTIONS.known


def _retire_choice(groups: list[list[int]], rest: int, cap: int, multi: bool) -> tuple[int, ...]:
    """The greedy's retire from the hand cards in the mask ``rest``: the most cards, at
    most ``cap``, of one same-rank group of ``groups`` (or several, under
    ``retire_multiple_ranks``); of those, the lowest cards. ``groups`` lists the hand's
    indices of each rank 2 to 10 held twice or more, lowest rank first."""
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
