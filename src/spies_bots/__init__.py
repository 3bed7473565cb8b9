"""Bots for every game: pure policies over what one seat may see.

A bot receives its seat's view (the Struct the API serves), the seat's legal commands and
its own seeded :class:`random.Random`, and returns one of those commands. It never sees a
state: a bot that searches samples the hidden cards from what its view allows. Like
``spies_core``, this package does no I/O, reads no clock and draws no global randomness,
so a bot is deterministic given its seed. It imports ``spies_core`` only.

:data:`spies_bots.registry.BOTS` lists every bot by name; :mod:`spies_bots.match` plays a
whole game between bots in memory, exactly as the server would record it.
"""

from __future__ import annotations

from spies_bots.base import BotSpec, Policy, UnknownBotError
from spies_bots.registry import BOTS, get_bot, policy_for

__all__ = ["BOTS", "BotSpec", "Policy", "UnknownBotError", "get_bot", "policy_for"]
