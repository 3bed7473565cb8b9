"""In-memory helpers of the game service: per-game locks and the bounded state cache.

Both are thread-safe: handlers run in worker threads (``sync_to_thread=True``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

__all__ = ["CachedGame", "KeyedLocks", "StateCache"]


@dataclass(frozen=True, slots=True)
class CachedGame:
    """A game's folded state at a version (states are immutable, so sharing one is safe).

    Attributes:
        game: the registered game id.
        version: the seq of the last event folded in.
        state: the state after it.
        finished: whether the game was over at that version.
    """

    game: str
    version: int
    state: Any
    finished: bool


class StateCache:
    """A least-recently-used map from game id to :class:`CachedGame`.

    Args:
        capacity: the most games kept; the least recently used is dropped beyond it.
    """

    def __init__(self, capacity: int) -> None:
        if capacity < 1:
            raise ValueError(f"capacity must be at least 1, not {capacity}")
        self.capacity = capacity
        self._items: OrderedDict[str, CachedGame] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> CachedGame | None:
        """The cached entry, marked as recently used, or ``None``."""
        with self._lock:
            entry = self._items.get(game_id)
            if entry is not None:
                self._items.move_to_end(game_id)
            return entry

    def put(self, game_id: str, entry: CachedGame) -> None:
        """Keep ``entry`` unless a newer version of the game is already cached.

        A reader that folded the log while a command was being appended must not put its
        older state over the command's newer one.
        """
        with self._lock:
            current = self._items.get(game_id)
            if current is not None and current.version > entry.version:
                self._items.move_to_end(game_id)
                return
            self._items[game_id] = entry
            self._items.move_to_end(game_id)
            while len(self._items) > self.capacity:
                self._items.popitem(last=False)

    def discard(self, game_id: str) -> None:
        """Forget a game (its cached state is known to be stale)."""
        with self._lock:
            self._items.pop(game_id, None)

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)


class _Slot:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.users = 0


class KeyedLocks:
    """One lock per key, created on demand and dropped when nobody holds or awaits it.

    Commands on one game are applied one at a time; commands on different games never wait
    for each other (no striping), and the table only holds keys in use.
    """

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._slots: dict[str, _Slot] = {}

    def acquire(self, key: str, *, blocking: bool = True) -> bool:
        """Take the lock of ``key``; without ``blocking``, give up at once if it is held.

        Returns:
            Whether the lock was taken (then :meth:`release` it).
        """
        with self._mutex:
            slot = self._slots.get(key)
            if slot is None:
                slot = self._slots[key] = _Slot()
            slot.users += 1
        if slot.lock.acquire(blocking):
            return True
        self._drop(key, slot)
        return False

    def release(self, key: str) -> None:
        """Release the lock of ``key`` taken with :meth:`acquire`."""
        with self._mutex:
            slot = self._slots[key]
        slot.lock.release()
        self._drop(key, slot)

    def _drop(self, key: str, slot: _Slot) -> None:
        with self._mutex:
            slot.users -= 1
            if slot.users == 0:
                del self._slots[key]

    @contextmanager
    def hold(self, key: str) -> Iterator[None]:
        """Hold the lock of ``key`` for the duration of the ``with`` block."""
        self.acquire(key)
        try:
            yield
        finally:
            self.release(key)

    def __len__(self) -> int:
        with self._mutex:
            return len(self._slots)
