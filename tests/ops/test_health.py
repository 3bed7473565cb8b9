"""``/healthz`` never asks the database; ``/readyz`` does, and says why it is not ready."""

from __future__ import annotations

from pathlib import Path

import pytest
from litestar.testing import TestClient

from spies_replay.errors import StoreBusyError, StoreUnavailableError

from .helpers import app_on, open_on


def test_healthz_and_readyz_answer_when_all_is_well(tmp_path: Path) -> None:
    with TestClient(app_on(tmp_path)) as client:
        assert client.get("/healthz").json() == {"status": "ok"}
        assert client.get("/readyz").json() == {"status": "ready", "backend": "sqlite"}


@pytest.mark.parametrize(
    ("failure", "reason"),
    [
        (StoreUnavailableError("spies.db", "gone"), "store-unavailable"),
        (StoreBusyError("spies.db"), "database-busy"),
        (None, "migrations-pending"),
    ],
)
def test_readyz_says_why_the_store_is_not_ready_and_healthz_does_not_ask_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: Exception | None, reason: str
) -> None:
    app, runtime = open_on(tmp_path)
    with TestClient(app) as client:
        store = runtime.store
        asked: list[int] = []

        def pending() -> list[str]:
            asked.append(1)
            if failure is not None:
                raise failure
            return ["0005_future"]

        monkeypatch.setattr(store, "pending_migrations", pending)
        answer = client.get("/readyz")
        assert answer.status_code == 503
        assert answer.headers["content-type"].startswith("application/problem+json")
        assert answer.headers["retry-after"].isdigit()
        assert answer.json()["code"] == "not-ready" and answer.json()["reason"] == reason
        assert asked == [1]
        assert client.get("/healthz").status_code == 200
        assert asked == [1]  # liveness never touched the store


def test_while_draining_readyz_is_503_and_every_answer_closes_its_connection(
    tmp_path: Path,
) -> None:
    app = app_on(tmp_path)
    with TestClient(app) as client:
        assert client.get("/games").headers.get("connection") != "close"
        app.state.lifecycle.draining = True
        answer = client.get("/readyz")
        assert (answer.status_code, answer.json()["reason"]) == (503, "draining")
        served = client.get("/games")
        assert served.status_code == 200  # still served while draining...
        assert served.headers["connection"] == "close"  # ...but not kept alive
        assert client.get("/healthz").status_code == 200


def test_health_paths_are_not_rate_limited(tmp_path: Path) -> None:
    with TestClient(app_on(tmp_path, rate_limit="3/minute")) as client:
        statuses = {client.get(path).status_code for path in ["/healthz", "/readyz"] * 10}
        assert statuses == {200}
        games = [client.get("/games").status_code for _ in range(5)]
        assert 429 in games  # the limit is on, for the game API
