"""The clocks of a game in its log: recorded times to clocks, clocks to events and views.

A game created with a time control (``game_created.clock``) records every clock in its log:
each batch that moves a clock ends with ``clocks_updated`` (every seat's clock after it), a
seat whose clock ran out is a ``clock_expired`` event, and clocks that ran out while no
server was running are ``clocks_resumed``. Every timeout that a bot answers moves the game
on: the seat's forced move follows ``clock_expired`` in its batch, after the seat's
hand-over when the timeout abandons it (:func:`abandons`). The arithmetic is
:mod:`spies_core.clock`'s, on the rows' ``recorded_at`` times in milliseconds, so the
server, a replay and ``verify`` compute the same clocks from the same log.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime

from spies_core.clock import (
    ClockState,
    ClockView,
    OnTimeout,
    SeatClock,
    TimeControl,
    deadline_ms,
    run,
    start,
)
from spies_replay.meta import ClocksUpdated, SeatState, SeatType

__all__ = [
    "abandons",
    "clock_view",
    "clocks_event",
    "from_ms",
    "next_deadline",
    "start_clocks",
    "state_of",
    "stopped_clocks",
    "to_ms",
]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def to_ms(recorded_at: str) -> int:
    """Milliseconds since the epoch of a recorded time (RFC 3339 UTC)."""
    moment = datetime.fromisoformat(recorded_at.replace("Z", "+00:00"))
    return (moment - _EPOCH) // _MILLISECOND


_MILLISECOND = datetime(1970, 1, 1, 0, 0, 0, 1000, tzinfo=UTC) - _EPOCH


def from_ms(ms: int) -> str:
    """A recorded time (RFC 3339 UTC, microseconds, as ``recorded_at``) of epoch milliseconds."""
    moment = _EPOCH + ms * _MILLISECOND
    return moment.isoformat(timespec="microseconds").replace("+00:00", "Z")


def abandons(control: TimeControl, timeouts: int, holder: SeatState) -> bool:
    """Whether a timeout, ``timeouts`` in a row with it, hands the seat to the time control's
    bot: with ``abandon_after`` reached, for a seat that a person holds and plays (a seat
    nobody holds, or one a bot plays already, gets its forced move and nothing else)."""
    return (
        control.on_timeout is OnTimeout.BOT
        and control.abandon_after is not None
        and timeouts >= control.abandon_after
        and holder.type in (SeatType.CREATOR, SeatType.JOINED)
        and holder.bot is None
    )


def start_clocks(
    control: TimeControl, players: int, at: str, to_act: Collection[int]
) -> ClockState:
    """The clocks of a new game created at ``at``."""
    return start(control, players, to_ms(at), to_act)


def stopped_clocks(control: TimeControl, players: int) -> ClockState:
    """The clocks of a game not dealt yet: every seat's full time, none running."""
    return start(control, players, 0, ())


def clocks_event(
    clocks: ClockState, *, moved: int | None = None, used_ms: int | None = None
) -> ClocksUpdated:
    """The ``clocks_updated`` event that records ``clocks``."""
    return ClocksUpdated(seats=clocks.seats, moved=moved, used_ms=used_ms)


def state_of(control: TimeControl, event: ClocksUpdated) -> ClockState:
    """The clocks a ``clocks_updated`` event recorded."""
    return ClockState(control=control, seats=tuple(event.seats))


def next_deadline(clocks: ClockState) -> int | None:
    """The earliest deadline of the running clocks (epoch milliseconds), or ``None``."""
    deadlines = [
        found
        for seat in range(len(clocks.seats))
        if (found := deadline_ms(clocks, seat)) is not None
    ]
    return min(deadlines) if deadlines else None


def clock_view(clocks: ClockState | None, now_ms: int) -> ClockView | None:
    """The clock a client sees at ``now_ms``: the time control, and each seat's time left
    before its next deadline and that deadline while its clock runs."""
    if clocks is None:
        return None
    control = clocks.control
    seats = []
    for clock in clocks.seats:
        deadline = deadline_ms(clocks, clock.seat)
        if deadline is not None:
            remaining: int | None = max(0, deadline - now_ms)
        else:
            remaining = clock.remaining_ms
        seats.append(
            SeatClock(
                seat=clock.seat,
                remaining_ms=remaining,
                deadline=None if deadline is None else from_ms(deadline),
            )
        )
    return ClockView(
        turn_seconds=control.turn_seconds,
        budget_seconds=control.budget_seconds,
        increment_seconds=control.increment_seconds,
        on_timeout=control.on_timeout,
        timeout_bot=control.timeout_bot,
        abandon_after=control.abandon_after,
        seats=tuple(seats),
    )


def running_after(clocks: ClockState, at: str, to_act: Collection[int]) -> ClockState:
    """The clocks once ``to_act`` are the seats to act at ``at``."""
    return run(clocks, to_ms(at), to_act)
