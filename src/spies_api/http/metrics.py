"""``GET /metrics``: the process's metrics in Prometheus's text format, when switched on.

Off by default (``--metrics`` / ``SPIES_METRICS``); ``--metrics-port`` serves them on a
port of their own instead of the API's. The requests are Litestar's own Prometheus
integration (:class:`~litestar.plugins.prometheus.PrometheusConfig`, its middleware and
:class:`~litestar.plugins.prometheus.PrometheusController`), the rest are
``prometheus_client`` metrics of the engine's own:

===================================== ============================================
``spies_requests_total``              requests by ``method``, ``path`` (the route's
                                      template) and ``status_code``; also
                                      ``spies_request_duration_seconds``,
                                      ``spies_requests_in_progress``
``spies_command_duration_seconds``    ``POST /games/{game_id}/commands``, by ``game``
``spies_commands_total``              commands by ``game``, ``outcome`` (``accepted``,
                                      ``replayed``, ``refused``) and ``code`` (the
                                      problem's, ``""`` when accepted)
``spies_appends_total``               writes this process committed, by ``game`` and
                                      ``kind`` (``command``, ``seat``, ``created``)
``spies_version_conflicts_total``     409 ``version-conflict`` answers
``spies_open_streams``                event streams open now
``spies_bot_decisions_total``         bot decisions by ``bot``, ``game`` and
                                      ``outcome`` (``chosen``, ``fallback``)
``spies_bot_decision_seconds``        how long they took, by ``bot`` and ``game``
``spies_deadlines_fired_total``       clocks run out (``clock_expired``) or resumed
                                      after downtime (``clocks_resumed``), open seats
                                      expired (``game_abandoned``), by ``game``
``spies_store_errors_total``          answers ``store-unavailable``,
                                      ``storage-full``, ``database-busy`` by ``code``
``spies_due_retries_total``           the scheduler's due work stopped by a transient
                                      failure, to be tried again, by ``work``
                                      (``index``, ``load``, ``deadline``,
                                      ``bot_move``, ``mark``) and ``code``
                                      (``database-busy``, ``store-unavailable``,
                                      ``storage-full``, ``bot-worker-lost``)
===================================== ============================================

No label value ever comes from a client: a path is its route's template (a path that
matches no route is not counted), a game is one of the registry's game ids (or
``unknown``), a code one of the catalogue's (or ``other``), a bot one of those the server
runs. So no client can grow the number of series.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Final

import msgspec
from litestar.plugins.prometheus import PrometheusConfig, PrometheusController
from litestar.types import ASGIApp, Message, Receive, Scope, Send
from prometheus_client import Counter, Gauge, Histogram

from spies_api.problems.codes import ERROR_CODES
from spies_core.registry import GAMES

__all__ = [
    "COMMAND_PATH",
    "METRICS_PATH",
    "CommandMetrics",
    "MetricsController",
    "bot_decided",
    "deadline_fired",
    "due_retried",
    "game_label",
    "problem_answered",
    "prometheus_config",
    "track_streams",
    "written",
]

METRICS_PATH: Final = "/metrics"
COMMAND_PATH: Final = "/games/{game_id}/commands"
"""The route template of a command (as Litestar names it in the scope)."""
UNKNOWN: Final = "unknown"
_CODES: Final = frozenset(entry.code for entry in ERROR_CODES) | {"too-many-requests"}
_STORE_CODES: Final = frozenset({"store-unavailable", "storage-full", "database-busy"})
_LATENCY_BUCKETS: Final = (
    0.0005,
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
    10.0,
)

COMMAND_SECONDS: Final = Histogram(
    "spies_command_duration_seconds",
    "Time to answer POST /games/{game_id}/commands, by game",
    ["game"],
    buckets=_LATENCY_BUCKETS,
)
COMMANDS: Final = Counter(
    "spies_commands",
    "Commands answered, by game, outcome (accepted, replayed, refused) and problem code",
    ["game", "outcome", "code"],
)
APPENDS: Final = Counter(
    "spies_appends", "Writes this process committed, by game and kind", ["game", "kind"]
)
CONFLICTS: Final = Counter("spies_version_conflicts", "409 version-conflict answers")
OPEN_STREAMS: Final = Gauge("spies_open_streams", "Event streams open now")
BOT_DECISIONS: Final = Counter(
    "spies_bot_decisions",
    "Bot decisions, by bot, game and outcome (chosen, fallback)",
    ["bot", "game", "outcome"],
)
BOT_SECONDS: Final = Histogram(
    "spies_bot_decision_seconds",
    "Time a bot took to decide, by bot and game",
    ["bot", "game"],
    buckets=_LATENCY_BUCKETS,
)
DEADLINES: Final = Counter(
    "spies_deadlines_fired",
    "Deadlines the scheduler fired, by game and event (clock_expired, clocks_resumed,"
    " game_abandoned)",
    ["game", "event"],
)
STORE_ERRORS: Final = Counter(
    "spies_store_errors", "Answers for a database error, by problem code", ["code"]
)
DUE_RETRIES: Final = Counter(
    "spies_due_retries",
    "Due work stopped by a transient failure and tried again later, by work and code",
    ["work", "code"],
)
_RETRY_CODES: Final = _STORE_CODES | {"bot-worker-lost"}


def game_label(game: str | None) -> str:
    """A registered game id, else ``unknown``."""
    return game if game is not None and game in GAMES else UNKNOWN


def _code_label(code: object) -> str:
    return code if isinstance(code, str) and code in _CODES else "other"


def problem_answered(code: str) -> None:
    """Count a problem answered (any route): the store's errors and conflicts."""
    if code in _STORE_CODES:
        STORE_ERRORS.labels(code).inc()
    elif code == "version-conflict":
        CONFLICTS.inc()


