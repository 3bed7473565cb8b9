"""The log's times: the game's ``created_at`` and every row's ``recorded_at`` are RFC 3339
times in UTC as the engine writes them, ``2026-11-29T17:00:00.000000Z``
(``invalid-timestamp``; :mod:`spies_replay.times`), and from the creation on they never run
backwards (``time-backwards``, at the first row earlier than the one before it)."""

from __future__ import annotations

from spies_replay.times import Instant, parse_utc
from spies_replay.verify.report import fail

__all__ = ["Timeline"]


class Timeline:
    """The times read so far: each must be a log time, no earlier than the one before."""

    def __init__(self) -> None:
        self._last: tuple[Instant, str] | None = None
        """The latest time read so far (the creation's, then each row's), and its text."""

    def read(self, seq: int, name: str, text: str) -> None:
        """``text``, the ``name`` of ``seq``, must be an RFC 3339 UTC time, and no earlier
        than any time before it."""
        instant = parse_utc(text)
        if instant is None:
            raise fail(
                seq,
                "invalid-timestamp",
                f"{name} {text!r} is not an RFC 3339 time in UTC as the log writes it"
                " (e.g. 2026-11-29T17:00:00.000000Z)",
            )
        if self._last is not None and instant < self._last[0]:
            raise fail(
                seq,
                "time-backwards",
                f"{name} {text} is earlier than {self._last[1]}, the time before it:"
                " the log's times never run backwards",
            )
        self._last = instant, text
