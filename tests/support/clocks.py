"""A server clock that runs faster than real time, for tests of clocks whose shortest turn
(``spies_core.clock.CLOCK_LIMITS``) is longer than a test should wait: every second of real
time is ``speed`` seconds on the server's clock (its recorded times, its deadlines)."""

from __future__ import annotations

import time

from spies_replay.clocks import from_ms, to_ms

__all__ = ["FastClock"]


class FastClock:
    """The server's clock, running ``speed`` times as fast as real time from ``start``."""

    def __init__(self, speed: float = 10.0, start: str = "2026-12-01T12:00:00.000000Z") -> None:
        self.speed = speed
        self._start_ms = to_ms(start)
        self._real = time.monotonic()

    def __call__(self) -> str:
        elapsed = (time.monotonic() - self._real) * self.speed
        return from_ms(self._start_ms + round(elapsed * 1000))