def written(game: str | None, kind: str) -> None:
    """Count a write this process committed."""
    APPENDS.labels(game_label(game), kind).inc()


def bot_decided(bot: str, game: str, seconds: float, fallback: bool) -> None:  # noqa: FBT001
    """Count one bot decision and its time (``bot``: a bot the server runs)."""
    label = game_label(game)
    BOT_DECISIONS.labels(bot, label, "fallback" if fallback else "chosen").inc()
    BOT_SECONDS.labels(bot, label).observe(seconds)


def deadline_fired(game: str, event: str) -> None:
    """Count a deadline the scheduler recorded."""
    DEADLINES.labels(game_label(game), event).inc()


def due_retried(work: str, code: str) -> None:
    """Count one retry of due work (``work``: one of the scheduler's ``DueWork``; ``code``:
    the transient failure's, ``other`` for any outside the fixed set)."""
    DUE_RETRIES.labels(work, code if code in _RETRY_CODES else "other").inc()


def track_streams(count: Callable[[], int]) -> None:
    """Read the open streams from ``count`` at each scrape."""
    OPEN_STREAMS.set_function(count)


def prometheus_config() -> PrometheusConfig:
    """Litestar's request metrics: by route template (``group_path``), never by the raw
    path; paths that match no route are left out."""
    return PrometheusConfig(
        app_name="spies-api",
        prefix="spies",
        group_path=True,
        exclude_unhandled_paths=True,
        exclude=[f"^{METRICS_PATH}$"],
        buckets=list(_LATENCY_BUCKETS),
    )


class MetricsController(PrometheusController):
    """``GET /metrics`` (Litestar's controller), left out of the OpenAPI document."""

    path = METRICS_PATH
    include_in_schema = False


class CommandMetrics:
    """ASGI middleware: times every command and counts it by game, outcome and code.

    Args:
        app: the next ASGI app.
        game_of: the registered game id of a game id, from the cache only (``None`` when
            the game is not cached or does not exist); never a database read.
    """

    def __init__(self, app: ASGIApp, game_of: Callable[[str], str | None]) -> None:
        self.app = app
        self.game_of = game_of

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("path_template") != COMMAND_PATH or scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        answer: dict[str, Any] = {"status": 500, "replayed": False, "body": b""}

        async def observed(message: Message) -> None:
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
                answer["replayed"] = any(
                    name.lower() == b"idempotent-replayed" for name, _ in message.get("headers", [])
                )
            elif message["type"] == "http.response.body" and answer["status"] >= 400:  # noqa: PLR2004
                answer["body"] += message.get("body", b"")
            await send(message)

        try:
            await self.app(scope, receive, observed)
        finally:
            game_id = scope.get("path_params", {}).get("game_id")
            game = game_label(self.game_of(game_id) if isinstance(game_id, str) else None)
            COMMAND_SECONDS.labels(game).observe(time.perf_counter() - started)
            if answer["status"] < 400:  # noqa: PLR2004
                outcome = "replayed" if answer["replayed"] else "accepted"
                COMMANDS.labels(game, outcome, "").inc()
            else:
                COMMANDS.labels(game, "refused", _code_label(_problem_code(answer["body"]))).inc()


def _problem_code(body: bytes) -> object:
    try:
        document = msgspec.json.decode(body[:4096])
    except msgspec.DecodeError:
        return None
    return document.get("code") if isinstance(document, dict) else None
