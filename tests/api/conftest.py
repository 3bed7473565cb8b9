"""Fixtures for the API tests: an app on a temporary database and a test client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings, create_app


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


@pytest.fixture
def client(app: Litestar) -> Iterator[TestClient[Litestar]]:
    with TestClient(app=app) as test_client:
        yield test_client
