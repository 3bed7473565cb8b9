"""Creation options of Deck of Spies (spec §12) and the explicit deal for puzzles."""

from __future__ import annotations

import msgspec

__all__ = ["Deal", "DeckOfSpiesFlags", "DeckOfSpiesOptions"]


class Deal(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An explicit position, like a chess FEN, for puzzles, bug reports and tests.

    Every one of the 52 cards must appear in exactly one zone. Without ``hand`` the first
    five cards of ``draw`` are drawn as usual (§2.4, with the refill rules of §8).
    """

    spies: tuple[str, ...]
    """The spy deck, top first."""
    draw: tuple[str, ...]
    """The draw deck, top first."""
    hand: tuple[str, ...] | None = None
    """The hand (at most 5 cards); omitted: draw five from ``draw``."""
    discard: tuple[str, ...] = ()
    """The draw discard pile (face up)."""
    spy_discard: tuple[str, ...] = ()
    """The spy discard pile."""
    removed: tuple[str, ...] = ()
    """Aces removed by earlier assassinations (only Aces)."""


class DeckOfSpiesFlags(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The rule flags of §12, recorded in the game's first event."""

    strict_necessity: bool = True
    """I-15: every card of a counter or recruit must be necessary (inclusion-minimal)."""
    ace_counts_in_necessity: bool = True
    """I-2: the double agent's 1 point counts when testing the other cards' necessity."""
    retire_multiple_ranks: bool = False
    """I-6: one retire may hold several same-rank groups (default: one rank only)."""


class DeckOfSpiesOptions(DeckOfSpiesFlags, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Everything ``POST /games`` accepts in ``options`` for ``deck-of-spies``."""

    deal: Deal | None = None
    """Optional explicit position; without it the setup of §2 is shuffled."""

    def flags(self) -> DeckOfSpiesFlags:
        """The rule flags alone (what the first event records)."""
        return DeckOfSpiesFlags(
            strict_necessity=self.strict_necessity,
            ace_counts_in_necessity=self.ace_counts_in_necessity,
            retire_multiple_ranks=self.retire_multiple_ranks,
        )
