"""Another process's command makes this process's cached head stale, heard on this
process's event loop on PostgreSQL (the store's :meth:`loop_watch`, no thread woken per
append), from the store's watching thread when commands run on worker threads
(``inline_commands`` off) and on SQLite (its commit counter)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from spies_api import Settings
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
