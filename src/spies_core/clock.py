"""Clocks: time controls and the arithmetic of every seat's clock, on recorded times.

Time enters the core only as recorded facts, like chance: the server reads its clock at the
edge, writes the time into the log (every event's ``recorded_at``), and these pure functions
turn those times, in milliseconds, into each seat's clock. Nothing here reads a clock, so
the server, a replay and ``spies-replay verify`` compute the same clocks from the same log.

A seat's clock runs while the seat is to act (each seat's on its own when several act at
once). A time control has a per-move timer (``turn_seconds``: how long one decision may
take), a chess clock (``budget_seconds``, with ``increment_seconds`` added after each of the
seat's moves: Fischer), or both; a seat's deadline is the earlier of the two. A time control
gives at least :data:`CLOCK_LIMITS`' minimums, so that a person and a bot can play to it.
"""

from __future__ import annotations

from collections.abc import Collection
from enum import StrEnum
from typing import Final

import msgspec

from spies_core.bot_names import TIMEOUT_BOT

__all__ = [
    "CLOCK_LIMITS",
    "ClockLimits",
    "ClockState",
    "ClockView",
    "OnTimeout",
    "SeatClock",
    "SeatTime",
    "TimeControl",
    "deadline_ms",
    "expire",
    "move",
    "resume",
    "run",
    "start",
]


class OnTimeout(StrEnum):
    """What happens when a seat's clock runs out."""

    BOT = "bot"
    """The seat's move is played by the time control's ``timeout_bot``; the game goes on."""
    FORFEIT = "forfeit"
    """The seat loses the game (a game where one seat's leaving decides it, only)."""


class ClockLimits(msgspec.Struct, frozen=True, kw_only=True):
    """The shortest and the longest times a time control may give, in seconds."""

    min_turn_seconds: float
    """The shortest ``turn_seconds``: one decision, for a person or a bot (whose moves take
    milliseconds, and at worst a few hundred)."""
    min_budget_seconds: float
    """The shortest ``budget_seconds``: a whole game's time for one seat, before its
    increments."""
    max_seconds: float
    """The longest time of any field: longer is surely a mistake."""


CLOCK_LIMITS: Final = ClockLimits(
    min_turn_seconds=3.0, min_budget_seconds=10.0, max_seconds=7 * 24 * 3600.0
)
"""The one statement of what a time control may give (the server checks a ``clock``
against it, and its documents quote it)."""


