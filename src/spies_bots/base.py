"""What a bot is: a named, versioned set of policies, one per game it plays, and the seeded
generator it draws from at a table (the version names both: version 1 of every bot drew from
:func:`bot_rng`, CPython's Mersenne Twister; version 2 draws from the protocol's own stream,
:func:`spies_bots.stream.bot_stream`)."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any

from spies_bots.stream import bot_stream
from spies_core.errors import SpiesError

__all__ = ["BotSpec", "BotVersion", "Generator", "Policy", "UnknownBotError", "bot_rng"]

Policy = Callable[[Any, Sequence[Any], Random], Any]
"""``policy(view, legal, rng) -> command``: one of ``legal``, chosen from ``view`` alone.

``view`` is the acting seat's view (the game's view Struct), ``legal`` the seat's legal
commands now (never empty when a policy is asked), and ``rng`` the bot's own seeded
generator. A policy returns an element of ``legal``; it may keep no state between calls.
"""


Generator = Callable[[bytes, int, int], Random]
"""``generator(seed, seat, v)``: the generator a bot gets for ``seat`` when it is asked at the
game's version ``v`` (:func:`bot_rng` for version 1, :func:`~spies_bots.stream.bot_stream`
from version 2)."""


class UnknownBotError(SpiesError, ValueError):
    """No bot of that name, or the bot does not play that game."""

    default_code = "unknown-bot"


@dataclass(frozen=True, slots=True)
class BotVersion:
    """An earlier version of a bot that this build keeps, so that ``spies-replay verify``
    re-runs the moves logs recorded with it: its policies and its generator."""

    policies: Mapping[str, Policy]
    """The policy for each game id that version played."""
    generator: Generator
    """The generator that version drew from."""


@dataclass(frozen=True, slots=True)
class BotSpec:
    """One registered bot: its name, a one-line description, a policy per game, a version,
    the generator it draws from, and the earlier versions this build can still re-run."""

    name: str
    """Stable id used on the command line and in the API, e.g. ``greedy``."""
    description: str
    """One line for people: how the bot plays."""
    policies: Mapping[str, Policy]
    """The policy for each game id the bot plays."""
    version: int = 1
    """The version of the bot's choices, recorded with every command it makes on the server
    (``greedy@2``), so that ``spies-replay verify`` re-runs a recorded move only with the
    version that made it. Bump it whenever the bot could choose otherwise, in any game it
    already plays, for the same view, legal commands and seed: a new heuristic, a changed
    search budget, another order of drawing from ``rng``, another generator. A policy for a
    new game changes no earlier choice and needs no bump. A version a build still has to
    re-run (for logs recorded with it) stays in :attr:`earlier`."""
    generator: Generator = bot_stream
    """The generator this version draws from at a table (the protocol's stream; the
    registered bots drew from :func:`bot_rng` at version 1)."""
    earlier: Mapping[int, BotVersion] = field(default_factory=dict)
    """Earlier versions kept in this build, by version: verify re-runs their moves."""

    @property
    def games(self) -> tuple[str, ...]:
        """The game ids this bot plays, in registry order."""
        return tuple(self.policies)

    def at(self, version: int) -> BotVersion | None:
        """The bot at ``version`` (its policies and generator), or ``None`` when this build
        does not have that version."""
        if version == self.version:
            return BotVersion(self.policies, self.generator)
        return self.earlier.get(version)


def bot_rng(seed: bytes, seat: int, version: int) -> Random:
    """The generator a bot of version 1 got for ``seat`` when asked at the game's ``version``
    (kept to re-run the moves of logs recorded then; version 2 draws from
    :func:`~spies_bots.stream.bot_stream`).

    Seeded by ``HMAC-SHA256(seed, "bot:<seat>:<version>")`` with the game's secret seed: the
    same for every re-run of the game, unknown to the players until the seed is revealed,
    and then anyone can draw it again (``spies-replay verify`` does, for every bot move).

    >>> bot_rng(b"seed", 0, 5).random() == bot_rng(b"seed", 0, 5).random()
    True
    """
    digest = hmac.new(seed, f"bot:{seat}:{version}".encode(), hashlib.sha256).digest()
    return Random(int.from_bytes(digest, "big"))
