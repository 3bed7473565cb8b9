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
        of the old one still holds its shared memory, or while the old one's PID is taken.
        The backends are the processes whose working directory is the cluster's data
        directory (a backend forked just before the postmaster died is one too, though no
        longer its child)."""
        postmaster = int((self.directory / "data" / "postmaster.pid").read_text().split()[0])
        with contextlib.suppress(ProcessLookupError):
            os.kill(postmaster, signal.SIGKILL)  # first: it forks no backend after this
        killed = {postmaster}

        def none_left() -> bool:
            left = self._processes()
            for pid in left:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            killed.update(left)
            return not left

        until(none_left, what="every process of the killed PostgreSQL to be gone")
        # and reaped: a new postmaster takes a dead one's PID that still answers kill(pid, 0)
        # (a zombie) for a postmaster still running on the data directory
        until(
            lambda: not (Path("/proc") / str(postmaster)).exists(),
            what=f"the killed postmaster {postmaster} to be reaped",
        )
        return len(killed)

    def _processes(self) -> list[int]:
        """The live processes working in the cluster's data directory (zombies have none)."""
        data = (self.directory / "data").resolve()
        found = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError):
                    if (entry / "cwd").resolve() == data:
                        found.append(int(entry.name))
        return found

    def start(self) -> None:
        """Start the server again on the same port (crash recovery runs first)."""
        port = urlsplit(self.url).port
        started = subprocess.run(
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
            check=False,
            capture_output=True,
            text=True,
        )
        if started.returncode != 0:
            log = (self.directory / "server.log").read_text(errors="replace")[-3000:]
            raise AssertionError(f"pg_ctl start: {started.stdout}{started.stderr}\n{log}")

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
