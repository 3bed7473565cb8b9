"""A flood of bot games against another client's reads: p50 and worst ``GET /games/{id}``.

Starts ``spies-api`` with its default limits (the rate limit, the bot-game quota per client,
the bot pool) on a fresh SQLite file, behind a "proxy" it trusts (``--trusted-proxies
127.0.0.1``: the bench sends ``X-Forwarded-For``, so that the hostile client and the other
client are two addresses from one machine, as they would be on the internet).

1. **Idle**: the other client reads its own game ``--reads`` times, one request at a time
   (at most 20 a second, under the rate limit)
   (its p50 and worst latency: the baseline of this run).
2. **Flood**: meanwhile, ``--hostile`` connections of one hostile address create games whose
   seats are all ``expert`` bots (they play themselves to the end) as fast as the server
   lets them: after a refusal (429) each waits the ``Retry-After`` it was given, then asks
   again (``--spin``: it asks again at once). The other client reads again, the same way.

With ``--unprotected`` it runs the flood once more on a second server started with
``--rate-limit off --max-bot-games-per-client off`` (what the server did before), for
comparison. It prints each phase's p50 and worst, the flood ÷ idle ratios, and what the
hostile client got (games created, 429s by code). It prints and never asserts. Usage::

    python bench/bot_flood.py [--reads 400] [--hostile 4] [--game deck-of-spies]
        [--unprotected] [--spin]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent))

from api import api_server, free_port  # noqa: E402
from spies_api.settings import DEFAULT_RATE_LIMIT  # noqa: E402

HOSTILE = "203.0.113.66"
OTHER = "198.51.100.7"


def players_of(game: str) -> int:
    return {"deck-of-spies": 1, "black-spy": 3, "spies-and-lies": 2}[game]


@contextlib.contextmanager
def started(workdir: Path, name: str, *options: str) -> Iterator[str]:
    port = free_port()
    with api_server(workdir / f"{name}.db", port, "--trusted-proxies", "127.0.0.1", *options):
        yield f"http://127.0.0.1:{port}"


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


async def flood(
    base: str, game: str, stop: asyncio.Event, outcomes: Counter[str], spin: bool
) -> None:
    """One hostile connection: expert-bot games, one after another, until ``stop``; after a
    429 it waits the ``Retry-After`` it was given (unless ``spin``)."""
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
                continue
            outcomes[str(response.json().get("code", response.status_code))] += 1
            if not spin and response.status_code == 429:
                await asyncio.sleep(float(response.headers.get("retry-after", "1")))


async def phase(
    base: str, game: str, count: int, hostile: int, spin: bool = False
) -> tuple[list[float], Counter[str]]:
    async with httpx.AsyncClient(base_url=base, headers={"X-Forwarded-For": OTHER}) as client:
        created = await client.post("/games", json={"game": game, "players": players_of(game)})
        game_id = created.json()["id"]
    outcomes: Counter[str] = Counter()
    stop = asyncio.Event()
    tasks = [asyncio.create_task(flood(base, game, stop, outcomes, spin)) for _ in range(hostile)]
    try:
        if hostile:
            await asyncio.sleep(2.0)  # the flood under way before the first read
        timings = await reads(base, game_id, count)
    finally:
        stop.set()
        await asyncio.gather(*tasks)
    return timings, outcomes


def figures(timings: list[float]) -> tuple[float, float]:
    return statistics.median(timings), max(timings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reads", type=int, default=400)
    parser.add_argument("--hostile", type=int, default=4, help="hostile connections")
    parser.add_argument("--game", default="deck-of-spies")
    parser.add_argument("--unprotected", action="store_true")
    parser.add_argument(
        "--spin", action="store_true", help="the hostile client ignores Retry-After"
    )
    args = parser.parse_args()
    rows: list[tuple[str, tuple[float, float], Counter[str] | None]] = []
    with tempfile.TemporaryDirectory(prefix="spies-bench-") as tmp:
        workdir = Path(tmp)
        with started(workdir, "protected", "--rate-limit", DEFAULT_RATE_LIMIT) as base:
            idle, _ = asyncio.run(phase(base, args.game, args.reads, 0))
            rows.append(("idle server", figures(idle), None))
            flooded, outcomes = asyncio.run(
                phase(base, args.game, args.reads, args.hostile, args.spin)
            )
            rows.append(("flood, default limits", figures(flooded), outcomes))
        if args.unprotected:
            options = ("--rate-limit", "off", "--max-bot-games-per-client", "off")
            with started(workdir, "unprotected", *options) as base:
                flooded, outcomes = asyncio.run(
                    phase(base, args.game, args.reads, args.hostile, args.spin)
                )
                rows.append(("flood, limits off", figures(flooded), outcomes))
    (idle_p50, idle_max) = rows[0][1]
    print(
        f"\nbot flood: {args.hostile} hostile connections creating {args.game} games of"
        f" expert bots; the other client reads its game {args.reads} times;"
        f" Python {sys.version.split()[0]}, {os.cpu_count()} CPUs"
    )
    print(f"{'':24}{'p50 ms':>9}{'worst ms':>10}{'p50 ÷ idle':>12}{'worst ÷ idle':>14}")
    for label, (p50, worst), outcome in rows:
        print(
            f"  {label:22}{p50:>9.2f}{worst:>10.1f}{p50 / idle_p50:>12.2f}{worst / idle_max:>14.2f}"
        )
        if outcome is not None:
            shown = ", ".join(f"{key} {value}" for key, value in sorted(outcome.items()))
            print(f"    hostile client got: {shown}")


if __name__ == "__main__":
    main()
