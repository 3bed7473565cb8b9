"""What the generic suites need to exercise Spies & Lies: twin deals and golden cases."""

from __future__ import annotations

from random import Random
from typing import Final

from spies_core.decider import GoldenCase, Seat, TwinDeals
from spies_core.spies_and_lies.options import DEFAULT_INTEL_CARDS

__all__ = ["GOLDEN_CASES", "twin_deals"]


def twin_deals(players: int, viewer: Seat | None, rng: Random) -> TwinDeals:
    """The same setup but for the order of the two bottom intel cards (nobody sees it)."""
    intel = [list(card) for card in DEFAULT_INTEL_CARDS]
    while True:
        rng.shuffle(intel)
        if intel[-1] != intel[-2]:
            break
    twin = [*intel[:-2], intel[-1], intel[-2]]
    fixed = {
        "exhausted": [rng.randrange(1, 11), rng.randrange(1, 11)],
        "starting": rng.randrange(2),
    }
    return TwinDeals(
        deal={"intel": intel, **fixed}, twin={"intel": twin, **fixed}, hidden=(intel, twin)
    )


GOLDEN_CASES: Final = (
    GoldenCase(name="spies-and-lies-2p", players=2),
    GoldenCase(name="spies-and-lies-4p-teams", players=4),
)
"""A two-player game and a team game."""
