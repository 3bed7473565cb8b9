"""The clocks of a logged game, checked row by row: part of ``spies-replay verify``.

A game created with a time control records every clock in its log (:mod:`spies_replay.clocks`).
:class:`ClockAudit` recomputes them from the rows' ``recorded_at`` times with the same
arithmetic (:mod:`spies_core.clock`) as the server, and fails at the first row the log
cannot account for:

- ``clocks-mismatch``: a ``clocks_updated`` that is not the clocks the batch leaves (each
  seat's budget, since when it runs, its timeouts in a row; the seat that moved and the time
  it took), or a ``clock_expired`` / ``clocks_resumed`` whose fields are not the clocks';
- ``clocks-missing``: a batch that moved a clock and does not end with ``clocks_updated``;
  ``clocks-unexpected``: a ``clocks_updated`` where no clock moved;
- ``move-after-deadline``: a seat's own command recorded at or after its deadline (the
  server refuses it with 409 ``deadline-passed``);
- ``clock-expired-early``: a ``clock_expired`` recorded before the seat's deadline, or for a
  seat whose clock was not running;
- ``forced-move-missing``: after a ``clock_expired`` that the time control's bot answers,
  anything but that seat's forced move (after its hand-over, when the timeout abandons the
  seat); ``seat-not-handed``: an abandoned seat (``abandon_after`` timeouts in a row of a
  seat a person holds and plays) that was not handed to the time control's bot before its
  forced move;
- an aborted game (``game_aborted``) stops every running clock, charged to the abort's time,
  and records them (``clocks_updated``) before ``seed_revealed``;
- ``misplaced-meta-event``: a clock event in a game without a clock.

What a log cannot prove: that the server saw a deadline pass as soon as it passed (a late
``clock_expired`` is legal, the seat's move before it would have been too), and that no
server ran while clocks were paused (``clocks_resumed``: the caveat ``clocks-resumed``).

Logs written before every timeout moved the game on are accepted as they were written: an
abandoned seat's hand-over followed by the clocks without a forced move, and a seat its bot
played handed over again on time.

The pass (:mod:`~spies_replay.verify.walk`) hands it every row that moves a clock.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import Enum

import msgspec

from spies_core.clock import (
    ClockState,
    OnTimeout,
    TimeControl,
    deadline_ms,
    expire,
    move,
    resume,
    run,
    start,
)
from spies_replay.clocks import abandons, from_ms
from spies_replay.codec import canonical_json, encode
from spies_replay.meta import (
    ClockExpired,
    ClocksResumed,
    ClocksUpdated,
    SeatEvent,
    SeatHandedToBot,
    SeatState,
    SeatType,
)

__all__ = ["ClockAudit", "ClockMismatchError"]


class ClockMismatchError(Exception):
    """The first row whose clocks the log cannot account for."""

    def __init__(self, seq: int, code: str, message: str) -> None:
        super().__init__(message)
        self.seq, self.code, self.message = seq, code, message


class _Change(Enum):
    """What moved the clocks since the last ``clocks_updated``."""

    SETUP = "the game's creation"
    MOVE = "a seat's move"
    FORFEIT = "a forfeit on time"
    ABANDON = "a seat abandoned on time"
    RESUME = "clocks resumed"
    ABORT = "the game's abort"


@dataclass(frozen=True, slots=True)
class _Pending:
    """What must follow a ``clock_expired`` that the time control's bot answers."""

    seat: int
    hand_over: bool
    """The seat's hand-over to the bot comes next: the timeout abandons it."""
    may_hand_over: bool = False
    """A hand-over of a seat its bot played may come next (logs written before every timeout
    moved the game on handed it over again)."""
    move_optional: bool = False
    """After the seat's hand-over, the clocks may come without the forced move (logs written
    before every timeout moved the game on)."""


@dataclass(frozen=True, slots=True)
class _Due:
    """A change of the clocks that the next ``clocks_updated`` must record."""

    change: _Change
    seat: int | None = None
    forced: bool = False


