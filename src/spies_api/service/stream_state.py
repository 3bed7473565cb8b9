"""The state the live streams push, computed once per game version and reader.

Every stream opens with a ``snapshot`` message and follows each batch of events with a
``state`` message (:mod:`spies_api.http.streaming`), each carrying a
:class:`~spies_api.schemas.StreamState`: the version, the summary's status and ``to_act``,
the reader's view and, for a seat, its legal commands. A game's spectators all see the same
one, and each seat its own, so :class:`StreamStates` keeps each encoded once per (game,
version, reader) in a bounded cache, and a reader that asks while the same one is being
computed waits for it rather than computing it again: a thousand spectators of a move cost
one view.

Hidden information: the view is ``spec.view`` of the reader's seat (``None``: a spectator),
the same function ``GET /games/{id}/view`` answers with; legal commands are a seat's own.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Final

import msgspec

from spies_api.schemas import StreamState
from spies_api.service.queries import GameQueries, seat_names
from spies_core.registry import get_game
from spies_core.step import Table
from spies_core.step import view_at as versioned_view
from spies_replay.clocks import clock_view, to_ms
from spies_replay.store.records import GameStatus

__all__ = ["StateAt", "StreamStates"]

_encoder: Final = msgspec.json.Encoder()


class StateAt(msgspec.Struct, frozen=True):
    """A reader's state at one version, encoded.

    Attributes:
        version: the game's version.
        data: the :class:`~spies_api.schemas.StreamState` as JSON text (a message's data).
    """

    version: int
    data: str


_Key = tuple[str, int, int | None]


class StreamStates:
    """The encoded states of the streams' readers, by game, version and seat.

    Args:
        queries: the reads (the cached heads, the clock).
        capacity: how many states are kept (least recently used ones are dropped).
    """

    def __init__(self, queries: GameQueries, capacity: int) -> None:
        self.queries = queries
        self.capacity = capacity
        self.computed = 0
        """How many states were computed (not found kept): what the readers cost."""
        self._kept: OrderedDict[_Key, StateAt] = OrderedDict()
        self._computing: dict[_Key, threading.Event] = {}
        self._lock = threading.Lock()

    def kept(self, game_id: str, version: int, seat: int | None) -> StateAt | None:
        """The state of ``seat`` at ``version`` if it is kept (never blocks)."""
        with self._lock:
            found = self._kept.get((game_id, version, seat))
            if found is not None:
                self._kept.move_to_end((game_id, version, seat))
            return found

    def now(self, game_id: str, seat: int | None) -> StateAt:
        """The state of ``seat`` (``None``: a spectator) at the game's current version
        (blocking: it may read the store).

        Raises:
            GameNotFoundError: no such game.
        """
        record, head = self.queries.states.current(game_id)
        key = (game_id, head.version, seat)
        while True:
            with self._lock:
                found = self._kept.get(key)
                if found is not None:
                    self._kept.move_to_end(key)
                    return found
                computing = self._computing.get(key)
                if computing is None:
                    computing = self._computing[key] = threading.Event()
                    break
            computing.wait()  # another reader computes it: take theirs
        try:
            finished = record.status == GameStatus.FINISHED
            spec = get_game(record.game)
            clock = clock_view(head.clock, to_ms(self.queries.clock()))
            table = Table(record.players, record.options, seat_names(head.seats))
            legal = None
            if seat is not None:
                legal = [] if finished else list(spec.legal_commands(head.state, seat))
            state = StreamState(
                version=head.version,
                status=record.status,
                seat=seat,
                to_act=[] if finished else sorted(spec.to_act(head.state)),
                view=versioned_view(spec, head.state, seat, head.version, clock, table),
                legal=legal,
            )
            at = StateAt(head.version, _encoder.encode(state).decode())
            with self._lock:
                self.computed += 1
                self._kept[key] = at
                while len(self._kept) > self.capacity:
                    self._kept.popitem(last=False)
            return at
        finally:
            with self._lock:
                del self._computing[key]
            computing.set()
