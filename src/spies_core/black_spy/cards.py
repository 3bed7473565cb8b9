"""The 60 Black Spy cards (§1) and their JSON notation ``"<colour>-<rank>"``.

A card *is* its notation string: ``"red-1"``, ``"black-7"``, ``"green-11"``; colours
``blue yellow red green black``, ranks 1 (Informer) to 11 (Director). The six black 7s
(the black spies, §1.3) share the notation ``"black-7"``: they are indistinguishable, so a
hand is a multiset, kept as a sorted tuple, and the only thing the rules ever need to tell
two black 7s apart, which one was played first (§5.5), is the play order of the trick
(§1.7 suggested unique ids; the play order serves the same purpose with no extra notation).

Input is normalised before it is checked: surrounding white space is dropped and letters
are lower-cased, so ``" Red-1 "`` is ``"red-1"``. Anything else (``"red-12"``,
``"purple-3"``, ``"red 1"``) is refused with the code ``unknown-card``.

All the per-card facts the hot path needs (colour, rank, sort position, points, which
cards follow a led card) are precomputed tables, built once at import.

>>> parse_card(" Red-1 ")
'red-1'
>>> colour("black-7"), rank("black-7"), points("black-7", good_spies=True)
(<Colour.BLACK: 'black'>, 7, 10)
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Annotated, Final

import msgspec

from spies_core.cards import notation_pattern
from spies_core.errors import RuleError

__all__ = [
    "BLACK_CARD_COUNT",
    "CARD_INPUT_PATTERN",
    "CARD_PATTERN",
    "COLOUR_OF",
    "DECK",
    "DISTINCT_CARDS",
    "FOLLOWERS",
    "RANK_NAMES",
    "RANK_OF",
    "RED_1",
    "Card",
    "CardInput",
    "CardNotation",
    "Colour",
    "card",
    "colour",
    "is_black",
    "is_good_spy",
    "parse_card",
    "points",
    "points_table",
    "rank",
    "sort_cards",
    "sort_key",
]

Card = str
"""A card in JSON notation, e.g. ``"red-1"``; see the module docstring."""


class Colour(StrEnum):
    """The five colours (§1.1): four coloured suits and black. There are no trumps (§5.3)."""

    BLUE = "blue"
    YELLOW = "yellow"
    RED = "red"
    GREEN = "green"
    BLACK = "black"


RANK_NAMES: Final[dict[int, str]] = {
    1: "Informer",
    2: "Interrogator",
    3: "Infiltrator",
    4: "Saboteur",
    5: "Assassin",
    6: "Agent",
    7: "Spy",
    8: "Double Agent",
    9: "Code Breaker",
    10: "Deputy Director",
    11: "Director",
}
"""The names of the ranks (§1.5); they have no rules effect."""


def card(c: Colour, r: int) -> Card:
    """The notation of the card of colour ``c`` and rank ``r``."""
    return f"{c.value}-{r}"


DECK: Final[tuple[Card, ...]] = (
    *(card(c, r) for c in Colour for r in range(1, 12)),
    *(card(Colour.BLACK, 7),) * 5,
)
"""The 60 cards in canonical order (spec §9 ``deck()``): each colour blue, yellow, red,
green, black with ranks 1-11, then the five extra black 7s. Every deal shuffles this tuple
with :func:`spies_core.decider.shuffled`."""

DISTINCT_CARDS: Final[tuple[Card, ...]] = tuple(dict.fromkeys(DECK))
"""The 55 different notations (5 colours x 11 ranks), in sort order."""

_PARTS: Final = (tuple(Colour), tuple(map(str, RANK_NAMES)))
CARD_PATTERN: Final = notation_pattern(_PARTS, "-")
"""The notation of exactly the 55 different cards, as a regular expression."""
CARD_INPUT_PATTERN: Final = notation_pattern(_PARTS, "-", loose=True)
"""The cards :func:`parse_card` accepts, as a regular expression."""

CardNotation = Annotated[Card, msgspec.Meta(extra_json_schema={"pattern": CARD_PATTERN})]
"""A card in an event or a view: its schema in the API document has :data:`CARD_PATTERN`."""
CardInput = Annotated[str, msgspec.Meta(extra_json_schema={"pattern": CARD_INPUT_PATTERN})]
"""A card in a command or an option, as a client wrote it: its schema in the API document
has :data:`CARD_INPUT_PATTERN` (a document-only constraint: :func:`parse_card` checks it,
with its own code, and the log keeps the command as it was sent)."""

RED_1: Final[Card] = card(Colour.RED, 1)
"""The red 1 with the star: its holder leads the first trick (§1.6, §4.1)."""

BLACK_CARD_COUNT: Final[int] = 16
"""Black cards in the deck (§1.3): taking all of them shoots the moon (§6.4)."""

COLOUR_OF: Final[dict[Card, Colour]] = {c: Colour(c.split("-")[0]) for c in DISTINCT_CARDS}
"""Each card's colour (a table for the hot path; :func:`colour` reads it)."""
RANK_OF: Final[dict[Card, int]] = {c: int(c.split("-")[1]) for c in DISTINCT_CARDS}
"""Each card's rank (a table for the hot path; :func:`rank` reads it)."""
_SORT: Final[dict[Card, int]] = {c: i for i, c in enumerate(DISTINCT_CARDS)}
_BLACK_VALUE: Final[dict[int, int]] = {
    **dict.fromkeys(range(1, 7), 1),
    7: 10,
    8: 2,
    9: 3,
    10: 4,
    11: 5,
}
_GOOD_SPY_VALUE: Final[int] = -5

