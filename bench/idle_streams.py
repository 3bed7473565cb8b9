"""What idle event streams cost a server: CPU with 0, 1,000 and 5,000 streams open, and how
fast one command still reaches every stream of its game.

For each database (``--db``: ``sqlite`` for a fresh temporary file, the default, or a
``postgresql://`` URL; repeatable) it starts one ``spies-api`` process with its default
settings and creates Deck of Spies games. Then, for each count of ``--streams`` (0, 1000,
5000), it opens that many spectator event streams in all, ``--per-game`` (40) on each game
(so 1,000 streams are 25 games), waits ``--settle`` seconds, and reads the server process's
CPU time (user + system, from ``/proc/<pid>/stat``) over ``--seconds`` (30: two keep-alive
periods) of wall time: nothing else happens meanwhile, so that is what the open streams
cost. It prints that as a percentage of one core, with the server's resident memory and
this client's own CPU over the same interval (the client shares the machine). Then, with
the streams open, it sends one command to each game in turn and notes when the command's
first event arrives on each of the game's streams: the median and worst of those delays
over every stream show that a pushed stream still delivers at once.

Each stream is one socket on each side: the bench raises its soft limit of open files to
the hard limit, and the server, its child, inherits it (it prints both). It prints and
never asserts. Usage::

    python bench/idle_streams.py [--db sqlite] [--db postgresql://...]
        [--streams 0,1000,5000] [--per-game 40] [--seconds 30]
"""

from __future__ import annotations

import argparse
import asyncio
import math
import resource
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from api import Connection, api_server, cpu_seconds, free_port
from capacity import databases
from spies_replay.store.locations import redact
from stream import Stream

OPENING_AT_ONCE = 100
"""Streams opened concurrently, so that opening thousands does not take minutes."""


@dataclass
class Game:
    """A game the bench created: its id, its seat's Authorization header and its streams."""

    id: str
    auth: bytes
    version: int
    streams: list[Stream] = field(default_factory=list)


@dataclass
class Figures:
    """One count of streams: CPU (% of a core) of the server and of this client, the
    server's memory (MiB) and each stream's delay to a command's event (s)."""

    streams: int
    games: int
    server_cpu: float
    client_cpu: float
    rss_mib: float
    delays: list[float]


def raise_open_files(needed: int) -> tuple[int, int]:
    """Raise this process's soft limit of open files towards the hard one; return both."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, needed)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def rss_mib(pid: int) -> float:
    """The resident memory of a process, in MiB (0 without /proc)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


async def create_games(port: int, count: int, games: list[Game]) -> None:
    """Create Deck of Spies games until there are ``count``."""
    connection = await Connection.open(port)
    try:
        while len(games) < count:
            body = msgspec.json.encode({"game": "deck-of-spies"})
            status, data = await connection.call("POST", "/games", body)
            assert status == 201, data
            created = msgspec.json.decode(data)
            auth = f"authorization: Bearer {created['seats'][0]['token']}\r\n".encode()
            games.append(Game(created["id"], auth, created["version"]))
    finally:
        connection.close()


async def open_streams(
    port: int, games: list[Game], per_game: int, count: int
) -> list[asyncio.Task[None]]:
    """Open spectator streams, ``per_game`` on each game in turn, until there are ``count``
    in all; return their readers."""
    wanted: list[Game] = []
    room = count - sum(len(game.streams) for game in games)
    for game in games:
        more = max(0, min(per_game - len(game.streams), room - len(wanted)))
        wanted += [game] * more
    followers: list[asyncio.Task[None]] = []
    for start in range(0, len(wanted), OPENING_AT_ONCE):
        batch = wanted[start : start + OPENING_AT_ONCE]
        opened = await asyncio.gather(*(Stream.open(port, game.id, b"") for game in batch))
        for game, stream in zip(batch, opened, strict=True):
            game.streams.append(stream)
            followers.append(asyncio.create_task(stream.follow()))
    return followers


async def deliver(port: int, games: list[Game]) -> list[float]:
    """One command to each game in turn; each stream's delay to the command's first event.

    A connection per command: a server slow to deliver could leave a kept-alive one idle
    past its keep-alive timeout."""
    delays: list[float] = []
    for game in games:
        connection = await Connection.open(port)
        try:
            status, data = await connection.call("GET", f"/games/{game.id}/legal", b"", game.auth)
            assert status == 200, data
            legal = msgspec.json.decode(data)
            first = legal["version"] + 1
            arrivals = [stream.arrival(first) for stream in game.streams]
            body = msgspec.json.encode(
                {"command": legal["commands"][0], "expected_version": legal["version"]}
            )
            sent = time.perf_counter()
            status, data = await connection.call(
                "POST", f"/games/{game.id}/commands", body, game.auth
            )
            assert status == 200, data
        finally:
            connection.close()
        times = await asyncio.wait_for(asyncio.gather(*arrivals), timeout=60)
        delays += [arrived - sent for arrived in times]
    return delays


