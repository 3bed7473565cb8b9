"""Events of Deck of Spies: recorded facts, past tense.

Fields that may be hidden from a viewer are ``X | None``; ``redact`` sets them to ``None``
(see :mod:`spies_core.deck_of_spies.view`). Counts stay, so every viewer can follow sizes.
"""

from __future__ import annotations

from enum import StrEnum

import msgspec

from spies_core.cards import CardNotation
from spies_core.deck_of_spies.options import DeckOfSpiesFlags

__all__ = [
    "AceZone",
    "CardsDrawn",
    "CardsRetired",
    "DeckOfSpiesEnded",
    "DeckOfSpiesStarted",
    "DiscardReshuffled",
    "DrawDeckShuffled",
    "Event",
    "Result",
    "SpyAssassinated",
    "SpyCountered",
    "SpyRecruited",
    "SpyRevealed",
]


class AceZone(StrEnum):
    """Where an assassinated spy's Ace was taken from (I-18)."""

    HAND = "hand"
    DRAW_DECK = "draw_deck"
    DRAW_DISCARD = "draw_discard"


class Result(StrEnum):
    """How a game of Deck of Spies ended (§9)."""

    WON = "won"
    """At least 7 of the 12 face cards owned after the last spy (§9.2)."""
    LOST = "lost"
    """Fewer than 7 owned (6-6 is a loss, §9.2)."""
    LOST_NO_ACE = "lost_no_ace"
    """An assassination was forced and no Ace was left (§6.2, §9.3, I-14)."""


class BaseEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of the Deck of Spies events."""


class DeckOfSpiesStarted(BaseEvent, frozen=True, kw_only=True, tag="deck_of_spies_started"):
    """The table was laid out (§2, or an explicit deal); the flags of §12 are recorded here."""

    flags: DeckOfSpiesFlags
    """The rule flags of §12 this game is played with."""
    spy_deck: tuple[CardNotation, ...] | None
    """The spy deck, top first: G1 (5-7), G2 (8-10), G3 (J-K), each shuffled (§2.2). Always
    ``null`` for viewers while the game is in play: only the top spy is ever visible
    (I-17)."""
    spy_deck_count: int
    """Cards in the spy deck: 36 for a shuffled setup (§2.2)."""
    draw_deck: tuple[CardNotation, ...] | None
    """The draw deck, top first: the sixteen A-4, shuffled (§2.3). Always ``null`` for
    viewers while the game is in play (hidden order)."""
    draw_deck_count: int
    """Cards in the draw deck, before the first hand is drawn."""
    hand: tuple[CardNotation, ...] | None = ()
    """A hand laid out by an explicit deal (puzzles); ``[]`` when the hand is drawn by the
    following ``cards_drawn`` (§2.4). ``null`` for a spectator."""
    hand_count: int = 0
    """Cards in a dealt hand; 0 when the hand is drawn by the following event."""
    draw_discard: tuple[CardNotation, ...] = ()
    """A draw discard pile laid out by an explicit deal (face up, public); ``[]`` for a
    shuffled setup."""
    spy_discard: tuple[CardNotation, ...] | None = ()
    """A spy discard pile laid out by an explicit deal (face down); ``null`` for a
    spectator, ``[]`` for a shuffled setup."""
    spy_discard_count: int = 0
    """Cards in a dealt spy discard pile; 0 for a shuffled setup."""
    removed: tuple[CardNotation, ...] = ()
    """Aces removed by earlier assassinations in an explicit deal; ``[]`` for a shuffled
    setup."""


class SpyRevealed(BaseEvent, frozen=True, kw_only=True, tag="spy_revealed"):
    """A new spy is on top of the spy deck and faces the player (§3.1)."""

    spy: CardNotation
    """The spy now on top of the spy deck, e.g. ``"9S"``."""
    turn: int
    """1 for the first spy dealt with in this game."""


class CardsDrawn(BaseEvent, frozen=True, kw_only=True, tag="cards_drawn"):
    """Cards moved from the top of the draw deck into the hand (§2.4, §8)."""

    cards: tuple[CardNotation, ...] | None
    """The cards drawn, in canonical order, not the order they lay in; ``null`` for a
    spectator."""
    count: int
    """How many cards were drawn (public)."""


class DiscardReshuffled(BaseEvent, frozen=True, kw_only=True, tag="discard_reshuffled"):
    """The draw discard pile was shuffled into a new draw deck during a refill (§8.1, I-10)."""

    order: tuple[CardNotation, ...] | None
    """The new draw deck, top first; always ``null`` for viewers while the game is in play."""
    count: int
    """Cards in the new draw deck."""


class DrawDeckShuffled(BaseEvent, frozen=True, kw_only=True, tag="draw_deck_shuffled"):
    """The draw deck was shuffled after an Ace was taken from it (§6.3)."""

    order: tuple[CardNotation, ...] | None
    """The draw deck, top first; always ``null`` for viewers while the game is in play."""
    count: int
    """Cards in the draw deck."""


class SpyCountered(BaseEvent, frozen=True, kw_only=True, tag="spy_countered"):
    """The spy went to the spy discard, the cards used to the draw discard (§4.3)."""

    spy: CardNotation
    """The spy countered, now on the spy discard pile."""
    cards: tuple[CardNotation, ...]
    """The cards used (each one necessary, §4.2), now on the draw discard pile."""


class SpyRecruited(BaseEvent, frozen=True, kw_only=True, tag="spy_recruited"):
    """The spy and the cards used went to the draw discard: the spy is now owned (§5.4)."""

    spy: CardNotation
    """The spy recruited, now owned, on the draw discard pile."""
    cards: tuple[CardNotation, ...]
    """The cards used, now on the draw discard pile; includes the double agent when one was
    played."""
    double_agent: CardNotation | None = None
    """The spy's Ace when it was played as double agent (§5.3); ``null`` for a plain recruit
    (§5.2)."""


class CardsRetired(BaseEvent, frozen=True, kw_only=True, tag="cards_retired"):
    """Same-value cards left the hand face down for the spy discard, for good (§7)."""

    cards: tuple[CardNotation, ...] | None
    """The retired cards, two or more of one value (§7.1); ``null`` for a spectator (they
    leave the hand face down)."""
    count: int
    """How many cards were retired (public)."""


class SpyAssassinated(BaseEvent, frozen=True, kw_only=True, tag="spy_assassinated"):
    """An Ace was removed from the game, the spy discarded and the hand emptied (§6.3-6.5)."""

    spy: CardNotation
    """The spy dealt with, now face down on the spy discard pile (§6.4)."""
    ace: CardNotation
    """The Ace sacrificed, removed from the game (§6.3)."""
    ace_zone: AceZone
    """Where the Ace was taken from: the hand, the draw deck (which is then shuffled) or the
    draw discard (I-18)."""
    discarded: tuple[CardNotation, ...]
    """The rest of the hand, now face up on the draw discard pile (§6.5)."""


class DeckOfSpiesEnded(BaseEvent, frozen=True, kw_only=True, tag="deck_of_spies_ended"):
    """The game ended (§9): after the last spy, or at once when no Ace was left (§9.3)."""

    result: Result
    """``won``, ``lost`` or ``lost_no_ace`` (§9)."""
    owned_faces: int
    """J, Q and K in hand, draw deck and draw discard (§9.2): 7 or more wins; for
    ``lost_no_ace``, the count at the loss (I-14)."""


Event = (
    DeckOfSpiesStarted
    | SpyRevealed
    | CardsDrawn
    | DiscardReshuffled
    | DrawDeckShuffled
    | SpyCountered
    | SpyRecruited
    | CardsRetired
    | SpyAssassinated
    | DeckOfSpiesEnded
)
"""Every Deck of Spies event, tagged by ``type``."""
