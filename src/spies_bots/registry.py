"""The registry of bots: every bot by name, like the registry of games.

A bot has one name across games (``random``, ``greedy``, ``expert``), a policy for each
game it plays and a version (:attr:`~spies_bots.base.BotSpec.version`, in ``_VERSIONS``).
Adding a bot to a game is one policy in that game's ``POLICIES`` (and, for a new name, one
line of ``_DESCRIPTIONS`` and of ``_VERSIONS``); the simulator, the API's ``GET /bots`` and
the generic bot tests pick it up with no other change. Changing how a bot chooses in a game
it already plays is a bump of its version: the server records the version with each of the
bot's moves, and ``spies-replay verify`` re-runs a move only with the version that made it
(:func:`find_policy`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from spies_bots import black_spy, deck_of_spies, random_bot, spies_and_lies
from spies_bots.base import BotSpec, Policy, UnknownBotError
from spies_core.registry import GAMES

__all__ = ["BOTS", "find_policy", "get_bot", "policy_for"]

_DESCRIPTIONS: dict[str, str] = {
    "random": "plays a uniformly random legal command",
    "greedy": "fast rule-based play: the best-looking move now, no look-ahead",
    "expert": "searches: samples the hidden cards from its view and plays out each candidate",
}

_VERSIONS: dict[str, int] = {
    "random": 1,
    "greedy": 1,
    "expert": 1,
}
"""Each bot's version (see :attr:`~spies_bots.base.BotSpec.version`: bump it whenever the
bot could choose otherwise in a game it already plays)."""

_GAME_POLICIES: dict[str, Mapping[str, Policy]] = {
    "deck-of-spies": deck_of_spies.POLICIES,
    "black-spy": black_spy.POLICIES,
    "spies-and-lies": spies_and_lies.POLICIES,
}


def _build() -> dict[str, BotSpec]:
    bots = {
        "random": BotSpec(
            "random", _DESCRIPTIONS["random"], random_bot.POLICIES, _VERSIONS["random"]
        )
    }
    for name, description in _DESCRIPTIONS.items():
        if name == "random":
            continue
        policies = {
            game: per_game[name]
            for game in GAMES
            if name in (per_game := _GAME_POLICIES.get(game, {}))
        }
        if policies:
            bots[name] = BotSpec(name, description, policies, _VERSIONS[name])
    return bots


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


def find_policy(name: str, game: str) -> tuple[int, Policy] | None:
    """The version of bot ``name`` in this build and its policy for ``game``, if it plays it.

    What ``spies-replay verify`` re-runs a recorded bot move with: ``None`` (no such bot
    here, or it does not play that game) and a version other than the recorded one both
    mean the move cannot be re-derived by this build.
    """
    bot = BOTS.get(name)
    if bot is None or game not in bot.policies:
        return None
    return bot.version, bot.policies[game]
