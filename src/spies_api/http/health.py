"""``GET /healthz`` and ``GET /readyz``: for supervisors and load balancers, not players.

``/healthz`` says the process is alive: it answers from the event loop and never asks the
database, so an outage of the database never makes a supervisor restart a process that
would reconnect by itself. ``/readyz`` says whether to send this process traffic: the
database answers (within :data:`READY_TIMEOUT_SECONDS`) and has every migration this code
knows; otherwise 503 ``not-ready`` with a ``reason`` (``draining`` once the process got
SIGTERM, ``store-unavailable``, ``database-busy``, ``migrations-pending``). The database's
answer is kept for :data:`READY_CACHE_SECONDS` (:class:`ReadinessProbe`): a flood of
``/readyz`` asks the database at most once in that time, and callers that arrive while it is
being asked share that one question.

While the process drains (:class:`Lifecycle`), :class:`DrainMiddleware` adds
``Connection: close`` to every answer, so kept-alive connections end after their current
request instead of being cut when the process stops listening. Neither path is counted by
the rate limit (:data:`OPERATIONS_PATHS`); they have the bucket of the free paths.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
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

__all__ = [
    "OPERATIONS_PATHS",
    "READY_CACHE_SECONDS",
    "READY_TIMEOUT_SECONDS",
    "DrainMiddleware",
    "HealthController",
    "Lifecycle",
    "ReadinessProbe",
]

READY_TIMEOUT_SECONDS: Final = 3.0
"""How long ``/readyz`` waits for the database before it says ``store-unavailable``."""

READY_CACHE_SECONDS: Final = 1.0
"""How long ``/readyz`` answers from the database's last answer before asking it again."""

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


@dataclass(frozen=True, slots=True)
class _NotReady:
    """Why the store is not ready: :class:`NotReadyError`'s arguments (a fresh exception is
    raised for each answer)."""

    detail: str
    reason: str


class ReadinessProbe:
    """The store's readiness, asked at most once every ``ttl`` seconds.

    The first caller after ``ttl`` asks the store; callers that come while it asks get the
    previous answer (or, before there is one, wait for it). So a flood of probes costs one
    store question a ``ttl``, whatever its rate.

    Args:
        ttl: how long an answer is used.
        clock: seconds, monotonic.
    """

    def __init__(
        self, ttl: float = READY_CACHE_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.ttl = ttl
        self.clock = clock
        self._answer: Readiness | _NotReady | None = None
        self._asked_at = -ttl
        self._asking: asyncio.Event | None = None

    async def check(self, store: EventStore) -> Readiness:
        """The store's readiness.

        Raises:
            NotReadyError: the store did not answer in time, is busy or lacks migrations.
        """
        if self._asking is None and self.clock() - self._asked_at >= self.ttl:
            self._asking = asking = asyncio.Event()
            self._asked_at = self.clock()
            try:
                self._answer = await _ask(store)
            finally:
                self._asking = None
                asking.set()
        while self._answer is None and self._asking is not None:  # the first question
            await self._asking.wait()
        answer = self._answer
        if answer is None:  # the first asker was cancelled before the store answered
            answer = self._answer = await _ask(store)
        if isinstance(answer, _NotReady):
            raise NotReadyError(answer.detail, reason=answer.reason)
        return answer


async def _ask(store: EventStore) -> Readiness | _NotReady:
    """Ask the store whether it answers, within :data:`READY_TIMEOUT_SECONDS`, and has every
    migration this code knows."""
    pending: list[str] | None = None
    try:
        with anyio.move_on_after(READY_TIMEOUT_SECONDS):
            pending = await anyio.to_thread.run_sync(
                store.pending_migrations, abandon_on_cancel=True
            )
    except SpiesError as exc:  # the store's: database-busy, store-unavailable, store-closed
        busy = exc.code == "database-busy"
        return _NotReady(
            "the database is held by another writer"
            if busy
            else "the database cannot be reached; the process reconnects by itself",
            "database-busy" if busy else "store-unavailable",
        )
    if pending is None:
        return _NotReady(
            f"the database did not answer within {READY_TIMEOUT_SECONDS:g} s", "store-unavailable"
        )
    if pending:
        return _NotReady(
            f"the database lacks {counted(len(pending), 'migration')} of this code"
            " (another process is migrating it, or it needs a restart)",
            "migrations-pending",
        )
    return Readiness(backend=store.backend)


class HealthController(Controller):
    """Liveness and readiness."""

    tags = ["operations"]  # noqa: RUF012  (Litestar's own attribute)

    @get("/healthz", sync_to_thread=False, **documented("healthz"))
    def healthz(self) -> Health:
        """Alive."""
        return Health()

    @get("/readyz", **documented("readyz"))
    async def readyz(
        self,
        store: Provided[EventStore],
        lifecycle: Provided[Lifecycle],
        readiness: Provided[ReadinessProbe],
    ) -> Readiness:
        """Ready for traffic, or 503 ``not-ready`` with the reason."""
        if lifecycle.draining:
            raise NotReadyError(
                "this process is shutting down: send new requests to another one",
                reason="draining",
            )
        return await readiness.check(store)


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
