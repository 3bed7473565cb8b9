"""Event-stream latency across processes: a command sent to one ``spies-api``, seen on another.

Starts two ``spies-api`` processes, A and B, on one PostgreSQL database (``--db URL``), with
their default settings. For each game (the commands of random playouts of every registered
game, replayed on games created with the same seed), a client opens the game's event stream
(server-sent events) on A and on B, then sends the game's commands to A one at a time; after
each, it waits until both streams have delivered the command's first event. Between commands
both streams are caught up and idle, so B learns of A's commit only from PostgreSQL's
LISTEN/NOTIFY wake-up (or, had a notification been lost, from its slow safety poll).

It prints, in milliseconds from the moment the command is sent, the median and worst time to
A's response, to the event on A's own stream (the baseline: the same process), and to the
event on B's stream; B's lag behind A's response (what a player on B waits past the commit);
and B ÷ A. It prints and never asserts. Usage::

    python bench/stream.py --db postgresql://... [--commands 300]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

import msgspec

from api import HOST, Connection, Script, api_server, create_games, free_port, record_scripts
from spies_replay.store.locations import is_postgres_url, redact


class Stream:
    """One event stream, noting when each event's seq arrives (``time.perf_counter``)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.waiting: dict[int, asyncio.Future[float]] = {}
        self.arrived: dict[int, float] = {}

    @classmethod
    async def open(cls, port: int, game_id: str, auth: bytes) -> Stream:
        reader, writer = await asyncio.open_connection(HOST, port)
        writer.write(
            f"GET /games/{game_id}/events/stream HTTP/1.1\r\nhost: {HOST}\r\n".encode()
            + auth
            + b"\r\n"
        )
        head = await reader.readuntil(b"\r\n\r\n")
        assert head[9:12] == b"200", head
        assert b"transfer-encoding: chunked" in head.lower(), head
        return cls(reader, writer)

    def arrival(self, seq: int) -> asyncio.Future[float]:
        """A future set to the time the event ``seq`` arrives."""
        future = asyncio.get_running_loop().create_future()
        if seq in self.arrived:
            future.set_result(self.arrived[seq])
        else:
            self.waiting[seq] = future
        return future

    async def follow(self) -> None:
        """Read the stream to its end, noting every event's arrival."""
        buffer = b""
        while True:
            size = int((await self.reader.readline()).strip(), 16)
            if size == 0:
                return
            data = (await self.reader.readexactly(size + 2))[:-2]
            now = time.perf_counter()
            buffer += data.replace(b"\r\n", b"\n")
            while b"\n\n" in buffer:
                message, _, buffer = buffer.partition(b"\n\n")
                for line in message.split(b"\n"):
                    if line.startswith(b"id:"):
                        seq = int(line[3:])
                        self.arrived[seq] = now
                        if (future := self.waiting.pop(seq, None)) is not None:
                            future.set_result(now)

    def close(self) -> None:
        self.writer.close()


async def measure(a: int, b: int, scripts: list[Script], limit: int) -> list[tuple[float, ...]]:
    """Per command: (A's response, A's stream, B's stream), in s from the moment it is sent."""
    rows: list[tuple[float, ...]] = []
    created = await create_games(a, scripts)
    post = await Connection.open(a)
    try:
        for script, (game_id, auth) in zip(scripts, created, strict=True):
            streams = [await Stream.open(port, game_id, auth[0]) for port in (a, b)]
            followers = [asyncio.create_task(stream.follow()) for stream in streams]
            for seat, body in script.steps:
                if len(rows) >= limit:
                    break
                first = msgspec.json.decode(body)["expected_version"] + 1
                arrivals = [stream.arrival(first) for stream in streams]
                sent = time.perf_counter()
                status, data = await post.call(
                    "POST", f"/games/{game_id}/commands", body, auth[seat]
                )
                answered = time.perf_counter()
                assert status == 200, data
                on_a, on_b = await asyncio.wait_for(asyncio.gather(*arrivals), timeout=30)
                rows.append((answered - sent, on_a - sent, on_b - sent))
            for stream in streams:
                stream.close()
            for follower in followers:
                follower.cancel()
            if len(rows) >= limit:
                break
    finally:
        post.close()
    return rows


def run(url: str, commands: int) -> None:
    with tempfile.TemporaryDirectory(prefix="spies-bench-") as tmp:
        print("recording game scripts from random playouts ...", flush=True)
        scripts = record_scripts(Path(tmp), per_game=8)
        pool = [script for group in zip(*scripts.values(), strict=False) for script in group]
        a, b = free_port(), free_port()
        with ExitStack() as stack:
            stack.enter_context(api_server(url, a))
            stack.enter_context(api_server(url, b))
            asyncio.run(measure(a, b, pool[:1], 10))  # warm both processes
            rows = asyncio.run(measure(a, b, pool, commands))

    def ms(values: list[float]) -> str:
        return f"median {statistics.median(values) * 1000:7.2f}   worst {max(values) * 1000:7.2f}"

    answered, on_a, on_b = ([row[i] for row in rows] for i in range(3))
    lag = [row[2] - row[0] for row in rows]
    print(
        f"\nevent-stream latency, two spies-api processes on {redact(url)},"
        f" {len(rows)} commands sent to A one at a time; ms from sending the command"
    )
    for label, values in (
        ("A's response to the command", answered),
        ("the event on A's stream (baseline)", on_a),
        ("the event on B's stream", on_b),
        ("B's stream after A's response", lag),
    ):
        print(f"  {label:36}{ms(values)}")
    print(
        f"  B ÷ A, medians: {statistics.median(on_b) / statistics.median(on_a):.2f};"
        f" commands B saw later than 100 ms after sending: {sum(t > 0.1 for t in on_b)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, metavar="URL", help="a postgresql:// URL")
    parser.add_argument("--commands", type=int, default=300, help="commands to send")
    args = parser.parse_args()
    if not is_postgres_url(args.db):
        sys.exit("stream.py: --db must be a postgresql:// URL (SQLite has one process)")
    run(args.db, args.commands)


if __name__ == "__main__":
    main()
