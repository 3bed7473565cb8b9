"""SIGTERM in the middle of a command load: the process drains and exits by itself, no
acknowledged command is lost, no command's connection is cut, and its event streams end
with a ``reconnect`` message after which a client resumes where it was."""

from __future__ import annotations

import json
import logging
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from spies_api import Settings
from spies_api.cli import _listen, _Server, server_config
from tests.support.apps import open_app
from tests.support.servers import read_until_closed, wait_until_up
from tests.support.waiting import until

from .process import Load, acknowledged_lost, spies_api


def follow(base: str, game_id: str, seat: dict[str, str], seen: list[dict[str, Any]]) -> None:
    """Read the game's stream to its end: every message as ``{"event", "id", "data"}``."""
    with (
        httpx.Client(base_url=base, timeout=30.0) as http,
        http.stream("GET", f"/games/{game_id}/events/stream", headers=seat) as stream,
    ):
        message: dict[str, Any] = {}
        for line in stream.iter_lines():
            if not line:
                if message:
                    seen.append(message)
                message = {}
            elif line.startswith(("event:", "id:", "data:", "retry:")):
                name, _, text = line.partition(":")
                message[name] = text.strip()


@pytest.mark.slow  # two real spies-api processes, one after the other
def test_sigterm_drains_finishes_commands_and_loses_nothing(tmp_path: Path) -> None:
    db = str(tmp_path / "spies.db")
    log = tmp_path / "api.log"
    with spies_api(db, log, "--drain-seconds", "3", "--shutdown-timeout", "15") as served:
        with httpx.Client(base_url=served.base) as http:
            created = http.post("/games", json={"game": "deck-of-spies", "seed": "watched"}).json()
        watched = created["id"]
        seat = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
        seen: list[dict[str, Any]] = []
        reader = threading.Thread(target=follow, args=(served.base, watched, seat, seen))
        reader.start()
        load = Load(served.base, clients=6, leave_on_close=True)
        load.start()

        def under_way() -> bool:
            if served.process.poll() is not None:
                raise AssertionError(log.read_text()[-2000:])
            return load.commands_acked() >= 60

        until(under_way, what="60 commands acknowledged")
        acked_before = load.commands_acked()
        served.process.send_signal(signal.SIGTERM)
        status = served.exit_status(timeout=30)
        load.stop()
        reader.join(timeout=30)

    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    events = [line.get("event") for line in lines]
    assert status == 0, log.read_text()[-3000:]
    assert "api_draining" in events and "api_shutdown_timed_out" not in events
    # no command's connection was cut: a client saw either an answer or a refused connection
    assert load.failures["reset"] == 0 and load.failures["timeout"] == 0, load.failures
    assert not any(key.startswith("command 5") for key in load.statuses), load.statuses
    # requests were still served while draining: each client's next answer said to close
    # (a client leaves on it, after its legal-moves read or its command, whichever came)
    assert load.closing > 0, load.statuses
    # the stream's last message says to reconnect, after the last seq it sent
    assert seen and seen[-1].get("event") == "reconnect", seen[-3:]
    last_seq = max((int(m["id"]) for m in seen if "id" in m), default=0)
    assert json.loads(seen[-1]["data"]) == {"reason": "shutdown", "after": last_seq}

    with spies_api(db, log) as again:  # every acknowledged command is in the log
        assert acknowledged_lost(again.base, load.acked) == []
        with httpx.Client(base_url=again.base) as http:
            resumed = http.get(f"/games/{watched}/events?after={last_seq}", headers=seat).json()
            assert [event["seq"] for event in resumed["events"]] == list(
                range(last_seq + 1, resumed["version"] + 1)
            )
    verify = subprocess.run(
        [sys.executable, "-m", "spies_replay", "--db", db, "verify", "--all"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert verify.returncode == 0, verify.stdout + verify.stderr
    print(  # the figures of the run, for the report (pytest -s)
        f"\nSIGTERM run: {load.commands_acked()} commands acknowledged ({acked_before} before"
        f" the signal), lost 0; answers {dict(load.statuses)}; connection failures"
        f" {dict(load.failures)}; {load.closing} answers said to close; exit status {status}"
    )


def test_sigusr1_writes_every_threads_stack_and_the_process_goes_on(tmp_path: Path) -> None:
    """``kill -USR1`` shows where a stuck process is (docs/operations.md), without ending it."""
    log = tmp_path / "api.log"
    with spies_api(str(tmp_path / "spies.db"), log) as served:
        served.process.send_signal(signal.SIGUSR1)
        # the main thread's stack, where the signal is handled: the dump is whole once there
        until(
            lambda: b"Current thread" in (text := log.read_bytes()) and b"spies_api/cli.py" in text,
            what=lambda: f"the main thread's stack in the log: {log.read_text()[-3000:]}",
        )
        assert served.process.poll() is None
        assert httpx.get(f"{served.base}/healthz").status_code == 200


@pytest.mark.parametrize("parser", ["httptools", "h11"])
def test_connections_waiting_in_the_backlog_are_served_when_listening_stops(
    tmp_path: Path, parser: str
) -> None:
    """The kernel accepts connections before the server takes them; those still in its
    backlog when the server stops listening are taken and answered, not reset, also when
    their request comes after the server began to close its connections.

    Before: uvicorn closed the listening socket with them in it, and each was reset (once in
    the SIGTERM test's load, on a command). Here the event loop is held at the moment the
    server decides to stop, so the connections made then wait in the backlog for certain.
    """
    settings = Settings(
        db_path=tmp_path / "backlog.db",
        rate_limit=None,
        free_paths_rate_limit=None,
        bot_workers=0,
        log_json=True,
    )
    app, runtime = open_app(settings)
    held, stopping, waiting_for_them = threading.Event(), threading.Event(), threading.Event()

    class Held(_Server):
        async def on_tick(self, counter: int) -> bool:
            stop = await super().on_tick(counter)
            if stop:
                stopping.set()
                held.wait(30)  # the loop takes nothing now: connections stay in the backlog
            return stop

    class Noticed(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.getMessage().startswith("Waiting for connections to close"):
                waiting_for_them.set()  # uvicorn has asked every connection to close

    request = b"GET /healthz HTTP/1.1\r\nHost: spies\r\n\r\n"
    sock = _listen("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = Held(server_config(app, settings, http=parser), app, settings, runtime.notifier)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    noticed = Noticed()
    logging.getLogger("uvicorn.error").addHandler(noticed)
    thread.start()
    try:
        wait_until_up(f"http://127.0.0.1:{port}")
        server.should_exit = True  # as when the drain ends
        assert stopping.wait(30)
        queued = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(5)]
        for connection in queued:
            connection.sendall(request)
        late = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(2)]
        held.set()
        answers = []
        for connection in queued:
            with connection:
                answers.append(read_until_closed(connection))
        assert waiting_for_them.wait(30)
        for connection in late:
            with connection:
                connection.sendall(request)
                answers.append(read_until_closed(connection))
    finally:
        held.set()
        thread.join(timeout=30)
        sock.close()
        logging.getLogger("uvicorn.error").removeHandler(noticed)
    assert [answer.split(b"\r\n", 1)[0] for answer in answers] == [b"HTTP/1.1 200 OK"] * 7
    assert not thread.is_alive()
