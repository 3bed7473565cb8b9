"""PostgreSQL killed (SIGKILL, the postmaster and its backends) in the middle of a command
load and restarted a few seconds later: meanwhile every request that needs the database is
answered 503 ``store-unavailable`` with ``Retry-After`` (never a 500, never a hang),
``/readyz`` says not ready; after the restart the same ``spies-api`` process serves again,
every acknowledged command is in the log and ``spies-replay verify --all`` passes.

The cluster is the test's own (``.ci/postgres.sh``'s functions), never the shared one.
"""

from __future__ import annotations

import collections
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.waiting import until

from .postgres_cluster import Cluster, can_run_postgres, start_cluster
from .process import Load, acknowledged_lost, spies_api

pytestmark = [
    pytest.mark.slow,  # a cluster of its own, a real spies-api process, an outage
    pytest.mark.skipif(not can_run_postgres(), reason="no PostgreSQL to run here"),
]


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    made = start_cluster()
    try:
        yield made
    finally:
        made.stop()


def readiness(base: str, stop: threading.Event, seen: list[tuple[float, int, str]]) -> None:
    with httpx.Client(base_url=base, timeout=10.0) as http:
        while not stop.is_set():
            try:
                answer = http.get("/readyz")
            except httpx.TransportError as error:  # the server is gone: the test says why
                seen.append((time.monotonic(), 0, type(error).__name__))
                return
            try:
                reason = answer.json().get("reason", "") if answer.status_code != 200 else ""
            except ValueError:  # not the problem document: kept, for the failure's message
                reason = f"not JSON: {answer.text[:80]!r}"
            seen.append((time.monotonic(), answer.status_code, reason))
            stop.wait(0.1)  # a poll every 100 ms, until stopped


def test_postgres_killed_and_restarted_under_load(tmp_path: Path, cluster: Cluster) -> None:
    log = tmp_path / "api.log"
    with spies_api(cluster.url, log) as served:
        load = Load(served.base, clients=6)
        stop_polling = threading.Event()
        ready: list[tuple[float, int, str]] = []
        poller = threading.Thread(target=readiness, args=(served.base, stop_polling, ready))
        load.start()
        poller.start()
        until(lambda: load.commands_acked() >= 40, what="40 commands acknowledged")
        killed_at = time.monotonic()
        cluster.kill()
        # down until the clients and /readyz have both met the outage
        until(
            lambda: (
                load.statuses["command 503 store-unavailable"] > 0
                and any(
                    (status, reason) == (503, "store-unavailable")
                    for at, status, reason in list(ready)
                    if at >= killed_at
                )
            ),
            timeout=60,
            what=lambda: (
                "a command and /readyz answered 503 store-unavailable (the last readiness"
                f" answers {ready[-3:]}, the poller {'polling' if poller.is_alive() else 'gone'},"
                f" killed at {killed_at:.1f}; the answers {dict(load.statuses)})"
            ),
        )
        cluster.start()
        restarted_at = time.monotonic()
        acked_at_restart = load.commands_acked()
        until(
            lambda: load.commands_acked() >= acked_at_restart + 40,
            timeout=60,
            what="40 more commands acknowledged after the restart (recovery)",
        )
        load.stop()
        stop_polling.set()
        poller.join(timeout=15)
        assert served.process.poll() is None  # the same process, never restarted

        during = collections.Counter(
            what for at, what in load.timeline if killed_at <= at < restarted_at
        )
        first_ok = min(
            at for at, what in load.timeline if at >= restarted_at and what == "command 200"
        )
        lost = acknowledged_lost(served.base, load.acked)

    assert not any(" 500" in what for what in load.statuses), load.statuses
    assert load.failures["timeout"] == 0 and load.failures["reset"] == 0, load.failures
    assert load.failures["no-retry-after"] == 0
    failed = {what.split(" ", 1)[1] for what in during if " 5" in what}
    assert "command 503 store-unavailable" in during
    assert failed == {"503 store-unavailable"}, during  # every request failed, failed so
    outage_ready = {(status, reason) for at, status, reason in ready if killed_at <= at}
    assert (503, "store-unavailable") in outage_ready, ready
    assert ready[-1][1] == 200
    assert lost == []
    verify = subprocess.run(
        [sys.executable, "-m", "spies_replay", "--db", cluster.url, "verify", "--all"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert verify.returncode == 0, verify.stdout[-2000:] + verify.stderr[-2000:]
    print(  # the figures of the run, for the report (pytest -s)
        f"\nPostgreSQL outage: killed for {restarted_at - killed_at:.1f} s (SIGKILL to"
        f" pg_ctl start -w returning); answers meanwhile {dict(during)}; first command"
        f" acknowledged {first_ok - restarted_at:.2f} s after the restart; acknowledged"
        f" {load.commands_acked()}, lost {len(lost)}; all answers {dict(load.statuses)};"
        f" connection failures {dict(load.failures)}"
    )
