"""A bounded memo of a pure function that every thread of the process may share.

The server asks its bots from a pool of threads, so a table a bot keeps between calls is
read and written by many threads at once. Reads here take no lock: one dictionary read is
atomic, and a value, once stored, never changes. Every change of the table (a store, and
forgetting the older half when it is full) is made under one lock, so no thread ever
deletes an entry that another has just deleted, nor walks the table while another resizes
it. Two threads that miss the same key may both compute it; the function is pure, so they
store the same value.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Hashable
from typing import Final, Generic, TypeVar, cast

__all__ = ["SharedMemo"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

_ABSENT: Final = object()


class SharedMemo(Generic[K, V]):
    """``memo(key)`` is ``compute(key)``, remembered for up to ``limit`` keys.

    When a store finds the table full, the older half of the keys (in the order they were
    stored) is forgotten first, not everything at once: keys that recur stay. For a hot
    loop, ``memo.known(key)`` is the remembered value or ``None``, at the cost of one
    dictionary read (``compute`` must then never return ``None``).
    """

    __slots__ = ("_compute", "_lock", "_table", "known", "limit")

    def __init__(self, compute: Callable[[K], V], limit: int) -> None:
        if limit < 2:
            raise ValueError(f"a memo needs room for at least 2 keys, not {limit}")
        self._compute = compute
        self._table: dict[K, V] = {}
        self._lock = threading.Lock()
        self.limit = limit
        """Most keys remembered; read at every store."""
        self.known: Callable[[K], V | None] = self._table.get
        """The remembered value of a key, or ``None``: the table's own lookup, since the
        table is changed in place and never replaced."""

    def __call__(self, key: K) -> V:
        """The value of ``key``: remembered, or computed now and remembered."""
        found = self._table.get(key, _ABSENT)
        if found is not _ABSENT:
            return cast(V, found)
        value = self._compute(key)
        with self._lock:
            table = self._table
            if len(table) >= self.limit:
                for old in list(itertools.islice(table, len(table) - self.limit // 2)):
                    del table[old]
            table[key] = value
        return value

    def __len__(self) -> int:
        """How many keys are remembered now."""
        return len(self._table)
