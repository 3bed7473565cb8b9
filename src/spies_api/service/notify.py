"""Wake-ups and places for live event streams: the writers signal, the streams wait.

Streams are pushed, not polled: a stream reads its game's log only when woken, so an idle
stream costs nothing but its keep-alive comments. Wake-ups come from three places, each
one per process, never one per stream:

- this process's appends: commands are applied in worker threads (or on the loop), and
  after each append :meth:`EventNotifier.notify` sets the ``asyncio.Event`` of every stream
  of that game through its loop's ``call_soon_threadsafe``;
- other processes' appends, through the store's
  :meth:`~spies_replay.store.protocols.EventStore.watch`: PostgreSQL's ``LISTEN``, or on SQLite one
  thread that looks at the file's commit counter a few times a second;
- a slow safety poll (``Settings.sse_poll_seconds``): one thread reads the versions of the
  games that have streams, one lookup per game, and wakes only the streams that have read
  less than that. A lost wake-up (a LISTEN connection that dropped, say) thus delays an
  event by at most that interval and never loses it.

Places (:class:`StreamSlots`), seats before spectators: spectators of a game are capped per
game and, all games together, at nine tenths of the server's cap, so that the last tenth is
kept for seats; a seat's own streams are not counted against its game's cap, and a seat
past its own allowance gets its stream by ending its oldest, so a seat is refused only when
seats have filled the server. Each client address holds at most its own cap of streams,
seats' and spectators' together, kept below the seats' tenth: no one client, with the seats
of its own games, can fill the server for everyone else's. Caps are per process: N
processes allow N times the configured numbers.

Imported by the app (which wires it) and the HTTP layer (the stream and its route).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import sys
import threading
from collections import defaultdict, deque
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Final

import anyio
import structlog

if sys.platform != "win32":
    import resource

from spies_api.problems.errors import TooManyClientStreamsError, TooManyStreamsError
from spies_api.schemas import EventsPage
from spies_api.settings import Settings
from spies_replay.errors import GameNotFoundError
from spies_replay.store.protocols import EventStore

__all__ = [
    "AppendListeners",
    "EventNotifier",
    "StreamSlot",
    "StreamSlots",
    "SharedReads",
    "StreamWaiter",
    "Versions",
    "client_stream_cap",
    "open_file_budget",
    "seat_reserve",
    "store_versions",
]

Versions = Callable[[Sequence[str]], Mapping[str, int]]
"""The current version of each of some games (a game that is not found is left out)."""

_log: Final = structlog.get_logger("spies_api")


class AppendListeners:
    """What is called with a game's id after every append of this process: the game's
    streams, and whoever else listens (the bot runner). Safe to call from any thread."""

    def __init__(self) -> None:
        self._listeners: list[Callable[[str], None]] = []

    def add(self, listener: Callable[[str], None]) -> None:
        """Call ``listener`` after every append from now on."""
        self._listeners.append(listener)

    def remove(self, listener: Callable[[str], None]) -> None:
        """Stop calling ``listener``."""
        self._listeners.remove(listener)

    def __call__(self, game_id: str) -> None:
        for listener in tuple(self._listeners):
            listener(game_id)


class StreamWaiter:
    """One stream's wake-up, and how far it has read its game's log.

    Attributes:
        loop: the stream's event loop.
        event: set (on ``loop``) when the stream should read the log again.
        woken_at: the :meth:`SharedReads.tick` of the latest wake-up (of the subscription,
            before any): a read that began after it sees the append that woke the stream.
            Written before :attr:`event` is set, so read it after clearing the event.
        seen: the game's version when the stream last read the whole log, or ``None``
            before its first read; the safety poll wakes it when the game is further on.
    """

    __slots__ = ("event", "loop", "seen", "woken_at")

    def __init__(self, loop: asyncio.AbstractEventLoop, event: asyncio.Event, now: int) -> None:
        self.loop = loop
        self.event = event
        self.woken_at = now
        self.seen: int | None = None

    def wake(self) -> None:
        """Set :attr:`event` (from any thread)."""
        _wake_all(self.loop, (self.event,))


def _wake_all(loop: asyncio.AbstractEventLoop, events: Sequence[asyncio.Event]) -> None:
    def set_all() -> None:
        for event in events:
            event.set()

    # one call per loop, not per stream: each call writes to the loop's self-pipe; a loop
    # that has closed has no stream left to wake
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(set_all)


def store_versions(store: EventStore) -> Versions:
    """The :data:`Versions` of ``store``: each game's record, read in one read transaction."""

    def versions(game_ids: Sequence[str]) -> dict[str, int]:
        found: dict[str, int] = {}
        with store.reading():
            for game_id in game_ids:
                try:
                    found[game_id] = store.get_game(game_id).version
                except GameNotFoundError:
                    continue
        return found

    return versions


