"""One lock per game on the event loop: a game's writes (commands, seat changes) are
applied one at a time, and writes to different games never wait for each other."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

__all__ = ["GameLocks"]


class GameLocks:
    """Per-game :class:`asyncio.Lock`\\ s, created on demand and dropped when nobody holds or
    awaits them, so the table only holds games in use. Used from the event loop only."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, game_id: str) -> AsyncIterator[None]:
        """Hold the lock of ``game_id`` for the ``async with`` block."""
        lock, users = self._locks.get(game_id, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._locks[game_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[game_id]
            if users == 1:
                del self._locks[game_id]
            else:
                self._locks[game_id] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)
