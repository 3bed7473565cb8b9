"""What the server records when a clock runs out (:func:`prepare_timeout`), when clocks
that ran out while no server ran start again (:func:`prepare_resume`), and an end no rule
decided (:func:`prepare_abort`, and :func:`abort_game`, an operator's, through the store's
append).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from spies_api.game.commands import PreparedCommand, sealed
from spies_api.game.loading import Head, load_head
from spies_core.clock import OnTimeout, deadline_ms, expire, move
from spies_core.clock import resume as resume_clocks
from spies_core.clock import run as run_clocks
from spies_core.decider import AnySpec, Seat
from spies_core.registry import get_game
from spies_core.rng import FairRng
from spies_core.step import Step, step
from spies_replay.clocks import (
    abandons,
    clocks_event,
    from_ms,
    to_ms,
)
from spies_replay.errors import (
    GameFinishedError,
    VersionConflictError,
)
from spies_replay.meta import (
    AbortReason,
    ClockExpired,
    ClocksResumed,
    GameAborted,
    SeatHandedToBot,
    SeatState,
    aborted_outcome,
    apply_seat_event,
    check_abort_detail,
)
from spies_replay.reading import Games
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import utc_now
from spies_replay.times import parse_utc

__all__ = [
    "ABORT_ATTEMPTS",
    "Abandon",
    "Resume",
    "ServerAction",
    "Timeout",
    "TimeoutPlan",
    "abort_game",
    "plan_timeout",
    "prepare_abort",
    "prepare_action",
    "prepare_resume",
    "prepare_timeout",
]

ABORT_ATTEMPTS: Final = 20
""":func:`abort_game` reads the head and appends at its version; a game that moved on
meanwhile is read again, at most this many times."""


@dataclass(frozen=True, slots=True)
class TimeoutPlan:
    """What a seat's timeout records at a head (:func:`plan_timeout`).

    Attributes:
        seat: the seat whose clock ran out.
        timeouts: its timeouts in a row, this one included.
        forfeit: the seat loses the game (``on_timeout`` ``forfeit``).
        handed: the hand-over that comes before the forced move (``abandon_after`` reached
            by a seat a person holds and plays), or ``None``.
        forced_at: the version the forced move is decided at (the seat's view, the bot's
            generator and the move's chance all follow it): the head's, plus the meta events
            before the move; ``None`` for a forfeit.
    """

    seat: int
    timeouts: int
    forfeit: bool
    handed: SeatHandedToBot | None
    forced_at: int | None


def plan_timeout(head: Head, seat: Seat) -> TimeoutPlan:
    """What ``seat``'s timeout at ``head`` records: ``clock_expired``, then the forfeit, or
    the forced move, after the seat's hand-over when the timeout abandons it
    (:func:`spies_replay.clocks.abandons`).

    Raises:
        ValueError: the game has no clock.
    """
    clocks = head.clock
    if clocks is None:
        raise ValueError(f"game {head.id!r} has no clock")
    control = clocks.control
    timeouts = clocks.seats[seat].timeouts + 1
    if control.on_timeout is OnTimeout.FORFEIT:
        return TimeoutPlan(seat, timeouts, forfeit=True, handed=None, forced_at=None)
    holder = head.seats[seat] if seat < len(head.seats) else SeatState(seat=seat)
    handed = (
        SeatHandedToBot(seat=seat, bot=control.timeout_bot)
        if abandons(control, timeouts, holder)
        else None
    )
    before = 1 if handed is None else 2  # clock_expired, and the hand-over
    return TimeoutPlan(seat, timeouts, False, handed, forced_at=head.version + before)


def prepare_timeout(
    spec: AnySpec,
    head: Head,
    seat: Seat,
    *,
    forced: Any = None,
    bot: str | None = None,
    recorded_at: str | None = None,
) -> PreparedCommand:
    """A seat's clock ran out: ``clock_expired``, then what its time control says
    (:func:`plan_timeout`), all in one batch.

    - ``forfeit``: the seat loses (``spec.forfeit``): the game ends in the same batch;
    - ``bot``: ``forced`` (the move the time control's bot chose for the seat, at the plan's
      ``forced_at``) is played as the seat's, marked with ``bot``. When the timeout abandons
      the seat (``abandon_after`` timeouts in a row of a seat a person holds and plays), the
      seat is first handed to that bot for the rest of the game (``seat_handed_to_bot``, as a
      hand-over; its holder can take it back once the seat has moved): every timeout moves
      the game on.

    Raises:
        ValueError: the game has no clock, the seat's clock has not run out by
            ``recorded_at``, or a forced move is needed and none was given.
        RuleError: the forced move is refused by the rules (a bug in the bot).
    """
    clocks = head.clock
    deadline = None if clocks is None else deadline_ms(clocks, seat)
    now = utc_now() if recorded_at is None else recorded_at
    if clocks is None or deadline is None or to_ms(now) < deadline:
        raise ValueError(f"seat {seat}'s clock in game {head.id!r} has not run out")
    plan = plan_timeout(head, seat)
    clocks = expire(clocks, seat)
    expired = ClockExpired(
        seat=seat, deadline=from_ms(deadline), timeouts=plan.timeouts, forfeit=plan.forfeit
    )
    at_ms = to_ms(now)
    if plan.forfeit:
        if spec.forfeit is None:
            raise ValueError(f"{spec.name} cannot be forfeited")
        outcome = spec.forfeit(head.state, seat)
        over: Step[Any, Any] = Step((), head.state, outcome)
        return sealed(spec, head, [clocks_event(clocks)], over, now, before=[expired], clock=clocks)
    if forced is None or plan.forced_at is None:
        raise ValueError("a timeout played by a bot needs the bot's move")
    before: list[Any] = [expired]
    seats: list[SeatState] | None = None
    if plan.handed is not None:
        before.append(plan.handed)
        seats = apply_seat_event(list(head.seats), plan.handed)
    moved = step(spec, head.state, seat, forced, FairRng(head.secrets.play_seed, plan.forced_at))
    clocks, used = move(clocks, seat, at_ms, forced=True)
    if not moved.finished:
        clocks = run_clocks(clocks, at_ms, spec.to_act(moved.state))
    batch = [*moved.events, clocks_event(clocks, moved=seat, used_ms=used)]
    return sealed(
        spec,
        head,
        batch,
        moved,
        now,
        actor=seat,
        command=forced,
        bot=bot,
        clock=clocks,
        before=before,
        seat=None if seats is None else seats[seat],
        seats=seats,
    )


def prepare_abort(
    spec: AnySpec,
    head: Head,
    *,
    reason: str,
    detail: str,
    recorded_at: str | None = None,
) -> PreparedCommand:
    """End a game in progress that no rule ended: ``game_aborted``, the clocks stopped
    (``clocks_updated``, in a game with a clock: the time each running clock ran is
    charged), then ``seed_revealed``; the outcome is ``{"winners": [], "reason": reason}``.
    Nothing is written: hand ``append`` to the store, whose version check refuses it when
    the game moved on meanwhile.

    Args:
        spec: the game's spec.
        head: the game's head.
        reason: a machine code of :class:`~spies_replay.meta.AbortReason`: ``aborted`` (an
            operator), ``abandoned`` (the server: open seats that expired).
        detail: why, in words: 1 to :data:`~spies_replay.meta.ABORT_DETAIL_MAX`
            printable characters.
        recorded_at: the time to record (the caller's clock); default now.

    Raises:
        GameFinishedError: the game is over already.
        ValueError: an unknown ``reason``, or a ``detail`` that is empty, too long or holds
            a character that is not printable.
    """
    if head.finished:
        raise GameFinishedError(f"game {head.id!r} has finished already; nothing to abort")
    try:
        code = AbortReason(reason)
    except ValueError:
        known = ", ".join(str(known) for known in AbortReason)
        raise ValueError(f"unknown abort reason {reason!r}; one of {known}") from None
    check_abort_detail(detail)
    now = utc_now() if recorded_at is None else recorded_at
    aborted = GameAborted(reason=code, detail=detail)
    clocks = None if head.clock is None else run_clocks(head.clock, to_ms(now), ())
    ended: Step[Any, Any] = Step((), head.state, aborted_outcome(aborted))
    batch = [] if clocks is None else [clocks_event(clocks)]
    return sealed(spec, head, batch, ended, now, before=[aborted], clock=clocks)


def prepare_resume(spec: AnySpec, head: Head, recorded_at: str | None = None) -> PreparedCommand:
    """Clocks that ran out while no server was running start again from what they had:
    ``clocks_resumed``, then the clocks.

    Raises:
        ValueError: the game has no clock.
    """
    if head.clock is None:
        raise ValueError(f"game {head.id!r} has no clock")
    now = utc_now() if recorded_at is None else recorded_at
    started = [clock.since_ms for clock in head.clock.seats if clock.since_ms is not None]
    since = from_ms(max(started)) if started else now
    clocks = resume_clocks(head.clock, to_ms(now))
    resumed = ClocksResumed(since=since)
    return sealed(
        spec, head, [resumed, clocks_event(clocks)], Step((), head.state, None), now, clock=clocks
    )


def abort_game(
    store: EventStore,
    game_id: str,
    *,
    reason: str = AbortReason.ABORTED,
    detail: str,
    clock: Callable[[], str] = utc_now,
    games: Games | None = None,
) -> PreparedCommand:
    """End a game in progress for an operator (:func:`prepare_abort`), through the store's
    append: the head is read, the abort sealed after it and appended at its version; a
    game that moved on meanwhile (a server still playing it) is read again and the abort
    sealed anew, at most :data:`ABORT_ATTEMPTS` times. A server that shares the store
    learns of the end as of any other writer's append (its watch, or the version check of
    its next append). The abort is recorded at ``clock()``, or at the game's last event's
    time when that is later (a server whose clock runs ahead of this machine's): the
    log's times never run backwards.

    Returns:
        What was appended (its rows, the game's new head and outcome).

    Raises:
        GameNotFoundError: no such game.
        GameFinishedError: the game is over already (a :class:`~spies_core.errors.GameOverError`).
        ValueError: a bad ``reason`` or ``detail`` (see :func:`prepare_abort`). Nothing is
            written.
        VersionConflictError: the game kept moving on through every attempt.
    """
    for _attempt in range(ABORT_ATTEMPTS):
        head = load_head(store, game_id, games=games)
        now = clock()
        last = store.read_rows(game_id, after=head.version - 1, upto=head.version)
        if last and (parse_utc(last[0].recorded_at) or ()) > (parse_utc(now) or ()):
            now = last[0].recorded_at
        prepared = prepare_abort(
            get_game(head.game, games), head, reason=reason, detail=detail, recorded_at=now
        )
        try:
            store.append(prepared.append)
        except VersionConflictError:
            continue
        return prepared
    raise VersionConflictError(game_id, head.version, store.get_game(game_id).version)


@dataclass(frozen=True, slots=True)
class Timeout:
    """A seat's clock ran out: its timeout (:func:`prepare_timeout`).

    Attributes:
        seat: the seat.
        forced: the move the time control's bot chose for it at the plan's ``forced_at``
            (``None`` for a forfeit).
        bot: that bot's mark.
    """

    seat: int
    forced: Any = None
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class Resume:
    """Clocks that ran out while no server ran start again (:func:`prepare_resume`)."""


@dataclass(frozen=True, slots=True)
class Abandon:
    """A waiting game's open seats expired: it ends, reason ``abandoned``
    (:func:`prepare_abort`).

    Attributes:
        detail: why, in words.
    """

    detail: str


ServerAction: TypeAlias = Timeout | Resume | Abandon
"""What the server decides to record on a game by itself, as data: the scheduler decides it
from a loaded head and submits it down the same path as a person's command."""


def prepare_action(
    spec: AnySpec, head: Head, action: ServerAction, *, recorded_at: str | None = None
) -> PreparedCommand:
    """The batch of ``action`` on ``head``, sealed, ready to append.

    Raises:
        ValueError: the head does not call for it (see each ``prepare_*``).
        RuleError: a timeout's forced move is refused by the rules (a bug in the bot).
    """
    if isinstance(action, Timeout):
        return prepare_timeout(
            spec, head, action.seat, forced=action.forced, bot=action.bot, recorded_at=recorded_at
        )
    if isinstance(action, Resume):
        return prepare_resume(spec, head, recorded_at=recorded_at)
    return prepare_abort(
        spec, head, reason=AbortReason.ABANDONED, detail=action.detail, recorded_at=recorded_at
    )
