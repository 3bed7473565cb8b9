"""Events of Card Duel. Hidden fields are ``None`` in a viewer's redaction."""

from __future__ import annotations

import msgspec

__all__ = [
    "CardDuelBidMade",
    "CardDuelBidsRevealed",
    "CardDuelCardPlayed",
    "CardDuelEnded",
    "CardDuelRoundWon",
    "CardDuelStarted",
    "Event",
]


class BaseEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of the Card Duel events."""


class CardDuelStarted(BaseEvent, frozen=True, kw_only=True, tag="card_duel_started"):
    """The deal: six cards to each seat, two set aside unseen."""

    hands: tuple[tuple[int, ...] | None, ...]
    """Each seat's hand, ascending; ``null`` for a hand the viewer does not hold."""
    aside: tuple[int, ...] | None
    """The two cards nobody sees; ``null`` for every viewer."""


class CardDuelBidMade(BaseEvent, frozen=True, kw_only=True, tag="card_duel_bid_made"):
    """A seat bid."""

    seat: int
    """The seat that bid."""
    rounds: int | None
    """The bid; ``null`` for every viewer but the bidder until both have bid."""


class CardDuelBidsRevealed(BaseEvent, frozen=True, kw_only=True, tag="card_duel_bids_revealed"):
    """Both seats have bid: the bids turn up and seat 0 leads the first round."""

    bids: tuple[int, ...]
    """Each seat's bid: the rounds it said it would win."""


class CardDuelCardPlayed(BaseEvent, frozen=True, kw_only=True, tag="card_duel_card_played"):
    """A card played face up."""

    seat: int
    """The seat that played."""
    card: int
    """The card, 1 to 14."""


class CardDuelRoundWon(BaseEvent, frozen=True, kw_only=True, tag="card_duel_round_won"):
    """The higher card wins the round; its seat leads the next."""

    round: int
    """The round, from 1 to 6."""
    winner: int
    """The seat that played the higher card."""


class CardDuelEnded(BaseEvent, frozen=True, kw_only=True, tag="card_duel_ended"):
    """After the last round: rounds won, plus 2 for an exact bid."""

    scores: tuple[int, ...]
    """Each seat's final score."""
    winners: tuple[int, ...]
    """The seats with the highest score (both on a tie)."""


Event = (
    CardDuelStarted
    | CardDuelBidMade
    | CardDuelBidsRevealed
    | CardDuelCardPlayed
    | CardDuelRoundWon
    | CardDuelEnded
)
