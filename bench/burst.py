"""A creation burst of bot games: how long until the last one reaches its person's turn.

Starts ``spies-api`` on a fresh database (``--db``: ``sqlite`` for a fresh temporary file,
the default, or a ``postgresql://`` URL, a fresh schema of it) with the per-client limits off
(``--rate-limit off --max-bot-games-per-client off``: one load client) and ``--metrics``,
its log lines written to a file. Then ``--games`` (1,000) Black Spy games are created at
once, each on a connection of its own: seat 0 a person, seats 1 and 2 ``random`` bots. In
Black Spy every seat passes three cards at the start, so each game has two bot moves to
make before only its person is to act. A creation refused with a status of 503 (the
database busy) is sent again a second later, as a client would.

The games are then read (``GET /games/{id}``, a few connections, one round every half
second) until every one has only its person to act, or ``--limit`` (300) seconds pass. A
game's time is its ``updated_at`` (when its last event, the last bot move, was appended)
minus the moment the burst began. It prints the games that got there and those that did
not, the median and the last one's seconds, the creation refusals, the CPU seconds the
server and its bot worker used meanwhile (from ``/proc``), the server's retries of
due work (``spies_due_retries_total``, by work and code) and its ``bot_failed`` and
error-level log lines. It prints and never asserts. Usage::

    python bench/burst.py [--db sqlite] [--games 1000] [--limit 300] [--readers 4]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from datetime import datetime
from pathlib import Path

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent))

from api import Connection, cpu_seconds  # noqa: E402
from capacity import api_process, fresh_location, process_tree  # noqa: E402
from spies_replay.store.locations import redact  # noqa: E402

BODY = msgspec.json.encode(
    {
        "game": "black-spy",
        "players": 3,
        "seats": [{"type": "creator", "name": "person"}, *[{"type": "bot", "bot": "random"}] * 2],
    }
)
PERSON = 0
RETRIES = re.compile(r"^spies_due_retries_total\{(?P<labels>[^}]*)\} (?P<value>\S+)$", re.M)


async def create_one(port: int, refused: Counter[str]) -> str:
    """One game, on a connection of its own; sent again after a 503."""
    connection = await Connection.open(port)
    try:
        while True:
            status, data = await connection.call("POST", "/games", BODY)
            if status == 201:
                game_id: str = msgspec.json.decode(data)["id"]
                return game_id
            answer = msgspec.json.decode(data)
            refused[str(answer.get("code", status))] += 1
            if status != 503:
                raise RuntimeError(f"creation refused: {status} {answer}")
            await asyncio.sleep(1.0)
    finally:
        connection.close()


async def burst(port: int, games: int, refused: Counter[str]) -> list[str]:
    return list(await asyncio.gather(*(create_one(port, refused) for _ in range(games))))


def person_to_act(summary: dict[str, object]) -> bool:
    """Whether only the person's seat is to act (the bots have made their moves)."""
    return summary["to_act"] == [PERSON]


async def wait_for_persons(
    port: int, ids: list[str], readers: int, limit: float
) -> tuple[dict[str, str], list[str]]:
    """Read the games until each has only its person to act; their ``updated_at``, and the
    games that did not get there within ``limit`` seconds."""
    reached: dict[str, str] = {}
    pending = list(ids)
    deadline = time.monotonic() + limit
    connections = [await Connection.open(port) for _ in range(readers)]

    async def read(connection: Connection, part: list[str]) -> None:
        for game_id in part:
            status, data = await connection.call("GET", f"/games/{game_id}")
            if status != 200:
                continue  # the database busy: read it again next round
            summary = msgspec.json.decode(data)
            if person_to_act(summary):
                reached[game_id] = summary["updated_at"]

    try:
        while pending and time.monotonic() < deadline:
            parts = [pending[i::readers] for i in range(readers)]
            await asyncio.gather(*(read(c, p) for c, p in zip(connections, parts, strict=True)))
            pending = [game_id for game_id in pending if game_id not in reached]
            if pending:
                await asyncio.sleep(0.5)
    finally:
        for connection in connections:
            connection.close()
    return reached, pending


async def metrics(port: int) -> str:
    connection = await Connection.open(port)
    try:
        _, data = await connection.call("GET", "/metrics")
        return data.decode()
    finally:
        connection.close()


def log_lines(log: Path) -> tuple[Counter[str], int]:
    """``bot_failed`` lines by reason, and every error-level line."""
    failed: Counter[str] = Counter()
    errors = 0
    for raw in log.read_bytes().splitlines():
        try:
            line = msgspec.json.decode(raw)
        except msgspec.DecodeError:
            continue
        if not isinstance(line, dict):
            continue
        if line.get("level") == "error":
            errors += 1
        if line.get("event") == "bot_failed":
            failed[str(line.get("reason", line.get("error_type")))] += 1
    return failed, errors


def seconds_after(stamp: str, began: float) -> float:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp() - began


def run(db: str, games: int, limit: float, readers: int) -> None:
    with (
        tempfile.TemporaryDirectory(prefix="spies-burst-") as tmp,
        fresh_location(db, Path(tmp), "burst") as location,
    ):
        log = Path(tmp) / "server.log"
        with api_process(location, "--metrics", log=log) as server:
            port = server.port
            refused: Counter[str] = Counter()
            cpu_before = cpu_seconds(process_tree(server.pid))
            began = time.time()
            ids = asyncio.run(burst(port, games, refused))
            created = time.time() - began
            reached, stuck = asyncio.run(wait_for_persons(port, ids, readers, limit))
            cpu = cpu_seconds(process_tree(server.pid)) - cpu_before
            scraped = asyncio.run(metrics(port))
        failed, errors = log_lines(log)
    times = sorted(seconds_after(stamp, began) for stamp in reached.values())
    retries = {m["labels"]: float(m["value"]) for m in RETRIES.finditer(scraped)}
    print(
        f"\nburst: {games} Black Spy games (a person, two random bots) created at once on"
        f" {redact(db)}; Python {sys.version.split()[0]}, {os.cpu_count()} CPUs"
    )
    print(f"  created in {created:.1f} s; refused and sent again: {dict(refused) or 'none'}")
    print(f"  at their person's turn: {len(reached)} of {games}", end="")
    print(f"; not within {limit:.0f} s: {len(stuck)}")
    if times:
        median, last = statistics.median(times), times[-1]
        print(
            f"  seconds from the burst to the person's turn: median {median:.1f}, last {last:.1f}"
        )
    print(f"  CPU of the server and its bot worker meanwhile: {cpu:.1f} s")
    shown = ", ".join(f"{labels} {value:.0f}" for labels, value in sorted(retries.items()))
    print(f"  retries of due work: {shown or 'none'}")
    print(f"  bot_failed lines: {dict(failed) or 'none'}; error-level lines: {errors}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default="sqlite", help="sqlite, or a postgresql:// URL")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--limit", type=float, default=300.0, help="seconds to wait at most")
    parser.add_argument("--readers", type=int, default=4, help="connections that read")
    args = parser.parse_args()
    run(args.db, args.games, args.limit, args.readers)


if __name__ == "__main__":
    main()
