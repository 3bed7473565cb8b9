"""The settings a person sets: :data:`OPTIONS`, each a ``spies-api`` option (``--port``) and
an environment variable (``SPIES_PORT``), and :func:`settings_from`, which reads both, the
command line winning."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from spies_api.settings.formats import (
    BOT_GAMES_PER_CORE,
    MAX_IPV4_PREFIX,
    MAX_IPV6_PREFIX,
    MAX_PORT,
    MIN_IPV4_PREFIX,
    MIN_IPV6_PREFIX,
)
from spies_api.settings.model import Settings
from spies_api.settings.parsers import (
    parse_count,
    parse_head_bytes,
    parse_networks_setting,
    parse_origins_setting,
    parse_port,
    parse_positive,
    parse_positive_or_off,
    parse_prefix,
    parse_rate_setting,
    parse_seconds,
    parse_switch,
    parse_sync,
    parse_text,
    parse_ttl,
)

__all__ = ["ENV_PREFIX", "OPTIONS", "Option", "SettingsError", "settings_from"]

ENV_PREFIX: Final = "SPIES_"


class SettingsError(ValueError):
    """A setting that cannot be used; the message is one line naming its source."""


@dataclass(frozen=True, slots=True)
class Option:
    """A setting a person sets, as a ``spies-api`` option and an environment variable.

    Attributes:
        field: the :class:`Settings` field.
        flag: the command-line option, e.g. ``--port``.
        metavar: the value's name in ``--help``.
        help: what it does, for ``--help``.
        parse: text to value; raises ``ValueError`` whose message says what is expected.
        unset: what a default of ``None`` means, for ``--help`` (a limit's ``None`` is none).
    """

    field: str
    flag: str
    metavar: str
    help: str
    parse: Callable[[str], Any]
    unset: str = "no limit"

    @property
    def env(self) -> str:
        """The environment variable, e.g. ``SPIES_PORT`` for ``--port``."""
        return ENV_PREFIX + self.flag.removeprefix("--").upper().replace("-", "_")

    @property
    def is_switch(self) -> bool:
        """An on/off option (``--access-log`` / ``--no-access-log``)."""
        return self.parse is parse_switch


OPTIONS: Final[tuple[Option, ...]] = (
    Option(
        "db_path",
        "--db",
        "DB",
        "a SQLite file (its directory must exist) or a postgresql:// URL",
        parse_text,
    ),
    Option(
        "sync",
        "--sync",
        "MODE",
        "SQLite durability: normal (a crash of the process loses nothing committed) or full"
        " (nor does a power failure; slower)",
        parse_sync,
    ),
    Option("host", "--host", "HOST", "the interface to bind", parse_text),
    Option("port", "--port", "PORT", f"the port to bind, 1 to {MAX_PORT}", parse_port),
    Option(
        "rate_limit",
        "--rate-limit",
        "RATE",
        "per-client request rate, N/second, N/minute, N/hour or N/day (a bucket of N"
        " requests refilled at N per unit), or off; beyond it: 429 with Retry-After",
        parse_rate_setting,
    ),
    Option(
        "max_bot_games_per_client",
        "--max-bot-games-per-client",
        "N",
        "active bot games (a bot seat, or a clock whose timeouts a bot plays) one client"
        " address may have at once, or off; one more is 429 with Retry-After",
        parse_positive_or_off,
    ),
    Option(
        "max_bot_games",
        "--max-bot-games",
        "N",
        "active games with bot seats the server admits at once, all clients together"
        f" ({BOT_GAMES_PER_CORE} per core of this machine), or off; one more is 429 with"
        " Retry-After",
        parse_positive_or_off,
    ),
    Option(
        "max_streams_per_client",
        "--max-streams-per-client",
        "N",
        "open event streams one client address may hold, seats' and spectators' together,"
        " or off; one more is 429 with Retry-After",
        parse_positive_or_off,
    ),
    Option(
        "max_games_per_client",
        "--max-games-per-client",
        "N",
        "active games one client address may have created at once (a game waiting for"
        " players counts until it fills, ends or expires), or off; one more is 429 with"
        " Retry-After",
        parse_positive_or_off,
    ),
    Option(
        "open_seat_ttl",
        "--open-seat-ttl",
        "SECONDS",
        "how long a new game's open seats stay open; a game still waiting for players then"
        " is abandoned (no winner); 0 or off: for ever",
        parse_ttl,
    ),
    Option(
        "commitment_ttl",
        "--commitment-ttl",
        "SECONDS",
        "how long a seed commitment (POST /commitments) stays usable by a new game",
        parse_seconds,
    ),
    Option(
        "max_commitments_per_client",
        "--max-commitments-per-client",
        "N",
        "unused, unexpired seed commitments one client address may hold; one more is 429",
        parse_positive,
    ),
    Option(
        "max_commitments",
        "--max-commitments",
        "N",
        "unused, unexpired seed commitments the database holds, all clients together; one"
        " more is 429",
        parse_positive,
    ),
    Option(
        "trusted_proxies",
        "--trusted-proxies",
        "LIST",
        "the reverse proxies whose X-Forwarded-For is honoured: IP addresses and CIDR"
        " networks, comma separated, e.g. 127.0.0.1,10.0.0.0/8",
        parse_networks_setting,
    ),
    Option(
        "cors_origins",
        "--cors-origins",
        "LIST",
        "the web origins whose pages may call the API from a browser (CORS), comma"
        " separated, e.g. https://play.example.org, or * for any; none by default",
        parse_origins_setting,
    ),
    Option(
        "ipv4_prefix",
        "--ipv4-prefix",
        "BITS",
        f"the IPv4 network counted as one client by the rate limits and the bot-game quota,"
        f" {MIN_IPV4_PREFIX} to {MAX_IPV4_PREFIX} (24: a /24)",
        parse_prefix(MIN_IPV4_PREFIX, MAX_IPV4_PREFIX),
    ),
    Option(
        "ipv6_prefix",
        "--ipv6-prefix",
        "BITS",
        f"the IPv6 network counted as one client, {MIN_IPV6_PREFIX} to {MAX_IPV6_PREFIX}",
        parse_prefix(MIN_IPV6_PREFIX, MAX_IPV6_PREFIX),
    ),
    Option(
        "free_paths_rate_limit",
        "--free-paths-rate-limit",
        "RATE",
        "per-client rate of the paths --rate-limit does not count (pages, docs, static"
        " files, /healthz, /readyz, /metrics), in the same form, or off",
        parse_rate_setting,
    ),
    Option(
        "player_rate_limit",
        "--player-rate-limit",
        "RATE",
        "players one client may create (POST /players), in the same form as --rate-limit, or"
        " off; beyond it: 429 too-many-players with Retry-After",
        parse_rate_setting,
    ),
    Option(
        "cache_bytes",
        "--cache-bytes",
        "BYTES",
        "the memory of the games' heads kept packed beyond the cache of those in use (the"
        " games not finished read ahead at start, newest first) and, a game per KiB, their"
        " seats' tokens; 0 for none",
        parse_count,
    ),
    Option(
        "max_head_bytes",
        "--max-head-bytes",
        "BYTES",
        "the longest request line and headers read; longer is 414 (the request line) or 431",
        parse_head_bytes,
    ),
    Option(
        "max_streams_per_game",
        "--max-streams-per-game",
        "N",
        "open spectator event streams allowed on one game (seats' own are not counted);"
        " one more is 503",
        parse_positive,
    ),
    Option(
        "max_streams_per_seat",
        "--max-streams-per-seat",
        "N",
        "open event streams allowed to one seat; its next one ends its oldest",
        parse_positive,
    ),
    Option(
        "max_streams",
        "--max-streams",
        "N",
        "open event streams allowed in all, a tenth of them kept for seats; one more is 503",
        parse_positive,
    ),
    Option(
        "idempotency_key_max_length",
        "--idempotency-key-max-length",
        "N",
        "the longest Idempotency-Key accepted, in characters; a longer one is 400",
        parse_positive,
    ),
    Option("access_log", "--access-log", "", "also log every request line (uvicorn)", parse_switch),
    Option(
        "metrics",
        "--metrics",
        "",
        "serve GET /metrics in Prometheus's text format",
        parse_switch,
    ),
    Option(
        "metrics_port",
        "--metrics-port",
        "PORT",
        "serve the metrics on this port instead of the API's (implies --metrics)",
        parse_port,
        unset="the API's port, when --metrics is on",
    ),
    Option(
        "drain_seconds",
        "--drain-seconds",
        "SECONDS",
        "on SIGTERM, serve this long more with /readyz not ready and connections closed"
        " after each answer, before no longer accepting",
        parse_seconds,
    ),
    Option(
        "shutdown_timeout_seconds",
        "--shutdown-timeout",
        "SECONDS",
        "on SIGTERM, exit within this many seconds: the drain, the requests in flight, the bots",
        parse_seconds,
    ),
    Option(
        "compress_min_bytes",
        "--compress-min-bytes",
        "BYTES",
        "gzip answers of at least this many bytes for clients that take gzip (never the"
        " event stream), or off",
        parse_positive_or_off,
    ),
)
"""Every setting of ``spies-api``, in ``--help`` order."""


def settings_from(
    given: Mapping[str, object], environ: Mapping[str, str], base: Settings | None = None
) -> Settings:
    """The settings from the command line and the environment, the command line winning.

    Args:
        given: values from the command line by :attr:`Option.field`: text as typed, a bool
            for a switch, or ``None`` (absent) for an option not given.
        environ: the environment (``SPIES_DB``, ``SPIES_PORT``, ...).
        base: the settings the others are laid on (default: :class:`Settings` ``()``).

    Raises:
        SettingsError: a value that cannot be used, e.g. ``--port '99999': expected a port
            number from 1 to 65535``.
    """
    values: dict[str, Any] = {}
    for option in OPTIONS:
        raw = given.get(option.field)
        source = option.flag
        if raw is None and option.env in environ:
            raw, source = environ[option.env], option.env
        if raw is None or isinstance(raw, bool):
            if raw is not None:
                values[option.field] = raw
            continue
        try:
            values[option.field] = option.parse(str(raw))
        except ValueError as exc:
            shown = f"{source}={raw!r}" if source == option.env else f"{source} {raw!r}"
            raise SettingsError(f"{shown}: {exc}") from None
    try:
        return replace(base if base is not None else Settings(), **values)
    except ValueError as exc:
        raise SettingsError(str(exc)) from None
