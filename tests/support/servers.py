"""Helpers for tests that talk to a server over a real socket."""

from __future__ import annotations

import socket
import time

import httpx

__all__ = ["free_port", "wait_until_up"]


def free_port() -> int:
    """A port the OS says is free on the loopback interface."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


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
