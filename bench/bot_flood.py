"""A flood of bot games against another client: its reads, and its own clocked bot game.

Starts ``spies-api`` with its default limits (the rate limit, the bot-game quotas, the bot
pool) on a fresh SQLite file, behind a "proxy" it trusts (``--trusted-proxies
127.0.0.1``: the bench sends ``X-Forwarded-For``, so that the hostile client and the other
client are two addresses from one machine, as they would be on the internet).

1. **Idle**: the other client reads its own game ``--reads`` times, one request at a time
   (at most 20 a second, under the rate limit): its p50 and worst latency. Then it plays a
   clocked game of ``--bot`` bots (every seat a bot; ``--turn-seconds`` a move, a timed-out
   seat's move made by ``greedy``) for ``--seconds``, a new one (the same seed) whenever one
   ends: the bots' moves a second and the timeouts (``clock_expired``) in that window, read
   from the database. The baselines of this run.
2. **Flood**: meanwhile, ``--hostile`` connections of one hostile address each keep a game
   going whose seats are all ``expert`` bots (they play themselves to the end), creating
   the next as soon as one ends, so the address always runs as many as the server lets it
   (4, the default quota): after a refusal (429) a connection waits the ``Retry-After`` it
   was given, then asks again (``--spin``: it asks again at once). The other client reads
   again and plays its bot game again, the same way.

With ``--unprotected`` it runs the flood once more on a second server started with
``--rate-limit off --max-bot-games-per-client off`` (what the server did before), each
hostile connection creating games as fast as the server takes them, for comparison. It
prints each phase's p50 and worst read, the bot game's moves a second and timeouts, the
flood ÷ idle ratios, and what the hostile client got (games created, 429s by code). It
prints and never asserts. Usage::

    python bench/bot_flood.py [--reads 400] [--hostile 4] [--game deck-of-spies]
        [--bot greedy] [--turn-seconds 1] [--seconds 20] [--unprotected] [--spin]

Against another tree's code (the same bench, the same options), put its ``src`` first:
``PYTHONPATH=/path/to/other/src python bench/bot_flood.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent))

from api import api_server, free_port  # noqa: E402
from spies_api.settings import DEFAULT_RATE_LIMIT  # noqa: E402
from spies_replay.store.records import utc_now  # noqa: E402

HOSTILE = "203.0.113.66"
OTHER = "198.51.100.7"


def players_of(game: str) -> int:
    return {"deck-of-spies": 1, "black-spy": 3, "spies-and-lies": 2}[game]


@contextlib.contextmanager
def started(workdir: Path, name: str, *options: str) -> Iterator[tuple[str, Path]]:
    port = free_port()
    db = workdir / f"{name}.db"
    with api_server(db, port, "--trusted-proxies", "127.0.0.1", *options):
        yield f"http://127.0.0.1:{port}", db


@dataclass(frozen=True)
class BotGame:
    """The other client's clocked bot game in one phase."""

    moves: int
    timeouts: int
    seconds: float

    @property
    def speed(self) -> float:
        return self.moves / self.seconds


@dataclass(frozen=True)
class Options:
    game: str
    reads: int
    bot: str
    turn_seconds: float
    seconds: float
    hostile: int
    spin: bool


async def reads(base: str, game_id: str, count: int) -> list[float]:
    """``count`` sequential ``GET /games/{id}`` of the other client; their latencies, ms."""
    timings = []
    async with httpx.AsyncClient(base_url=base, headers={"X-Forwarded-For": OTHER}) as client:
        for _ in range(count):
            started_at = time.perf_counter()
            response = await client.get(f"/games/{game_id}", timeout=60)
            timings.append((time.perf_counter() - started_at) * 1000)
            assert response.status_code == 200, response.text
            await asyncio.sleep(0.05)  # 20 reads a second at most: under the rate limit
    return timings


async def finished(client: httpx.AsyncClient, game_id: str) -> bool:
    """Whether the game is over (its summary)."""
    summary = (await client.get(f"/games/{game_id}", timeout=60)).json()
    return bool(summary["status"] == "finished")


async def flood(
    base: str, game: str, stop: asyncio.Event, outcomes: Counter[str], spin: bool, keep: bool
) -> None:
    """One hostile connection: expert-bot games until ``stop``, one after another (``keep``:
    each as soon as the one before has ended, so that the client always runs as many as its
    quota allows; else as fast as the server takes them); after a 429 it waits the
    ``Retry-After`` it was given (unless ``spin``)."""
    body = msgspec.json.encode(
        {
            "game": game,
            "players": players_of(game),
            "seats": [{"type": "bot", "bot": "expert"}] * players_of(game),
        }
    )
    headers = {"X-Forwarded-For": HOSTILE, "Content-Type": "application/json"}
    async with httpx.AsyncClient(base_url=base, headers=headers) as client:
        while not stop.is_set():
            try:
                response = await client.post("/games", content=body, timeout=60)
            except httpx.TransportError:
                outcomes["transport-error"] += 1
                continue
            if response.status_code == 201:
                outcomes["created"] += 1
                game_id = response.json()["id"]
                while keep and not stop.is_set() and not await finished(client, game_id):
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(stop.wait(), 0.5)
                continue
            outcomes[str(response.json().get("code", response.status_code))] += 1
            if not spin and response.status_code == 429:
                await asyncio.sleep(float(response.headers.get("retry-after", "1")))


