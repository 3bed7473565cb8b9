"""``GET /healthz`` and ``GET /readyz``: for supervisors and load balancers, not players.

``/healthz`` says the process is alive: it answers from the event loop and never asks the
database, so an outage of the database never makes a supervisor restart a process that
would reconnect by itself. ``/readyz`` says whether to send this process traffic: the
database answers (within :data:`READY_TIMEOUT_SECONDS`) and has every migration this code
knows; otherwise 503 ``not-ready`` with a ``reason`` (``draining`` once the process got
SIGTERM, ``store-unavailable``, ``database-busy``, ``migrations-pending``).

While the process drains (:class:`Lifecycle`), :class:`DrainMiddleware` adds
``Connection: close`` to every answer, so kept-alive connections end after their current
request instead of being cut when the process stops listening. Neither path is counted by
the rate limit (:data:`OPERATIONS_PATHS`).
"""

from __future__ import annotations

from typing import Final

import anyio
from litestar import Controller, get
from litestar.enums import ScopeType
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from spies_api.http.dependencies import Provided
from spies_api.openapi.operations import documented
from spies_api.problems.errors import NotReadyError
from spies_api.schemas import Health, Readiness
from spies_core.errors import SpiesError
from spies_core.words import counted
from spies_replay.store.protocols import EventStore
from spies_replay.store.sqlite import SQLiteEventStore

__all__ = [
    "OPERATIONS_PATHS",
    "READY_TIMEOUT_SECONDS",
    "DrainMiddleware",
    "HealthController",
    "Lifecycle",
]

READY_TIMEOUT_SECONDS: Final = 3.0
"""How long ``/readyz`` waits for the database before it says ``store-unavailable``."""

OPERATIONS_PATHS: Final = ("^/healthz$", "^/readyz$", "^/metrics$")
"""The operators' paths, as patterns (what a rate limit leaves out)."""


class Lifecycle:
    """Where the process is in its life: serving, or draining after SIGTERM.

    Attributes:
        draining: ``True`` from the first SIGTERM on: ``/readyz`` says ``draining`` and
            every answer closes its connection.
    """

    def __init__(self) -> None:
        self.draining = False


class HealthController(Controller):
    """Liveness and readiness."""

    tags = ["operations"]  # noqa: RUF012  (Litestar's own attribute)

    @get("/healthz", sync_to_thread=False, **documented("healthz"))
    def healthz(self) -> Health:
        """Alive."""
        return Health()

    @get("/readyz", **documented("readyz"))
    async def readyz(
        self, store: Provided[EventStore], lifecycle: Provided[Lifecycle]
    ) -> Readiness:
        """Ready for traffic, or 503 ``not-ready`` with the reason."""
        if lifecycle.draining:
            raise NotReadyError(
                "this process is shutting down: send new requests to another one",
                reason="draining",
            )
        pending: list[str] | None = None
        try:
            with anyio.move_on_after(READY_TIMEOUT_SECONDS):
                pending = await anyio.to_thread.run_sync(
                    store.pending_migrations, abandon_on_cancel=True
                )
        except SpiesError as exc:  # the store's: database-busy, store-unavailable, store-closed
            busy = exc.code == "database-busy"
            raise NotReadyError(
                "the database is held by another writer"
                if busy
                else "the database cannot be reached; the process reconnects by itself",
                reason="database-busy" if busy else "store-unavailable",
            ) from None
        if pending is None:
            raise NotReadyError(
                f"the database did not answer within {READY_TIMEOUT_SECONDS:g} s",
                reason="store-unavailable",
            )
        if pending:
            raise NotReadyError(
                f"the database lacks {counted(len(pending), 'migration')} of this code"
                " (another process is migrating it, or it needs a restart)",
                reason="migrations-pending",
            )
        return Readiness(backend="sqlite" if isinstance(store, SQLiteEventStore) else "postgresql")


class DrainMiddleware:
    """ASGI middleware: while the process drains, every answer says ``Connection: close``.

    Args:
        app: the next ASGI app.
        lifecycle: the process's lifecycle.
    """

    def __init__(self, app: ASGIApp, lifecycle: Lifecycle) -> None:
        self.app = app
        self.lifecycle = lifecycle

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await self.app(scope, receive, send)
            return

        async def closing(message: Message) -> None:
            if message["type"] == "http.response.start" and self.lifecycle.draining:
                headers = [
                    (name, value)
                    for name, value in message.get("headers", [])
                    if name.lower() != b"connection"
                ]
                message = {**message, "headers": [*headers, (b"connection", b"close")]}
            await send(message)

        await self.app(scope, receive, closing)
