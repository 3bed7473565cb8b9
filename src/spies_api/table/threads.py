"""Store calls on worker threads that shutdown can wait for.

A cancelled ``await`` of a call on a worker thread abandons the thread, which goes on using
the store; the store must not be closed under it. :class:`CountedCalls` counts the calls
running, so that shutdown can refuse new ones and wait for those already running.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

import anyio

__all__ = ["CountedCalls", "Stopped"]

T = TypeVar("T")


class Stopped(Exception):  # noqa: N818  (a signal, not an error)
    """Shutdown has begun: a call that has not started yet does not start."""


class CountedCalls:
    """Calls on worker threads, counted while they run."""

    __slots__ = ("_count", "_running", "_stopping")

    def __init__(self) -> None:
        self._running = threading.Condition()
        self._count = 0
        self._stopping = False

    async def run(self, func: Callable[[], T]) -> T:
        """Run ``func`` on a worker thread, counted so that :meth:`drain` can wait for it.

        Raises:
            Stopped: :meth:`drain` was called before ``func`` started.
        """

        def counted() -> T:
            with self._running:
                if self._stopping:
                    raise Stopped
                self._count += 1
            try:
                return func()
            finally:
                with self._running:
                    self._count -= 1
                    self._running.notify_all()

        return await anyio.to_thread.run_sync(counted)

    def drain(self, timeout: float) -> None:
        """Refuse new calls and wait up to ``timeout`` seconds for those running (blocks:
        shutdown only)."""
        with self._running:
            self._stopping = True
            self._running.wait_for(lambda: self._count == 0, timeout=timeout)
