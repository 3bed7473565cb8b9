"""A store that fails as a busy or lost database does, for fault-injection tests.

:class:`FaultyStore` wraps a real store of either backend. At random, a fraction of its
appends and loads raise the store's own transient errors (``database-busy``,
``store-unavailable``) before touching the database, and a fraction of its appends commit
and then raise ``store-unavailable`` (a connection lost before the commit's answer came
back). Every other call passes through, and the recorder the app appends through
(``recorder()``) has the same faults on its appends, its reads for the event loop
(``loop_reader()``) on their loads. :func:`faulty_open_store` is
``open_store`` with the faults: a test puts it where the app opens its store.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from spies_replay.errors import StoreBusyError, StoreUnavailableError
from spies_replay.store.backends import open_store
from spies_replay.store.protocols import EventStore, Recorder
from spies_replay.store.records import Append

__all__ = ["APPENDS", "LOADS", "Faults", "FaultyStore", "faulty_open_store"]

APPENDS = frozenset({"append", "insert_game"})
"""The writes that fail (``insert_game`` only before it writes: a client that sends its
creation again would create a second game)."""
LOADS = frozenset(
    {
        "get_game",
        "list_games",
        "read_payloads",
        "read_rows",
        "last_row",
        "latest_snapshot",
        "head_row",
        "secrets",
        "seat_states",
        "check_token",
        "find_token",
        "get_idempotency",
        "due_games",
        "due_at",
        "set_due",
    }
)
"""The reads (and the due mark's write) that fail."""
LOST = "the connection to the server was lost"


@dataclass
class Faults:
    """How often calls fail, and what was injected.

    Attributes:
        rate: the fraction of appends and loads refused before they run.
        lost_commits: the fraction of appends that commit, then raise ``store-unavailable``.
        seed: the generator's seed.
        on: whether faults are injected now (off to read the results back).
        forced: calls that fail next, whatever the rate: by method name, how many of its
            next calls raise ``database-busy`` (see :meth:`fail_next`).
        injected: the faults injected, by ``database-busy``, ``store-unavailable`` and
            ``lost-commit``.
        calls: the calls of each method that may fail, by name (those that failed too).
    """

    rate: float = 0.0
    lost_commits: float = 0.0
    seed: int = 0
    on: bool = True
    forced: Counter[str] = field(default_factory=Counter)
    injected: Counter[str] = field(default_factory=Counter)
    calls: Counter[str] = field(default_factory=Counter)
    _rng: random.Random = field(init=False)
    _lock: threading.Lock = field(init=False, default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def _draw(self, fraction: float) -> float | None:
        """A draw below ``fraction`` (a fault), else ``None``."""
        with self._lock:
            if not self.on:
                return None
            draw = self._rng.random()
        return draw if draw < fraction else None

    def fail_next(self, name: str, times: int = 1) -> None:
        """Make the next ``times`` calls of method ``name`` raise ``database-busy``."""
        with self._lock:
            self.forced[name] += times

    def before(self, location: str, name: str) -> None:
        """Raise a transient error for the forced calls, and ``rate`` of the others."""
        with self._lock:
            self.calls[name] += 1
            forced = self.on and self.forced[name] > 0
            if forced:
                self.forced[name] -= 1
                self.injected["database-busy"] += 1
        if forced:
            raise StoreBusyError(location)
        draw = self._draw(self.rate)
        if draw is None:
            return
        busy = draw < self.rate / 2
        with self._lock:
            self.injected["database-busy" if busy else "store-unavailable"] += 1
        if busy:
            raise StoreBusyError(location)
        raise StoreUnavailableError(location, LOST)

    def after(self, location: str) -> None:
        """Raise ``store-unavailable`` after a commit, for ``lost_commits`` of the appends."""
        if self._draw(self.lost_commits) is None:
            return
        with self._lock:
            self.injected["lost-commit"] += 1
        raise StoreUnavailableError(location, LOST)


class FaultyStore:
    """A real store, with :class:`Faults` on its appends and loads."""

    def __init__(self, store: EventStore, faults: Faults) -> None:
        self._store = store
        self._faults = faults

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._store, name)
        if name in APPENDS or name in LOADS:
            return self._faulty(name, found)
        return found

    def _faulty(self, name: str, call: Callable[..., Any]) -> Callable[..., Any]:
        location = self._store.location
        faults = self._faults

        def faulty(*args: Any, **kwargs: Any) -> Any:
            faults.before(location, name)
            result = call(*args, **kwargs)
            if name == "append":
                faults.after(location)
            return result

        return faulty

    def recorder(self, *, on_loop: bool = True) -> _FaultyRecorder:
        """The store's recorder, with the same faults on its appends."""
        inner = self._store.recorder(on_loop=on_loop)
        return _FaultyRecorder(inner, self._faults, self._store.location)

    def loop_reader(self) -> FaultyStore | None:
        """The store's reads for the event loop, with the same faults on its loads."""
        inner = self._store.loop_reader()
        return None if inner is None else FaultyStore(inner, self._faults)

    def __enter__(self) -> FaultyStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self._store.close()


class _FaultyRecorder:
    def __init__(self, inner: Recorder, faults: Faults, location: str) -> None:
        self._inner = inner
        self._faults = faults
        self._location = location

    async def append(self, batch: Append) -> None:
        self._faults.before(self._location, "append")
        await self._inner.append(batch)
        self._faults.after(self._location)

    async def close(self) -> None:
        await self._inner.close()


def faulty_open_store(faults: Faults) -> Callable[..., EventStore]:
    """``open_store``, each store it opens wrapped in a :class:`FaultyStore`."""

    def opened(db: Any, **options: Any) -> EventStore:
        store: EventStore = FaultyStore(open_store(db, **options), faults)  # type: ignore[assignment]
        return store

    return opened
