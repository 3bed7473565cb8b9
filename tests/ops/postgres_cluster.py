"""A throwaway PostgreSQL cluster of the test's own (``.ci/postgres.sh``), to kill and
restart: never the shared one of ``SPIES_TEST_POSTGRES_URL``."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from tests.support.waiting import until

__all__ = ["Cluster", "can_run_postgres", "start_cluster"]

SCRIPT = Path(__file__).resolve().parents[2] / ".ci" / "postgres.sh"


def can_run_postgres() -> bool:
    """Whether a cluster can be made here: initdb and pg_ctl found (the script's own
    search), or apt-get to install them as root."""
    found = subprocess.run(
        ["bash", "-c", f"source {SCRIPT}; postgres_bin"], capture_output=True, check=False
    )
    return found.returncode == 0 or (os.geteuid() == 0 and shutil.which("apt-get") is not None)


@dataclass
class Cluster:
    """A running cluster: its directory, its binaries and its URL."""

    directory: Path
    bin: Path
    url: str

    def _as_postgres(self) -> list[str]:
        return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def kill(self) -> int:
        """SIGKILL the postmaster and every backend of it, as a crash would; their count.

        Returns once they are all gone: a new postmaster refuses to start while a backend
        of the old one still holds its shared memory."""
        postmaster = int((self.directory / "data" / "postmaster.pid").read_text().split()[0])
        victims = [postmaster, *_children(postmaster)]
        for pid in victims:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        until(lambda: not any(_alive(pid) for pid in victims), what="the killed PostgreSQL")
        return len(victims)

    def start(self) -> None:
        """Start the server again on the same port (crash recovery runs first)."""
        port = urlsplit(self.url).port
        subprocess.run(
            [
                *self._as_postgres(),
                str(self.bin / "pg_ctl"),
                "-D",
                str(self.directory / "data"),
                "-l",
                str(self.directory / "server.log"),
                "-w",
                "-o",
                f"-h 127.0.0.1 -p {port} -k {self.directory} -c fsync=on -c max_connections=200",
                "start",
            ],
            check=True,
            capture_output=True,
        )

    def stop(self) -> None:
        subprocess.run(
            [
                "bash",
                "-c",
                f'source {SCRIPT}; PG_CI_BIN="{self.bin}" postgres_stop {self.directory}',
            ],
            capture_output=True,
            check=False,
        )


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        stat = (Path("/proc") / str(pid) / "stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _children(parent: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == parent:
                found.append(int(entry.name))
    return found


def start_cluster() -> Cluster:
    """A new cluster with the database ``spies_test``, by ``.ci/postgres.sh``'s functions."""
    started = subprocess.run(
        [
            "bash",
            "-c",
            f"source {SCRIPT}; postgres_start >&2 &&"
            ' echo "$PG_CI_DIR|$PG_CI_BIN|$SPIES_TEST_POSTGRES_URL"',
        ],
        capture_output=True,
        text=True,
        check=False,
        env={k: v for k, v in os.environ.items() if k != "SPIES_TEST_POSTGRES_URL"},
    )
    if started.returncode != 0:
        raise AssertionError(f"postgres_start failed: {started.stdout}{started.stderr}")
    directory, binaries, url = started.stdout.strip().splitlines()[-1].split("|")
    return Cluster(Path(directory), Path(binaries), url)
