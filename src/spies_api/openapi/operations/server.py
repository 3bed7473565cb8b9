"""The operations of the process itself, not the game API (no token; the free paths' bucket):
liveness and readiness."""

from __future__ import annotations

from typing import Final

from spies_api.openapi.operations.common import Operation, ok
from spies_api.openapi.problems import problems
from spies_api.schemas import Health, Readiness
from spies_api.settings import DEFAULTS

__all__ = ["SERVER_OPERATIONS"]

_FREE_PATHS: Final = {
    "too-many-requests": "over the per-client bucket of the paths the rate limit does not"
    f" count, `--free-paths-rate-limit`, {DEFAULTS.free_paths_rate_limit} by default",
    "not-ready": "its `reason` one of `draining`, `store-unavailable`, `database-busy`,"
    " `migrations-pending`",
}
"""The notes of the operators' paths: their own rate limit, and why a process is not ready."""

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
            **problems(notes=_FREE_PATHS, every=("too-many-requests",)),
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
            **problems("not-ready", notes=_FREE_PATHS, every=("too-many-requests",)),
        },
    ),
}
"""The operations of the process itself, by operation id."""
