"""Commands of Deck of Spies: one atomic move per turn (§3, §10).

Cards are given in JSON notation (``"10H"``); they are parsed and checked by ``decide``, so
an unknown card is a rule error (``unknown-card``), and their order does not matter.
"""

from __future__ import annotations

import msgspec

__all__ = ["Assassinate", "Command", "Counter", "Recruit"]


class BaseCommand(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    """Base of the Deck of Spies commands."""


class Counter(BaseCommand, frozen=True, kw_only=True, tag="counter"):
    """Fend off the top spy with cards whose values reach its value (§4), then retire (§7)."""

    cards: tuple[str, ...]
    """The cards used, each one necessary (§4.2)."""
    retire: tuple[str, ...] = ()
    """Optional: two or more cards of one value left in hand, to the spy discard (§7)."""


class Recruit(BaseCommand, frozen=True, kw_only=True, tag="recruit"):
    """Win the top spy over with cards of its suit, or with its suit's double agent (§5)."""

    cards: tuple[str, ...]
    """The cards used: of the spy's suit, or any suit with the spy's Ace among them."""
    retire: tuple[str, ...] = ()
    """Optional: two or more cards of one value left in hand, to the spy discard (§7)."""


class Assassinate(BaseCommand, frozen=True, kw_only=True, tag="assassinate"):
    """Sacrifice an owned Ace when the hand cannot reach the spy's value (§6)."""

    ace: str
    """The Ace to remove, from the hand, the draw deck or the draw discard pile (I-18)."""


Command = Counter | Recruit | Assassinate
"""Every Deck of Spies command, tagged by ``type``."""
