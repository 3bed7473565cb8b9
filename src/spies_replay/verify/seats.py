"""The seats: who holds each seat as the seat events leave it, and a deal deferred until
the last open seat is taken.

``game_created`` lists seats 0 to ``players - 1`` in order (``header-mismatch``); each seat
event (``seat_joined``, ...) fits the seats as they stand (``seat-event-invalid``). A game
created with an open seat (``game_created.deal_deferred``, which needs one:
``header-mismatch``) waits for players: its set-up events come after the ``seat_joined``
that takes its last open seat, in that batch, and a game event or command before it is
``misplaced-event`` (:mod:`~spies_replay.verify.walk`). Its ``open_until`` is a log time
(``invalid-timestamp``). Who may command a seat, by its mark, is
:mod:`~spies_replay.verify.bots`'.
"""

from __future__ import annotations

from spies_replay.meta import (
    GameCreated,
    SeatEvent,
    SeatState,
    SeatType,
    apply_seat_event,
    initial_seats,
)
from spies_replay.times import parse_utc
from spies_replay.verify.report import fail

__all__ = ["Seats"]


class Seats:
    """Each seat's holder as the seat events so far leave it."""

    def __init__(self) -> None:
        self.table: list[SeatState] = []
        """Each seat's holder, by seat."""
        self.waiting = False
        """Whether the game waits for its deferred deal (``game_created.deal_deferred``
        with a seat still open): no game event or command may come yet."""

    def created(self, created: GameCreated) -> None:
        """The seats ``game_created`` lists: one per player, in order."""
        self.table = initial_seats(created)
        if len(self.table) != created.players or any(
            seat.seat != index for index, seat in enumerate(self.table)
        ):
            raise fail(1, "header-mismatch", "game_created lists seats that are not the game's")

    def check_lobby(self, created: GameCreated) -> None:
        """A deal deferred to the last join needs an open seat; open seats' expiry is a time."""
        if created.deal_deferred:
            if not any(seat.type == SeatType.OPEN for seat in self.table):
                raise fail(
                    1,
                    "header-mismatch",
                    "game_created defers its deal to the last join but has no open seat",
                )
            self.waiting = True
        if created.open_until is not None and parse_utc(created.open_until) is None:
            raise fail(
                1,
                "invalid-timestamp",
                f"open_until {created.open_until[:40]!r} is not an RFC 3339 time in UTC as the"
                " log writes it",
            )

    def seat_event(self, seq: int, event: SeatEvent) -> bool:
        """Apply a seat event; ``True`` when it takes the last open seat of a game waiting
        for its deal (the deferred deal follows in its batch)."""
        try:
            self.table = apply_seat_event(self.table, event)
        except ValueError as exc:
            raise fail(seq, "seat-event-invalid", str(exc)) from exc
        if self.waiting and not any(seat.type == SeatType.OPEN for seat in self.table):
            self.waiting = False
            return True
        return False

    def holder(self, seat: int) -> SeatState | None:
        """Who holds ``seat`` (``None``: the game has no such seat)."""
        return self.table[seat] if 0 <= seat < len(self.table) else None
