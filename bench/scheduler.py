"""The scheduler's cost: an idle process holding 10,000 clocked games, and how late a
deadline's ``clock_expired`` is recorded, idle and under load.

For each database (``--db``: ``sqlite`` for a fresh temporary file, the default, or a
``postgresql://`` URL, a fresh schema of it; repeatable):

1. **Idle CPU.** This process creates ``--games`` (10,000) active Deck of Spies games with a
   clock (``turn_seconds`` an hour: every one of them has a running deadline in the index of
   due work), and, in another database, ``--baseline`` (100) games without a clock. A
   ``spies-api`` process is started on each; once up, the CPU of each (and of its bot
   workers) is read from ``/proc/<pid>/stat`` over ``--seconds`` (20) with nothing else to
   do. Printed as % of one core, side by side: what the scheduler costs for 10,000 running
   clocks is the difference.
2. **Deadline delay.** On the clocked server, ``--deadlines`` (200) more games are created
   over HTTP, each with a clock of its own length (``turn_seconds`` from 3 s, spread over
   ``--spread`` (10) seconds, ``on_timeout`` ``forfeit``), first with no other work, then
   again while ``--clients`` (16) keep-alive clients post commands as fast as the server
   answers, spread over the 10,000 clocked games. From the log (``GET /games/{id}/events``),
   the delay of each timeout is its ``clock_expired``'s ``recorded_at`` minus its
   ``deadline``; the median and worst are printed, idle and under load, with the commands/s
   of the load.

It prints and never asserts. Usage::

    python bench/scheduler.py [--db sqlite] [--db postgresql://...] [--games 10000]
        [--baseline 100] [--seconds 20] [--deadlines 200] [--spread 10] [--clients 16]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import msgspec

from api import Connection, record_script
from capacity import (
    Game,
    api_process,
    databases,
    fresh_location,
    idle_cpu,
    plan,
    populate,
    quiet_logs,
)
from spies_api.schemas import CreateGameRequest
from spies_replay.clocks import to_ms
from spies_replay.store.locations import is_postgres_url, redact
from spies_replay.store.sqlite import SQLiteEventStore

LONG_CLOCK = {"turn_seconds": 3600}
FIRST_DEADLINE = 3.0
SEEDS = 64


async def create_clocked(port: int, count: int, spread: float) -> list[str]:
    """Create ``count`` games whose deadlines fall over ``spread`` seconds from about 3 s."""
    connection = await Connection.open(port)
    ids = []
    try:
        for index in range(count):
            clock = {
                "turn_seconds": FIRST_DEADLINE + index * spread / count,
                "on_timeout": "forfeit",
            }
            body = msgspec.json.encode({"game": "deck-of-spies", "clock": clock})
            status, data = await connection.call("POST", "/games", body)
            assert status == 201, data
            ids.append(msgspec.json.decode(data)["id"])
    finally:
        connection.close()
    return ids


async def delays_of(port: int, ids: list[str]) -> list[float]:
    """Each game's ``clock_expired`` delay after its deadline (s); a game not timed out yet
    is left out."""
    connection = await Connection.open(port)
    delays = []
    try:
        for game_id in ids:
            status, data = await connection.call("GET", f"/games/{game_id}/events")
            assert status == 200, data
            for event in msgspec.json.decode(data)["events"]:
                if event["type"] == "clock_expired":
                    delays.append((to_ms(event["recorded_at"]) - to_ms(event["deadline"])) / 1000)
    finally:
        connection.close()
    return delays


async def load(port: int, plans: list[list[Game]], stop: asyncio.Event) -> int:
    """Post the plans' commands (without ``expected_version``) until ``stop``; return how
    many were answered."""
    connections = [await Connection.open(port) for _ in plans]
    answered = 0

    async def client(index: int) -> None:
        nonlocal answered
        for game in plans[index]:
            if stop.is_set():
                return
            _, body = game.script.steps[game.step]
            game.step += 1
            command = msgspec.json.decode(body)["command"]
            await connections[index].call(
                "POST",
                f"/games/{game.id}/commands",
                msgspec.json.encode({"command": command}),
                game.auth,
            )
            answered += 1

    try:
        await asyncio.gather(*(client(i) for i in range(len(plans))))
    finally:
        for connection in connections:
            connection.close()
    return answered


async def deadlines(
    port: int, count: int, spread: float, plans: list[list[Game]] | None
) -> tuple[list[float], float]:
    """Create the short-clock games, wait past their deadlines (under the load of ``plans``,
    if any); return the delays and the load's commands/s."""
    stop = asyncio.Event()
    started = time.perf_counter()
    loading = asyncio.create_task(load(port, plans, stop)) if plans else None
    ids = await create_clocked(port, count, spread)
    await asyncio.sleep(FIRST_DEADLINE + spread + 2.0)
    stop.set()
    answered = await loading if loading is not None else 0
    rate = answered / (time.perf_counter() - started)
    await asyncio.sleep(1.0)
    delays = await delays_of(port, ids)
    if len(delays) < count:
        print(f"  warning: {count - len(delays)} games had not timed out", file=sys.stderr)
    return delays, rate


