"""Shared fixtures of the attack tests: apps on temporary databases (:mod:`tests.support.apps`)
and servers on real sockets, in a thread or as ``spies-api`` subprocesses, stopped whatever
happens."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.apps import app, checker, client, runtime, settings
from tests.support.servers import ServerProcess, free_port, serve_in_thread, wait_until_up

__all__ = [
    "ServerProcess",
    "app",
    "checker",
    "client",
    "free_port",
    "runtime",
    "serve_in_thread",
    "settings",
    "wait_until_up",
]


@pytest.fixture
def servers() -> Iterator[list[ServerProcess]]:
    """A list to put started servers in; every one is stopped at the end, whatever happens."""
    started: list[ServerProcess] = []
    try:
        yield started
    finally:
        for server in started:
            server.close()
