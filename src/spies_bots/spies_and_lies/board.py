"""How the ``greedy`` bot of Spies & Lies values a position: everything in steps of the Double
Agent toward the enemy flag, a point on the marker being worth a fraction of a step that grows
with the day (10 points move it ``day`` steps, §7), and what each activation is worth (§9).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from spies_core.spies_and_lies.options import DAYS, ReserveRule
from spies_core.spies_and_lies.resolution import MARSHAL_SABOTAGE, SOLDIER_POINTS
from spies_core.spies_and_lies.state import (
    ALL_RANKS,
    BOMB,
    CAPTAIN,
    COLONEL,
    GENERAL,
    INFILTRATION_AT,
    LIEUTENANT,
    MARSHAL,
    MAX_DECEPTION_TOKENS,
    MINER,
    SCOUT,
    SPY,
    MarshalOption,
    SoldierEffect,
)
from spies_core.spies_and_lies.view import SpiesAndLiesView

__all__ = [
    "CAPTURE",
    "Board",
    "activation_value",
    "activation_values",
    "forced_retreat",
    "point_value",
]

CAPTURE: Final = 10.0
"""The value of taking the enemy flag, in steps: more than any position short of it."""
_EFFECT_POINTS: Final = {SPY: 0.5, SCOUT: 1.5, MINER: 0.5}
"""Rough worth, in points, of a round effect (§9) beyond its points."""
_BOMB_STEPS: Final = 0.3
"""Rough worth of the Bomb's effect: the next enemy card retreats (§9)."""
_TOKEN_POINTS: Final = 2.0
"""Rough worth of a deception token held: +4 when the guess misses, about half the time."""


def point_value(day: int) -> float:
    """What one point on the marker is worth in steps on ``day`` (0.2, 0.25, 0.3)."""
    return 0.15 + 0.05 * min(day, DAYS)


class Board:
    """The public numbers of the game from one side's point of view, and a rough model of
    how points and moves change them (§7, §8), for valuing options."""

    __slots__ = ("day", "gate", "position", "rival", "tokens", "tower")

    def __init__(self, day: int, gate: int, position: int, tower: int, rival: int, tokens: int):
        self.day = day
        self.gate = gate
        self.position = position
        """The Double Agent toward the side's enemy flag."""
        self.tower = tower
        self.rival = rival
        self.tokens = tokens
        """Deception tokens held, or the most one may hold when no token can be gained."""

    @classmethod
    def of(cls, view: SpiesAndLiesView, side: int) -> Board:
        """The board as ``side`` sees it in ``view``."""
        position = view.double_agent if side == 0 else -view.double_agent
        ours, theirs = view.sides[side], view.sides[1 - side]
        tokens = ours.deception_tokens
        per_side = view.deception_reserve_rule is ReserveRule.PER_SIDE
        if not view.deception_reserve_left or (per_side and ours.reserve_taken):
            tokens = MAX_DECEPTION_TOKENS  # a Spy would gain no token ([I-9], [U-6])
        return cls(view.day, view.board_length, position, ours.tower, theirs.tower, tokens)

    def key(self) -> tuple[int, ...]:
        """The numbers the board is made of."""
        return (self.day, self.gate, self.position, self.tower, self.rival, self.tokens)

    def value(self, position: int, tower: int, rival: int) -> float:
        """The worth to the side of a position and markers, in steps."""
        if position > self.gate:
            return CAPTURE
        return position + point_value(self.day) * (tower - rival)

    def now(self) -> float:
        """The worth of the board as it is."""
        return self.value(self.position, self.tower, self.rival)

    def move(self, position: int, steps: int) -> int:
        """A move of the Double Agent (§8): stops in front of the gate; a move from there
        takes the flag (returned as a position beyond the gate)."""
        if position == self.gate:
            return position + 1
        return min(position + steps, self.gate)

    def gain(self, points: int, carry: bool = False) -> tuple[int, int]:
        """``(position, tower)`` after the side gains ``points`` (§7)."""
        total = self.tower + points
        if total < INFILTRATION_AT:
            return self.position, total
        position = self.move(self.position, self.day)
        return position, (total - INFILTRATION_AT if carry else 0)

    def points(self, points: int, carry: bool = False) -> float:
        """The change of worth when the side gains ``points``."""
        position, tower = self.gain(points, carry)
        return self.value(position, tower, self.rival) - self.now()

    def steps(self, steps: int) -> float:
        """The change of worth when the side moves the Double Agent ``steps``."""
        return self.value(self.move(self.position, steps), self.tower, self.rival) - self.now()

    def marshal(self, option: MarshalOption) -> float:
        """The change of worth of a Marshal option (§9, rank 10)."""
        if option is MarshalOption.POINTS:
            return self.points(SOLDIER_POINTS[MARSHAL])
        position, tower = self.gain(MARSHAL_SABOTAGE)
        return self.value(position, tower, max(0, self.rival - MARSHAL_SABOTAGE)) - self.now()


def activation_value(rank: int, board: Board, exhausted: Sequence[int] = ()) -> float:
    """What the activation of the side's ``rank`` is worth to it now, in steps (§9)."""
    unit = point_value(board.day)
    if rank == LIEUTENANT:
        return board.steps(1)
    if rank == GENERAL:
        return board.steps(2)
    if rank == BOMB:
        return _BOMB_STEPS
    if rank == MARSHAL:
        return max(board.marshal(option) for option in MarshalOption)
    if rank == CAPTAIN:
        borrowed = [activation_value(r, board) for r in exhausted if r != CAPTAIN]
        return max([board.points(SOLDIER_POINTS[CAPTAIN]), *borrowed])
    value = board.points(SOLDIER_POINTS[rank], carry=rank == COLONEL)
    value += unit * _EFFECT_POINTS.get(rank, 0.0)
    if rank == SPY and board.tokens < MAX_DECEPTION_TOKENS:
        value += unit * _TOKEN_POINTS
    return value


def activation_values(board: Board, exhausted: tuple[int, ...]) -> tuple[float, ...]:
    """Activation values by rank (index 0 unused), rounded so that tables are shared."""
    return _values_of(board.key(), exhausted)


@lru_cache(maxsize=4096)
def _values_of(key: tuple[int, ...], exhausted: tuple[int, ...]) -> tuple[float, ...]:
    board = Board(*key)
    return (0.0, *(round(activation_value(r, board, exhausted), 2) for r in sorted(ALL_RANKS)))


def forced_retreat(rank: int, effects: Sequence[SoldierEffect]) -> bool:
    """The guesser's effects force the card to retreat whatever the guess (§6 step 5)."""
    return (
        SoldierEffect.BOMB in effects
        or (rank == MARSHAL and SoldierEffect.SPY in effects)
        or (rank == BOMB and SoldierEffect.MINER in effects)
    )
