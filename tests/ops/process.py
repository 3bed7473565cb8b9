"""A real ``spies-api`` process, and a command load on it from client threads.

The load is what the operations tests measure: each client plays games of its own, one
command at a time (each with an ``Idempotency-Key``), and keeps every acknowledged command's
events, so that the log can be checked afterwards; every answer is counted by status, and
every failure of the connection by kind (``refused``: no connection was made, so no
command was sent; ``reset``: a connection cut under a request; ``timeout``).
"""

from __future__ import annotations

import collections
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from tests.support import processes
from tests.support.servers import answers, free_port
from tests.support.waiting import until

__all__ = ["Load", "Served", "acknowledged_lost", "spies_api"]

REQUEST_TIMEOUT = 15.0
"""Each request of the load gives up after this long (a hang counts as ``timeout``)."""
BACKOFF = 0.05
"""A client waits this long after a refusal before it tries again (or less: until stopped)."""


@dataclass
class Served:
    """A running ``spies-api``: its process, its base URL and its log file."""

    process: subprocess.Popen[bytes]
    base: str
    log: Path

    def wait_ready(self, timeout: float = 60.0) -> None:
        def ready() -> bool:
            if self.process.poll() is not None:
                raise AssertionError(f"spies-api exited: {self.log.read_text()[-3000:]}")
            return answers(self.base, "/readyz")

        until(ready, timeout=timeout, every=0.05, what="spies-api to be ready")

    def exit_status(self, timeout: float = 30.0) -> int:
        """The process's exit status, once it has exited by itself within ``timeout``.

        Raises:
            AssertionError: it had not: the message holds the log's tail with every thread's
                stack, which ``SIGUSR1`` made the process write there (``spies-api`` registers
                :mod:`faulthandler` for it), so a hang says where it hung.
        """
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.send_signal(signal.SIGUSR1)
            with suppress(AssertionError):
                until(lambda: b"Current thread" in self.log.read_bytes(), timeout=10)
            raise AssertionError(
                f"spies-api still running {timeout} s after the signal; its log's end, with"
                f" the stacks of its threads:\n{self.log.read_text()[-12000:]}"
            ) from None