class TimeControl(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A game's time control, chosen at creation (``clock`` of ``POST /games``)."""

    turn_seconds: float | None = None
    """How long a seat may take over one decision; ``null``: no per-move timer."""
    budget_seconds: float | None = None
    """A chess clock per seat: the time it may take over the whole game; ``null``: none."""
    increment_seconds: float = 0.0
    """Added to a seat's budget after each of its moves (Fischer); only with a budget."""
    on_timeout: OnTimeout = OnTimeout.BOT
    """``bot``: the seat's move is played by ``timeout_bot`` and the game goes on;
    ``forfeit``: the seat loses."""
    timeout_bot: str = TIMEOUT_BOT
    """The bot that plays a timed-out seat's move (``on_timeout`` ``bot``)."""
    abandon_after: int | None = None
    """With ``on_timeout`` ``bot``: after this many timeouts of a seat in a row, the seat is
    handed to ``timeout_bot`` for the rest of the game (its holder can take it back)."""

    @property
    def turn_ms(self) -> int | None:
        """The per-move timer in milliseconds."""
        return None if self.turn_seconds is None else round(self.turn_seconds * 1000)

    @property
    def budget_ms(self) -> int | None:
        """The budget in milliseconds."""
        return None if self.budget_seconds is None else round(self.budget_seconds * 1000)

    @property
    def increment_ms(self) -> int:
        """The increment in milliseconds."""
        return round(self.increment_seconds * 1000)


class SeatTime(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's clock as the log leaves it."""

    seat: int
    """The seat."""
    remaining_ms: int | None
    """What is left of the seat's budget, when it last stopped; ``null`` without a budget."""
    since_ms: int | None = None
    """When the seat's clock started running (milliseconds since the epoch, as recorded);
    ``null`` while it does not run (the seat is not to act)."""
    timeouts: int = 0
    """The seat's timeouts in a row (its own move sets it back to 0)."""


class ClockState(msgspec.Struct, frozen=True, kw_only=True):
    """Every seat's clock of a game."""

    control: TimeControl
    seats: tuple[SeatTime, ...]


class SeatClock(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's clock as a client sees it."""

    seat: int
    """The seat."""
    remaining_ms: int | None
    """The time left before the seat's next deadline when the clock was read (its budget,
    or its move's timer, whichever is shorter); ``null`` without a budget or a timer."""
    deadline: str | None
    """While the seat's clock runs: when it runs out, RFC 3339 UTC; ``null`` otherwise."""


class ClockView(TimeControl, frozen=True, kw_only=True):
    """A game's clock as a client sees it: the time control, and each seat's clock."""

    seats: tuple[SeatClock, ...] = ()
    """Each seat's clock, in seat order."""


def start(control: TimeControl, players: int, at_ms: int, to_act: Collection[int]) -> ClockState:
    """The clocks of a new game: full budgets, running for the seats to act at ``at_ms``."""
    seats = tuple(SeatTime(seat=seat, remaining_ms=control.budget_ms) for seat in range(players))
    return run(ClockState(control=control, seats=seats), at_ms, to_act)


def run(state: ClockState, at_ms: int, to_act: Collection[int]) -> ClockState:
    """The clocks once the seats to act are ``to_act`` at ``at_ms``: a seat that is to act
    and was not starts now; a seat that no longer is stops, its budget charged (no
    increment: it did not move)."""
    seats = []
    for clock in state.seats:
        acting = clock.seat in to_act
        if acting and clock.since_ms is None:
            clock = msgspec.structs.replace(clock, since_ms=at_ms)
        elif not acting and clock.since_ms is not None:
            clock = _charged(clock, at_ms, 0)
        seats.append(clock)
    return msgspec.structs.replace(state, seats=tuple(seats))


def _charged(clock: SeatTime, at_ms: int, increment_ms: int) -> SeatTime:
    remaining = clock.remaining_ms
    if remaining is not None:
        used = 0 if clock.since_ms is None else max(0, at_ms - clock.since_ms)
        remaining = max(0, remaining - used) + increment_ms
    return msgspec.structs.replace(clock, remaining_ms=remaining, since_ms=None)


def move(
    state: ClockState, seat: int, at_ms: int, *, forced: bool = False
) -> tuple[ClockState, int]:
    """``seat`` moved at ``at_ms``: its clock stops, the time it took is charged to its budget
    and the increment added. Its own move sets its timeouts back to 0; a forced move (a bot's
    after a timeout) keeps them.

    Returns:
        The clocks, and the milliseconds the move took (0 when the seat's clock was not
        running).
    """
    clock = state.seats[seat]
    used = 0 if clock.since_ms is None else max(0, at_ms - clock.since_ms)
    charged = _charged(clock, at_ms, state.control.increment_ms)
    if not forced:
        charged = msgspec.structs.replace(charged, timeouts=0)
    return _with(state, charged), used


def expire(state: ClockState, seat: int) -> ClockState:
    """``seat``'s clock ran out: its budget is spent, its clock stops, one more timeout in a
    row."""
    clock = state.seats[seat]
    spent = 0 if clock.remaining_ms is not None else None
    expired = msgspec.structs.replace(
        clock, remaining_ms=spent, since_ms=None, timeouts=clock.timeouts + 1
    )
    return _with(state, expired)


def resume(state: ClockState, at_ms: int) -> ClockState:
    """Every running clock starts again at ``at_ms`` with what it had when it last started
    (the time in between is not counted: no server was there to see it pass)."""
    seats = tuple(
        clock if clock.since_ms is None else msgspec.structs.replace(clock, since_ms=at_ms)
        for clock in state.seats
    )
    return msgspec.structs.replace(state, seats=seats)


def deadline_ms(state: ClockState, seat: int) -> int | None:
    """When ``seat``'s running clock runs out (``None`` while it does not run, or with no
    limit): the earlier of its move's timer and its budget."""
    clock = state.seats[seat]
    if clock.since_ms is None:
        return None
    limits = [limit for limit in (state.control.turn_ms, clock.remaining_ms) if limit is not None]
    return clock.since_ms + min(limits) if limits else None


def _with(state: ClockState, clock: SeatTime) -> ClockState:
    seats = list(state.seats)
    seats[clock.seat] = clock
    return msgspec.structs.replace(state, seats=tuple(seats))
