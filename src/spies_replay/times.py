"""The times of the log: RFC 3339 in UTC, as the store writes them, read back to compare.

The engine records every time as :func:`~spies_replay.store.records.utc_now` writes it,
``2026-11-29T17:00:00.000000Z``: date, upper-case ``T``, time, a fraction of a second and
upper-case ``Z`` (UTC). :func:`parse_utc` accepts exactly RFC 3339 times in UTC of that shape,
with a fraction of 0 to 9 digits; anything else (another offset, a space for ``T``, a leap
second, a date that does not exist, trailing text) is not a time of the log.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Final

__all__ = ["Instant", "parse_utc"]

_RFC3339_UTC: Final = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z", re.ASCII
)

Instant = tuple[datetime, int]
"""A time to compare: the whole second (aware, UTC) and the nanoseconds past it."""


def parse_utc(text: str) -> Instant | None:
    """The instant of an RFC 3339 UTC time as the log writes it, or ``None`` for any other text.

    >>> parse_utc("2026-11-29T17:00:00.5Z") > parse_utc("2026-11-29T17:00:00.000001Z")
    True
    >>> parse_utc("2026-11-29T17:00:00+00:00") is None
    True
    """
    found = _RFC3339_UTC.fullmatch(text)
    if found is None:
        return None
    year, month, day, hour, minute, second = (int(part) for part in found.groups()[:6])
    try:
        whole = datetime(year, month, day, hour, minute, second, tzinfo=UTC)
    except ValueError:  # 2026-02-30, hour 24, a leap second: not a time the store writes
        return None
    return whole, int((found.group(7) or "").ljust(9, "0"))