def run(
    dbs: list[str],
    games: int,
    baseline: int,
    seconds: float,
    count: int,
    spread: float,
    clients: int,
) -> None:
    rows = []
    with tempfile.TemporaryDirectory(prefix="spies-scheduler-") as tmp:
        workdir = Path(tmp)
        with SQLiteEventStore(workdir / "scripts.db") as store:
            scripts = [
                record_script(store, "deck-of-spies", 1, f"scheduler-{i}", random.Random(i))
                for i in range(SEEDS)
            ]
        for db in dbs:
            with contextlib.ExitStack() as stack:
                plain = stack.enter_context(fresh_location(db, workdir, "plain"))
                populate(plain, [CreateGameRequest(game="deck-of-spies")] * baseline, 1)
                clocked = stack.enter_context(fresh_location(db, workdir, "clocked"))
                requests = [
                    CreateGameRequest(
                        game="deck-of-spies", seed=scripts[i % SEEDS].seed, clock=LONG_CLOCK
                    )
                    for i in range(games)
                ]
                threads = 8 if is_postgres_url(clocked) else 1
                created, created_s = populate(clocked, requests, threads)
                print(f"  {redact(db)}: {games} clocked games in {created_s:.1f} s", flush=True)
                plain_server = stack.enter_context(api_process(plain))
                server = stack.enter_context(api_process(clocked))
                time.sleep(3.0)
                idle_plain = idle_cpu(plain_server.pid, seconds)
                idle_clocked = idle_cpu(server.pid, seconds)
                print(
                    f"  idle: {baseline} games, no clock: {idle_plain:.2f}% of a core;"
                    f" {games} clocked games: {idle_clocked:.2f}%",
                    flush=True,
                )
                quiet, _ = asyncio.run(deadlines(server.port, count, spread, None))
                work = [
                    Game(game_id, auth, scripts[i % SEEDS])
                    for i, (game_id, auth) in enumerate(created)
                ]
                longest = min(len(s.steps) for s in scripts)
                plans = plan(work, clients, len(work) // clients * min(longest, 3), seed=1)
                busy, rate = asyncio.run(deadlines(server.port, count, spread, plans))
                rows.append((redact(db), idle_plain, idle_clocked, quiet, busy, rate))
                print(
                    f"  delays idle: median {statistics.median(quiet) * 1000:.1f} ms, worst"
                    f" {max(quiet) * 1000:.1f} ms; under load ({rate:.0f} commands/s): median"
                    f" {statistics.median(busy) * 1000:.1f} ms, worst {max(busy) * 1000:.1f} ms",
                    flush=True,
                )
    print(
        f"\nscheduler: idle CPU over {seconds:g} s (% of one core, the server and its bot"
        f" workers), and the delay from {count} deadlines to their clock_expired;"
        f" {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{'database':>10}{f'{baseline} plain':>12}{f'{games} clocked':>15}"
        f"{'idle: median ms':>17}{'worst ms':>10}{'load: median ms':>17}{'worst ms':>10}"
        f"{'load cmd/s':>12}"
    )
    for label, idle_plain, idle_clocked, quiet, busy, rate in rows:
        name = "postgres" if is_postgres_url(label) else "sqlite"
        print(
            f"{name:>10}{idle_plain:>12.2f}{idle_clocked:>15.2f}"
            f"{statistics.median(quiet) * 1000:>17.1f}{max(quiet) * 1000:>10.1f}"
            f"{statistics.median(busy) * 1000:>17.1f}{max(busy) * 1000:>10.1f}{rate:>12.0f}"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", action="append", help="sqlite or a postgresql:// URL")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--baseline", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--deadlines", type=int, default=200)
    parser.add_argument("--spread", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=16)
    args = parser.parse_args(argv)
    dbs = databases(args.db, "scheduler.py")
    quiet_logs()
    run(
        dbs,
        args.games,
        args.baseline,
        args.seconds,
        args.deadlines,
        args.spread,
        args.clients,
    )


if __name__ == "__main__":
    main()
