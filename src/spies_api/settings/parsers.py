"""Text to value, one parser per kind of setting: each raises ``ValueError`` whose message
says what is expected (:func:`spies_api.settings.options.settings_from` names the source)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from spies_api.settings.formats import (
    MAX_HEAD_BYTES,
    MAX_OPEN_SEAT_TTL,
    MAX_PORT,
    MIN_HEAD_BYTES,
    RATE_OFF,
    RATE_UNITS,
    parse_networks,
    parse_origins,
    parse_rate,
)
from spies_replay.store.backends import SyncMode

__all__ = [
    "parse_count",
    "parse_head_bytes",
    "parse_networks_setting",
    "parse_port",
    "parse_positive",
    "parse_positive_or_off",
    "parse_prefix",
    "parse_rate_setting",
    "parse_seconds",
    "parse_switch",
    "parse_sync",
    "parse_text",
    "parse_ttl",
]


def parse_text(text: str) -> str:
    """A value that is not empty (a path, a host)."""
    if not text.strip():
        raise ValueError("expected a value, got an empty one")
    return text


def parse_port(text: str) -> int:
    """A port number, 1 to 65535."""
    if not text.strip().isdigit() or not 1 <= int(text) <= MAX_PORT:
        raise ValueError(f"expected a port number from 1 to {MAX_PORT}")
    return int(text)


def parse_positive(text: str) -> int:
    """A whole number, at least 1."""
    if not text.strip().isdigit() or int(text) < 1:
        raise ValueError("expected a whole number, at least 1")
    return int(text)


def parse_count(text: str) -> int:
    """A whole number, 0 or more."""
    if not text.strip().isdigit():
        raise ValueError("expected a whole number, 0 or more")
    return int(text)


def parse_positive_or_off(text: str) -> int | None:
    """A whole number, at least 1, or ``off`` (``None``: no limit)."""
    if text.strip().lower() in RATE_OFF:
        return None
    try:
        return parse_positive(text)
    except ValueError:
        raise ValueError("expected a whole number, at least 1, or off") from None


def parse_prefix(low: int, high: int) -> Callable[[str], int]:
    """A parser of a network prefix length from ``low`` to ``high`` (a leading ``/`` allowed)."""

    def parse(text: str) -> int:
        value = text.strip().removeprefix("/")
        if not value.isdigit() or not low <= int(value) <= high:
            raise ValueError(f"expected a network prefix length from {low} to {high}")
        return int(value)

    return parse


def parse_head_bytes(text: str) -> int:
    """A bound on request heads, in bytes, within the accepted range."""
    value = text.strip()
    if not value.isdigit() or not MIN_HEAD_BYTES <= int(value) <= MAX_HEAD_BYTES:
        raise ValueError(
            f"expected a number of bytes from {MIN_HEAD_BYTES} to {MAX_HEAD_BYTES} (e.g. 32768)"
        )
    return int(value)


def parse_seconds(text: str) -> float:
    """A number of seconds from 0 to 3600, fractions allowed."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 3600:  # noqa: PLR2004
        raise ValueError("expected a number of seconds from 0 to 3600, e.g. 1 or 0.5")
    return value


def parse_ttl(text: str) -> float | None:
    """A lifetime in seconds, or ``0``/``off`` for never (``None``)."""
    if text.strip().lower() in RATE_OFF:
        return None
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if value != 0 and not 1 <= value <= MAX_OPEN_SEAT_TTL:
        raise ValueError(
            f"expected a number of seconds from 1 to {MAX_OPEN_SEAT_TTL:.0f}, or 0 or off (never)"
        )
    return value or None


def parse_rate_setting(text: str) -> str | None:
    """A rate limit, ``N/unit``, kept as text, or ``off`` (``None``)."""
    if text.strip().lower() in RATE_OFF:
        return None
    try:
        parse_rate(text)
    except ValueError:
        raise ValueError(
            f"expected N/UNIT with N >= 1 and UNIT one of {', '.join(RATE_UNITS)}"
            " (e.g. 100/second, 6000/minute), or off"
        ) from None
    return text.strip()


def parse_origins_setting(text: str) -> tuple[str, ...]:
    """Web origins, comma separated, or ``*``."""
    try:
        return parse_origins(text)
    except ValueError as exc:
        raise ValueError(f"expected web origins, comma separated, or *: {exc}") from None


def parse_networks_setting(text: str) -> tuple[str, ...]:
    """IP addresses and CIDR networks, comma separated."""
    try:
        return parse_networks(text)
    except ValueError as exc:
        raise ValueError(
            f"expected IP addresses and CIDR networks, comma separated: {exc}"
        ) from None


_SWITCH: Final = {"1": True, "true": True, "yes": True, "on": True} | {
    "0": False,
    "false": False,
    "no": False,
    "off": False,
}


_SYNC_MODES: Final[dict[str, SyncMode]] = {"normal": "normal", "full": "full"}


def parse_sync(text: str) -> SyncMode:
    """SQLite's durability, ``normal`` or ``full``."""
    found = _SYNC_MODES.get(text.strip().lower())
    if found is None:
        raise ValueError("expected normal or full")
    return found


def parse_switch(text: str) -> bool:
    """On (``1``, ``true``, ``yes``, ``on``) or off (``0``, ``false``, ``no``, ``off``)."""
    value = _SWITCH.get(text.strip().lower())
    if value is None:
        raise ValueError("expected 1, true, yes or on, or 0, false, no or off")
    return value