_POINTS_GOOD: Final[dict[Card, int]] = {
    c: (
        _BLACK_VALUE[RANK_OF[c]]
        if COLOUR_OF[c] is Colour.BLACK
        else _GOOD_SPY_VALUE
        if RANK_OF[c] == 7
        else 0
    )
    for c in DISTINCT_CARDS
}
_POINTS_NO_GOOD: Final[dict[Card, int]] = {c: max(p, 0) for c, p in _POINTS_GOOD.items()}

FOLLOWERS: Final[dict[Card, frozenset[Card]]] = {
    led: frozenset(
        c for c in DISTINCT_CARDS if COLOUR_OF[c] is COLOUR_OF[led] or RANK_OF[c] == RANK_OF[led]
    )
    for led in DISTINCT_CARDS
}
"""For each led card, the cards that follow it: same colour or same rank (§5.2)."""


def parse_card(text: object) -> Card:
    """Normalise and check one card given by a client.

    Raises:
        RuleError: ``unknown-card`` when the text is not one of the 60 cards.
    """
    if isinstance(text, str):
        if text in _SORT:
            return text
        normal = text.strip().lower()
        if normal in _SORT:
            return normal
    raise RuleError(
        f"{text!r} is not a Black Spy card: write colour-rank, colours blue yellow red green"
        " black, ranks 1-11 (e.g. 'red-1', 'black-7')",
        code="unknown-card",
    )


def colour(c: Card) -> Colour:
    """The card's colour."""
    return COLOUR_OF[c]


def rank(c: Card) -> int:
    """The card's rank, 1 to 11."""
    return RANK_OF[c]


def is_black(c: Card) -> bool:
    """True for the 16 black cards."""
    return COLOUR_OF[c] is Colour.BLACK


def is_good_spy(c: Card) -> bool:
    """True for the four coloured 7s, the good spies (§6.2)."""
    return RANK_OF[c] == 7 and COLOUR_OF[c] is not Colour.BLACK


def points(c: Card, *, good_spies: bool) -> int:
    """Penalty points of a card (§6.2): black 1-6 one, black 7 ten, black 8-11 two to five,
    coloured 7s -5 (0 with ``good_spies=False``, §8.1 and Appendix A), others 0."""
    return (_POINTS_GOOD if good_spies else _POINTS_NO_GOOD)[c]


def points_table(*, good_spies: bool) -> dict[Card, int]:
    """The whole :func:`points` table, for loops on the hot path."""
    return _POINTS_GOOD if good_spies else _POINTS_NO_GOOD


def sort_key(c: Card) -> int:
    """Position in :data:`DISTINCT_CARDS`: colour, then rank (black 7s sort together)."""
    return _SORT[c]


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The cards as a sorted tuple: the canonical form of a hand or a pass."""
    return tuple(sorted(cards, key=_SORT.__getitem__))
