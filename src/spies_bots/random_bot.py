"""The ``random`` bot: a uniformly random legal command, in every registered game."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

from spies_core.registry import GAMES

__all__ = ["POLICIES", "choose"]


def choose(view: Any, legal: Sequence[Any], rng: Random) -> Any:
    """Return one of ``legal``, each with the same chance; the view is not read."""
    return legal[rng.randrange(len(legal))]


POLICIES = dict.fromkeys(GAMES, choose)
"""The same policy for every registered game."""
