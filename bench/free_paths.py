"""A flood of the paths the rate limit does not count, against another client's reads.

Starts ``spies-api`` with its default limits (and ``--metrics``, so that ``/metrics`` is
served) on a fresh SQLite file. Two clients on this machine, from two loopback addresses:

1. **Idle**: the other client (``127.0.0.3``) reads its own game, ``GET /games/{id}``,
   ``--reads`` times, one request at a time, at most 20 a second (under the rate limit): its
   p50 and worst latency are the baseline of this run.
2. **Flood**, for each free path in turn (``/readyz``, ``/schema/openapi.json``, ``/schema``,
   ``/rules/black-spy``, ``/metrics``, ``/assets/web/app.js``): ``--hostile`` keep-alive
   connections of one hostile address (``127.0.0.2``), in a process of their own, ask for
   that path as fast as the server answers, never waiting out a 429; the other client reads
   again, the same way.

With ``--unprotected`` it runs the floods once more on a second server started with
``--free-paths-rate-limit off`` (each answer still served from memory, but no bucket), for
comparison. It prints each phase's p50 and worst, the flood ÷ idle ratios, and what the
hostile client got (answers by status). It prints and never asserts. Usage::

    python bench/free_paths.py [--reads 200] [--hostile 4] [--unprotected]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from api import HOST, Connection, api_server, free_port  # noqa: E402
from spies_api.settings import DEFAULT_FREE_PATHS_RATE_LIMIT, DEFAULT_RATE_LIMIT  # noqa: E402

HOSTILE = "127.0.0.2"
OTHER = "127.0.0.3"
PATHS = [
    "/readyz",
    "/schema/openapi.json",
    "/schema",
    "/rules/black-spy",
    "/metrics",
    "/assets/web/app.js",
]


@contextlib.contextmanager
def started(workdir: Path, name: str, *options: str) -> Iterator[str]:
    port = free_port()
    with api_server(workdir / f"{name}.db", port, "--metrics", *options):
        yield f"http://{HOST}:{port}"


async def flood_connection(port: int, path: str, stop: Event, statuses: Counter[int]) -> None:
    reader, writer = await asyncio.open_connection(HOST, port, local_addr=(HOSTILE, 0))
    connection = Connection(reader, writer)
    try:
        while not stop.is_set():
            status, _ = await connection.call("GET", path)
            statuses[status] += 1
    finally:
        connection.close()


def flood(port: int, path: str, connections: int, stop: Event, report: Queue[Counter[int]]) -> None:
    """The hostile client, in a process of its own: ``connections`` loops on ``path``; the
    answers it got by status, into ``report``."""
    statuses: Counter[int] = Counter()

    async def all_of_them() -> None:
        await asyncio.gather(
            *(flood_connection(port, path, stop, statuses) for _ in range(connections))
        )

    with contextlib.suppress(OSError):
        asyncio.run(all_of_them())
    report.put(statuses)


def reads(base: str, game_id: str, count: int) -> list[float]:
    """``count`` sequential reads of the other client; their latencies, ms."""
    timings = []
    transport = httpx.HTTPTransport(local_address=OTHER)
    with httpx.Client(base_url=base, transport=transport, timeout=60) as client:
        for _ in range(count):
            started_at = time.perf_counter()
            response = client.get(f"/games/{game_id}")
            timings.append((time.perf_counter() - started_at) * 1000)
            assert response.status_code == 200, response.text
            time.sleep(0.05)  # 20 reads a second at most: under the rate limit
    return timings


def phase(
    base: str, game_id: str, count: int, path: str | None, hostile: int
) -> tuple[list[float], Counter[int]]:
    if path is None:
        return reads(base, game_id, count), Counter()
    port = int(base.rsplit(":", 1)[1])
    stop = multiprocessing.Event()
    report: Queue[Counter[int]] = multiprocessing.Queue()
    process = multiprocessing.Process(target=flood, args=(port, path, hostile, stop, report))
    process.start()
    try:
        time.sleep(1.0)  # the flood under way before the first read
        timings = reads(base, game_id, count)
    finally:
        stop.set()
    statuses = report.get(timeout=60)
    process.join(timeout=60)
    return timings, statuses


def figures(timings: list[float]) -> tuple[float, float]:
    return statistics.median(timings), max(timings)


def serve_phases(
    base: str, label: str, count: int, hostile: int, idle: bool
) -> list[tuple[str, tuple[float, float], Counter[int] | None]]:
    transport = httpx.HTTPTransport(local_address=OTHER)
    with httpx.Client(base_url=base, transport=transport) as client:
        game_id = client.post("/games", json={"game": "deck-of-spies"}).json()["id"]
    rows: list[tuple[str, tuple[float, float], Counter[int] | None]] = []
    if idle:
        timings, _ = phase(base, game_id, count, None, hostile)
        rows.append(("idle server", figures(timings), None))
    for path in PATHS:
        timings, statuses = phase(base, game_id, count, path, hostile)
        rows.append((f"{label} {path}", figures(timings), statuses))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reads", type=int, default=200)
    parser.add_argument("--hostile", type=int, default=4, help="hostile connections")
    parser.add_argument("--unprotected", action="store_true")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="spies-bench-") as tmp:
        workdir = Path(tmp)
        options = ("--rate-limit", DEFAULT_RATE_LIMIT)
        with started(workdir, "protected", *options) as base:
            rows += serve_phases(base, "flood", args.reads, args.hostile, idle=True)
        if args.unprotected:
            options = ("--rate-limit", DEFAULT_RATE_LIMIT, "--free-paths-rate-limit", "off")
            with started(workdir, "unprotected", *options) as base:
                rows += serve_phases(base, "no bucket:", args.reads, args.hostile, idle=False)
    idle_p50, idle_max = rows[0][1]
    print(
        f"\nfree paths: {args.hostile} hostile connections from one address flood each path"
        f" (bucket {DEFAULT_FREE_PATHS_RATE_LIMIT}); the other client reads its game"
        f" {args.reads} times; Python {sys.version.split()[0]}, {os.cpu_count()} CPUs"
    )
    print(f"{'':34}{'p50 ms':>9}{'worst ms':>10}{'p50 ÷ idle':>12}{'worst ÷ idle':>14}")
    for label, (p50, worst), statuses in rows:
        print(
            f"  {label:32}{p50:>9.2f}{worst:>10.1f}{p50 / idle_p50:>12.2f}{worst / idle_max:>14.2f}"
        )
        if statuses:
            shown = ", ".join(f"{key}: {value}" for key, value in sorted(statuses.items()))
            print(f"    hostile client got: {shown}")


if __name__ == "__main__":
    main()
