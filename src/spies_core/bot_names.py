"""The two bots the rules and the log name by default, by name only.

A time control plays a timed-out seat's move with its ``timeout_bot``, :data:`TIMEOUT_BOT`
unless the creator chose another; a move that a seat's bot failed to make is made by
:data:`FALLBACK_BOT`, whose mark may therefore stand on any seat a bot plays (the server
records it, ``spies-replay verify`` accepts it). The core never imports the bots: these are
names of the registry of ``spies_bots``, and ``tests/test_one_source.py`` checks that both
are registered there and play every game.
"""

from __future__ import annotations

from typing import Final

__all__ = ["FALLBACK_BOT", "TIMEOUT_BOT"]

TIMEOUT_BOT: Final = "greedy"
"""The default ``timeout_bot`` of a time control: the bot that plays a timed-out seat's move."""

FALLBACK_BOT: Final = "random"
"""The bot that makes a move for a bot that failed twice: it plays every game, quickly."""
