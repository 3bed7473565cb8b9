"""Creation options of Card Duel: only an explicit deal."""

from __future__ import annotations

import msgspec

from spies_core.errors import InvalidOptionsError

__all__ = ["CARDS", "CardDuelDeal", "CardDuelOptions", "validate_deal"]

CARDS = tuple(range(1, 15))
"""The fourteen cards, 1 to 14."""


class CardDuelDeal(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An explicit deal: each of the fourteen cards in exactly one place."""

    hands: tuple[tuple[int, ...], ...]
    """Six cards for each of the two seats."""
    aside: tuple[int, ...]
    """The two cards set aside."""


class CardDuelOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Everything ``POST /games`` accepts in ``options`` for ``card-duel``."""

    deal: CardDuelDeal | None = None
    """Optional explicit deal; without it the cards are shuffled."""


def validate_deal(deal: CardDuelDeal) -> None:
    """Raises ``InvalidOptionsError`` (``invalid-deal``) unless the deal places every card once
    and gives each seat six."""
    placed = sorted([*(c for hand in deal.hands for c in hand), *deal.aside])
    if len(deal.hands) != 2 or any(len(hand) != 6 for hand in deal.hands):
        raise InvalidOptionsError("deal: two hands of six cards each", code="invalid-deal")
    if placed != list(CARDS):
        raise InvalidOptionsError(
            f"deal: the cards 1 to 14 must each appear once, not {placed}", code="invalid-deal"
        )
