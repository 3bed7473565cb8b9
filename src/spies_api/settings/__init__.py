"""The API's settings: one frozen value, built once and handed to :func:`spies_api.create_app`.

Every field has a default that suits a server started with ``spies-api``; tests pass a
temporary database and short SSE intervals. New limits (rate limits, quotas, ...) are added
as new fields with defaults, so existing callers keep working.

The fields a person sets are :data:`OPTIONS`: each is a ``spies-api`` option (``--port``) and
an environment variable (``SPIES_PORT``); :func:`settings_from` reads both, the command line
winning, and refuses a bad value with one :class:`SettingsError` line that names where the
value came from and what is expected.

:mod:`.model` holds :class:`Settings` and its checks, :mod:`.options` the options table and
:func:`settings_from`, :mod:`.parsers` a parser per kind of value, :mod:`.formats` the bounds
and formats they share; every name is importable from this package. Who may import it: every
part of the API; it imports only the store's durability modes (:mod:`spies_replay.store`).
"""

from __future__ import annotations

from spies_api.settings.formats import (
    BOT_GAMES_PER_CORE,
    DEFAULT_FREE_PATHS_RATE_LIMIT,
    DEFAULT_PLAYER_RATE_LIMIT,
    DEFAULT_RATE_LIMIT,
    KIB,
    MAX_HEAD_BYTES,
    MAX_OPEN_SEAT_TTL,
    MAX_PORT,
    MIN_HEAD_BYTES,
    RATE_SECONDS,
    RATE_UNITS,
    RateUnit,
    default_max_bot_games,
    parse_networks,
    parse_rate,
)
from spies_api.settings.model import DEFAULTS, Settings
from spies_api.settings.options import ENV_PREFIX, OPTIONS, Option, SettingsError, settings_from

__all__ = [
    "BOT_GAMES_PER_CORE",
    "DEFAULTS",
    "DEFAULT_FREE_PATHS_RATE_LIMIT",
    "DEFAULT_PLAYER_RATE_LIMIT",
    "DEFAULT_RATE_LIMIT",
    "ENV_PREFIX",
    "KIB",
    "MAX_HEAD_BYTES",
    "MAX_OPEN_SEAT_TTL",
    "MAX_PORT",
    "MIN_HEAD_BYTES",
    "OPTIONS",
    "RATE_SECONDS",
    "RATE_UNITS",
    "Option",
    "RateUnit",
    "Settings",
    "SettingsError",
    "default_max_bot_games",
    "parse_networks",
    "parse_rate",
    "settings_from",
]
