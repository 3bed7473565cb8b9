"""Determinisation: complete tables that agree with everything one view shows.

The player's view (§10.1) shows every card's zone except the order of the two decks: the
draw deck's composition is known but not its order, and the spies below the top are known
as a set but not in order. A sampled world shuffles the draw deck, and the unseen spies
within their value bands (5-7 above 8-10 above J-K, §2.2, the core's ``SPY_BANDS``; the
bands are public, I-17).
Nothing else is guessed, so a world never moves a card the view shows elsewhere. (An
explicit deal may stack the spies in any order; the bands are then only a prior.)
"""

from __future__ import annotations

from random import Random
from typing import Final

from spies_bots.deck_of_spies.model import CARD_INDEX, VALUE, Table, new_table
from spies_core.deck_of_spies.state import SPY_BANDS
from spies_core.deck_of_spies.view import DeckOfSpiesView

__all__ = ["Sampler"]

_BAND_TOPS: Final = tuple(high for _, high in SPY_BANDS[:-1])
"""Highest value of every spy band but the last; everything above lies in the last band."""


def _band(value: int) -> int:
    return next((i for i, top in enumerate(_BAND_TOPS) if value <= top), len(_BAND_TOPS))


class Sampler:
    """Samples worlds for one view of the player's seat while the game is in play."""

    __slots__ = ("_bands", "_base")

    def __init__(self, view: DeckOfSpiesView) -> None:
        if view.hand is None or view.draw_deck_cards is None or view.top_spy is None:
            raise ValueError("a world needs the player's view of a game in play")
        self._base = new_table(
            view.flags,
            spies=(view.top_spy, *view.unseen_spies),
            deck=view.draw_deck_cards,
            hand=view.hand,
            discard=view.draw_discard,
            spy_discard=view.spy_discard,
            removed=view.removed,
        )
        bands: list[list[int]] = [[] for _ in SPY_BANDS]
        for c in view.unseen_spies:
            i = CARD_INDEX[c]
            bands[_band(VALUE[i])].append(i)
        self._bands = bands

    def sample(self, rng: Random) -> Table:
        """A world: the draw deck and each band of unseen spies in a random order."""
        table = self._base.copy()
        rng.shuffle(table.deck)
        spies = table.spies[:1]
        for band in self._bands:
            cards = band[:]
            rng.shuffle(cards)
            spies += cards
        table.spies = spies
        return table
