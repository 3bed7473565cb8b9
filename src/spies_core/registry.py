"""The registry of games: one entry per game, iterated by every generic layer.

Adding a game is one subpackage of ``spies_core`` exposing ``SPEC`` and one line here.
The API, the replay tool, the bots' ``random`` and every generic test suite pick it up
with no other change. :func:`register` adds a game at run time, for a game that lives only
in the tests; it must run before anything reads the registry (``spies_api`` builds its
schemas from it when first imported).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from spies_core import black_spy, deck_of_spies, spies_and_lies
from spies_core.decider import AnySpec
from spies_core.errors import UnknownGameError

__all__ = ["GAMES", "get_game", "register"]

_SPECS: tuple[AnySpec, ...] = (deck_of_spies.SPEC, black_spy.SPEC, spies_and_lies.SPEC)

_GAMES: dict[str, AnySpec] = {spec.name: spec for spec in _SPECS}

GAMES: Final[Mapping[str, AnySpec]] = _GAMES
"""Every registered game by its id, in a stable order."""


def register(spec: AnySpec) -> None:
    """Add a game that is not among the built-in ones, after them.

    Raises:
        ValueError: a game with that id is already registered.
    """
    if spec.name in _GAMES:
        raise ValueError(f"a game {spec.name!r} is already registered")
    _GAMES[spec.name] = spec


def get_game(name: str, games: Mapping[str, AnySpec] | None = None) -> AnySpec:
    """Return the game with that id among ``games`` (default: the registered games): the one
    lookup of a game id, so that every layer refuses an unknown one in the same words.

    Raises:
        UnknownGameError: no such game (``unknown-game``); the message lists the known ones.
    """
    known = GAMES if games is None else games
    try:
        return known[name]
    except KeyError:
        listed = ", ".join(known) or "none"
        raise UnknownGameError(f"unknown game {name!r}; known games: {listed}") from None
