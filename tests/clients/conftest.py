"""A real ``spies-api`` for the generated clients to play against."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.support import processes
from tests.support.servers import free_port, wait_until_up


@contextmanager
def _serving(place: Path, *options: str) -> Iterator[str]:
    """A ``spies-api`` process on a free loopback port, with a SQLite file in ``place``."""
    port = free_port()
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SPIES_")}
    process = processes.start(
        [sys.executable, "-m", "spies_api", "--db", str(place / "spies.db")]
        + ["--port", str(port), *options],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=clean,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_up(base)
        yield base
    finally:
        processes.end(process)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server with every default, the rate limit included: the examples must behave on a
    server started the way the README starts one."""
    with _serving(tmp_path_factory.mktemp("clients-server")) as base:
        yield base


SLOW_RATE = "5/second"
"""A rate limit no unpaced client stays under, whatever the machine's speed: a bucket of 5."""


@pytest.fixture(scope="module")
def rate_limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server that allows 5 requests a second per client address: an unpaced client's
    requests are refused with 429 and ``Retry-After`` until it waits."""
    with _serving(tmp_path_factory.mktemp("slow-server"), "--rate-limit", SLOW_RATE) as base:
        yield base
