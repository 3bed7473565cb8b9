"""Places for live event streams (:class:`StreamSlots`), seats before spectators: spectators of
a game are capped per game and, all games together, at nine tenths of the server's cap, so
that the last tenth is kept for seats; a seat's own streams are not counted against its
game's cap, and a seat past its own allowance gets its stream by ending its oldest, so a
seat is refused only when seats have filled the server. Each client address holds at most
its own cap of streams, seats' and spectators' together, kept below the seats' tenth: no one
client, with the seats of its own games, can fill the server for everyone else's. Caps are
per process: N processes allow N times the configured numbers.

Imported by the app (which wires it) and the HTTP layer (the stream and its route).
"""

from __future__ import annotations

import sys
import threading
from collections import deque
from collections.abc import Callable
from typing import Final

import structlog

if sys.platform != "win32":
    import resource

from spies_api.problems.errors import TooManyClientStreamsError, TooManyStreamsError
from spies_api.settings import Settings

__all__ = ["StreamSlot", "StreamSlots", "client_stream_cap", "open_file_budget", "seat_reserve"]

_log: Final = structlog.get_logger("spies_api")


def open_file_budget() -> int | None:
    """How many streams this process can hold: three quarters of its soft limit of open
    files (each stream is a socket; the rest is for other requests and the database), or
    ``None`` where there is no such limit."""
    if sys.platform == "win32":
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return None
    return max(1, soft * 3 // 4)


def seat_reserve(max_streams: int) -> int:
    """The streams of a server's ``max_streams`` that spectators may not take: a tenth,
    rounded up, so that even a tiny server keeps one for a seat."""
    return -(-max_streams // 10)


def client_stream_cap(per_client: int, max_streams: int) -> int:
    """What one client may hold of a server's ``max_streams``: ``per_client``, but less than
    the seats' reserve (:func:`seat_reserve`), so that one client, its spectators and the
    seats of its own games together, never takes all of it (at least 1)."""
    return max(1, min(per_client, seat_reserve(max_streams) - 1))


class StreamSlot:
    """One open stream's place in :class:`StreamSlots`.

    :meth:`release` gives it back, once. A seat's slot may be taken back instead
    (:attr:`revoked`: a newer stream of the same seat needed it); the stream then ends.
    """

    __slots__ = ("_owner", "_released", "_revoke_wake", "client", "game_id", "revoked", "seat")

    def __init__(self, owner: StreamSlots, game_id: str, seat: int | None, client: str) -> None:
        self._owner = owner
        self.game_id = game_id
        self.seat = seat
        self.client = client
        self._released = False
        self.revoked = False
        self._revoke_wake: Callable[[], None] | None = None

    def release(self) -> None:
        """Give the slot back (idempotent)."""
        if not self._released:
            self._released = True
            self._owner._give_back(self)

    def on_revoke(self, wake: Callable[[], None]) -> None:
        """Call ``wake`` (from any thread) when the slot is taken back; at once if it was."""
        self._revoke_wake = wake
        if self.revoked:
            wake()

    def _revoke(self) -> None:
        """Called by the owner, under its lock, which has counted the slot as given back."""
        self._released = True
        self.revoked = True

    def __del__(self) -> None:  # a stream dropped before it started still frees its slot
        self.release()


class StreamSlots:
    """Counts the open event streams, per game, per seat, per client and in all, up to the
    caps (thread-safe).

    Args:
        per_game: the most spectator streams one game may have open at once.
        per_seat: the most streams one seat of a game may have open at once; one more ends
            that seat's oldest instead of being refused.
        total: the most streams the server keeps open; spectators may take all but
            :func:`seat_reserve` of them.
        retry_after: the ``Retry-After`` seconds of a refusal.
        per_client: the most streams one client may hold, seats' and spectators' (``None``:
            ``total``).
    """

    def __init__(
        self,
        *,
        per_game: int,
        per_seat: int,
        total: int,
        retry_after: int,
        per_client: int | None = None,
    ) -> None:
        self.per_game = per_game
        self.per_seat = per_seat
        self.limit = total
        self.spectator_limit = total - seat_reserve(total)
        self.per_client = total if per_client is None else per_client
        self.retry_after = retry_after
        # reentrant: a dropped slot's __del__ may run (garbage collection) while it is held
        self._lock = threading.RLock()
        self._spectators: dict[str, int] = {}
        self._seats: dict[tuple[str, int], deque[StreamSlot]] = {}
        self._by_game: dict[str, int] = {}
        self._by_client: dict[str, int] = {}
        self._all_spectators = 0
        self._total = 0

    @classmethod
    def of(cls, settings: Settings) -> StreamSlots:
        """The slots of a server run with ``settings``, ``max_streams`` lowered to what the
        process's open files allow (:func:`open_file_budget`): past that, connections would
        fail before the cap could keep the seats' share; ``max_streams_per_client`` lowered
        below that share (:func:`client_stream_cap`)."""
        total = settings.max_streams
        budget = open_file_budget()
        if budget is not None and budget < total:
            _log.warning("max_streams_lowered", max_streams=total, open_file_budget=budget)
            total = budget
        asked = settings.max_streams_per_client
        per_client = total if asked is None else client_stream_cap(asked, total)
        if asked is not None and per_client < asked:
            _log.warning(
                "max_streams_per_client_lowered",
                max_streams_per_client=asked,
                lowered_to=per_client,
                max_streams=total,
            )
        return cls(
            per_game=settings.max_streams_per_game,
            per_seat=settings.max_streams_per_seat,
            total=total,
            retry_after=settings.stream_retry_after_seconds,
            per_client=per_client,
        )

    def take(self, game_id: str, seat: int | None = None, *, client: str) -> StreamSlot:
        """A slot for one more stream of ``game_id``, by a seat or (``None``) a spectator,
        for ``client`` (its address, as the rate limit counts it).

        Raises:
            TooManyClientStreamsError: the client holds ``per_client`` streams already (a
                seat's stream that ends the same client's oldest of that seat adds none).
            TooManyStreamsError: a spectator, and the game has ``per_game`` spectator
                streams or the server all it gives spectators; or the server is full.
        """
        ended: StreamSlot | None = None
        with self._lock:
            held = None if seat is None else self._seats.get((game_id, seat))
            replacing = held is not None and len(held) >= self.per_seat
            if not (replacing and held is not None and held[0].client == client):
                count = self._by_client.get(client, 0)
                if count >= self.per_client:
                    raise TooManyClientStreamsError(
                        f"this client already holds {count} open event streams, the most"
                        " this server allows one client address (its seats' and its"
                        " spectators' together); close one, or retry later",
                        retry_after=self.retry_after,
                    )
            if seat is None:
                count = self._spectators.get(game_id, 0)
                if count >= self.per_game:
                    raise self._refusal(
                        f"game {game_id!r} already has {count} spectator event streams, the"
                        " most this server allows on one game (a seat's stream, with its"
                        " token, is still served); close one or retry later"
                    )
                if self._all_spectators >= self.spectator_limit or self._total >= self.limit:
                    raise self._refusal(
                        f"this server has {self._total} open event streams, all it gives"
                        " spectators (a seat's stream, with its token, is still served);"
                        " retry later"
                    )
                self._spectators[game_id] = count + 1
                self._all_spectators += 1
                slot = StreamSlot(self, game_id, seat, client)
            else:
                if replacing and held is not None:
                    ended = held.popleft()  # the seat's oldest makes way: it is counted out
                    ended._revoke()
                    self._total -= 1
                    self._by_game[game_id] -= 1
                    _decrement(self._by_client, ended.client)
                elif self._total >= self.limit:
                    raise self._refusal(
                        f"this server has {self._total} open event streams, the most it"
                        " allows; retry later"
                    )
                slot = StreamSlot(self, game_id, seat, client)
                self._seats.setdefault((game_id, seat), deque()).append(slot)
            self._total += 1
            self._by_game[game_id] = self._by_game.get(game_id, 0) + 1
            self._by_client[client] = self._by_client.get(client, 0) + 1
        if ended is not None and ended._revoke_wake is not None:
            ended._revoke_wake()
        return slot

    def _refusal(self, message: str) -> TooManyStreamsError:
        return TooManyStreamsError(message, retry_after=self.retry_after)

    def _give_back(self, slot: StreamSlot) -> None:
        game_id = slot.game_id
        with self._lock:
            if slot.seat is None:
                _decrement(self._spectators, game_id)
                self._all_spectators -= 1
            else:
                key = (game_id, slot.seat)
                held = self._seats.get(key)
                if held is None or slot not in held:
                    return  # taken back already, and counted out then
                held.remove(slot)
                if not held:
                    del self._seats[key]
            self._total -= 1
            _decrement(self._by_game, game_id)
            _decrement(self._by_client, slot.client)

    def open(self, game_id: str) -> int:
        """How many streams of ``game_id`` are open, seats' and spectators' (tests, metrics)."""
        with self._lock:
            return self._by_game.get(game_id, 0)

    def total(self) -> int:
        """How many streams are open in all (tests, metrics)."""
        with self._lock:
            return self._total

    def held_by(self, client: str) -> int:
        """How many streams ``client`` holds (tests)."""
        with self._lock:
            return self._by_client.get(client, 0)


def _decrement(counts: dict[str, int], key: str) -> None:
    count = counts.get(key, 0) - 1
    if count > 0:
        counts[key] = count
    else:
        counts.pop(key, None)
