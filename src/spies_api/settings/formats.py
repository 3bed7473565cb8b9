"""The bounds and the value formats the settings share: ports, request heads, client
groupings, rate limits (``N/unit``), networks, and the bot-game cap of a machine."""

from __future__ import annotations

import ipaddress
import os
import re
from typing import Final, Literal

__all__ = [
    "BOT_GAMES_PER_CORE",
    "DEFAULT_FREE_PATHS_RATE_LIMIT",
    "DEFAULT_PLAYER_RATE_LIMIT",
    "DEFAULT_RATE_LIMIT",
    "KIB",
    "MAX_HEAD_BYTES",
    "MAX_IPV4_PREFIX",
    "MAX_IPV6_PREFIX",
    "MAX_OPEN_SEAT_TTL",
    "MAX_PORT",
    "MIN_HEAD_BYTES",
    "MIN_IPV4_PREFIX",
    "MIN_IPV6_PREFIX",
    "RATE_OFF",
    "RATE_SECONDS",
    "RATE_UNITS",
    "RateUnit",
    "default_max_bot_games",
    "parse_networks",
    "parse_origins",
    "parse_rate",
]

MAX_PORT: Final = 65535
MAX_OPEN_SEAT_TTL: Final = 30 * 24 * 3600.0
"""The longest ``--open-seat-ttl`` (30 days): longer is surely a mistake; ``off`` is for ever."""

KIB = 1024

MIN_IPV4_PREFIX: Final = 8
MAX_IPV4_PREFIX: Final = 32
MIN_IPV6_PREFIX: Final = 32
MAX_IPV6_PREFIX: Final = 128
"""The client groupings accepted: a wider one would make the per-client limits global."""
MIN_HEAD_BYTES: Final = KIB
MAX_HEAD_BYTES: Final = 1024 * KIB
"""The request heads accepted as a bound (a browser's heads are under 8 KiB)."""

DEFAULT_RATE_LIMIT: Final = "50/second"
"""The rate limit of a server started with no ``--rate-limit`` (see ``Settings.rate_limit``)."""

DEFAULT_FREE_PATHS_RATE_LIMIT: Final = "100/second"
"""The bucket of the paths the rate limit does not count (``Settings.free_paths_rate_limit``)."""

DEFAULT_PLAYER_RATE_LIMIT: Final = "20/hour"
"""The bucket per client of ``POST /players`` (``Settings.player_rate_limit``)."""

RATE_OFF: Final = frozenset({"off", "none", "no"})
"""What ``--rate-limit`` takes for no limit."""

RateUnit = Literal["second", "minute", "hour", "day"]
RATE_UNITS: Final[tuple[RateUnit, ...]] = ("second", "minute", "hour", "day")
RATE_SECONDS: Final[dict[RateUnit, int]] = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
"""The length of each unit of a rate, in seconds."""
_RATE: Final = re.compile(r"\s*([1-9][0-9]{0,8})\s*/\s*(second|minute|hour|day)\s*")


def parse_rate(text: str) -> tuple[RateUnit, int]:
    """Parse a rate limit such as ``100/second`` or ``6000/minute``.

    Returns:
        ``(unit, requests)``, as Litestar's ``RateLimitConfig.rate_limit`` takes it.

    Raises:
        ValueError: not ``N/second``, ``N/minute``, ``N/hour`` or ``N/day`` with ``N >= 1``.
    """
    match = _RATE.fullmatch(text)
    if match is None:
        raise ValueError(
            f"rate limit {text!r} is not N/UNIT with N >= 1 and UNIT one of"
            f" {', '.join(RATE_UNITS)} (e.g. 100/second, 6000/minute)"
        )
    unit = next(u for u in RATE_UNITS if u == match.group(2))
    return unit, int(match.group(1))


BOT_GAMES_PER_CORE: Final = 16
"""Active games with bot seats a server allows per core of its machine, all clients together,
unless told otherwise (``Settings.max_bot_games``)."""


def default_max_bot_games() -> int:
    """The server-wide cap on active games with bot seats of a server not told one:
    :data:`BOT_GAMES_PER_CORE` per core of the machine."""
    return BOT_GAMES_PER_CORE * (os.cpu_count() or 1)


def parse_networks(text: str) -> tuple[str, ...]:
    """Parse a comma-separated list of IP addresses and CIDR networks, e.g.
    ``10.0.0.1, 192.168.0.0/16, ::1``.

    Returns:
        The networks, normalized (``10.0.0.1`` is ``10.0.0.1/32``); ``()`` for an empty text.

    Raises:
        ValueError: an item that is neither an IP address nor a network.
    """
    found = []
    for item in text.split(","):
        if not item.strip():
            continue
        try:
            found.append(str(ipaddress.ip_network(item.strip(), strict=False)))
        except ValueError:
            raise ValueError(
                f"{item.strip()!r} is not an IP address or a CIDR network"
                " (e.g. 10.0.0.1, 192.168.0.0/16, ::1)"
            ) from None
    return tuple(found)


_ORIGIN: Final = re.compile(
    r"https?://[A-Za-z0-9.\-]+(?::[0-9]{1,5})?|https?://\[[0-9A-Fa-f:.]+\](?::[0-9]{1,5})?"
)
"""A web origin as a browser sends it in ``Origin``: a scheme, a host, maybe a port; no path."""


def parse_origins(text: str) -> tuple[str, ...]:
    """Parse a comma-separated list of web origins, e.g.
    ``https://play.example.org, http://localhost:5173``, or ``*`` (any origin).

    Returns:
        The origins, lower-cased, in order, without repeats; ``()`` for an empty text.

    Raises:
        ValueError: an item that is not ``scheme://host[:port]`` (no path, no slash at the
            end), or ``*`` beside other origins.
    """
    found: list[str] = []
    for item in text.split(","):
        origin = item.strip().lower()
        if not origin or origin in found:
            continue
        if origin != "*" and _ORIGIN.fullmatch(origin) is None:
            raise ValueError(
                f"{item.strip()!r} is not an origin (scheme://host[:port], no path, e.g."
                " https://play.example.org)"
            )
        found.append(origin)
    if "*" in found and len(found) > 1:
        raise ValueError("'*' (any origin) stands alone")
    return tuple(found)
