"""The thread a store's watch runs on (SQLite's poll of the commit counter, PostgreSQL's
``LISTEN`` when not read on the event loop): one daemon thread, and the function that stops
it."""

from __future__ import annotations

import threading
from collections.abc import Callable

__all__ = ["watch_thread"]


def watch_thread(
    body: Callable[[threading.Event], None], *, name: str, join_seconds: float
) -> Callable[[], None]:
    """Run ``body(stop)`` on a daemon thread called ``name`` (``body`` returns once ``stop``
    is set); returns the function that sets ``stop`` and waits for the thread at most
    ``join_seconds``."""
    stop = threading.Event()
    thread = threading.Thread(target=body, args=(stop,), name=name, daemon=True)
    thread.start()

    def unwatch() -> None:
        stop.set()
        thread.join(timeout=join_seconds)

    return unwatch
