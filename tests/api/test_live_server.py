"""Over real sockets: the console script starts on a fresh machine, and a dropped event
stream resumes from ``Last-Event-ID`` with nothing lost and nothing twice."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from litestar import Litestar

from spies_api import Settings
from spies_api.app import service_of
from spies_api.game import submit_command
from spies_core.registry import GAMES
from spies_replay.store.sqlite import SQLiteEventStore
from tests.support import processes
from tests.support.api import Game, messages, play_to_end, post_legal
from tests.support.servers import free_port, serve_in_thread, wait_until_up
from tests.support.waiting import until


def test_the_console_script_serves_a_fresh_database(tmp_path: Path) -> None:
    db = tmp_path / "spies.db"  # a fresh file; its directory must exist
    port = free_port()
    server = processes.start(
        [sys.executable, "-m", "spies_api", "--db", str(db), "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_up(base)
        assert db.exists()
        created = httpx.post(f"{base}/games", json={"game": "deck-of-spies"}).json()
        assert httpx.get(f"{base}/games/{created['id']}").json()["status"] == "active"
        streamed: list[str] = []

        def listen() -> None:  # an open event stream must not hold the shutdown up
            url = f"{base}/games/{created['id']}/events/stream"
            with httpx.stream("GET", url, timeout=30) as response:
                streamed.extend(response.iter_lines())

        listener = threading.Thread(target=listen)
        listener.start()
        until(lambda: "id: 1" in streamed, what="the stream's first event")
    finally:
        server.terminate()
        _, stderr = server.communicate(timeout=20)
        processes.end(server)
    listener.join(timeout=10)
    assert not listener.is_alive() and "id: 1" in streamed
    # the stream ended when the shutdown began, not when uvicorn's grace period ran out
    assert b"timeout graceful shutdown exceeded" not in stderr
    assert b'"event":"game_created"' in stderr
    assert created["seats"][0]["token"].encode() not in stderr


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[str, Litestar]]:
    """The app served by uvicorn in a thread, on a free loopback port."""
    settings = Settings(
        db_path=tmp_path / "live.db",
        sse_keepalive_seconds=0.1,
        sse_poll_seconds=0.1,
        log_json=True,
    )
    with serve_in_thread(settings) as served:
        yield served


def test_a_dropped_stream_resumes_after_last_event_id(live: tuple[str, Litestar]) -> None:
    base, app = live
    service = service_of(app)
    with httpx.Client(base_url=base, timeout=10.0) as http:
        created = http.post("/games", json={"game": "deck-of-spies", "seed": "live"}).json()
        tokens = [seat["token"] for seat in created["seats"]]
        game = Game(
            id=created["id"],
            game="deck-of-spies",
            seats={0: {"Authorization": f"Bearer {tokens[0]}"}},
            tokens=tokens,
        )
        seen: list[int] = []
        keepalives = 0
        url = game.url("/events/stream")
        with http.stream("GET", url, headers=game.seats[0]) as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            incoming = messages(stream)
            while not seen or seen[-1] < created["version"] or not keepalives:
                message = next(incoming)
                if "id" in message:
                    seen.append(message["id"])
                else:
                    keepalives += 1
            accepted = post_legal(http, game)  # delivered live, through the notifier
            while seen[-1] < accepted["version"]:
                message = next(incoming)
                if "id" in message:
                    assert message["data"]["seq"] == message["id"]
                    seen.append(message["id"])
        # the connection is gone; the server lets go of the stream
        until(
            lambda: service.notifier.waiting(game.id) == 0,
            timeout=5,
            what="the server to let go of the stream",
        )

        post_legal(http, game)  # meanwhile, through the API

        marks: dict[str, Any] = {}
        polled = threading.Event()

        def append_elsewhere_then_finish() -> None:
            # the stream is connected and caught up: it has sent the event appended meanwhile
            # and waits for the next
            until(lambda: resumed and service.notifier.waiting(game.id) == 1, what="the stream")
            legal = http.get(game.url("/legal"), headers=game.seats[0]).json()
            command = msgspec.convert(legal["commands"][0], GAMES["deck-of-spies"].command_type)
            with SQLiteEventStore(service.store.path) as other_process:  # not this app's notifier
                marks["elsewhere"] = submit_command(other_process, game.id, 0, command).version
            # nothing else happens in this process until the stream has found that event
            marks["polled"] = polled.wait(timeout=30)
            play_to_end(http, game, random.Random(3))  # type: ignore[arg-type]

        resumed: list[int] = []
        player = threading.Thread(target=append_elsewhere_then_finish)
        player.start()
        try:
            headers = {**game.seats[0], "Last-Event-ID": str(seen[-1])}
            with http.stream("GET", url, headers=headers) as stream:
                for message in messages(stream):
                    if "id" in message:
                        resumed.append(message["id"])
                        if message["id"] == marks.get("elsewhere"):
                            polled.set()
                        last = message["data"]
        finally:
            player.join()
        final = http.get(game.url()).json()
    assert final["status"] == "finished"
    assert resumed == list(range(seen[-1] + 1, final["version"] + 1))
    assert seen + resumed == list(range(1, final["version"] + 1))
    assert last["type"] == "seed_revealed"
    assert marks["polled"]  # the other process's append was found (the file's watch)
