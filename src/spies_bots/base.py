"""What a bot is: a named, versioned set of policies, one per game it plays, and the seeded
generator it draws from at a table."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from spies_core.errors import SpiesError

__all__ = ["BotSpec", "Policy", "UnknownBotError", "bot_rng"]

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
    """One registered bot: its name, a one-line description, a policy per game, a version."""

    name: str
    """Stable id used on the command line and in the API, e.g. ``greedy``."""
    description: str
    """One line for people: how the bot plays."""
    policies: Mapping[str, Policy]
    """The policy for each game id the bot plays."""
    version: int = 1
    """The version of the bot's choices, recorded with every command it makes on the server
    (``greedy@2``), so that ``spies-replay verify`` re-runs a recorded move only with the
    bot that made it. Bump it whenever the bot could choose otherwise, in any game it
    already plays, for the same view, legal commands and generator: a new heuristic, a
    changed search budget, another order of drawing from ``rng``. A policy for a new game
    changes no earlier choice and needs no bump. A build keeps only the current version."""

    @property
    def games(self) -> tuple[str, ...]:
        """The game ids this bot plays, in registry order."""
        return tuple(self.policies)


def bot_rng(seed: bytes, seat: int, version: int) -> Random:
    """The generator a bot gets for ``seat`` when it is asked at the game's ``version``.

    Seeded by ``HMAC-SHA256(seed, "bot:<seat>:<version>")`` with the game's secret seed: the
    same for every re-run of the game, unknown to the players until the seed is revealed,
    and then anyone can draw it again (``spies-replay verify`` does, for every bot move).

    >>> bot_rng(b"seed", 0, 5).random() == bot_rng(b"seed", 0, 5).random()
    True
    """
    digest = hmac.new(seed, f"bot:{seat}:{version}".encode(), hashlib.sha256).digest()
    return Random(int.from_bytes(digest, "big"))
