"""Commands of Deck of Spies: one atomic move per turn (§3, §10).

Cards are given in JSON notation (``"10H"``); they are parsed and checked by ``decide``, so
an unknown card is a rule error (``unknown-card``), and their order does not matter.
"""

from __future__ import annotations

import msgspec

from spies_core.cards import CardInput

__all__ = ["Assassinate", "Command", "Counter", "Recruit"]


class BaseCommand(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    """Base of the Deck of Spies commands."""


class Counter(BaseCommand, frozen=True, kw_only=True, tag="counter"):
    """Fend off the top spy with cards whose values reach its value (§4), then retire (§7)."""

    cards: tuple[CardInput, ...]
    """The cards of the hand used, e.g. ``["3H", "4S"]``: their values must reach the spy's
    value, and each one must be necessary (§4.2, I-15). Any suits; order does not matter."""
    retire: tuple[CardInput, ...] = ()
    """Optional: two or more cards of one value left in the hand, to the spy discard pile
    for good (§7, I-6); ``[]`` retires nothing."""


class Recruit(BaseCommand, frozen=True, kw_only=True, tag="recruit"):
    """Win the top spy over with cards of its suit, or with its suit's double agent (§5)."""

    cards: tuple[CardInput, ...]
    """The cards of the hand used: all of the spy's suit (§5.2), or any suits with the spy's
    Ace among them as double agent (§5.3). Their values must reach the spy's value, each
    card but the double agent necessary."""
    retire: tuple[CardInput, ...] = ()
    """Optional: two or more cards of one value left in the hand, to the spy discard pile
    for good (§7, I-6); ``[]`` retires nothing."""


class Assassinate(BaseCommand, frozen=True, kw_only=True, tag="assassinate"):
    """Sacrifice an owned Ace when the hand cannot reach the spy's value (§6)."""

    ace: CardInput
    """The Ace to sacrifice, e.g. ``"AS"``: from the hand, the draw deck or the draw discard
    pile (§6.3, I-18). Only when the hand's total is below the spy's value (§6.1)."""


Command = Counter | Recruit | Assassinate
"""Every Deck of Spies command, tagged by ``type``."""
