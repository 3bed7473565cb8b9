"""Soak: thousands of games at once on one ``spies-api`` process, for a long time.

Starts one ``spies-api`` (``--db``: a fresh temporary SQLite file by default, or a
``postgresql://`` URL) and keeps ``--games`` games going at once, of all three registered
games in turn, each slot starting a new game when its game ends; ``--bot-games`` of them
are played by bots alone, the others are human and mixed games in turn:

- ``human`` games: every seat the client's, playing the commands of a random playout
  recorded beforehand (replayed on a game created with the same seed, so every command is
  accepted: a refusal is an error);
- ``mixed`` games (Black Spy and Spies & Lies): seat 0 the client's, the others the
  server's ``random`` bot; the client asks ``/legal`` and sends one of its commands (a 409
  because a bot moved in between is counted as a conflict, not an error);
- ``bots`` games: every seat a bot; the server plays them to the end by itself, as fast
  as its bot workers allow (so a few of them keep the bots busy all the time).

Every game has an event stream open from its start to its end (seat 0's on human and mixed
games, a spectator's on bot games). Each stream's ids are checked as they arrive: an id
below the next expected one is a duplicate, an id past it counts the ids skipped as lost;
when a stream ends (after the game's last event), or when the run ends and the stream has
caught up with the game's version, the last id must be the game's version (the rest is
lost). The client's seats move at ``--rate`` commands per second in all (each waits a
random, exponentially distributed time between its moves).

Every ``--interval`` seconds (a minute) it prints the p50/p99 latency of ``POST
/games/{id}/commands``, commands sent and conflicts, events delivered on the streams
against events appended to the log in that interval (the sum of the games' versions in
the database, read beside the server; the two differ by the events in flight at the
interval's edges), lost and duplicated events so far, errors, games ended, and the server's
RSS and open file descriptors (from ``/proc``, Linux). At the end: the totals (events
appended counted exactly, per game watched: its version when its stream ended or was last
caught up, against the ids its stream delivered), the last interval's p99 ÷ the first's
(target at most 1.2) and ÷ the second's (the first holds the creation of every game), and
the RSS of the last interval ÷ that of the second (after the warm-up; target flat, about
1.0). Targets: nothing lost or duplicated, no error. ``--json PATH`` also writes the totals
as JSON (the CI test reads them). It prints and never asserts. Usage::

    python bench/soak.py [--games 2000] [--seconds 1800] [--rate 20] [--bot-games 12]
        [--db URL]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from api import HOST, Connection, Script, api_server, free_port, record_scripts
from spies_replay.store.locations import is_postgres_url, redact

GAMES = ("deck-of-spies", "black-spy", "spies-and-lies")
"""The three games, in turn; Deck of Spies (one seat) has no mixed game."""
P99_TARGET = 1.2
IDLE_SECONDS = 4.0
"""A pooled connection idle longer than this is replaced before it is used again."""
UNLIMITED = "999999999/second"
"""The rate limit given to the server: the whole soak is one client address."""


@dataclass
class Interval:
    """What happened in one reporting interval."""

    latencies: list[float] = field(default_factory=list)
    commands: int = 0
    conflicts: int = 0
    delivered: int = 0
    errors: int = 0
    games_done: int = 0


@dataclass
class Totals:
    created: int = 0
    finished: int = 0
    commands: int = 0
    conflicts: int = 0
    delivered: int = 0
    appended: int = 0
    """The events of every game watched, at its end or when its stream was last checked."""
    checked: int = 0
    """Of those, the ones its stream delivered."""
    lost: int = 0
    duplicated: int = 0
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)


class Soak:
    """The client: the games' slots, their streams, and what they counted."""

    def __init__(self, port: int, scripts: dict[str, list[Script]], args: argparse.Namespace):
        self.port = port
        self.scripts = scripts
        self.args = args
        self.now = Interval()
        self.totals = Totals()
        self.stopping = False
        self.stop = asyncio.Event()
        self.pool: asyncio.Queue[Connection] = asyncio.Queue()
        self.used: dict[Connection, float] = {}
        """When each pooled connection last sent a request (``time.monotonic``)."""
        self.open_games: dict[str, Stream] = {}
        self.rng = random.Random(args.seed)
        humans = max(args.games - args.bot_games, 0)
        self.think = max(humans, 1) / args.rate
        """The mean wait between two moves of one of the client's games (s)."""

    def kind(self, index: int) -> str:
        if index < self.args.bot_games:
            return "bots"
        kind = ("human", "mixed")[index % 2]
        return "human" if kind == "mixed" and self.game(index) == "deck-of-spies" else kind

    @staticmethod
    def game(index: int) -> str:
        return GAMES[(index // 2) % len(GAMES)]

    def error(self, message: str) -> None:
        self.now.errors += 1
        self.totals.errors += 1
        if len(self.totals.error_samples) < 10:
            self.totals.error_samples.append(message)

    async def call(self, method: str, path: str, body: bytes = b"", auth: bytes = b"") -> Any:
        """One request on a pooled keep-alive connection: ``(status, data)``, or ``None``
        when the connection failed (counted as an error)."""
        connection = await self.pool.get()
        if time.monotonic() - self.used.get(connection, 0.0) > IDLE_SECONDS:
            # the server closes a keep-alive connection idle for 5 s (uvicorn's default):
            # a request written into it would be lost, so open a new one instead
            connection.close()
            self.used.pop(connection, None)
            connection = await Connection.open(self.port)
        self.used[connection] = time.monotonic()
        try:
            return await asyncio.wait_for(connection.call(method, path, body, auth), 60)
        except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError) as exc:
            self.error(f"{method} {path}: {type(exc).__name__} {exc}")
            connection.close()
            try:
                connection = await Connection.open(self.port)
            except OSError as reopen:
                self.error(f"reconnecting: {reopen}")
            return None
        finally:
            self.pool.put_nowait(connection)

    async def command(self, game_id: str, body: bytes, auth: bytes, conflict_ok: bool) -> None:
        started = time.perf_counter()
        answer = await self.call("POST", f"/games/{game_id}/commands", body, auth)
        if answer is None:
            return
        status, data = answer
        self.now.latencies.append(time.perf_counter() - started)
        self.now.commands += 1
        self.totals.commands += 1
        if status == 409 and conflict_ok:
            self.now.conflicts += 1
            self.totals.conflicts += 1
        elif status != 200:
            self.error(f"command {status}: {data[:200]!r}")

    async def pause(self, seconds: float | None = None) -> None:
        """A random think time (or ``seconds``), cut short when the run ends."""
        wait = self.rng.expovariate(1 / self.think) if seconds is None else seconds
        with suppress(TimeoutError):
            await asyncio.wait_for(self.stop.wait(), wait)

    # -- one slot ---------------------------------------------------------------------------

    async def slot(self, index: int) -> None:
        kind, game = self.kind(index), self.game(index)
        await self.pause(self.rng.uniform(0, min(self.think, self.args.interval)))
        rounds = 0
        while not self.stopping:
            await self.one_game(kind, game, rounds)
            rounds += 1

    async def one_game(self, kind: str, game: str, rounds: int) -> None:
        script = self.scripts[game][rounds % len(self.scripts[game])]
        players = script.players
        request: dict[str, Any] = {"game": game, "players": players}
        if kind == "human":
            request["seed"] = script.seed
        elif kind == "mixed":
            request["seats"] = [{"type": "creator"}] + [{"type": "bot", "bot": "random"}] * (
                players - 1
            )
        else:
            request["seats"] = [{"type": "bot", "bot": "random"}] * players
        answer = await self.call("POST", "/games", msgspec.json.encode(request))
        if answer is None:
            await asyncio.sleep(1)
            return
        status, data = answer
        if status != 201:
            self.error(f"create {status}: {data[:200]!r}")
            await asyncio.sleep(1)
            return
        created = msgspec.json.decode(data)
        self.totals.created += 1
        game_id = created["id"]
        auth = [
            f"authorization: Bearer {seat['token']}\r\n".encode()
            for seat in created["seats"]
            if seat.get("token")
        ]
        try:
            stream = await Stream.open(self.port, game_id, auth[0] if auth else b"", self)
        except (OSError, AssertionError, asyncio.IncompleteReadError) as exc:
            self.error(f"stream of {game_id}: {exc}")
            return
        self.open_games[game_id] = stream
        follower = asyncio.create_task(stream.follow())
        await self.play(kind, script, game_id, auth, stream)
        ended, stopped = (asyncio.create_task(e.wait()) for e in (stream.ended, self.stop))
        await asyncio.wait([ended, stopped], return_when=asyncio.FIRST_COMPLETED)
        ended.cancel()
        stopped.cancel()
        if self.stopping:
            return
        await follower
        await self.settle(game_id, stream)
        self.now.games_done += 1
        self.totals.finished += 1

    async def play(
        self, kind: str, script: Script, game_id: str, auth: list[bytes], stream: Stream
    ) -> None:
        """The client's seats' moves, until the game ends or the run does."""
        if kind == "human":
            for seat, body in script.steps:
                await self.pause()
                if self.stopping:
                    return
                await self.command(game_id, body, auth[seat], conflict_ok=False)
        elif kind == "mixed":
            while not stream.ended.is_set():
                await self.pause()
                if self.stopping:
                    return
                legal = await self.call("GET", f"/games/{game_id}/legal", auth=auth[0])
                if legal is None:
                    continue
                if legal[0] != 200:
                    self.error(f"legal {legal[0]}: {legal[1][:200]!r}")
                    continue
                offered = msgspec.json.decode(legal[1])
                if offered["commands"]:
                    body = msgspec.json.encode(
                        {
                            "command": self.rng.choice(offered["commands"]),
                            "expected_version": offered["version"],
                        }
                    )
                    await self.command(game_id, body, auth[0], conflict_ok=True)

    async def settle(self, game_id: str, stream: Stream) -> None:
        """The stream's last id against the game's version; the stream closed."""
        self.open_games.pop(game_id, None)
        stream.close()
        answer = await self.call("GET", f"/games/{game_id}")
        if answer is None:
            return
        if answer[0] != 200:
            self.error(f"summary {answer[0]}")
            return
        version = msgspec.json.decode(answer[1])["version"]
        self.check(game_id, stream, version)

    def check(self, game_id: str, stream: Stream, version: int) -> None:
        """The stream of a game of ``version`` events delivered them all."""
        self.totals.appended += version
        self.totals.checked += min(stream.last, version)
        if stream.last < version:
            self.totals.lost += version - stream.last
            self.error(f"{game_id}: its stream stopped at {stream.last} of {version}")

    async def catch_up(self, timeout: float) -> None:
        """At the end: every open stream caught up with its game's version, then closed."""
        deadline = time.monotonic() + timeout
        for game_id, stream in list(self.open_games.items()):
            answer = await self.call("GET", f"/games/{game_id}")
            if answer is None or answer[0] != 200:
                continue
            version = msgspec.json.decode(answer[1])["version"]
            while stream.last < version and not stream.ended.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                stream.changed.clear()
                try:
                    await asyncio.wait_for(stream.changed.wait(), left)
                except TimeoutError:
                    break
            self.check(game_id, stream, version)
            stream.close()
        self.open_games.clear()


class Stream:
    """One event stream, its ids checked as they arrive."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, soak: Soak):
        self.reader, self.writer, self.soak = reader, writer, soak
        self.last = 0
        self.ended = asyncio.Event()
        self.changed = asyncio.Event()

    @classmethod
    async def open(cls, port: int, game_id: str, auth: bytes, soak: Soak) -> Stream:
        reader, writer = await asyncio.open_connection(HOST, port)
        writer.write(
            f"GET /games/{game_id}/events/stream HTTP/1.1\r\nhost: {HOST}\r\n".encode()
            + auth
            + b"\r\n"
        )
        head = await reader.readuntil(b"\r\n\r\n")
        if head[9:12] != b"200":
            writer.close()
            raise AssertionError(head[:200])
        return cls(reader, writer, soak)

    def seen(self, seq: int) -> None:
        soak = self.soak
        if seq <= self.last:
            soak.totals.duplicated += 1
            soak.error(f"duplicate event {seq} (after {self.last})")
            return
        if seq > self.last + 1:
            soak.totals.lost += seq - self.last - 1
            soak.error(f"events {self.last + 1}..{seq - 1} skipped")
        self.last = seq
        soak.now.delivered += 1
        soak.totals.delivered += 1
        self.changed.set()

    async def follow(self) -> None:
        buffer = b""
        try:
            while True:
                size = int((await self.reader.readline()).strip(), 16)
                if size == 0:
                    return
                chunk = (await self.reader.readexactly(size + 2))[:-2]
                buffer += chunk.replace(b"\r\n", b"\n")
                while b"\n\n" in buffer:
                    message, _, buffer = buffer.partition(b"\n\n")
                    for line in message.split(b"\n"):
                        if line.startswith(b"id:"):
                            self.seen(int(line[3:]))
        except (OSError, ValueError, asyncio.IncompleteReadError) as exc:
            if not self.soak.stopping:
                self.soak.error(f"stream broke: {type(exc).__name__} {exc}")
        finally:
            self.ended.set()
            self.changed.set()

    def close(self) -> None:
        self.writer.close()


# -- the server's side ---------------------------------------------------------------------


def process_figures(pid: int) -> tuple[float, int]:
    """The server's RSS (MiB) and open file descriptors, from /proc; zeros elsewhere."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        rss = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS"))
        return rss / 1024, len(os.listdir(f"/proc/{pid}/fd"))
    except (OSError, StopIteration):
        return 0.0, 0


def appended_counter(db: str) -> Callable[[], int]:
    """A function returning how many events the database holds (the sum of versions)."""
    query = "SELECT COALESCE(SUM(version), 0) FROM games"
    if is_postgres_url(db):
        import psycopg  # noqa: PLC0415

        connection = psycopg.connect(db, autocommit=True)

        def count_postgres() -> int:
            row = connection.execute(query).fetchone()
            return int(row[0]) if row else 0

        return count_postgres

    def count_sqlite() -> int:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as connection:
            return int(connection.execute(query).fetchone()[0])

    return count_sqlite


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def run(args: argparse.Namespace, db: str, scripts: dict[str, list[Script]]) -> Any:
    port = free_port()
    with ExitStack() as stack:
        pid = stack.enter_context(
            api_server(
                db,
                port,
                "--rate-limit",
                UNLIMITED,
                "--max-bot-games-per-client",
                "off",
                "--max-streams-per-client",
                "off",  # its one client watches every game
            )
        )
        count = appended_counter(db)
        soak = Soak(port, scripts, args)
        for _ in range(args.connections):
            soak.pool.put_nowait(await Connection.open(port))
        print(
            f"soak: {args.games} games at once on one spies-api ({redact(db)}),"
            f" {args.bot_games} of bots alone, the others human and mixed in turn, of all"
            f" three games; each human seat moving every {soak.think:.1f} s on"
            f" average ({args.rate}/s in all), {args.seconds} s, a line per {args.interval} s",
            flush=True,
        )
        print(
            f"{'t(s)':>6} {'p50ms':>7} {'p99ms':>7} {'cmds':>6} {'409':>4} {'deliv':>7}"
            f" {'append':>7} {'lost':>4} {'dup':>4} {'err':>4} {'games':>5} {'rss MiB':>8}"
            f" {'fds':>6}",
            flush=True,
        )
        slots = [asyncio.create_task(soak.slot(i)) for i in range(args.games)]
        rows: list[dict[str, float]] = []
        started = time.monotonic()
        appended_before = count()
        while time.monotonic() - started < args.seconds:
            await asyncio.sleep(min(args.interval, args.seconds - (time.monotonic() - started)))
            done, soak.now = soak.now, Interval()
            appended_now = await asyncio.to_thread(count)
            rss, fds = process_figures(pid)
            row = {
                "t": round(time.monotonic() - started),
                "p50_ms": percentile(done.latencies, 0.5) * 1000,
                "p99_ms": percentile(done.latencies, 0.99) * 1000,
                "commands": done.commands,
                "conflicts": done.conflicts,
                "delivered": done.delivered,
                "appended": appended_now - appended_before,
                "errors": done.errors,
                "games_done": done.games_done,
                "rss_mib": rss,
                "fds": fds,
            }
            appended_before = appended_now
            rows.append(row)
            print(
                f"{row['t']:6.0f} {row['p50_ms']:7.1f} {row['p99_ms']:7.1f} {done.commands:6d}"
                f" {done.conflicts:4d} {done.delivered:7d} {row['appended']:7d}"
                f" {soak.totals.lost:4d} {soak.totals.duplicated:4d} {done.errors:4d}"
                f" {done.games_done:5d} {rss:8.1f} {fds:6d}",
                flush=True,
            )
        soak.stopping = True
        soak.stop.set()
        await asyncio.gather(*slots)
        await soak.catch_up(timeout=60)
        totals = soak.totals
        while not soak.pool.empty():
            soak.pool.get_nowait().close()
    return totals, rows


def report(totals: Totals, rows: list[dict[str, float]]) -> dict[str, Any]:
    first, last = rows[0], rows[-1]
    warm = rows[1] if len(rows) > 1 else rows[0]
    p99_ratio = last["p99_ms"] / first["p99_ms"] if first["p99_ms"] else 0.0
    rss_ratio = last["rss_mib"] / warm["rss_mib"] if warm["rss_mib"] else 0.0
    p99_warm = last["p99_ms"] / warm["p99_ms"] if warm["p99_ms"] else 0.0
    median_p50 = statistics.median(r["p50_ms"] for r in rows)
    summary = {
        "games_created": totals.created,
        "games_finished": totals.finished,
        "commands": totals.commands,
        "conflicts": totals.conflicts,
        "delivered": totals.delivered,
        "appended": totals.appended,
        "delivered_of_appended": totals.checked,
        "lost": totals.lost,
        "duplicated": totals.duplicated,
        "errors": totals.errors,
        "error_samples": totals.error_samples,
        "p99_last_over_first": round(p99_ratio, 3),
        "p99_last_over_warm": round(p99_warm, 3),
        "rss_last_over_warm": round(rss_ratio, 3),
        "median_p50_ms": round(median_p50, 2),
        "intervals": rows,
    }
    print(
        f"\ntotals: {totals.created} games created, {totals.finished} finished,"
        f" {totals.commands} commands ({totals.conflicts} conflicts with a bot's move),"
        f" {totals.checked} events delivered of the {totals.appended} appended to them"
        f" ({totals.delivered} delivered in all),"
        f" {totals.lost} lost, {totals.duplicated} duplicated, {totals.errors} errors"
    )
    for sample in totals.error_samples:
        print(f"  error: {sample}")
    print(
        f"p99 last ÷ first interval: {p99_ratio:.2f} (target ≤ {P99_TARGET}), last ÷ second"
        f" (after the warm-up, when every game is created): {p99_warm:.2f};"
        f" RSS last ÷ after warm-up (interval 2): {rss_ratio:.2f} (target ≈ 1);"
        f" fds first {first['fds']:.0f}, last {last['fds']:.0f}"
    )
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games at once")
    parser.add_argument("--seconds", type=float, default=1800, help="how long the load runs")
    parser.add_argument("--interval", type=float, default=60, help="seconds per report line")
    parser.add_argument("--rate", type=float, default=20, help="client commands/s in all")
    parser.add_argument(
        "--bot-games",
        type=int,
        default=12,
        help="how many of the games are played by bots alone (they move as fast as the"
        " server lets them, so a few keep the bots busy)",
    )
    parser.add_argument("--connections", type=int, default=64, help="command connections")
    parser.add_argument("--db", help="a postgresql:// URL (default: a fresh SQLite file)")
    parser.add_argument("--seed", type=int, default=1, help="the client's random choices")
    parser.add_argument("--json", type=Path, help="also write the totals here, as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="spies-soak-") as tmp:
        print("recording game scripts from random playouts ...", flush=True)
        scripts = record_scripts(Path(tmp), per_game=8)
        db = args.db or str(Path(tmp) / "soak.db")
        totals, rows = asyncio.run(run(args, db, scripts))
    if not rows:
        sys.exit("soak.py: no interval completed (raise --seconds)")
    summary = report(totals, rows)
    if args.json is not None:
        args.json.write_text(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
