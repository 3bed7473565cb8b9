"""What the generic suites need to exercise Deck of Spies: twin deals and golden cases."""

from __future__ import annotations

from random import Random
from typing import Final

from spies_core.cards import ALL_CARDS, Card, value
from spies_core.decider import GoldenCase, Seat, TwinDeals

__all__ = ["GOLDEN_CASES", "twin_deals"]


def twin_deals(players: int, viewer: Seat | None, rng: Random) -> TwinDeals:
    """The same table but for the two bottom spies (and, for a spectator, the two bottom draw
    cards), whose order nobody sees (the seat sees which cards are left, not their order)."""

    def band(low: int, high: int) -> list[Card]:
        cards = [c for c in ALL_CARDS if low <= value(c) <= high]
        rng.shuffle(cards)
        return cards

    spies = band(5, 7) + band(8, 10) + band(11, 13)
    draw = band(1, 4)
    twin_spies, twin_draw = list(spies), list(draw)
    twin_spies[-2:] = twin_spies[-1], twin_spies[-2]
    if viewer is None:  # the seat sees its cards soon after the draw deck runs out
        twin_draw[-2:] = twin_draw[-1], twin_draw[-2]
    return TwinDeals(
        deal={"spies": spies, "draw": draw},
        twin={"spies": twin_spies, "draw": twin_draw},
        hidden=(spies, twin_spies, draw, twin_draw),
    )


_ORDERED_DRAW: Final = (
    *("AC", "2C", "3C", "4C", "AD", "2D", "3D", "4D"),
    *("AH", "2H", "3H", "4H", "AS", "2S", "3S", "4S"),
    *("7C", "8C", "9C", "10C", "QC", "KC", "7D", "8D", "9D", "10D", "JD", "QD", "KD"),
    *("7H", "8H", "9H", "10H", "JH", "QH", "KH", "7S", "8S", "9S", "10S", "JS", "QS", "KS"),
)

GOLDEN_CASES: Final = (
    GoldenCase(name="deck-of-spies", players=1),
    GoldenCase(
        name="deck-of-spies-flags",
        players=1,
        options={
            "strict_necessity": False,
            "ace_counts_in_necessity": False,
            "retire_multiple_ranks": True,
        },
    ),
    GoldenCase(
        name="deck-of-spies-deal",
        players=1,
        options={
            "deal": {
                "spies": ["5C", "6C", "5D", "6D", "5H", "6H", "5S", "6S", "JC"],
                "draw": list(_ORDERED_DRAW),
            }
        },
    ),
)
"""The default game, every rule flag turned, and an explicit deal with nine spies."""
