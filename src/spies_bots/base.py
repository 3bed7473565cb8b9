"""What a bot is: a named set of policies, one per game it plays."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from spies_core.errors import SpiesError

__all__ = ["BotSpec", "Policy", "UnknownBotError"]

Policy = Callable[[Any, Sequence[Any], Random], Any]
"""``policy(view, legal, rng) -> command``: one of ``legal``, chosen from ``view`` alone.

``view`` is the acting seat's view (the game's view Struct), ``legal`` the seat's legal
commands now (never empty when a policy is asked), and ``rng`` the bot's own seeded
generator. A policy returns an element of ``legal``; it may keep no state between calls.
"""


class UnknownBotError(SpiesError, ValueError):
    """No bot of that name, or the bot does not play that game."""

    default_code = "unknown-bot"


@dataclass(frozen=True, slots=True)
class BotSpec:
    """One registered bot: its name, a one-line description and a policy per game."""

    name: str
    """Stable id used on the command line and in the API, e.g. ``greedy``."""
    description: str
    """One line for people: how the bot plays."""
    policies: Mapping[str, Policy]
    """The policy for each game id the bot plays."""

    @property
    def games(self) -> tuple[str, ...]:
        """The game ids this bot plays, in registry order."""
        return tuple(self.policies)
