"""Fixtures of the tests that go through the API (``tests/api/conftest.py`` and
``tests/attack/conftest.py`` provide them): an app on a temporary database and a test
client.

Every response the ``client`` fixture receives is checked against the app's own OpenAPI
document (documented status, media type and schema), so each test also checks the
published contract; :func:`contract_check` does the same for any ``httpx.Client``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings, create_app
from spies_api.openapi.document import openapi_document

from .schema_check import ResponseChecker

__all__ = ["app", "checker", "client", "contract_check", "settings"]


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
def app(settings: Settings) -> Litestar:
    return create_app(settings)


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
        yield test_client
