"""The vocabulary every module of Spies & Lies shares: sides, soldier ranks, missions (§2,
§3) and the Marshal's options (§9)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Final

import msgspec

__all__ = [
    "ALL_RANKS",
    "BLUE",
    "BOMB",
    "CAPTAIN",
    "COLONEL",
    "GENERAL",
    "LIEUTENANT",
    "MARSHAL",
    "MINER",
    "MISSIONS",
    "RANK_NAMES",
    "RED",
    "SCOUT",
    "SERGEANT",
    "SIDE_NAMES",
    "SPY",
    "TURNS",
    "MarshalOption",
    "Rank",
]

RED: Final = 0
"""Side number of red (seat 0, and 2 in team play)."""
BLUE: Final = 1
"""Side number of blue (seat 1, and 3 in team play)."""
SIDE_NAMES: Final = ("red", "blue")

SPY: Final = 1
SCOUT: Final = 2
MINER: Final = 3
SERGEANT: Final = 4
LIEUTENANT: Final = 5
CAPTAIN: Final = 6
BOMB: Final = 7
COLONEL: Final = 8
GENERAL: Final = 9
MARSHAL: Final = 10
ALL_RANKS: Final = tuple(range(1, 11))
"""Every rank, 1 to 10, in order."""
Rank = Annotated[
    int, msgspec.Meta(extra_json_schema={"minimum": ALL_RANKS[0], "maximum": ALL_RANKS[-1]})
]
"""A soldier's rank in a command, an event, a view or an option: its schema in the API
document has the bounds of :data:`ALL_RANKS` (a document-only constraint: ``decide`` checks a
client's rank, with its own code)."""
RANK_NAMES: Final = (
    "",
    "Spy",
    "Scout",
    "Miner",
    "Sergeant",
    "Lieutenant",
    "Captain",
    "Bomb",
    "Colonel",
    "General",
    "Marshal",
)
"""English soldier names by rank (§2); index 0 is unused."""

MISSIONS: Final = 4
TURNS: Final = 2 * MISSIONS
"""Guess-turns per day (§5.3.2)."""


class MarshalOption(StrEnum):
    """The two options of an activated Marshal (§9, rank 10)."""

    POINTS = "points"
    """(a) Gain 10 points."""
    SABOTAGE = "sabotage"
    """(b) Gain 5 points, and the opponent loses 5 (not below 0)."""
