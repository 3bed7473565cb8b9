"""Servers for tests that talk to one over a real socket: the app served by uvicorn in a
thread of the test's process, or ``spies-api`` as a process of its own."""

from __future__ import annotations

import itertools
import os
import random
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from spies_api import Settings
from spies_api.app import Runtime
from spies_api.cli import server_config

from . import processes
from .apps import open_app
from .waiting import until

__all__ = [
    "ServerProcess",
    "answers",
    "free_port",
    "json_under_rate_limit",
    "read_until_closed",
    "serve_in_thread",
    "wait_until_up",
]

_PORTS_FROM, _PORTS_TO = 10_000, 32_000
"""Ports handed to servers that bind their own (below Linux's ephemeral range, which the
OS gives to ``bind(("127.0.0.1", 0))`` and outgoing connections)."""


def _worker_ports() -> Iterator[int]:
    """This process's ports: a slice of the range of its own per xdist worker, walked
    from a random place (several runs may share the machine)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(worker[2:]) if worker[2:].isdigit() else 0
    span = 2_000
    low = _PORTS_FROM + (index * span) % (_PORTS_TO - _PORTS_FROM)
    ports = list(range(low, low + span))
    start = random.randrange(span)
    return itertools.cycle(ports[start:] + ports[:start])


_PORTS = _worker_ports()
_PORTS_LOCK = threading.Lock()


def free_port() -> int:
    """A loopback port that is free now, for a server that binds its own.

    Each xdist worker takes its ports from a range of its own, so two workers never hand
    out the same port, and none is one the OS hands out for ``bind(0)``.
    """
    with _PORTS_LOCK:
        for port in _PORTS:
            with socket.socket() as probe:
                try:
                    probe.bind(("127.0.0.1", port))
                except OSError:
                    continue
                return port
    raise AssertionError("no free port")  # the cycle never ends: unreachable


def answers(base: str, path: str = "/games") -> bool:
    """Whether the server at ``base`` answers ``GET path`` with 200 now."""
    try:
        # plain HTTP: no TLS context (loading the CA bundle costs 25 ms of CPU a call)
        return httpx.get(f"{base}{path}", timeout=2.0, verify=False).status_code == 200
    except httpx.TransportError:
        return False


def read_until_closed(connection: socket.socket) -> bytes:
    """Everything the server sends on a raw connection until it closes it (a reset after its
    answer ends it too; a connection reset before any answer gives ``b""``)."""
    received = b""
    while True:
        try:
            chunk = connection.recv(65536)
        except ConnectionResetError:
            return received
        if not chunk:
            return received
        received += chunk


def wait_until_up(base: str, timeout: float = 30.0) -> None:
    """Poll ``GET /games`` until the server answers (no fixed sleeps)."""
    until(
        lambda: answers(base), timeout=timeout, every=0.05, what=f"the server at {base} to come up"
    )


@contextmanager
def serve_in_thread(options: Settings, *, http: str | None = None) -> Iterator[tuple[str, Runtime]]:
    """The app served by uvicorn in a thread on a free loopback port, with the parts it
    serves; stopped on exit.

    ``http`` serves it as ``spies-api`` does (:func:`spies_api.cli.server_config`: its bounded
    protocols), with ``auto``, ``httptools`` or ``h11``; without it, with uvicorn's defaults.
    """
    served, runtime = open_app(options)
    # IPPROTO_TCP, as spies-api binds: asyncio sets TCP_NODELAY only on such sockets, and
    # without it each kept-alive response waits ~40 ms for the client's delayed ACK.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = (
        uvicorn.Config(served, log_level="warning", lifespan="on")
        if http is None
        else server_config(served, options, http=http)
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base)
        yield base, runtime
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        sock.close()


class ServerProcess:
    """``spies-api`` as a subprocess (the installed console script's code, ``-m spies_api``),
    in a process group of its own (:mod:`tests.support.processes`).

    Args:
        db: the database: a file, or a ``postgresql://`` URL.
        log: where its stderr (JSON log lines) goes.
        extra: more command-line arguments; ``--rate-limit off``,
            ``--max-bot-games-per-client off`` and ``--max-games-per-client off`` unless
            they give them.
    """

    def __init__(self, db: Path | str, log: Path, *extra: str) -> None:
        self.db = db
        self.log = log
        self.extra = extra
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self._started: list[subprocess.Popen[bytes]] = []

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        """The command line (on the current port)."""
        return (
            [sys.executable, "-m", "spies_api", "--db", str(self.db), "--port", str(self.port)]
            + ([] if "--rate-limit" in self.extra else ["--rate-limit", "off"])
            + [
                word
                for quota in ("--max-bot-games-per-client", "--max-games-per-client")
                if quota not in self.extra
                for word in (quota, "off")
            ]
            + list(self.extra)
        )

    def start(self, *, ready: str = "/games", timeout: float = 60.0) -> ServerProcess:
        """Start on a fresh free port and wait until ``GET ready`` answers 200."""
        self.port = free_port()
        with self.log.open("ab") as stderr:
            self.process = processes.start(
                self.command(),
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        self._started.append(self.process)
        process = self.process

        def up() -> bool:
            if process.poll() is not None:
                raise AssertionError(f"spies-api exited: {self.log.read_text()[-3000:]}")
            return answers(self.base, ready)

        try:
            until(
                up, timeout=timeout, every=0.05, what=f"spies-api at {self.base} to answer {ready}"
            )
        except AssertionError:
            self.kill()
            raise
        return self

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, no goodbye (what it started lives on, as after a
        crash, until :meth:`close`)."""
        if self.process is not None:
            processes.kill(self.process)
        self.process = None

    def stop(self) -> None:
        """SIGTERM and wait (a graceful stop); SIGKILL if it does not stop."""
        if self.process is not None:
            processes.end(self.process)
        self.process = None

    def close(self) -> None:
        """Stop every process this server ran, and what each started."""
        for process in self._started:
            processes.end(process)
        self._started.clear()
        self.process = None


def json_under_rate_limit(url: str) -> Any:
    """``GET url``'s JSON, asked again while this address is over the server's rate limit (a
    client the test ran just spent the requests)."""

    def answer() -> Any:
        response = httpx.get(url)
        return None if response.status_code == 429 else response.json()

    return until(answer, what=f"an answer from {url} under the rate limit")
