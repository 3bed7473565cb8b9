"""What the generic suites need to exercise Black Spy: twin deals and golden cases."""

from __future__ import annotations

from random import Random
from typing import Final

from spies_core.black_spy.cards import DECK
from spies_core.decider import GoldenCase, Seat, TwinDeals

__all__ = ["GOLDEN_CASES", "twin_deals"]


def twin_deals(players: int, viewer: Seat | None, rng: Random) -> TwinDeals:
    """The same deal but for one card exchanged between two hands the viewer does not hold."""
    cards = list(DECK)
    rng.shuffle(cards)
    size = len(cards) // players
    hands = [sorted(cards[i * size : (i + 1) * size]) for i in range(players)]
    a, b = [seat for seat in range(players) if seat != viewer][:2]
    twin = [list(hand) for hand in hands]
    card_a = next(c for c in hands[a] if c not in hands[b])
    card_b = next(c for c in hands[b] if c not in hands[a])
    twin[a][twin[a].index(card_a)] = card_b
    twin[b][twin[b].index(card_b)] = card_a
    dealer = rng.randrange(players)
    others = [seat for seat in range(players) if seat != viewer]
    return TwinDeals(
        deal={"dealer": dealer, "hands": hands},
        twin={"dealer": dealer, "hands": twin},
        hidden=tuple(deal[seat] for deal in (hands, twin) for seat in others),
    )


GOLDEN_CASES: Final = (
    GoldenCase(name="black-spy-3p", players=3),
    GoldenCase(name="black-spy-4p-classic", players=4, options={"classic": True}),
    GoldenCase(name="black-spy-6p-no-good-spies", players=6, options={"no_good_spies": True}),
)
"""The smallest table, the classic rules at four, and the largest table without good spies."""
