"""The registry of bots: every bot by name, like the registry of games.

A bot has one name across games (``random``, ``greedy``, ``expert``), a policy for each
game it plays and a version (:attr:`~spies_bots.base.BotSpec.version`, in ``_VERSIONS``).
Adding a bot to a game is one policy in that game's ``POLICIES`` (and, for a new name, one
line of ``_DESCRIPTIONS`` and of ``_VERSIONS``); the simulator, the API's ``GET /bots`` and
the generic bot tests pick it up with no other change. Changing how a bot chooses in a game
it already plays is a bump of its version: the server records the version with each of the
bot's moves, and ``spies-replay verify`` re-runs a move only with the version that made it
(:func:`find_policy`). Version 2 of every bot is version 1's policies drawing from the
protocol's stream (:func:`~spies_bots.stream.bot_stream`) instead of CPython's Mersenne Twister
(:func:`~spies_bots.base.bot_rng`), and ``random`` choosing from the legal commands in their
canonical order; version 1 stays in the build (:attr:`~spies_bots.base.BotSpec.earlier`), so
logs recorded with it keep verifying with every bot move re-run.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from spies_bots import black_spy, deck_of_spies, random_bot, spies_and_lies
from spies_bots.base import BotSpec, BotVersion, Generator, Policy, UnknownBotError, bot_rng
from spies_core.registry import GAMES

__all__ = ["BOTS", "find_policy", "get_bot", "policy_for"]

_DESCRIPTIONS: dict[str, str] = {
    "random": "plays a uniformly random legal command",
    "greedy": "fast rule-based play: the best-looking move now, no look-ahead",
    "expert": "searches: samples the hidden cards from its view and plays out each candidate",
}

_VERSIONS: dict[str, int] = {
    "random": 2,
    "greedy": 2,
    "expert": 2,
}
"""Each bot's version (see :attr:`~spies_bots.base.BotSpec.version`: bump it whenever the
bot could choose otherwise in a game it already plays)."""

_GAME_POLICIES: dict[str, Mapping[str, Policy]] = {
    "deck-of-spies": deck_of_spies.POLICIES,
    "black-spy": black_spy.POLICIES,
    "spies-and-lies": spies_and_lies.POLICIES,
}


def _version_1(name: str, policies: Mapping[str, Policy]) -> dict[int, BotVersion]:
    """Version 1 of a bot, kept to re-run old logs: the same policies (``random``'s taking
    the legal commands as listed) drawing from :func:`~spies_bots.base.bot_rng`."""
    if name == "random":
        policies = {game: random_bot.POLICIES_1[game] for game in policies}
    return {1: BotVersion(policies, bot_rng)}


def _build() -> dict[str, BotSpec]:
    per_bot: dict[str, Mapping[str, Policy]] = {"random": random_bot.POLICIES}
    for name in _DESCRIPTIONS:
        if name == "random":
            continue
        policies = {
            game: per_game[name]
            for game in GAMES
            if name in (per_game := _GAME_POLICIES.get(game, {}))
        }
        if policies:
            per_bot[name] = policies
    return {
        name: BotSpec(
            name,
            _DESCRIPTIONS[name],
            policies,
            _VERSIONS[name],
            earlier=_version_1(name, policies),
        )
        for name, policies in per_bot.items()
    }


BOTS: Final[Mapping[str, BotSpec]] = _build()
"""Every registered bot by name, in a stable order."""


def get_bot(name: str) -> BotSpec:
    """Return the registered bot with that name.

    Raises:
        UnknownBotError: no such bot (code ``unknown-bot``).
    """
    try:
        return BOTS[name]
    except KeyError:
        raise UnknownBotError(f"unknown bot {name!r}; known bots: {', '.join(BOTS)}") from None


def policy_for(name: str, game: str) -> Policy:
    """Return the policy with which bot ``name`` plays ``game``.

    Raises:
        UnknownBotError: no such bot, or it does not play that game (code ``unknown-bot``).
    """
    bot = get_bot(name)
    try:
        return bot.policies[game]
    except KeyError:
        plays = ", ".join(bot.games)
        who = ", ".join(b.name for b in BOTS.values() if game in b.policies)
        raise UnknownBotError(
            f"bot {name!r} does not play {game!r} (it plays {plays}); bots for {game}: {who}"
        ) from None


def find_policy(name: str, game: str) -> dict[int, tuple[Policy, Generator]] | None:
    """Every version of bot ``name`` this build can re-run in ``game``: its policy and its
    generator, by version (the current one and :attr:`~spies_bots.base.BotSpec.earlier`).

    What ``spies-replay verify`` re-runs a recorded bot move with, at the version its mark
    names: ``None`` (no such bot here, or it does not play that game) and a version missing
    here both mean the move cannot be re-derived by this build.
    """
    bot = BOTS.get(name)
    if bot is None or game not in bot.policies:
        return None
    found: dict[int, tuple[Policy, Generator]] = {}
    for version in sorted({bot.version, *bot.earlier}):
        kept = bot.at(version)
        if kept is not None and game in kept.policies:
            found[version] = (kept.policies[game], kept.generator)
    return found
