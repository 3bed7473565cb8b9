"""A seat change for tests and tools that hold no lock: read the seats, decide, append at the
version read, and decide again when another writer got there first (as the API's table
layer does, :class:`spies_api.table.seats.SeatService`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from spies_api.game import SEAT_CHANGE_ATTEMPTS, SeatChange
from spies_api.table.seats import attempt_seat_change
from spies_core.decider import AnySpec
from spies_replay.errors import VersionConflictError
from spies_replay.meta import SeatEvent, SeatState
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import utc_now


def change_seat(
    store: EventStore,
    game_id: str,
    choose: Callable[[list[SeatState], dict[int, str]], SeatEvent | None],
    *,
    token_hash: str | None = None,
    clock: Callable[[], str] = utc_now,
    games: Mapping[str, AnySpec] | None = None,
    entropy: bytes | None = None,
) -> SeatChange:
    """Record the seat event ``choose(seats, token_hashes)`` returns (``None``: nothing).

    Raises:
        GameFinishedError: the game is over.
        VersionConflictError: other writers kept moving the game on.
        Whatever ``choose`` raises. Nothing is written.
    """
    for attempt in range(SEAT_CHANGE_ATTEMPTS):
        try:
            return attempt_seat_change(store, game_id, choose, token_hash, clock, games, entropy)
        except VersionConflictError:
            if attempt == SEAT_CHANGE_ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")  # pragma: no cover
