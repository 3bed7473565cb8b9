"""A running server sees an operator's abort (``spies-replay abort``, another process on the
same log): its cached head stops accepting commands, and its summaries, views, legal
commands, events and streams show the end.

A process learns of another writer's append in two ways, and each is tested alone: the
version check of its own next append (the store's watch turned off here, so the cached head
is stale when the command comes), and the store's watch (SQLite's commit counter,
PostgreSQL's notifications), which wakes a stream that waits on the game while the servers'
own safety poll waits a minute.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings, create_app
from spies_core.registry import GAMES
from spies_replay.cli import main
from spies_replay.cli.bots import REGISTERED_BOTS
from spies_replay.store.postgres import PostgresEventStore
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.transfer import read_export
from spies_replay.verify import verify_log
from tests.support.api import assert_problem, messages
from tests.support.backends import BACKENDS, fresh_backend
from tests.support.servers import serve_in_thread

from .helpers import Game, new_game, play_turn

ABORTED = {"winners": [], "reason": "aborted", "draw": False, "scores": []}


def abort(db: str, game_id: str, reason: str = "a runaway table") -> int:
    """``spies-replay abort`` in this process, as another writer on the log."""
    return main(["--db", db, "abort", game_id, "--reason", reason], stdout=io.StringIO())


@pytest.fixture(params=BACKENDS)
def unwatched(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[tuple[str, TestClient[Litestar]]]:
    """An app whose store hears of no other writer: only its own appends' version checks
    tell it the log moved on. The database's location, and a client of the app."""

    def no_watch(self: object, *callbacks: object) -> Callable[[], None]:
        return lambda: None

    def no_loop_watch(self: object, *callbacks: object) -> None:
        return None  # the thread's watch instead: the one above

    monkeypatch.setattr(SQLiteEventStore, "watch", no_watch)
    monkeypatch.setattr(PostgresEventStore, "watch", no_watch)
    monkeypatch.setattr(PostgresEventStore, "loop_watch", no_loop_watch)
    with fresh_backend(request.param, tmp_path) as found:
        app = create_app(Settings(db_path=found.location, log_json=True))
        with TestClient(app=app) as client:
            yield found.location, client


def test_a_stale_cached_head_accepts_no_command_after_an_abort(
    unwatched: tuple[str, TestClient[Litestar]],
) -> None:
    location, client = unwatched
    game = new_game(client, "black-spy", 3, seed="abort")
    rng = random.Random(27)
    for _ in range(4):
        play_turn(client, game, rng)  # the server's head of the game is cached and current
    summary = client.get(game.url()).json()
    seat = summary["to_act"][0]
    legal = client.get(game.url("/legal"), headers=game.seats[seat]).json()
    assert abort(location, game.id) == 0
    aborted_at = summary["version"] + 2

    refused = client.post(
        game.url("/commands"), headers=game.seats[seat], json={"command": legal["commands"][0]}
    )
    assert_problem(refused, 422, "game-over")
    again = client.post(
        game.url("/commands"),
        headers=game.seats[seat],
        json={"command": legal["commands"][0], "expected_version": legal["version"]},
    )
    assert_problem(again, 422, "game-over")

    summary = client.get(game.url()).json()
    assert (summary["status"], summary["version"], summary["to_act"]) == (
        "finished",
        aborted_at,
        [],
    )
    assert summary["outcome"] == ABORTED
    legal = client.get(game.url("/legal"), headers=game.seats[seat]).json()
    assert legal["commands"] == [] and legal["note"] == "the game is over"
    assert client.get(game.url("/view"), headers=game.seats[seat]).json()["version"] == aborted_at
    tail = client.get(game.url("/events"), params={"after": aborted_at - 2}).json()["events"]
    assert [(e["type"], e.get("reason"), e.get("detail")) for e in tail] == [
        ("game_aborted", "aborted", "a runaway table"),
        ("seed_revealed", None, None),
    ]
    exported = client.get(game.url("/export"))
    assert exported.status_code == 200
    report = verify_log(GAMES, *read_export(exported.content.splitlines()), bots=REGISTERED_BOTS)
    assert report.report.ok, report.report.problem


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_stream_on_a_running_server_sees_an_abort_by_another_process(
    backend: str, tmp_path: Path
) -> None:
    with fresh_backend(backend, tmp_path) as found:
        settings = Settings(db_path=found.location, sse_poll_seconds=60.0, log_json=True)
        with (
            serve_in_thread(settings) as (base, _),
            httpx.Client(base_url=base, timeout=20.0) as http,
        ):
            created = http.post("/games", json={"game": "black-spy", "players": 3}).json()
            game = Game(
                id=created["id"],
                game="black-spy",
                seats={
                    s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in created["seats"]
                },
                tokens=[s["token"] for s in created["seats"]],
            )
            legal = http.get(game.url("/legal"), headers=game.seats[0]).json()["commands"]
            seen: list[dict[str, Any]] = []
            with http.stream("GET", game.url("/events/stream"), headers=game.seats[0]) as stream:
                events: Iterator[dict[str, Any]] = (m for m in messages(stream) if "id" in m)
                while not seen or seen[-1]["id"] < created["version"]:
                    seen.append(next(events))
                # the stream is caught up and idle: only the store's watch wakes it in time
                assert abort(found.location, game.id, "left the table") == 0
                seen.extend(events)  # to the stream's end, after seed_revealed
            assert [m["data"]["type"] for m in seen[-2:]] == ["game_aborted", "seed_revealed"]
            assert seen[-2]["data"]["detail"] == "left the table"
            summary = http.get(game.url()).json()
            assert summary["status"] == "finished" and summary["outcome"] == ABORTED
            refused = http.post(
                game.url("/commands"), headers=game.seats[0], json={"command": legal[0]}
            )
            assert refused.status_code == 422 and refused.json()["code"] == "game-over"
