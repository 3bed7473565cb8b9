"""Wake-ups of live event streams: the writers signal, the streams wait.

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

How many streams may be open, and whose, is :mod:`spies_api.service.slots`.

Imported by the app (which wires it) and the HTTP layer (the stream and its route).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import threading
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Final, TypeVar, cast

import anyio
import structlog

from spies_replay.errors import GameNotFoundError
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import Appended

__all__ = [
    "AppendListeners",
    "EventNotifier",
    "SharedReads",
    "StreamWaiter",
    "Versions",
    "store_versions",
]

Versions = Callable[[Sequence[str]], Mapping[str, int]]
"""The current version of each of some games (a game that is not found is left out)."""

_log: Final = structlog.get_logger("spies_api")


class AppendListeners:
    """What is called with a game's id after every append of this process, and with what
    the store's watch tells of every append of another process (:meth:`heard`): the game's
    streams, and whoever else listens (the scheduler, the quotas). Safe to call from any
    thread."""

    def __init__(self) -> None:
        self._listeners: list[Callable[[str], None]] = []
        self._heard: list[Callable[[Appended], None]] = []

    def add(
        self, listener: Callable[[str], None], heard: Callable[[Appended], None] | None = None
    ) -> None:
        """Call ``listener`` after every append from now on, and ``heard`` with every other
        process's append (by default, ``listener`` with its game id)."""
        self._listeners.append(listener)
        self._heard.append(heard if heard is not None else _by_id(listener))

    def remove(self, listener: Callable[[str], None]) -> None:
        """Stop calling ``listener`` (and what it was added with)."""
        index = self._listeners.index(listener)
        del self._listeners[index]
        del self._heard[index]

    def __call__(self, game_id: str) -> None:
        for listener in tuple(self._listeners):
            listener(game_id)

    def heard(self, appended: Appended) -> None:
        """Another process appended (the store's watch): tell every listener."""
        for listener in tuple(self._heard):
            listener(appended)


def _by_id(listener: Callable[[str], None]) -> Callable[[Appended], None]:
    def heard(appended: Appended) -> None:
        listener(appended.game_id)

    return heard


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
        if game_id not in self._waiters:
            # most appends another process tells of have no stream here: no lock (a stream
            # subscribing meanwhile reads the log after subscribing, so it misses nothing)
            return
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


_T = TypeVar("_T")


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
        self._reading: dict[tuple[object, Hashable], tuple[int, asyncio.Task[Any]]] = {}

    def tick(self) -> int:
        """Now, on a clock that only goes forward (safe from any thread)."""
        return next(self._clock)

    async def read(self, key: Hashable, since: int, read: Callable[[], _T]) -> _T:
        """What ``read()`` returns (a page, and what goes with it), from a read of the same
        ``key`` begun after ``since`` if one is under way, else from a new one."""
        loop = asyncio.get_running_loop()
        full = (loop, key)
        with self._lock:
            found = self._reading.get(full)
            if found is None or found[0] <= since:
                task = loop.create_task(self._read(full, read))
                task.add_done_callback(_retrieved)
                found = (next(self._clock), task)
                self._reading[full] = found
        return cast("_T", await asyncio.shield(found[1]))

    async def _read(self, full: tuple[object, Hashable], read: Callable[[], _T]) -> _T:
        try:
            return await anyio.to_thread.run_sync(read)
        finally:
            with self._lock:
                found = self._reading.get(full)
                if found is not None and found[1] is asyncio.current_task():
                    del self._reading[full]


def _retrieved(task: asyncio.Task[Any]) -> None:
    """Mark a shared read's failure as seen: its streams were told, or have all gone."""
    if not task.cancelled():
        task.exception()
