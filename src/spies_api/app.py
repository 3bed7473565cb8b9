"""``create_app(settings)``: the Litestar application of the spies engine.

It wires the controllers, the game service (the one dependency, provided at the app layer),
the bot runner (a background task of the lifespan that plays bot seats,
:mod:`spies_api.table.bots`),
the one error table (problem details for every exception), the OpenAPI document and its
interactive docs, the web client (:mod:`spies_api.http.webapp`), the body-size limit, the optional
per-client rate limit and structlog.
The database is opened, created and migrated at startup (or by the first request of a test
client used without startup).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from litestar import Litestar
from litestar.di import Provide
from litestar.middleware.rate_limit import RateLimitConfig
from litestar.plugins.problem_details import ProblemDetailsConfig, ProblemDetailsPlugin

from spies_api.http import ROUTE_HANDLERS
from spies_api.http.dependencies import ServiceHolder
from spies_api.http.webapp import WEB_ROUTE_HANDLERS
from spies_api.logging import configure_logging
from spies_api.openapi.plugins import (
    DocumentedSchemaPlugin,
    TaggedUnionSchemaPlugin,
    openapi_config,
)
from spies_api.problems.errors import to_problem
from spies_api.settings import Settings, parse_rate
from spies_api.table.bots import BotRunner

__all__ = ["create_app"]


def create_app(settings: Settings | None = None) -> Litestar:
    """Build the app.

    Args:
        settings: how to run (default: ``spies.db`` in the working directory, 64 KiB bodies,
            15 s keep-alives); see :class:`~spies_api.settings.Settings`.

    Returns:
        The Litestar app; serve it with any ASGI server (``spies-api`` uses uvicorn).
    """
    settings = settings if settings is not None else Settings()
    if settings.configure_logging:
        configure_logging(json=settings.log_json)
    holder = ServiceHolder(settings)
    middleware = []
    if settings.rate_limit is not None:
        # Litestar's fixed-window limit per client address; 429s become problem details
        # with Retry-After (spies_api.problems.errors). The docs pages are not counted.
        limit = RateLimitConfig(rate_limit=parse_rate(settings.rate_limit), exclude=["^/schema"])
        middleware.append(limit.middleware)

    def open_store(_: Litestar) -> None:
        holder.get()

    def close_store(_: Litestar) -> None:
        holder.close()

    bot_tasks: list[asyncio.Task[None]] = []

    def start_bots(_: Litestar) -> None:
        bot_tasks.append(asyncio.get_running_loop().create_task(BotRunner(holder.get()).run()))

    async def stop_bots(_: Litestar) -> None:
        while bot_tasks:
            task = bot_tasks.pop()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    app = Litestar(
        route_handlers=[*ROUTE_HANDLERS, *WEB_ROUTE_HANDLERS],
        dependencies={
            "service": Provide(holder.get, sync_to_thread=False),
        },
        on_startup=[open_store, start_bots],
        on_shutdown=[stop_bots, close_store],  # in this order: the bots stop first
        plugins=[
            ProblemDetailsPlugin(
                ProblemDetailsConfig(exception_to_problem_detail_map={Exception: to_problem})
            ),
            DocumentedSchemaPlugin(),
            TaggedUnionSchemaPlugin(),
        ],
        openapi_config=openapi_config(),
        request_max_body_size=settings.max_body_bytes,
        middleware=middleware,
        logging_config=None,
        debug=False,
    )
    app.state.service_holder = holder
    return app


def service_of(app: Litestar) -> Any:
    """The app's :class:`~spies_api.service.GameService` (opened if needed; tests, tools)."""
    return app.state.service_holder.get()
