"""Another process's command makes this process's cached head stale, heard on this
process's event loop on PostgreSQL (the store's :meth:`loop_watch`, no thread woken per
append), from the store's watching thread when commands run on worker threads
(``inline_commands`` off) and on SQLite (its commit counter)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from litestar.testing import TestClient
from structlog.testing import capture_logs

from spies_api import Settings
from spies_replay.store import postgres_listen
from tests.support.api import new_game
from tests.support.apps import open_app
from tests.support.backends import BACKENDS, Backend, fresh_backend
from tests.support.waiting import until

_THREADS = {"postgres": "spies-store-listen", "sqlite": "spies-store-watch"}


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    with fresh_backend(request.param, tmp_path) as opened:
        yield opened


def _watching_threads(backend: Backend) -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == _THREADS[backend.name]]


@pytest.mark.parametrize("inline", [True, False], ids=["inline", "worker-threads"])
def test_another_processs_command_makes_the_cached_head_stale(
    backend: Backend, inline: bool
) -> None:
    settings = Settings(db_path=backend.location, inline_commands=inline, log_json=True)
    before = _watching_threads(backend)
    app, runtime = open_app(settings)
    on_loop = backend.name == "postgres" and inline
    assert (runtime.listener is not None) is on_loop
    with TestClient(app=app) as client:
        assert runtime.warmed.wait(30)
        started = [t for t in _watching_threads(backend) if t not in before]
        assert len(started) == (0 if on_loop else 1)  # no thread when heard on the loop
        game = new_game(client, "deck-of-spies", seed="heard")
        version = client.get(game.url("/legal"), headers=game.seats[0]).json()["version"]
        assert runtime.states.cached(game.id) is not None
        other_app, _ = open_app(settings)
        with TestClient(app=other_app) as other:
            legal = other.get(game.url("/legal"), headers=game.seats[0]).json()
            played: Any = other.post(
                game.url("/commands"),
                headers=game.seats[0],
                json={"command": legal["commands"][0], "expected_version": version},
            )
            assert played.status_code == 200, played.text
        # heard: the head this process held is dropped, and the next read is the new one
        until(lambda: runtime.states.cached(game.id) is None, what="the head to be dropped")
        legal = client.get(game.url("/legal"), headers=game.seats[0]).json()
        assert legal["version"] > version


def test_appends_while_not_listening_leave_no_stale_head(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The listening connection is lost and another process appends before it is back: the
    notice is never heard, so once listening again the process forgets every cached head."""
    if backend.name != "postgres":
        pytest.skip("SQLite's watch reads every append past the last it saw: no gap")
    monkeypatch.setattr(postgres_listen, "_RETRY_SECONDS", 3.0)  # the append comes first
    settings = Settings(db_path=backend.location, log_json=True)
    app, runtime = open_app(settings)
    with TestClient(app=app) as client, capture_logs() as logs:
        assert runtime.warmed.wait(30)
        game = new_game(client, "deck-of-spies", seed="unheard")
        version = client.get(game.url("/legal"), headers=game.seats[0]).json()["version"]
        assert runtime.states.cached(game.id) is not None
        with psycopg.connect(backend.location, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND query LIKE 'LISTEN %'"
            )
        until(lambda: any(line["event"] == "listen_lost" for line in logs), what="the loss")
        other_app, _ = open_app(settings)
        with TestClient(app=other_app) as other:  # its own LISTEN: not the one terminated
            legal = other.get(game.url("/legal"), headers=game.seats[0]).json()
            played = other.post(
                game.url("/commands"),
                headers=game.seats[0],
                json={"command": legal["commands"][0], "expected_version": version},
            )
            assert played.status_code == 200, played.text
        assert runtime.states.cached(game.id) is not None  # not heard: still the old head
        until(lambda: runtime.states.cached(game.id) is None, what="every head forgotten")
        legal = client.get(game.url("/legal"), headers=game.seats[0]).json()
        assert legal["version"] > version
