"""Commands of Black Spy: pass three cards (§3), play one card to the trick (§4, §5).

Cards are given in JSON notation (``"red-1"``, ``"black-7"``); ``decide`` normalises and
checks them, so an unknown card is a rule error (``unknown-card``), not a malformed body.
"""

from __future__ import annotations

import msgspec

from spies_core.black_spy.cards import CardInput

__all__ = ["Command", "PassCards", "PlayCard"]


class BaseCommand(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    """Base of the Black Spy commands."""


class PassCards(BaseCommand, frozen=True, kw_only=True, tag="pass_cards"):
    """Pass exactly three cards, face down, in this deal's direction (§3.1-3.3).

    Every seat passes once per deal, in any order; nobody sees what they receive until all
    have passed (§3.4), and a pass cannot be changed once made.
    """

    cards: tuple[CardInput, ...]
    """Three cards of the hand, in any order, e.g. ``["black-7", "red-1", "blue-11"]``
    (``"black-7"`` twice passes two black 7s). Any cards may be passed (§3.2)."""


class PlayCard(BaseCommand, frozen=True, kw_only=True, tag="play_card"):
    """Play one card to the current trick (§5.1), leading or following (§4.3, §5.2)."""

    card: CardInput
    """A card of the hand that the rules allow now (§4.3, §5.2), e.g. ``"red-5"``;
    ``"black-7"`` plays one of the black 7s held."""


Command = PassCards | PlayCard
"""Every Black Spy command, tagged by ``type``."""
