"""The pure rules core of the spies engine.

No I/O, no clock, no logging and no global randomness: every game is a Decider of pure
functions (see :mod:`spies_core.decider`) registered in :data:`spies_core.registry.GAMES`;
the errors every rule raises are in :mod:`spies_core.errors`.
"""

from __future__ import annotations

from spies_core.decider import (
    GameSpec,
    Outcome,
    Rng,
    Seat,
    fold,
    parse_options,
    shuffled,
    start_game,
)
from spies_core.registry import GAMES, get_game

__all__ = [
    "GAMES",
    "GameSpec",
    "Outcome",
    "Rng",
    "Seat",
    "fold",
    "get_game",
    "parse_options",
    "shuffled",
    "start_game",
]
