"""Piles of cards as Deck of Spies handles them: sorted, without some cards, their total
value, as text, and the Ace of a spy's suit (its double agent, §5.3)."""

from __future__ import annotations

from collections.abc import Iterable

from spies_core.cards import Card, pretty, sort_key, suit, value

__all__ = ["ace_of", "cards_text", "sorted_cards", "total_value", "without"]


def sorted_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The cards in canonical order (§10.2): every zone but the two decks is kept so."""
    return tuple(sorted(cards, key=sort_key))


def without(cards: tuple[Card, ...], gone: Iterable[Card]) -> tuple[Card, ...]:
    """``cards`` without those in ``gone``, in their order."""
    gone_set = set(gone)
    return tuple(c for c in cards if c not in gone_set)


def total_value(cards: Iterable[Card]) -> int:
    """The cards' summed value (Ace 1, J 11, Q 12, K 13)."""
    return sum(value(c) for c in cards)


def cards_text(cards: Iterable[Card]) -> str:
    """The cards as a refusal names them, e.g. ``3♥ 4♠``."""
    return " ".join(pretty(c) for c in cards) or "no cards"


def ace_of(spy: Card) -> Card:
    """The Ace of the spy's suit: the double agent that may recruit it (§5.3)."""
    return Card("A" + suit(spy).value)
