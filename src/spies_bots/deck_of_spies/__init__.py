"""Bots for Deck of Spies: its policies by bot name, collected by :mod:`spies_bots.registry`.

``greedy`` is the tuned one-ply greedy of §13.2 (:mod:`.greedy`); ``expert`` samples the
hidden deck orders from its view and plays out the greedy's best candidates in a compact
model of the game (:mod:`.expert`, :mod:`.model`).
"""

from __future__ import annotations

from spies_bots.base import Policy
from spies_bots.deck_of_spies import expert, greedy

__all__ = ["POLICIES"]

POLICIES: dict[str, Policy] = {"greedy": greedy.choose, "expert": expert.choose}
"""This game's policies by bot name (``greedy``, ``expert``); ``random`` is generic."""
