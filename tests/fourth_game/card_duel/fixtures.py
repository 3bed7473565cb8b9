"""What the generic suites need to exercise Card Duel: twin deals and golden cases."""

from __future__ import annotations

from random import Random
from typing import Final

from spies_core.decider import GoldenCase, Seat, TwinDeals
from tests.fourth_game.card_duel.options import CARDS

__all__ = ["GOLDEN_CASES", "twin_deals"]


def twin_deals(players: int, viewer: Seat | None, rng: Random) -> TwinDeals:
    """The same deal but for a card of the hand the viewer does not hold (seat 1's for a
    spectator) exchanged with a card set aside."""
    cards = list(CARDS)
    rng.shuffle(cards)
    hands = [sorted(cards[0:6]), sorted(cards[6:12])]
    aside = sorted(cards[12:])
    other = 1 if viewer in (None, 0) else 0
    twin_hands = [list(hand) for hand in hands]
    twin_hands[other][0], twin_aside = aside[0], sorted([hands[other][0], aside[1]])
    twin_hands[other].sort()
    return TwinDeals(
        deal={"hands": hands, "aside": aside},
        twin={"hands": twin_hands, "aside": twin_aside},
        hidden=(hands[other], twin_hands[other]),  # not the pair aside: a list of bids looks alike
    )


GOLDEN_CASES: Final = (GoldenCase(name="card-duel", players=2),)
