"""A real ``spies-api`` for the generated clients to play against."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.support import processes
from tests.support.servers import free_port, wait_until_up


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A ``spies-api`` process on a free loopback port, with a temporary SQLite file."""
    db = tmp_path_factory.mktemp("clients-server") / "spies.db"
    port = free_port()
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SPIES_")}
    process = processes.start(
        [
            sys.executable,
            "-m",
            "spies_api",
            "--db",
            str(db),
            "--port",
            str(port),
            "--rate-limit",
            "off",
        ],
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
