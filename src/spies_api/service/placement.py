"""Where the store's blocking work runs: a worker thread, never the event loop.

Every store call but an append (reads, a fold on a cache miss) runs on a worker thread
through :func:`blocking`. Appends go through the store's own recorder
(:meth:`~spies_replay.store.protocols.EventStore.recorder`), which decides, per backend,
what may run on the loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, TypeVar

import anyio

__all__ = ["blocking"]

P = ParamSpec("P")
T = TypeVar("T")


async def blocking(func: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """Run a blocking call (a store read, a fold) on a worker thread."""
    return await anyio.to_thread.run_sync(lambda: func(*args, **kwargs))
