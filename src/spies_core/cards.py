"""Standard playing cards (52, no jokers) and their JSON notation.

A card is written rank then suit: ``"AS"``, ``"10H"``, ``"QC"``; ranks ``A 2 3 4 5 6 7 8 9
10 J Q K``, suits ``C D H S``. In the core a card *is* that string (the :data:`Card` type),
which keeps events, views and commands plain JSON with no custom codec.

Input is normalised before it is checked: surrounding white space is dropped and letters
are upper-cased, so ``" 10h "`` is ``"10H"``. Anything else that is not one of the 52 cards
(``"1H"``, ``"11S"``, ``"ZZ"``, ``"T5"``) is refused with the code ``unknown-card``.

>>> parse_card(" 10h ")
'10H'
>>> value("QC"), suit("QC"), pretty("10H")
(12, <Suit.CLUBS: 'C'>, '10♥')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import Annotated, Final, NewType

import msgspec

from spies_core.errors import RuleError

__all__ = [
    "ALL_CARDS",
    "CARD_INPUT_PATTERN",
    "CARD_PATTERN",
    "RANKS",
    "Card",
    "CardInput",
    "CardNotation",
    "Suit",
    "card",
    "is_ace",
    "is_face",
    "notation_pattern",
    "parse_card",
    "pretty",
    "rank",
    "sort_key",
    "suit",
    "value",
]

Card = NewType("Card", str)
"""A standard card in JSON notation, e.g. ``"10H"``."""


class Suit(StrEnum):
    """The four suits, by their one-letter code."""

    CLUBS = "C"
    """♣"""
    DIAMONDS = "D"
    """♦"""
    HEARTS = "H"
    """♥"""
    SPADES = "S"
    """♠"""

    @property
    def symbol(self) -> str:
        """The suit as a symbol, for people."""
        return _SYMBOLS[self]


_SYMBOLS: Final = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}

RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Ranks from low to high; a rank's value is its index plus one (A = 1, K = 13)."""


def card(rank_text: str, suit_: Suit) -> Card:
    """Build a card from a rank and a suit."""
    return Card(rank_text + suit_.value)


ALL_CARDS: Final[tuple[Card, ...]] = tuple(card(r, s) for s in Suit for r in RANKS)
"""The 52 cards in canonical order: clubs A-K, diamonds, hearts, spades."""


def notation_pattern(
    parts: Sequence[Iterable[str]], joiner: str = "", *, loose: bool = False
) -> str:
    """A regular expression (the API document's ``pattern``) for the notations made of one
    word of each of ``parts``, joined by ``joiner``: exactly them, or (``loose``) as a client
    may write them, in any case and with white space around (what a ``parse_card`` accepts).
    """

    def word(text: str) -> str:
        return "".join(f"[{c.upper()}{c.lower()}]" if loose and c.isalpha() else c for c in text)

    body = joiner.join("(?:" + "|".join(map(word, part)) + ")" for part in parts)
    return rf"^\s*{body}\s*$" if loose else f"^{body}$"


CARD_PATTERN: Final = notation_pattern((RANKS, Suit))
"""The notation of exactly the 52 cards, as a regular expression."""
CARD_INPUT_PATTERN: Final = notation_pattern((RANKS, Suit), loose=True)
"""The cards :func:`parse_card` accepts, as a regular expression."""

CardNotation = Annotated[Card, msgspec.Meta(extra_json_schema={"pattern": CARD_PATTERN})]
"""A card in an event or a view: its schema in the API document has :data:`CARD_PATTERN`."""
CardInput = Annotated[str, msgspec.Meta(extra_json_schema={"pattern": CARD_INPUT_PATTERN})]
"""A card in a command or an option, as a client wrote it: its schema in the API document
has :data:`CARD_INPUT_PATTERN` (a document-only constraint: :func:`parse_card` checks it,
with its own code, and the log keeps the command as it was sent)."""


_VALUE: Final[dict[str, int]] = {c: RANKS.index(c[:-1]) + 1 for c in ALL_CARDS}
_SUIT: Final[dict[str, Suit]] = {c: Suit(c[-1]) for c in ALL_CARDS}
_SORT: Final[dict[str, int]] = {c: i for i, c in enumerate(ALL_CARDS)}


def parse_card(text: object) -> Card:
    """Normalise and check one card given by a client.

    Raises:
        RuleError: ``unknown-card`` when the text is not one of the 52 cards.
    """
    if isinstance(text, str):
        normal = text.strip().upper()
        if normal in _VALUE:
            return Card(normal)
    raise RuleError(
        f"{text!r} is not a card: write rank then suit, ranks A 2-10 J Q K, suits C D H S"
        " (e.g. '10H', 'AS', 'QC')",
        code="unknown-card",
    )


def value(c: Card) -> int:
    """The card's value: A = 1, 2-10 face value, J = 11, Q = 12, K = 13."""
    return _VALUE[c]


def rank(c: Card) -> str:
    """The rank part of the notation: ``"10"`` for ``"10H"``."""
    return c[:-1]


def suit(c: Card) -> Suit:
    """The card's suit."""
    return _SUIT[c]


def is_ace(c: Card) -> bool:
    """True for the four Aces."""
    return _VALUE[c] == 1


def is_face(c: Card) -> bool:
    """True for Jacks, Queens and Kings (the key spies of Deck of Spies)."""
    return _VALUE[c] > 10


def sort_key(c: Card) -> int:
    """Position in :data:`ALL_CARDS`, for a stable canonical order."""
    return _SORT[c]


def pretty(c: Card) -> str:
    """The card for people: ``"7♥"``."""
    return c[:-1] + _SUIT[c].symbol
