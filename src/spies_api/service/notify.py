"""Wake-ups for live event streams: the command path signals, the streams wait.

Commands are applied in worker threads; event streams wait on the event loop. After an
append, :meth:`EventNotifier.notify` sets every waiting stream's ``asyncio.Event`` through
its loop's ``call_soon_threadsafe``. On PostgreSQL, appends by other processes are signalled
too (the store's LISTEN/NOTIFY wake-up, :meth:`~spies_replay.store.EventStore.watch`); on
SQLite only this process's are. Either way streams also poll the log
(``Settings.sse_poll_seconds``), so a missed wake-up only delays an event.

Stream caps (:class:`StreamSlots`) and rate limits are per process: N processes allow N times
the configured numbers.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from spies_api.problems.errors import TooManyStreamsError

__all__ = ["AppendListeners", "EventNotifier", "StreamSlot", "StreamSlots"]


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


class _Waiter:
    __slots__ = ("event", "loop")

    def __init__(self, loop: asyncio.AbstractEventLoop, event: asyncio.Event) -> None:
        self.loop = loop
        self.event = event


class EventNotifier:
    """Per-game wake-ups, safe to signal from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: dict[str, set[_Waiter]] = {}
        self.closed = False
        """Set by :meth:`close`: streams end (the server is shutting down)."""

    @contextmanager
    def subscribe(self, game_id: str) -> Iterator[asyncio.Event]:
        """An event set after each append to ``game_id``; call from the event loop.

        Clear it before reading the log and wait on it after, so no append is missed.
        """
        waiter = _Waiter(asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            self._waiters.setdefault(game_id, set()).add(waiter)
        try:
            yield waiter.event
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
        for waiter in waiters:
            try:
                waiter.loop.call_soon_threadsafe(waiter.event.set)
            except RuntimeError:  # that loop has closed; its stream is gone
                continue

    def close(self) -> None:
        """Wake every stream of every game for good: the server is shutting down, and a
        stream of a game in progress would otherwise keep its connection open."""
        self.closed = True
        with self._lock:
            games = list(self._waiters)
        for game_id in games:
            self.notify(game_id)

    def waiting(self, game_id: str) -> int:
        """How many streams wait on ``game_id`` (for tests and metrics)."""
        with self._lock:
            return len(self._waiters.get(game_id, ()))


class StreamSlot:
    """One open stream's place in :class:`StreamSlots`; :meth:`release` gives it back once."""

    __slots__ = ("_game_id", "_owner", "_released")

    def __init__(self, owner: StreamSlots, game_id: str) -> None:
        self._owner = owner
        self._game_id = game_id
        self._released = False

    def release(self) -> None:
        """Give the slot back (idempotent)."""
        if not self._released:
            self._released = True
            self._owner._give_back(self._game_id)

    def __del__(self) -> None:  # a stream dropped before it started still frees its slot
        self.release()


class StreamSlots:
    """Counts the open event streams of each game, up to a cap (thread-safe).

    Args:
        per_game: the most streams one game may have open at once.
        retry_after: the ``Retry-After`` seconds of a refusal.
    """

    def __init__(self, per_game: int, retry_after: int) -> None:
        self.per_game = per_game
        self.retry_after = retry_after
        self._lock = threading.Lock()
        self._open: dict[str, int] = {}

    def take(self, game_id: str) -> StreamSlot:
        """A slot for one more stream of ``game_id``.

        Raises:
            TooManyStreamsError: the game has ``per_game`` open streams already.
        """
        with self._lock:
            count = self._open.get(game_id, 0)
            if count >= self.per_game:
                raise TooManyStreamsError(
                    f"game {game_id!r} already has {count} open event streams, the most this"
                    " server allows; close one or retry later",
                    retry_after=self.retry_after,
                )
            self._open[game_id] = count + 1
        return StreamSlot(self, game_id)

    def _give_back(self, game_id: str) -> None:
        with self._lock:
            count = self._open.get(game_id, 0) - 1
            if count > 0:
                self._open[game_id] = count
            else:
                self._open.pop(game_id, None)

    def open(self, game_id: str) -> int:
        """How many streams of ``game_id`` are open (tests, metrics)."""
        with self._lock:
            return self._open.get(game_id, 0)