class ClockAudit:
    """The clocks of one log as its rows come (see the module docstring).

    Args:
        control: the game's time control (``game_created.clock``), or ``None``.
        players: the game's seat count.
    """

    def __init__(self, control: TimeControl | None, players: int) -> None:
        self.control = control
        self.players = players
        self.clocks: ClockState | None = None
        """The clocks as the log leaves them so far."""
        self.due: _Due | None = None if control is None else _Due(_Change.SETUP)
        """The change the next ``clocks_updated`` must record."""
        self.pending: _Pending | None = None
        """The seat whose clock ran out, and whose hand-over or forced move must come
        next."""
        self.resumes: list[int] = []
        """The seqs of the ``clocks_resumed`` rows."""

    # -- rows ----------------------------------------------------------------------------

    def command(self, seq: int, at_ms: int, actor: int) -> bool:
        """A command of ``actor`` recorded at ``at_ms`` starts a batch.

        Returns:
            Whether it is a forced move (the time control's bot's, after the seat's clock ran
            out).
        """
        if self.control is None:
            return False
        pending = self.pending
        if pending is not None and pending.hand_over:
            raise self._not_handed(seq, pending.seat, "its forced move")
        forced = pending is not None
        if pending is not None and actor != pending.seat:
            raise self._no_forced_move(seq, f"a command of seat {actor}")
        self._settled(seq)
        if not forced:
            deadline = self._deadline(actor)
            if deadline is not None and at_ms >= deadline:
                raise ClockMismatchError(
                    seq,
                    "move-after-deadline",
                    f"seat {actor}'s command is recorded at {from_ms(at_ms)}, at or after its"
                    f" deadline {from_ms(deadline)}: the server refuses a move once the seat's"
                    " clock has run out",
                )
        self.pending = None
        self.due = _Due(_Change.MOVE, actor, forced)
        return forced

    def expired(
        self,
        seq: int,
        at_ms: int,
        event: ClockExpired,
        *,
        forfeitable: bool,
        seats: Sequence[SeatState],
    ) -> None:
        """A ``clock_expired`` row recorded at ``at_ms``, the seats' holders being
        ``seats``."""
        control, clocks = self._clocked(seq, "clock_expired")
        self._nothing_pending(seq, "another clock_expired")
        self._settled(seq)
        seat = event.seat
        deadline = self._deadline(seat) if 0 <= seat < self.players else None
        if deadline is None:
            raise ClockMismatchError(
                seq,
                "clock-expired-early",
                f"clock_expired for seat {seat}, whose clock was not running out",
            )
        if at_ms < deadline:
            raise ClockMismatchError(
                seq,
                "clock-expired-early",
                f"seat {seat}'s clock_expired is recorded at {from_ms(at_ms)}, before its"
                f" deadline {from_ms(deadline)}",
            )
        forfeit = control.on_timeout is OnTimeout.FORFEIT
        if forfeit and not forfeitable:
            raise ClockMismatchError(
                seq, "clocks-mismatch", "this game cannot be forfeited on time"
            )
        _same(
            seq,
            event,
            ClockExpired(
                seat=seat,
                deadline=from_ms(deadline),
                timeouts=clocks.seats[seat].timeouts + 1,
                forfeit=forfeit,
            ),
        )
        self.clocks = expire(clocks, seat)
        if forfeit:
            self.due = _Due(_Change.FORFEIT, seat)
            return
        holder = seats[seat] if seat < len(seats) else SeatState(seat=seat)
        if abandons(control, event.timeouts, holder):
            self.pending = _Pending(seat, hand_over=True)
        else:
            # before every timeout moved the game on, a seat its bot played was handed over
            # again once it had reached abandon_after
            again = (
                control.abandon_after is not None
                and event.timeouts >= control.abandon_after
                and holder.type in (SeatType.CREATOR, SeatType.JOINED)
            )
            self.pending = _Pending(seat, hand_over=False, may_hand_over=again)

    def resumed(self, seq: int, at_ms: int, event: ClocksResumed) -> None:
        """A ``clocks_resumed`` row recorded at ``at_ms``."""
        _, clocks = self._clocked(seq, "clocks_resumed")
        self._nothing_pending(seq, "clocks_resumed")
        self._settled(seq)
        started = [clock.since_ms for clock in clocks.seats if clock.since_ms is not None]
        since = from_ms(max(started)) if started else from_ms(at_ms)
        if event.since != since:
            raise ClockMismatchError(
                seq,
                "clocks-mismatch",
                f"clocks_resumed says the clocks last started at {event.since}, but they did"
                f" at {since}",
            )
        self.clocks = resume(clocks, at_ms)
        self.resumes.append(seq)
        self.due = _Due(_Change.RESUME)

    def aborted(self, seq: int) -> None:
        """A ``game_aborted`` row: every running clock stops at the next ``clocks_updated``
        (in a game never dealt, the clocks never started: it records them as they were
        set at creation)."""
        if self.control is None:
            return
        self._nothing_pending(seq, "game_aborted")
        if self.due is not None and self.due.change is _Change.SETUP:
            return
        self._settled(seq)
        self.due = _Due(_Change.ABORT)

    def updated(
        self,
        seq: int,
        at_ms: int,
        event: ClocksUpdated,
        *,
        to_act: Collection[int],
        finished: bool,
        seats: Sequence[SeatState],
    ) -> None:
        """A ``clocks_updated`` row recorded at ``at_ms``, after the batch's events: the
        state's seats to act are ``to_act`` and the game is ``finished`` or not."""
        control = self.control
        if control is None:
            raise _no_clock(seq, "clocks_updated")
        pending = self.pending
        if pending is not None:
            if pending.hand_over:
                raise self._not_handed(seq, pending.seat, "its clocks")
            if not pending.move_optional:
                raise self._no_forced_move(seq, "clocks_updated")
            # an abandoned seat handed over without its move (a log written before every
            # timeout moved the game on): the clocks of the seats to act run on
            self.pending, self.due = None, _Due(_Change.ABANDON, pending.seat)
        due = self.due
        if due is None:
            raise ClockMismatchError(
                seq, "clocks-unexpected", "clocks_updated where nothing moved a clock"
            )
        clocks = self.clocks
        moved: int | None = None
        used: int | None = None
        if due.change is _Change.SETUP or clocks is None:
            clocks = start(control, self.players, at_ms, to_act)
        elif due.change is _Change.MOVE:
            assert due.seat is not None
            clocks, used = move(clocks, due.seat, at_ms, forced=due.forced)
            moved = due.seat
            if not finished:
                clocks = run(clocks, at_ms, to_act)
        elif due.change in (_Change.ABANDON, _Change.RESUME, _Change.ABORT):
            clocks = run(clocks, at_ms, to_act)
        _same(seq, event, ClocksUpdated(seats=clocks.seats, moved=moved, used_ms=used))
        self.clocks, self.due = clocks, None

    def seat_event(self, seq: int, event: SeatEvent) -> None:
        """A seat event: it may come inside the creation's batch (a rematch's claimed seats)
        and after an abandoned seat's ``clock_expired`` (its hand-over), nowhere else in a
        batch."""
        pending = self.pending
        if pending is not None and (pending.hand_over or pending.may_hand_over):
            assert self.control is not None
            bot = self.control.timeout_bot
            if not (
                isinstance(event, SeatHandedToBot)
                and event.seat == pending.seat
                and event.bot == bot
            ):
                if pending.hand_over:
                    raise self._not_handed(seq, pending.seat, "another seat event")
                raise self._no_forced_move(seq, "a seat event")
            # the forced move follows (a log written before every timeout moved the game on
            # may go straight to the clocks)
            self.pending = _Pending(pending.seat, hand_over=False, move_optional=True)
            return
        if pending is not None:
            raise self._no_forced_move(seq, "a seat event")
        if self.due is not None and self.due.change is not _Change.SETUP:
            self._settled(seq)

    def end(self, seq: int, *, finished_at_setup: bool, waiting: bool = False) -> None:
        """The log ends, or ``seed_revealed`` closes it, at ``seq``: the game ``finished_at_setup``
        or still ``waiting`` for its deferred deal has no clocks of its set-up to record."""
        setup_due = self.due is not None and self.due.change is _Change.SETUP
        if setup_due and (finished_at_setup or waiting):
            self.due = None
        self._nothing_pending(seq, "the end of the log")
        self._settled(seq)

    # -- helpers -------------------------------------------------------------------------

    def _clocked(self, seq: int, name: str) -> tuple[TimeControl, ClockState]:
        if self.control is None:
            raise _no_clock(seq, name)
        if self.clocks is None:
            raise ClockMismatchError(
                seq, "clocks-missing", f"{name} before the game's first clocks"
            )
        return self.control, self.clocks

    def _deadline(self, seat: int) -> int | None:
        clocks = self.clocks
        if clocks is None or not 0 <= seat < len(clocks.seats):
            return None
        return deadline_ms(clocks, seat)

    def _settled(self, seq: int) -> None:
        """No clock change is still to be recorded."""
        if self.due is not None:
            raise ClockMismatchError(
                seq,
                "clocks-missing",
                f"the clocks after {self.due.change.value} are not recorded: a batch that"
                " moves a clock ends with clocks_updated",
            )

    def _nothing_pending(self, seq: int, found: str) -> None:
        """No hand-over or forced move is still to come."""
        pending = self.pending
        if pending is not None and pending.hand_over:
            raise self._not_handed(seq, pending.seat, found)
        if pending is not None:
            raise self._no_forced_move(seq, found)

    def _no_forced_move(self, seq: int, found: str) -> ClockMismatchError:
        assert self.control is not None and self.pending is not None
        return ClockMismatchError(
            seq,
            "forced-move-missing",
            f"seat {self.pending.seat}'s clock ran out and {self.control.timeout_bot!r} plays"
            f" its move next, but {found} comes instead",
        )

    def _not_handed(self, seq: int, seat: int, found: str) -> ClockMismatchError:
        assert self.control is not None
        return ClockMismatchError(
            seq,
            "seat-not-handed",
            f"seat {seat} reached {self.control.abandon_after} timeouts in a row but was not"
            f" handed to {self.control.timeout_bot!r} before {found}",
        )


def _no_clock(seq: int, name: str) -> ClockMismatchError:
    return ClockMismatchError(seq, "misplaced-meta-event", f"{name} in a game without a clock")


def _same(seq: int, logged: msgspec.Struct, expected: msgspec.Struct) -> None:
    found = canonical_json(encode(expected))
    if canonical_json(encode(logged)) != found:
        raise ClockMismatchError(
            seq,
            "clocks-mismatch",
            f"the log's {type(logged).__name__} is not what its times give: {found.decode()[:300]}",
        )