async def measure(
    port: int, pid: int, counts: list[int], per_game: int, settle: float, seconds: float
) -> list[Figures]:
    games: list[Game] = []
    followers: list[asyncio.Task[None]] = []
    rows = []
    try:
        for count in counts:
            needed = math.ceil(count / per_game)
            await create_games(port, needed, games)
            opening = time.perf_counter()
            followers += await open_streams(port, games[:needed], per_game, count)
            opening = time.perf_counter() - opening
            await asyncio.sleep(settle)
            wall, server, client = time.perf_counter(), cpu_seconds([pid]), time.process_time()
            await asyncio.sleep(seconds)
            wall = time.perf_counter() - wall
            server = cpu_seconds([pid]) - server
            client = time.process_time() - client
            delays = await deliver(port, games[:needed]) if count else []
            rows.append(
                Figures(
                    streams=sum(len(game.streams) for game in games),
                    games=needed,
                    server_cpu=100 * server / wall,
                    client_cpu=100 * client / wall,
                    rss_mib=rss_mib(pid),
                    delays=delays,
                )
            )
            print(
                f"  {rows[-1].streams:6} streams measured (opened in {opening:.1f} s)", flush=True
            )
    finally:
        for game in games:
            for stream in game.streams:
                stream.close()
        for follower in followers:
            follower.cancel()
    return rows


def run(dbs: list[str], counts: list[int], per_game: int, settle: float, seconds: float) -> None:
    soft, hard = raise_open_files(max(counts) + 1024)
    print(f"open files: soft limit {soft}, hard {hard} (the server inherits them)")
    if soft < max(counts) + 256:
        sys.exit(f"idle_streams.py: {max(counts)} streams need more open files than {soft}")
    results: dict[str, list[Figures]] = {}
    with tempfile.TemporaryDirectory(prefix="spies-bench-") as tmp:
        for db in dbs:
            location = str(Path(tmp) / "idle.db") if db == "sqlite" else db
            label = "SQLite" if db == "sqlite" else "PostgreSQL"
            port = free_port()
            where = "a temporary file" if db == "sqlite" else redact(db)
            print(f"{label}: one spies-api process on {where}", flush=True)
            with api_server(location, port) as pid:
                results[label] = asyncio.run(measure(port, pid, counts, per_game, settle, seconds))

    def ms(values: list[float], pick: str) -> str:
        if not values:
            return "-"
        if pick == "median":
            value = statistics.median(values)
        elif pick == "p99":
            value = statistics.quantiles(values, n=100)[98] if len(values) > 1 else values[0]
        else:
            value = max(values)
        return f"{value * 1000:.1f}"

    print(
        f"\nidle event streams, {per_game} per game, CPU over {seconds:g} s with nothing else"
        " happening (% of one core); then one command per game, its event's delay on each"
        " of the game's streams (ms)"
    )
    header = (
        f"  {'database':12}{'streams':>8}{'games':>7}{'server CPU':>12}{'client CPU':>12}"
        f"{'server RSS':>12}{'delay median':>14}{'p99':>8}{'worst':>8}"
    )
    print(header)
    for label, rows in results.items():
        for row in rows:
            print(
                f"  {label:12}{row.streams:>8}{row.games:>7}{row.server_cpu:>11.1f}%"
                f"{row.client_cpu:>11.1f}%{row.rss_mib:>8.0f} MiB"
                f"{ms(row.delays, 'median'):>14}{ms(row.delays, 'p99'):>8}"
                f"{ms(row.delays, 'worst'):>8}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--db", action="append", metavar="DB", help="sqlite (default) or a postgresql:// URL"
    )
    parser.add_argument("--streams", default="0,1000,5000", help="counts of streams, ascending")
    parser.add_argument("--per-game", type=int, default=40, help="streams on each game")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds measured")
    args = parser.parse_args()
    # a terminated bench still stops its server and removes its files
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    dbs = databases(args.db, "idle_streams.py")
    counts = sorted({int(text) for text in args.streams.split(",")})
    run(dbs, counts, args.per_game, args.settle, args.seconds)


if __name__ == "__main__":
    main()
