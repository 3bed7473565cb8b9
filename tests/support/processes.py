"""The processes the tests start, and the check that none of them outlives the run.

A run marks itself: :func:`mark_run` puts a value of its own under :data:`RUN_MARK` in the
environment, which every process started afterwards inherits (pytest-xdist's workers, the
``spies-api`` servers, their bot workers and multiprocessing resource trackers, nginx,
PostgreSQL, Chromium), even one whose parent died and which was adopted by ``init``. At the
end of the run :func:`left_running` finds them by that mark, and by descent from the run's
first process for a child started with an environment of its own.

A server the tests start goes in a process group of its own (:func:`start`), so that
:func:`end` stops what it started too: a server killed by a test, as a crash would, leaves
its bot workers behind, and they are stopped with the group.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.waiting import until

__all__ = ["RUN_MARK", "Running", "end", "kill", "left_running", "mark_run", "reap", "start"]

RUN_MARK = "TESTS_RUN_MARK"
"""The environment variable that marks the processes of one test run (not ``SPIES_*``: some
tests start a server with the ``SPIES_*`` variables removed)."""

_PROC = Path("/proc")


def mark_run(*, worker: bool) -> str:
    """This run's mark, in the environment: a new one, unless this process is an xdist
    worker (which keeps its controller's). A pytest run started by a test is a run of its
    own, with a mark of its own."""
    if not worker or RUN_MARK not in os.environ:
        os.environ[RUN_MARK] = uuid.uuid4().hex
    return os.environ[RUN_MARK]


@dataclass(frozen=True, slots=True)
class Running:
    """A process still alive: its id and its command line."""

    pid: int
    command: str


def _parent_and_state(pid: int) -> tuple[int, str] | None:
    try:
        stat = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    return int(fields[1]), fields[0]


def _command(pid: int) -> str:
    try:
        raw = (_PROC / str(pid) / "cmdline").read_bytes()
    except OSError:
        return "?"
    return raw.replace(b"\0", b" ").decode(errors="replace").strip()[:300]


def _marked(pid: int, mark: bytes) -> bool:
    try:
        return mark in (_PROC / str(pid) / "environ").read_bytes().split(b"\0")
    except OSError:  # gone, or another user's
        return False


def left_running(mark: str, root: int) -> list[Running]:
    """The live processes (zombies aside) that carry ``mark`` or descend from ``root``,
    ``root`` and its ancestors excepted. Empty where there is no ``/proc``."""
    if not _PROC.is_dir():
        return []
    parents: dict[int, int] = {}
    for entry in _PROC.iterdir():
        if entry.name.isdigit():
            found = _parent_and_state(int(entry.name))
            if found is not None and found[1] != "Z":
                parents[int(entry.name)] = found[0]
    exempt = {root}
    pid = root
    while pid in parents:
        pid = parents[pid]
        exempt.add(pid)
    wanted = f"{RUN_MARK}={mark}".encode()

    def descends(pid: int) -> bool:
        seen = set()
        while pid in parents and pid not in seen:
            seen.add(pid)
            pid = parents[pid]
            if pid == root:
                return True
        return False

    return [
        Running(pid, _command(pid))
        for pid in sorted(parents)
        if pid not in exempt and (descends(pid) or _marked(pid, wanted))
    ]


def reap(running: Sequence[Running]) -> None:
    """SIGKILL each of ``running`` (those already gone are skipped)."""
    for process in running:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(process.pid, signal.SIGKILL)


def start(command: Sequence[str], **options: Any) -> subprocess.Popen[Any]:
    """``subprocess.Popen(command, **options)`` in a new session, so in a process group of
    its own that :func:`end` stops whole."""
    return subprocess.Popen(list(command), start_new_session=True, **options)


def kill(process: subprocess.Popen[Any]) -> None:
    """SIGKILL the process alone (a crash: what it started lives on) and reap it."""
    if process.poll() is None:
        process.kill()
    process.wait(timeout=30)


def end(process: subprocess.Popen[Any], *, timeout: float = 30.0) -> None:
    """Stop a process started by :func:`start` and everything left in its group.

    SIGTERM first when it still runs (a server stops its own workers), SIGKILL when it has
    not exited within ``timeout``; then SIGKILL to whatever its group still holds (the bot
    workers of a server killed by a test).
    """
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=timeout)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    _wait_group_gone(process.pid, timeout)
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            stream.close()


def _wait_group_gone(group: int, timeout: float) -> None:
    """Wait until no live process is left in ``group`` (SIGKILL is sent, not awaited)."""
    until(lambda: not _group_has_live(group), timeout=timeout, what=f"process group {group}")


def _group_has_live(group: int) -> bool:
    for entry in _PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == group and fields[0] != "Z":
            return True
    return False
