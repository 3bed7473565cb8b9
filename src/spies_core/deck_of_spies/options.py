"""Creation options of Deck of Spies (spec §12) and the explicit deal for puzzles."""

from __future__ import annotations

import msgspec

from spies_core.cards import CardInput

__all__ = ["Deal", "DeckOfSpiesFlags", "DeckOfSpiesOptions"]


class Deal(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An explicit position, like a chess FEN, for puzzles, bug reports and tests.

    Every one of the 52 cards must appear in exactly one zone. Without ``hand`` the first
    five cards of ``draw`` are drawn as usual (§2.4, with the refill rules of §8).
    """

    spies: tuple[CardInput, ...]
    """The spy deck, top first, e.g. ``["5H", "6C", ...]``."""
    draw: tuple[CardInput, ...]
    """The draw deck, top first."""
    hand: tuple[CardInput, ...] | None = None
    """The hand (at most 5 cards); ``null`` or omitted: the first five cards of ``draw`` are
    drawn (§2.4)."""
    discard: tuple[CardInput, ...] = ()
    """The draw discard pile (face up); default empty."""
    spy_discard: tuple[CardInput, ...] = ()
    """The spy discard pile (face down); default empty."""
    removed: tuple[CardInput, ...] = ()
    """Aces removed by earlier assassinations (only Aces); default empty."""


class DeckOfSpiesFlags(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The rule flags of §12, recorded in the game's first event."""

    strict_necessity: bool = True
    """I-15: every card of a counter or recruit must be necessary (the set is
    inclusion-minimal, §4.2). Default ``true``; ``false`` allows unnecessary cards."""
    ace_counts_in_necessity: bool = True
    """I-2: the double agent's 1 point counts when testing the other cards' necessity
    (§5.3). Default ``true``."""
    retire_multiple_ranks: bool = False
    """I-6: one retire may hold several same-value groups. Default ``false``: one value only
    (§7.2)."""


class DeckOfSpiesOptions(DeckOfSpiesFlags, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Everything ``POST /games`` accepts in ``options`` for ``deck-of-spies``."""

    deal: Deal | None = None
    """An explicit position, like a chess FEN (puzzles, bug reports, tests); ``null`` or
    omitted: the setup of §2 is shuffled. Kept secret until the game is over."""

    def flags(self) -> DeckOfSpiesFlags:
        """The rule flags alone (what the first event records)."""
        return DeckOfSpiesFlags(
            strict_necessity=self.strict_necessity,
            ace_counts_in_necessity=self.ace_counts_in_necessity,
            retire_multiple_ranks=self.retire_multiple_ranks,
        )