class EventNotifier:
    """Per-game wake-ups, safe to signal from any thread, and the safety poll.

    Args:
        versions: reads the games' current versions for the safety poll; ``None``: no
            safety poll (the streams rely on the wake-ups alone).
        recheck_seconds: the safety poll's interval. Its thread runs while any stream
            waits, and stops by itself when none does.
    """

    def __init__(self, versions: Versions | None = None, *, recheck_seconds: float = 5.0) -> None:
        self._lock = threading.Lock()
        self._waiters: dict[str, set[StreamWaiter]] = {}
        self._versions = versions
        self.recheck_seconds = recheck_seconds
        self._rechecker: threading.Thread | None = None
        self._stop = threading.Event()
        self.reads = SharedReads()
        """The reads of the log that streams woken together share."""
        self.closed = False
        """Set by :meth:`close`: streams end (the server is shutting down)."""

    @contextmanager
    def subscribe(self, game_id: str) -> Iterator[StreamWaiter]:
        """A waiter woken after each append to ``game_id``; call from the event loop.

        Clear its event before reading the log and wait on it after, so no append is
        missed; set its ``seen`` after each read that reached the game's version.
        """
        waiter = StreamWaiter(asyncio.get_running_loop(), asyncio.Event(), self.reads.tick())
        with self._lock:
            self._waiters.setdefault(game_id, set()).add(waiter)
            if self._rechecker is None and self._versions is not None and not self.closed:
                self._rechecker = threading.Thread(
                    target=self._recheck_while_waited_on, name="spies-stream-recheck", daemon=True
                )
                self._rechecker.start()
        try:
            yield waiter
        finally:
            with self._lock:
                waiters = self._waiters.get(game_id)
                if waiters is not None:
                    waiters.discard(waiter)
                    if not waiters:
                        del self._waiters[game_id]

    def notify(self, game_id: str) -> None:
        """Wake every stream of ``game_id`` (from any thread)."""
        with self._lock:
            waiters = tuple(self._waiters.get(game_id, ()))
        self._wake(waiters)

    def _wake(self, waiters: Sequence[StreamWaiter]) -> None:
        now = self.reads.tick()  # the append that wakes them is committed by now
        by_loop: dict[asyncio.AbstractEventLoop, list[asyncio.Event]] = defaultdict(list)
        for waiter in waiters:
            waiter.woken_at = now
            by_loop[waiter.loop].append(waiter.event)
        for loop, events in by_loop.items():
            _wake_all(loop, events)

    def recheck(self) -> int:
        """One round of the safety poll: wake the streams that have read less of their
        game's log than its version (blocking: it reads the store). Returns how many."""
        if self._versions is None:
            return 0
        with self._lock:
            behind: dict[str, int] = {}
            for game_id, waiters in self._waiters.items():
                seen = [w.seen for w in waiters if w.seen is not None]
                if seen:
                    behind[game_id] = min(seen)
        if not behind:
            return 0
        current = self._versions(list(behind))
        late: list[StreamWaiter] = []
        with self._lock:
            for game_id, version in current.items():
                if version > behind.get(game_id, version):
                    late += [
                        w
                        for w in self._waiters.get(game_id, ())
                        if w.seen is not None and w.seen < version
                    ]
        self._wake(late)
        return len(late)

    def _recheck_while_waited_on(self) -> None:
        while not self._stop.wait(self.recheck_seconds):
            with self._lock:
                if not self._waiters:
                    self._rechecker = None  # the next stream starts another
                    return
            try:
                woken = self.recheck()
            except Exception as exc:  # a store gone for a moment: try again next round
                _log.warning("stream_recheck_failed", error=type(exc).__name__)
                continue
            if woken:
                _log.info("stream_wake_up_recovered", streams=woken)

    def close(self) -> None:
        """Wake every stream of every game for good: the server is shutting down, and a
        stream of a game in progress would otherwise keep its connection open."""
        self.closed = True
        self._stop.set()
        with self._lock:
            waiters = [w for group in self._waiters.values() for w in group]
        self._wake(waiters)

    def waiting(self, game_id: str) -> int:
        """How many streams wait on ``game_id`` (for tests and metrics)."""
        with self._lock:
            return len(self._waiters.get(game_id, ()))


class SharedReads:
    """Reads of the log shared by the streams that one append woke together.

    The spectators of a game, woken by one append at the same position, would each read the
    same page; here the first one reads it (on a worker thread, in a task of its own, so that
    a stream leaving does not cancel the read of the others) and the rest wait for that
    read, if it began after they were woken: a stream asks with the tick of its latest
    wake-up (:attr:`StreamWaiter.woken_at`), and joins only a read that began after it,
    which therefore sees every append whose wake-up the stream has cleared.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._clock = itertools.count(1)
        self._reading: dict[tuple[object, Hashable], tuple[int, asyncio.Task[EventsPage]]] = {}

    def tick(self) -> int:
        """Now, on a clock that only goes forward (safe from any thread)."""
        return next(self._clock)

    async def read(self, key: Hashable, since: int, read: Callable[[], EventsPage]) -> EventsPage:
        """The page ``read()`` returns, from a read of the same ``key`` begun after ``since``
        if one is under way, else from a new one."""
        loop = asyncio.get_running_loop()
        full = (loop, key)
        with self._lock:
            found = self._reading.get(full)
            if found is None or found[0] <= since:
                task = loop.create_task(self._read(full, read))
                task.add_done_callback(_retrieved)
                found = (next(self._clock), task)
                self._reading[full] = found
        return await asyncio.shield(found[1])

    async def _read(
        self, full: tuple[object, Hashable], read: Callable[[], EventsPage]
    ) -> EventsPage:
        try:
            return await anyio.to_thread.run_sync(read)
        finally:
            with self._lock:
                found = self._reading.get(full)
                if found is not None and found[1] is asyncio.current_task():
                    del self._reading[full]


def _retrieved(task: asyncio.Task[EventsPage]) -> None:
    """Mark a shared read's failure as seen: its streams were told, or have all gone."""
    if not task.cancelled():
        task.exception()


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
