"""Bots for black spy: its policies by bot name, collected by :mod:`spies_bots.registry`."""

from __future__ import annotations

from spies_bots.base import Policy
from spies_bots.black_spy import expert, greedy

__all__ = ["POLICIES"]

POLICIES: dict[str, Policy] = {"greedy": greedy.choose, "expert": expert.choose}
"""This game's policies by bot name (``greedy``, ``expert``); ``random`` is generic."""
