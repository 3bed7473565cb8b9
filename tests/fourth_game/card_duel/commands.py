"""Commands of Card Duel: one bid, then one card per round.

``play_card`` is also a Black Spy command: a command is decoded with its own game's union, so
a tag need only be unique within its game.
"""

from __future__ import annotations

import msgspec

__all__ = ["CardDuelBid", "CardDuelPlayCard", "Command"]


class BaseCommand(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    """Base of the Card Duel commands."""


class CardDuelBid(BaseCommand, frozen=True, kw_only=True, tag="bid"):
    """Predict, in secret, how many of the six rounds you will win."""

    rounds: int
    """0 to 6."""


class CardDuelPlayCard(BaseCommand, frozen=True, kw_only=True, tag="play_card"):
    """Play a card of your hand face up: lead the round, or answer the lead."""

    card: int
    """A card of your hand, 1 to 14."""


Command = CardDuelBid | CardDuelPlayCard
