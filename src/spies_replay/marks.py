"""Bot marks: which bot, at which version, chose a recorded command; and the bots that verify
may be given to re-run those choices.

A command a bot chose on the server is recorded with a **mark** (the ``bot`` column, covered
by the hash chain; ``"bot"`` on its export line): ``NAME@VERSION``, e.g. ``greedy@1``, the
bot's registered name and the version of its choices (``spies_bots.BotSpec.version``, a
whole number from 1, bumped whenever the bot could choose otherwise; it names the generator
the bot drew from too). A mark without ``@``
(``greedy``) was written before bots had versions: it still names the bot, but not which
version of it chose, so verify does not re-derive it (caveat ``bot-version-unknown``).

The replay log never imports the bots. :func:`~spies_replay.verify.verify_log` (and
``verify_game``, ``verify_all``, ``import_game``) take them as a parameter,
:class:`BotPolicies`: how to find, for a bot and a game, each version of the bot the caller
can re-run, with its policy and the generator it draws from. Only the console layer
(:mod:`spies_replay.cli`) passes the registry of ``spies_bots`` in; without it, verify checks
every mark against the seats but re-runs none (caveat ``bots-not-given``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any, Final

__all__ = [
    "BotLookup",
    "BotMark",
    "BotPolicies",
    "BotPolicy",
    "BotRun",
    "bot_mark",
    "parse_bot_mark",
]

BotPolicy = Callable[[Any, Sequence[Any], Random], Any]
"""``policy(view, legal, rng) -> command``, as ``spies_bots.Policy`` (the same shape)."""

BotRun = tuple[BotPolicy, Callable[[bytes, int, int], Random]]
"""One version of a bot in one game: its policy and its generator, ``generator(seed, seat,
v)`` (``spies_bots.bot_rng`` at version 1, ``spies_bots.bot_stream`` from version 2)."""

BotLookup = Callable[[str, str], "Mapping[int, BotRun] | None"]
"""``lookup(name, game)``: every version of bot ``name`` the caller can re-run in ``game``, by
version, or ``None`` when it has no such bot or the bot does not play that game
(``spies_bots.find_policy``)."""

_MARK: Final = re.compile(r"(?P<name>[^@]+)(?:@(?P<version>[1-9][0-9]*))?", re.ASCII)


@dataclass(frozen=True, slots=True)
class BotMark:
    """A parsed mark.

    Attributes:
        name: the bot's registered name.
        version: the version of its choices, or ``None`` for a mark written before bots had
            versions.
    """

    name: str
    version: int | None


@dataclass(frozen=True, slots=True)
class BotPolicies:
    """The bots verify re-runs recorded moves with (the console layer builds it from
    ``spies_bots``).

    Attributes:
        lookup: finds a bot's versions, each with its policy and generator, for a game
            (:data:`BotLookup`).
    """

    lookup: BotLookup


def bot_mark(name: str, version: int) -> str:
    """The mark recorded with a command that bot ``name`` at ``version`` chose.

    >>> bot_mark("greedy", 1)
    'greedy@1'

    Raises:
        ValueError: a name with ``@`` or empty, or a version below 1.
    """
    if not name or "@" in name or version < 1:
        raise ValueError(f"no mark for bot {name!r} at version {version}")
    return f"{name}@{version}"


def parse_bot_mark(mark: str) -> BotMark:
    """Read a recorded mark: ``NAME@VERSION``, or a bare ``NAME`` from before versions.

    >>> parse_bot_mark("greedy@2")
    BotMark(name='greedy', version=2)
    >>> parse_bot_mark("greedy")
    BotMark(name='greedy', version=None)

    Raises:
        ValueError: not a mark (empty, or a version that is not a whole number from 1).
    """
    found = _MARK.fullmatch(mark)
    if found is None:
        raise ValueError(f"{mark!r} is not a bot mark (NAME@VERSION, the version from 1)")
    version = found.group("version")
    return BotMark(found.group("name"), None if version is None else int(version))
