"""Bots for deck of spies: its policies by bot name, collected by :mod:`spies_bots.registry`."""

from __future__ import annotations

from spies_bots.base import Policy

__all__ = ["POLICIES"]

POLICIES: dict[str, Policy] = {}
"""This game's policies by bot name (``greedy``, ``expert``); ``random`` is generic."""