@contextmanager
def spies_api(db: str, log: Path, *args: str, port: int | None = None) -> Iterator[Served]:
    """``spies-api --db DB`` on a free port (or ``port``), JSON logs to ``log``; stopped on
    exit with whatever it started (:func:`tests.support.processes.end`)."""
    port = port if port is not None else free_port()
    command = [
        sys.executable,
        "-m",
        "spies_api",
        "--db",
        db,
        "--port",
        str(port),
        # the load comes from one address: no per-client limit unless a test asks for one
        "--rate-limit",
        "off",
        "--max-bot-games-per-client",
        "off",
        "--max-games-per-client",
        "off",
        *args,
    ]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with log.open("ab") as out:
        process = processes.start(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    served = Served(process, f"http://127.0.0.1:{port}", log)
    try:
        served.wait_ready()
        yield served
    finally:
        if process.poll() is None:
            process.kill()
        processes.end(process)


@dataclass
class Acked:
    """One acknowledged command: its game, the seat's header and the events it returned."""

    game_id: str
    seat: dict[str, str]
    events: list[tuple[int, str]]


@dataclass
class Load:
    """Client threads sending commands to ``base`` until :meth:`stop`.

    Args:
        base: the server's base URL.
        clients: how many threads.
        leave_on_close: a client stops once an answer says ``Connection: close`` (the
            server drains: a load balancer would send it elsewhere) or a connection is
            refused.
    """

    base: str
    clients: int = 6
    leave_on_close: bool = False
    statuses: collections.Counter[str] = field(default_factory=collections.Counter)
    failures: collections.Counter[str] = field(default_factory=collections.Counter)
    acked: list[Acked] = field(default_factory=list)
    closing: int = 0
    """How many answers said ``Connection: close`` (each served while the server drained)."""
    timeline: list[tuple[float, str]] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _threads: list[threading.Thread] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self) -> None:
        for n in range(self.clients):
            thread = threading.Thread(target=self._client, args=(n,), daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=REQUEST_TIMEOUT + 5)

    def commands_acked(self) -> int:
        with self._lock:
            return len(self.acked)

    def _note(self, what: str, *, status: bool) -> None:
        with self._lock:
            (self.statuses if status else self.failures)[what] += 1
            self.timeline.append((time.monotonic(), what))

    def _client(self, n: int) -> None:
        with httpx.Client(base_url=self.base, timeout=REQUEST_TIMEOUT) as http:
            game: tuple[str, dict[str, str]] | None = None
            while not self._stop.is_set():
                try:
                    if game is None:
                        game = self._new_game(http, n)
                        if game is None:
                            continue
                    game = self._one_command(http, *game)
                except httpx.ConnectError:
                    self._note("refused", status=False)
                    if self.leave_on_close:
                        return
                    self._stop.wait(BACKOFF)
                except httpx.TimeoutException:
                    self._note("timeout", status=False)
                except httpx.TransportError:
                    self._note("reset", status=False)
                    if self.leave_on_close:
                        return
                    self._stop.wait(BACKOFF)
                except _Leave:
                    return

    def _answer(self, response: httpx.Response, kind: str) -> None:
        what = f"{kind} {response.status_code}"
        if response.status_code >= 500:  # noqa: PLR2004
            what += f" {response.json().get('code', '?')}"
        self._note(what, status=True)
        if self._closing(response) and self.leave_on_close:
            raise _Leave

    def _closing(self, response: httpx.Response) -> bool:
        closing = response.headers.get("connection") == "close"
        if closing:
            with self._lock:
                self.closing += 1
        return closing

    def _new_game(self, http: httpx.Client, n: int) -> tuple[str, dict[str, str]] | None:
        created = http.post("/games", json={"game": "deck-of-spies", "seed": f"load-{n}"})
        self._answer(created, "create")
        if created.status_code != 201:
            self._stop.wait(BACKOFF)
            return None
        body = created.json()
        return body["id"], {"Authorization": f"Bearer {body['seats'][0]['token']}"}

    def _one_command(
        self, http: httpx.Client, game_id: str, seat: dict[str, str]
    ) -> tuple[str, dict[str, str]] | None:
        legal = http.get(f"/games/{game_id}/legal", headers=seat)
        self._answer(legal, "legal")
        if legal.status_code != 200:
            self._stop.wait(BACKOFF)
            return game_id, seat
        commands = legal.json()["commands"]
        if not commands:
            return None  # the game is over: a new one
        body = {"command": commands[0], "expected_version": legal.json()["version"]}
        key = uuid.uuid4().hex
        while not self._stop.is_set():  # the same key until the command is answered for sure
            try:
                answer = http.post(
                    f"/games/{game_id}/commands",
                    json=body,
                    headers={**seat, "Idempotency-Key": key},
                )
            except httpx.ConnectError:
                raise
            except httpx.TimeoutException:
                self._note("timeout", status=False)
                continue
            except httpx.TransportError:
                if self.leave_on_close:
                    raise
                self._note("reset", status=False)
                self._stop.wait(BACKOFF)
                continue
            self._answer_command(answer, game_id, seat)
            if answer.status_code < 500:
                return game_id, seat
            self._stop.wait(BACKOFF)
        return game_id, seat

    def _answer_command(self, answer: httpx.Response, game_id: str, seat: dict[str, str]) -> None:
        if answer.status_code == 200:
            events = [(event["seq"], event["type"]) for event in answer.json()["events"]]
            with self._lock:
                self.acked.append(Acked(game_id, seat, events))
            if self._closing(answer) and self.leave_on_close:
                raise _Leave
        elif answer.status_code >= 500:
            code = answer.json().get("code", "?")
            self._note(f"command {answer.status_code} {code}", status=True)
            if "retry-after" not in answer.headers:
                self._note("no-retry-after", status=False)
            return
        self._answer(answer, "command")


class _Leave(Exception):  # noqa: N818  (a signal, not an error)
    """The server drains: this client goes elsewhere."""


def acknowledged_lost(base: str, acked: Sequence[Acked]) -> list[tuple[str, int, str]]:
    """Every acknowledged event not in the log (its game, seq and type) read from ``base``."""
    lost: list[tuple[str, int, str]] = []
    logs: dict[str, dict[int, str]] = {}
    with httpx.Client(base_url=base, timeout=30.0) as http:
        for command in acked:
            if command.game_id not in logs:
                page: Any = http.get(
                    f"/games/{command.game_id}/events", headers=command.seat
                ).json()
                logs[command.game_id] = {event["seq"]: event["type"] for event in page["events"]}
            log = logs[command.game_id]
            lost += [
                (command.game_id, seq, kind) for seq, kind in command.events if log.get(seq) != kind
            ]
    return lost
