"""Fixtures of the tests that go through the API (``tests/api/conftest.py`` and
``tests/attack/conftest.py`` provide them): an app on a temporary database, the parts it
serves (``runtime``) and a test client.

A test that needs the app's parts (its store, its streams, ...) takes the ``runtime``
fixture, or builds its app with :func:`open_app`, which hands the parts it opened (with any
of them overridden) to :func:`spies_api.create_app` and returns both: nothing is read back
out of an app but the event its read-ahead sets when it ends (:func:`read_ahead`).

Every response the ``client`` fixture receives is checked against the app's own OpenAPI
document (documented status, media type and schema), so each test also checks the
published contract; :func:`contract_check` does the same for any ``httpx.Client``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import httpx
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings, create_app
from spies_api.app import Runtime
from spies_api.openapi.document import openapi_document
from spies_replay.store.records import Clock, utc_now

from .schema_check import ResponseChecker

__all__ = [
    "OpenApp",
    "app",
    "checker",
    "client",
    "contract_check",
    "open_app",
    "read_ahead",
    "runtime",
    "settings",
]


class OpenApp(NamedTuple):
    """An app and the parts it serves."""

    app: Litestar
    runtime: Runtime


def open_app(settings: Settings, *, clock: Clock = utc_now, **parts: Any) -> OpenApp:
    """Open the parts of ``settings`` (``parts`` replaces any of them by name, e.g. a
    ``store`` the routes are given instead of the real one) and build the app over them.

    The app closes the parts at its shutdown (a ``with TestClient(app)`` block's end).
    """
    runtime = Runtime.open(settings, clock)
    if parts:
        runtime = dataclasses.replace(runtime, **parts)
    return OpenApp(create_app(runtime=runtime), runtime)


@pytest.fixture(scope="session")
def checker() -> ResponseChecker:
    return ResponseChecker(openapi_document())


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(
        db_path=tmp_path / "spies.db",
        sse_keepalive_seconds=0.05,
        sse_poll_seconds=0.05,
        snapshot_every=16,
        log_json=True,
    )


@pytest.fixture
def runtime(settings: Settings) -> Runtime:
    """The parts the ``app`` fixture serves."""
    return Runtime.open(settings)


@pytest.fixture
def app(runtime: Runtime) -> Litestar:
    return create_app(runtime=runtime)


def contract_check(checker: ResponseChecker) -> Callable[[httpx.Response], None]:
    """An httpx response hook that checks each response against the OpenAPI document."""

    def check(response: httpx.Response) -> None:
        response.read()
        request = response.request
        checker.check(
            request.method,
            request.url.path,
            response.status_code,
            response.headers.get("content-type", ""),
            response.content,
        )

    return check


@pytest.fixture
def client(app: Litestar, checker: ResponseChecker) -> Iterator[TestClient[Litestar]]:
    with TestClient(app=app) as test_client:
        test_client.event_hooks = {"request": [], "response": [contract_check(checker)]}
        read_ahead(app)
        yield test_client


def read_ahead(app: Litestar) -> None:
    """Wait for the app's read-ahead of the games in use (started with the app, on its own
    task and thread) to end, so that its store reads and log line do not land in a test."""
    assert app.state.warmed.wait(30), "the app's read-ahead did not end in 30 s"