async def bot_game(base: str, db: Path, options: Options) -> BotGame:
    """The other client's clocked bot games, one after another, for ``options.seconds``:
    its bots' moves (timed-out seats' forced moves included) and its timeouts in that
    window, read from the server's database."""
    players = players_of(options.game)
    body = {
        "game": options.game,
        "players": players,
        "seats": [{"type": "bot", "bot": options.bot}] * players,
        "seed": "bench",
        "clock": {"turn_seconds": options.turn_seconds, "on_timeout": "bot"},
    }
    ids = []
    loop = asyncio.get_running_loop()
    began, since = loop.time(), utc_now()
    async with httpx.AsyncClient(base_url=base, headers={"X-Forwarded-For": OTHER}) as client:
        while loop.time() - began < options.seconds:
            created = await client.post("/games", json=body, timeout=60)
            assert created.status_code == 201, created.text
            ids.append(created.json()["id"])
            while loop.time() - began < options.seconds:
                if await finished(client, ids[-1]):
                    break
                await asyncio.sleep(0.2)
    until, seconds = utc_now(), loop.time() - began
    marks = ",".join("?" * len(ids))
    window = f"game_id IN ({marks}) AND recorded_at BETWEEN ? AND ?"
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as connection:
        moves = connection.execute(
            f"SELECT count(*) FROM events WHERE {window} AND command IS NOT NULL",  # noqa: S608
            (*ids, since, until),
        ).fetchone()[0]
        timeouts = connection.execute(
            f"SELECT count(*) FROM events WHERE {window} AND type = 'clock_expired'",  # noqa: S608
            (*ids, since, until),
        ).fetchone()[0]
    return BotGame(moves, timeouts, seconds)


async def phase(
    base: str, db: Path, options: Options, flooded: bool, keep: bool = True
) -> tuple[list[float], BotGame, Counter[str]]:
    """The other client's reads, then its bot game, while (if ``flooded``) the hostile
    client floods the server with expert-bot games (``keep``: one per connection at a
    time)."""
    async with httpx.AsyncClient(base_url=base, headers={"X-Forwarded-For": OTHER}) as client:
        created = await client.post(
            "/games", json={"game": options.game, "players": players_of(options.game)}
        )
        game_id = created.json()["id"]
    outcomes: Counter[str] = Counter()
    stop = asyncio.Event()
    hostile = options.hostile if flooded else 0
    tasks = [
        asyncio.create_task(flood(base, options.game, stop, outcomes, options.spin, keep))
        for _ in range(hostile)
    ]
    try:
        if hostile:
            await asyncio.sleep(2.0)  # the flood under way before the first read
        timings = await reads(base, game_id, options.reads)
        played = await bot_game(base, db, options)
    finally:
        stop.set()
        await asyncio.gather(*tasks)
    return timings, played, outcomes


def figures(timings: list[float]) -> tuple[float, float]:
    return statistics.median(timings), max(timings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reads", type=int, default=400)
    parser.add_argument("--hostile", type=int, default=4, help="hostile connections")
    parser.add_argument("--game", default="deck-of-spies")
    parser.add_argument("--bot", default="greedy", help="the other client's bots")
    parser.add_argument("--turn-seconds", type=float, default=1.0)
    parser.add_argument("--seconds", type=float, default=20.0, help="of the other's bot game")
    parser.add_argument("--unprotected", action="store_true")
    parser.add_argument(
        "--spin", action="store_true", help="the hostile client ignores Retry-After"
    )
    args = parser.parse_args()
    options = Options(
        args.game, args.reads, args.bot, args.turn_seconds, args.seconds, args.hostile, args.spin
    )
    rows: list[tuple[str, tuple[float, float], BotGame, Counter[str] | None]] = []
    with tempfile.TemporaryDirectory(prefix="spies-bench-") as tmp:
        workdir = Path(tmp)
        with started(workdir, "protected", "--rate-limit", DEFAULT_RATE_LIMIT) as (base, db):
            idle, played, _ = asyncio.run(phase(base, db, options, flooded=False))
            rows.append(("idle server", figures(idle), played, None))
            flooded, played, outcomes = asyncio.run(phase(base, db, options, flooded=True))
            rows.append(("flood, default limits", figures(flooded), played, outcomes))
        if args.unprotected:
            limits_off = ("--rate-limit", "off", "--max-bot-games-per-client", "off")
            with started(workdir, "unprotected", *limits_off) as (base, db):
                flooded, played, outcomes = asyncio.run(
                    phase(base, db, options, flooded=True, keep=False)
                )
                rows.append(("flood, limits off", figures(flooded), played, outcomes))
    (idle_p50, idle_max), idle_game = rows[0][1], rows[0][2]
    print(
        f"\nbot flood: {args.hostile} hostile connections creating {args.game} games of"
        f" expert bots; the other client reads its game {args.reads} times, then plays a"
        f" {args.game} game of {args.bot} bots at {args.turn_seconds:g} s a move for"
        f" {args.seconds:g} s; Python {sys.version.split()[0]}, {os.cpu_count()} CPUs"
    )
    print(
        f"{'':24}{'p50 ms':>9}{'worst ms':>10}{'p50 ÷ idle':>12}{'worst ÷ idle':>14}"
        f"{'moves/s':>9}{'÷ idle':>8}{'timeouts':>10}"
    )
    for label, (p50, worst), played, outcome in rows:
        print(
            f"  {label:22}{p50:>9.2f}{worst:>10.1f}{p50 / idle_p50:>12.2f}"
            f"{worst / idle_max:>14.2f}{played.speed:>9.2f}"
            f"{played.speed / idle_game.speed:>8.3f}{played.timeouts:>10}"
        )
        if outcome is not None:
            shown = ", ".join(f"{key} {value}" for key, value in sorted(outcome.items()))
            print(f"    hostile client got: {shown}")


if __name__ == "__main__":
    main()
