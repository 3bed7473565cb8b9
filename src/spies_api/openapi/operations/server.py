"""The operations of the process itself, not the game API (no token; the free paths' bucket):
liveness and readiness."""

from __future__ import annotations

from typing import Final

from spies_api.openapi.examples import free_path_limited, not_ready
from spies_api.openapi.operations.common import Operation, ok
from spies_api.schemas import Health, Readiness

__all__ = ["SERVER_OPERATIONS"]

SERVER_OPERATIONS: Final[dict[str, Operation]] = {
    "healthz": Operation(
        summary="Liveness",
        description=(
            "200 while the process is alive and its event loop answers; the database is not"
            " asked, so a database outage never makes a process look dead (restarting it"
            " would not help). For a supervisor's liveness probe; not counted by the rate"
            " limit (its own bucket per client, far above any prober's rate)."
        ),
        responses={
            200: ok(Health, "Alive.", ("Alive", {"status": "ok"})),
            **free_path_limited(),
        },
    ),
    "readyz": Operation(
        summary="Readiness",
        description=(
            "200 when this process may be sent traffic: its database answers within a few"
            " seconds and has every migration this code knows. Otherwise 503 `not-ready`"
            " with `Retry-After` and a `reason`: `draining` (it got SIGTERM and is finishing"
            " its requests: send new ones elsewhere), `store-unavailable` or `database-busy`"
            " (the database; the process reconnects by itself), `migrations-pending`. The"
            " database is asked at most once a second: its answer is kept for a second. For a"
            " load balancer's health check; not counted by the rate limit (its own bucket per"
            " client, far above any prober's rate)."
        ),
        responses={
            200: ok(Readiness, "Ready.", ("Ready", {"status": "ready", "backend": "sqlite"})),
            **free_path_limited(),
            **not_ready(),
        },
    ),
}
"""The operations of the process itself, by operation id."""
