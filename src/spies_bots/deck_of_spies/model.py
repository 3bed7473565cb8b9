"""A compact model of Deck of Spies for rollouts: the rules of ``spies_core`` on plain ints.

Search bots play thousands of turns per decision, so this model keeps a table in mutable
lists of ints (no Structs, no validation, no events), which makes a turn far cheaper than in
the core. It follows the core card for card: the same zones after every turn, the same lazy
reshuffles of the sorted discard (§8) and the same shuffle after an Ace leaves the draw deck
(§6.3), so with the same moves and the same shuffles it plays the same game. The
differential test in ``tests/bots/deck_of_spies`` holds it to that. It lists no moves: the
greedy that plays the rollouts (:mod:`.fast_greedy`) builds its own, and the core's
``legal_commands`` is the one list of legal moves.

A card is an int ordered by value, then suit (``4 * (value - 1) + suit``), so a sorted hand
lists its values in ascending order and the greedy's choice depends on the values, the
place of the spy's Ace and the suits alone, which keeps its memo small. The discard is put
in the core's canonical order (suit-major, :data:`spies_core.cards.ALL_CARDS`) before a
reshuffle, as the core keeps it. Every table of card facts here is read from
:mod:`spies_core.cards`, and the hand size and the faces needed to win are the core's own.
A move is ``(kind, used, retired)`` with ``kind`` one of :data:`COUNTER`, :data:`RECRUIT` or
:data:`ASSASSINATE` (``used`` is then the Ace alone).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final, assert_never

from spies_core.cards import ALL_CARDS, Card, Suit, card, is_ace, is_face, sort_key, suit, value
from spies_core.deck_of_spies.commands import Assassinate, Command, Counter, Recruit
from spies_core.deck_of_spies.options import DeckOfSpiesFlags
from spies_core.deck_of_spies.state import HAND_SIZE, WIN_FACES

__all__ = [
    "ACE",
    "ACE_OF_SUIT",
    "ASSASSINATE",
    "CARDS",
    "CARD_INDEX",
    "COUNTER",
    "FACE",
    "LOST",
    "LOST_NO_ACE",
    "PLAYING",
    "RECRUIT",
    "SUIT",
    "VALUE",
    "WON",
    "Move",
    "Shuffle",
    "Table",
    "apply",
    "model_move",
    "new_table",
    "owned_aces",
]

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

_SUITS: Final[tuple[Suit, ...]] = tuple(Suit)

CARDS: Final[tuple[Card, ...]] = tuple(
    sorted(ALL_CARDS, key=lambda c: (value(c), _SUITS.index(suit(c))))
)
"""The card of each int of this model."""
CARD_INDEX: Final[dict[str, int]] = {c: i for i, c in enumerate(CARDS)}
"""A card's int in this model, by its JSON notation."""
CANON: Final[tuple[int, ...]] = tuple(sort_key(c) for c in CARDS)
"""A card's place in the core's canonical order."""
# The facts of each card by its int, built from spies_core.cards: VALUE and SUIT share
# their names with the core's private tables by card notation (tests/test_one_source.py
# allows that), never their definition.
VALUE: Final[tuple[int, ...]] = tuple(value(c) for c in CARDS)
"""A card's value (§1.2), by its int."""
SUIT: Final[tuple[int, ...]] = tuple(_SUITS.index(suit(c)) for c in CARDS)
"""A card's suit as its place in :class:`spies_core.cards.Suit`, by its int."""
FACE: Final[tuple[bool, ...]] = tuple(is_face(c) for c in CARDS)
"""Whether a card is a J, Q or K, by its int."""
ACE: Final[tuple[bool, ...]] = tuple(is_ace(c) for c in CARDS)
"""Whether a card is an Ace, by its int."""
ACE_OF_SUIT: Final[tuple[int, ...]] = tuple(CARD_INDEX[card("A", s)] for s in _SUITS)
"""The int of each suit's Ace, by the suit's place."""


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
        self.faces = sum(1 for c in owned if FACE[c])
        """Owned face cards (§9.2)."""
        self.aces = sum(1 for c in owned if ACE[c])
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


# -- moves ----------------------------------------------------------------------------------


def owned_aces(t: Table) -> list[int]:
    """The owned Aces (§6.2), ascending: those an assassination may remove."""
    return sorted(c for zone in (t.hand, t.deck, t.discard) for c in zone if ACE[c])


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
            if FACE[spy]:
                t.faces += 1
            elif ACE[spy]:
                t.aces += 1
        else:
            t.spy_discard.append(spy)
        if retired:
            for c in retired:
                hand.remove(c)
                if FACE[c]:
                    t.faces -= 1
                elif ACE[c]:
                    t.aces -= 1
            t.spy_discard += retired
            t.owned -= len(retired)
    if t.top < len(t.spies):  # I-20: no refill after the last spy
        _refill(t, shuffle)
    _check_end(t)


def _refill(t: Table, shuffle: Shuffle) -> None:
    """§8.1: draw up to the hand size, reshuffling the (sorted) discard only when a card
    is needed."""
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
