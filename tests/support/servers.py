"""Helpers for tests that talk to a server over a real socket."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import uvicorn
from litestar import Litestar

from spies_api import Settings, create_app
from spies_api.cli import server_config

__all__ = ["free_port", "read_until_closed", "serve_in_thread", "wait_until_up"]


def free_port() -> int:
    """A port the OS says is free on the loopback interface."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


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
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/games", timeout=2.0).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.05)
    raise AssertionError(f"the server at {base} did not come up within {timeout} s")


@contextmanager
def serve_in_thread(
    options: Settings, *, http: str | None = None
) -> Iterator[tuple[str, Litestar]]:
    """The app served by uvicorn in a thread on a free loopback port; stopped on exit.

    ``http`` serves it as ``spies-api`` does (:func:`spies_api.cli.server_config`: its bounded
    protocols), with ``auto``, ``httptools`` or ``h11``; without it, with uvicorn's defaults.
    """
    served = create_app(options)
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
        yield base, served
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        sock.close()
