"""The registry of games: one entry per game, iterated by every generic layer.

Adding a game is one subpackage of ``spies_core`` exposing ``SPEC`` and one line here.
The API, the replay tool and the conformance suite pick it up with no other change.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from spies_core import black_spy, deck_of_spies, spies_and_lies
from spies_core.decider import AnySpec
from spies_core.errors import UnknownGameError

__all__ = ["GAMES", "get_game"]

_SPECS: tuple[AnySpec, ...] = (deck_of_spies.SPEC, black_spy.SPEC, spies_and_lies.SPEC)

GAMES: Final[Mapping[str, AnySpec]] = {spec.name: spec for spec in _SPECS}
"""Every registered game by its id, in a stable order."""


def get_game(name: str) -> AnySpec:
    """Return the registered game with that id.

    Raises:
        UnknownGameError: no such game.
    """
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(GAMES)
        raise UnknownGameError(f"unknown game {name!r}; known games: {known}") from None
