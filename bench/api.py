"""API speed: commands/s and latency over loopback, against a minimal Litestar baseline.

Starts three servers in subprocesses, each with uvicorn (one worker) on loopback and a fresh
SQLite file:

- the API (``python -m spies_api``), with its default settings but ``--rate-limit off``
  (the bench is one client address) and JSON logging (to /dev/null);
- the baseline: a minimal Litestar app whose one JSON POST handler inserts the body into
  SQLite (WAL, ``synchronous=NORMAL``, a connection per thread) in a worker thread
  (``sync_to_thread=True``, Litestar's idiom for blocking code), which is the least a
  command has to do;
- the same baseline with its handler on the event loop (``sync_to_thread=False``), shown
  for comparison because the API runs most commands on the loop (see spies_api.service.games).

All are driven by the same client: ``--clients`` (32) asyncio tasks, each on its own
keep-alive connection, posting the same request bodies: the commands of real games, taken
from random playouts of every registered game and replayed on games created with the same
seed (so every command is accepted). Games are created before the clock starts. Rounds
alternate between the servers; it prints each round, then the median round's commands/s
and p50/p99 latency, and the ratio API ÷ baseline (target at least 0.6).

Then it plays the longest registered game (the one whose random playouts have the most
commands) from start to end on ``--clients`` games at once, and prints the p50 latency of
the last tenth of its commands divided by the p50 of the first tenth (target at most 1.2: a
command's cost does not grow with the game's length).

With ``--db`` (a SQLite file path, ``sqlite`` for a fresh temporary file, or a
``postgresql://`` URL; repeatable) it measures the API alone instead, side by side: each
PostgreSQL database with each count of ``--workers`` (``spies-api`` processes sharing the
database, each on its own port; the clients are spread over them, or with
``--clients-each`` each process gets ``--clients`` of its own and the round's commands are
shared by all, so that a process appends in batches as large as one alone does), each SQLite
database with each count of ``--sqlite-workers`` (one by default: SQLite has one writer at a
time) and each ``--sqlite-sync`` mode (``normal`` by default; ``full`` syncs at each commit, as
PostgreSQL does with ``synchronous_commit`` on, so it is the like-for-like comparison). Every
server is up for the whole run and the rounds visit the set-ups in turn; it prints each
round, then per set-up the median round's commands/s and p50/p99 latency, its commands/s
as a ratio of the first set-up's, and the CPU time each command cost this client, the
``spies-api`` processes and the PostgreSQL processes on this machine (read from ``/proc``,
so on Linux only), which tells where a machine with more cores would help, and the API's CPU
per command as a ratio of the same database's set-up with the fewest workers (each process
added should cost nothing per command: target at most 1.2 with 8).

The client writes each request in one piece and, like every asyncio TCP connection, sets
``TCP_NODELAY``; the servers' accepted connections set it too (see ``spies_api.cli``), so a
response written as head then body is not held back by Nagle's algorithm.

It prints and never asserts. Usage::

    python bench/api.py [--clients 32] [--commands 12000] [--rounds 3]
    python bench/api.py --db sqlite --db postgresql://... [--workers 1,2,4]
        [--sqlite-sync normal,full]
    python bench/api.py --rate-limit-cost [--clients 32] [--commands 12000] [--rounds 3]

``--rate-limit-cost`` runs the API twice side by side, ``--rate-limit off`` and a limit no
client reaches (every request goes through the limiter, none is refused), and prints
commands/s with the limit ÷ without.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from spies_api.game import create_game, submit_command
from spies_core.registry import GAMES
from spies_replay.store.locations import redact
from spies_replay.store.protocols import EventStore
from spies_replay.store.sqlite import SQLiteEventStore

RATIO_TARGET = 0.6
PG_RATIO_TARGET = 0.6
"""PostgreSQL with one process against SQLite (normal sync), commands/s, same clients."""
PG_CPU_TARGET_MS = 1.0
"""API CPU per command on PostgreSQL with one process."""
PG_TOTAL_CPU_TARGET = 1.5
"""CPU per command on PostgreSQL with one process (API and PostgreSQL) ÷ SQLite normal's."""
GROWTH_TARGET = 1.2
SCALE_CPU_TARGET = 1.2
"""API CPU per command with 8 PostgreSQL workers against one."""
WARMUP = 20
"""Requests per client before the clock starts."""
HOST = "127.0.0.1"

# -- the baseline app ------------------------------------------------------------------------


def baseline_app(db_path: str, on_loop: bool = False) -> Any:
    """A minimal Litestar app: one JSON POST, one SQLite insert (in a worker thread, or with
    ``on_loop`` on the event loop)."""
    from litestar import Litestar, post  # noqa: PLC0415  (only in the baseline process)

    local = threading.local()
    setup = sqlite3.connect(db_path)
    setup.execute("PRAGMA journal_mode = WAL")
    setup.execute("CREATE TABLE IF NOT EXISTS items (id INTEGER PRIMARY KEY, body TEXT)")
    setup.close()

    def connection() -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(db_path, check_same_thread=False)
            conn.execute("PRAGMA synchronous = NORMAL")
            local.conn = conn
        return conn

    @post("/items", sync_to_thread=not on_loop)
    def insert(data: dict[str, Any]) -> dict[str, Any]:
        conn = connection()
        cursor = conn.execute("INSERT INTO items (body) VALUES (?)", (msgspec.json.encode(data),))
        conn.commit()
        return {"id": cursor.lastrowid}

    return Litestar([insert], logging_config=None)


def serve_baseline(db_path: str, port: int, mode: str) -> None:
    import uvicorn  # noqa: PLC0415

    app = baseline_app(db_path, on_loop=mode == "loop")
    uvicorn.run(app, host=HOST, port=port, log_level="warning", access_log=False)


# -- game scripts ----------------------------------------------------------------------------


@dataclass
class Script:
    """One game's commands, recorded from a random playout with a fixed seed."""

    game: str
    players: int
    seed: str
    steps: list[tuple[int, bytes]] = field(default_factory=list)
    """(seat, request body with expected_version) per command."""


def record_script(
    store: EventStore, game: str, players: int, seed: str, rng: random.Random
) -> Script:
    spec = GAMES[game]
    created = create_game(store, game, players, None, seed=seed)
    state, version = created.state, created.record.version
    script = Script(game, players, seed)
    while spec.outcome(state) is None:
        seat = rng.choice(sorted(spec.to_act(state)))
        command = rng.choice(spec.legal_commands(state, seat))
        body = msgspec.json.encode({"command": command, "expected_version": version})
        script.steps.append((seat, body))
        result = submit_command(
            store, created.record.id, seat, command, state=state, version=version
        )
        state, version = result.state, result.version
    return script


def record_scripts(workdir: Path, per_game: int) -> dict[str, list[Script]]:
    scripts: dict[str, list[Script]] = {}
    with SQLiteEventStore(workdir / "scripts.db") as store:
        for name, spec in GAMES.items():
            scripts[name] = [
                record_script(store, name, spec.min_players, f"bench-{name}-{i}", random.Random(i))
                for i in range(per_game)
            ]
    return scripts


# -- a lean HTTP/1.1 client ------------------------------------------------------------------


class Connection:
    """One keep-alive HTTP/1.1 connection (enough for JSON request/response)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, port: int) -> Connection:
        reader, writer = await asyncio.open_connection(HOST, port)
        return cls(reader, writer)

    async def call(
        self, method: str, path: str, body: bytes = b"", headers: bytes = b""
    ) -> tuple[int, bytes]:
        head = (
            f"{method} {path} HTTP/1.1\r\nhost: {HOST}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\n"
        ).encode()
        self.writer.write(head + headers + b"\r\n" + body)
        raw = await self.reader.readuntil(b"\r\n\r\n")
        status = int(raw[9:12])
        length = 0
        for line in raw.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        data = await self.reader.readexactly(length) if length else b""
        return status, data

    def close(self) -> None:
        self.writer.close()


# -- servers ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def cpu_seconds(pids: list[int]) -> float:
    """The CPU time (user + system) the processes ``pids`` have used so far; 0 without /proc."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def cpu_now(servers: list[int], database: list[int]) -> tuple[float, float, float]:
    """CPU seconds used so far by this process, the ``servers`` and the ``database``."""
    return time.process_time(), cpu_seconds(servers), cpu_seconds(database)


def postgres_pids(url: str) -> list[int]:
    """The processes of the PostgreSQL server of ``url`` when it runs on this machine (Linux),
    to count their CPU: the backends connected to its database and the server's own processes
    (the WAL writer, the checkpointer, ...: ``pg_stat_activity`` rows of no database). Other
    databases' backends on the same server (other benches, tests) are left out, and so are
    other clusters on the machine."""
    try:
        import psycopg  # noqa: PLC0415

        with psycopg.connect(url, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE (datname = current_database()"
                " OR datname IS NULL) AND pid <> pg_backend_pid()"
            ).fetchall()
            data = conn.execute("SHOW data_directory").fetchone()
        postmaster = int((Path(data[0]) / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError, TypeError, ImportError, Exception):  # noqa: BLE001
        return []
    return [postmaster, *(int(row[0]) for row in rows)]


@contextmanager
def server(args: list[str], port: int) -> Iterator[int]:
    """A server process, up and listening on ``port``; yields its pid. Its output goes to a
    temporary file, shown only if it does not stop within 30 s of SIGTERM: then its threads'
    stacks (``SIGUSR1``, see docs/operations.md) are printed to stderr and it is killed."""
    log = tempfile.TemporaryFile()  # noqa: SIM115  (closed below)
    process = subprocess.Popen([sys.executable, *args], stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection((HOST, port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.05)
        else:
            raise RuntimeError(f"server {args} did not start")
        yield process.pid
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGUSR1)
            time.sleep(2)  # the dump is written by the process itself; no event to wait on
            process.kill()
            process.wait()
            log.seek(0)
            tail = log.read().decode(errors="replace")[-12000:]
            print(
                f"server {args} did not stop within 30 s of SIGTERM; its log's end:\n{tail}",
                file=sys.stderr,
            )
        finally:
            log.close()


def api_server(db: Path | str, port: int, *options: str) -> Any:
    """``spies-api`` with ``--rate-limit off`` and ``--max-games-per-client off`` (one client
    address sends everything) unless ``options`` give them."""
    for limit in ("--rate-limit", "--max-games-per-client"):
        if limit not in options:
            options = (limit, "off", *options)
    return server(["-m", "spies_api", "--db", str(db), "--port", str(port), *options], port)


def baseline_server(db: Path, port: int, mode: str) -> Any:
    return server([__file__, "--serve-baseline", str(db), str(port), mode], port)


# -- load ------------------------------------------------------------------------------------


@dataclass
class Work:
    """What one client posts: (path, body, headers) per request."""

    requests: list[tuple[str, bytes, bytes]] = field(default_factory=list)


async def create_games(port: int, scripts: list[Script]) -> list[tuple[str, list[bytes]]]:
    connection = await Connection.open(port)
    created = []
    try:
        for script in scripts:
            body = msgspec.json.encode(
                {"game": script.game, "players": script.players, "seed": script.seed}
            )
            status, data = await connection.call("POST", "/games", body)
            assert status == 201, data
            game = msgspec.json.decode(data)
            auth = [f"authorization: Bearer {s['token']}\r\n".encode() for s in game["seats"]]
            created.append((game["id"], auth))
    finally:
        connection.close()
    return created


async def drive(port: int | list[int], work: list[Work]) -> tuple[float, list[list[float]]]:
    """Run every client's requests; return the wall time and each client's latencies (s).

    With several ports, client ``i`` talks to ``port[i % len(port)]``."""
    ports = [port] if isinstance(port, int) else port
    connections = [await Connection.open(ports[i % len(ports)]) for i in range(len(work))]
    latencies: list[list[float]] = [[] for _ in work]
    failures = 0

    async def client(index: int) -> None:
        nonlocal failures
        connection = connections[index]
        timings = latencies[index]
        for path, body, headers in work[index].requests:
            started = time.perf_counter()
            status, _ = await connection.call("POST", path, body, headers)
            timings.append(time.perf_counter() - started)
            if status >= 300:
                failures += 1

    started = time.perf_counter()
    await asyncio.gather(*(client(i) for i in range(len(work))))
    elapsed = time.perf_counter() - started
    for connection in connections:
        connection.close()
    if failures:
        print(f"  warning: {failures} requests were refused", file=sys.stderr)
    return elapsed, latencies


def plan_games(
    scripts: dict[str, list[Script]], clients: int, per_client: int
) -> list[list[Script]]:
    """Per client, games (in turn from every registered game) with ``per_client`` commands."""
    pool = [script for group in zip(*scripts.values(), strict=False) for script in group]
    plans: list[list[Script]] = []
    turn = 0
    for _ in range(clients):
        plan: list[Script] = []
        while sum(len(script.steps) for script in plan) < per_client:
            plan.append(pool[turn % len(pool)])
            turn += 1
        plans.append(plan)
    return plans


async def api_work(port: int | list[int], plans: list[list[Script]], limit: int) -> list[Work]:
    ports = [port] if isinstance(port, int) else port
    work = []
    for index, plan in enumerate(plans):
        created = await create_games(ports[index % len(ports)], plan)
        requests = []
        for script, (game_id, auth) in zip(plan, created, strict=True):
            path = f"/games/{game_id}/commands"
            requests += [(path, body, auth[seat]) for seat, body in script.steps]
        work.append(Work(requests[:limit]))
    return work


def baseline_work(api: list[Work]) -> list[Work]:
    return [Work([("/items", body, b"") for _, body, _ in w.requests]) for w in api]


def summary(elapsed: float, latencies: list[list[float]]) -> tuple[int, float, float, float]:
    flat = sorted(t for client in latencies for t in client)
    count = len(flat)
    p50 = flat[count // 2] * 1000
    p99 = flat[min(count - 1, int(count * 0.99))] * 1000
    return count, count / elapsed, p50, p99


# -- main ------------------------------------------------------------------------------------


def longest_game(scripts: dict[str, list[Script]]) -> str:
    """The registered game whose random playouts have the most commands."""
    return max(scripts, key=lambda name: statistics.mean(len(s.steps) for s in scripts[name]))


def run(clients: int, commands: int, rounds: int) -> None:
    per_client = max(1, commands // clients)
    with tempfile.TemporaryDirectory(prefix="spies-bench-") as tmp:
        workdir = Path(tmp)
        print("recording game scripts from random playouts ...", flush=True)
        scripts = record_scripts(workdir, per_game=4)
        plans = plan_games(scripts, clients, per_client + WARMUP)
        api_port, base_port, loop_port = free_port(), free_port(), free_port()
        results: list[tuple[Any, Any, Any]] = []
        with (
            api_server(workdir / "api.db", api_port),
            baseline_server(workdir / "baseline.db", base_port, "thread"),
            baseline_server(workdir / "loop.db", loop_port, "loop"),
        ):
            # Rounds alternate between the servers, so a busy neighbour on the machine slows
            # all alike; the ratio is the median over the rounds.
            for number in range(1, rounds + 1):
                work = asyncio.run(api_work(api_port, plans, per_client + WARMUP))
                warm = [Work(w.requests[:WARMUP]) for w in work]
                rest = [Work(w.requests[WARMUP:]) for w in work]
                measured = []
                for port, phase in ((base_port, baseline_work), (loop_port, baseline_work)):
                    asyncio.run(drive(port, phase(warm)))
                    measured.append(summary(*asyncio.run(drive(port, phase(rest)))))
                asyncio.run(drive(api_port, warm))
                api = summary(*asyncio.run(drive(api_port, rest)))
                results.append((measured[0], measured[1], api))
                print(
                    f"  round {number}: baseline {measured[0][1]:.0f} req/s (on the loop:"
                    f" {measured[1][1]:.0f}), API {api[1]:.0f} commands/s,"
                    f" ratio {api[1] / measured[0][1]:.2f}",
                    flush=True,
                )

            longest = longest_game(scripts)
            script = max(scripts[longest], key=lambda s: len(s.steps))
            tenth = max(1, len(script.steps) // 10)
            growth: list[tuple[float, float]] = []
            for _ in range(rounds):
                plans = [[script] for _ in range(clients)]
                growth_work = asyncio.run(api_work(api_port, plans, len(script.steps)))
                _, by_client = asyncio.run(drive(api_port, growth_work))
                first = statistics.median(t for client in by_client for t in client[:tenth])
                last = statistics.median(t for client in by_client for t in client[-tenth:])
                growth.append((first * 1000, last * 1000))

    first, last = sorted(growth, key=lambda pair: pair[1] / pair[0])[len(growth) // 2]
    ratios = [api[1] / base[1] for base, _, api in results]
    middle = sorted(range(len(ratios)), key=ratios.__getitem__)[len(ratios) // 2]
    base, on_loop, api = results[middle]

    print(
        f"\nspies-engine API over loopback: {clients} clients, uvicorn (1 worker),"
        f" Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; the median of {rounds} rounds"
    )
    print(f"{'':26}{'requests':>9}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}")
    for label, (count, rate, p50, p99) in (
        ("baseline (POST + insert)", base),
        ("  same, on the event loop", on_loop),
        ("API commands", api),
    ):
        print(f"  {label:24}{count:>9}{rate:>9.0f}{p50:>9.2f}{p99:>9.2f}")
    print(
        f"  commands/s ÷ baseline req/s: {ratios[middle]:.2f} (target at least {RATIO_TARGET});"
        f" rounds: {', '.join(f'{r:.2f}' for r in ratios)}"
    )
    print(f"  commands/s ÷ on-the-loop baseline req/s: {api[1] / on_loop[1]:.2f}")
    print(
        f"\nlongest registered game: {longest} ({script.players} players,"
        f" {len(script.steps)} commands), {clients} games at once, the median of {rounds}"
    )
    print(
        f"  p50 latency, first {tenth} commands: {first:.2f} ms; last {tenth}: {last:.2f} ms;"
        f" end ÷ start: {last / first:.2f} (target at most {GROWTH_TARGET});"
        f" rounds: {', '.join(f'{b / a:.2f}' for a, b in growth)}"
    )


@dataclass
class Setup:
    """One configuration of the scaling run: a database served by ``workers`` processes."""

    label: str
    db: str | Path
    workers: int
    options: tuple[str, ...] = ()
    ports: list[int] = field(default_factory=list)
    pids: list[int] = field(default_factory=list)
    measured: list[tuple[int, float, float, float]] = field(default_factory=list)
    cpu: list[tuple[float, float, float]] = field(default_factory=list)
    """Per round, CPU ms per command: the client, the API processes, local PostgreSQL."""
    clients: int = 0
    per_client: int = 0
    plans: list[list[Script]] = field(default_factory=list)


def setups(
    workdir: Path,
    databases: list[str],
    workers: list[int],
    sqlite_workers: list[int],
    sqlite_sync: list[str],
) -> list[Setup]:
    """Each database with each worker count (for a SQLite file: each ``sqlite_sync`` mode with
    each of ``sqlite_workers``)."""
    result = []
    for number, database in enumerate(databases):
        if database.startswith(("postgresql://", "postgres://")):
            result += [Setup("PostgreSQL", database, count) for count in workers]
            continue
        for sync in sqlite_sync:
            for count in sqlite_workers:
                db: str | Path = database
                if database == "sqlite":
                    db = workdir / f"api-{number}-{sync}-{count}.db"
                result.append(Setup(f"SQLite {sync}", db, count, ("--sync", sync)))
    return result


def run_scaling(
    clients: int,
    commands: int,
    rounds: int,
    databases: list[str],
    workers: list[int],
    sqlite_workers: list[int],
    sqlite_sync: list[str],
    clients_each: bool = False,
) -> None:
    """The API alone on each database with each number of worker processes, side by side
    (``clients_each``: ``clients`` for each process, the round's commands shared by all)."""
    with tempfile.TemporaryDirectory(prefix="spies-bench-") as tmp:
        workdir = Path(tmp)
        print("recording game scripts from random playouts ...", flush=True)
        scripts = record_scripts(workdir, per_game=4)
        table = setups(workdir, databases, workers, sqlite_workers, sqlite_sync)
        for setup in table:
            setup.clients = clients * (setup.workers if clients_each else 1)
            setup.per_client = max(1, commands // setup.clients)
            setup.plans = plan_games(scripts, setup.clients, setup.per_client + WARMUP)
        with ExitStack() as stack:
            for setup in table:
                setup.ports = [free_port() for _ in range(setup.workers)]
                for port in setup.ports:
                    setup.pids.append(
                        stack.enter_context(api_server(setup.db, port, *setup.options))
                    )
            # Every server is up for the whole run and the rounds visit the set-ups in turn,
            # each round from a different one, so a busy neighbour slows them all alike.
            for number in range(rounds):
                for setup in table[number % len(table) :] + table[: number % len(table)]:
                    limit = setup.per_client + WARMUP
                    work = asyncio.run(api_work(setup.ports, setup.plans, limit))
                    asyncio.run(drive(setup.ports, [Work(w.requests[:WARMUP]) for w in work]))
                    rest = [Work(w.requests[WARMUP:]) for w in work]
                    local = postgres_pids(str(setup.db)) if setup.label == "PostgreSQL" else []
                    before = cpu_now(setup.pids, local)
                    row = summary(*asyncio.run(drive(setup.ports, rest)))
                    after = cpu_now(setup.pids, local)
                    used = (*((b - a) * 1000 / row[0] for a, b in zip(before, after, strict=True)),)
                    setup.measured.append(row)
                    setup.cpu.append((used[0], used[1], used[2]))
                    print(
                        f"  round {number + 1}: {setup.label} x{setup.workers}: {row[1]:.0f}"
                        f" commands/s, p50 {row[2]:.2f} ms, p99 {row[3]:.2f} ms; CPU ms per"
                        f" command: client {used[0]:.2f}, API {used[1]:.2f}, PostgreSQL"
                        f" {used[2]:.2f}",
                        flush=True,
                    )
    print(
        f"\nspies-engine API, {clients} clients{' per worker' if clients_each else ''} over"
        " loopback (one keep-alive connection each, spread over the workers), Python"
        f" {sys.version.split()[0]}, {os.cpu_count()} CPUs"
        f" shared by client, servers and database; the median of {rounds} rounds"
    )
    for database in databases:
        print(f"  {redact(database)}")
    print(
        "  CPU ms per command: this client, the spies-api processes, and the PostgreSQL"
        " processes on this machine (Linux; 0 elsewhere)"
    )
    print(
        "  API ÷ x1: the API's CPU per command against the same database's fewest workers"
        f" (target at most {SCALE_CPU_TARGET} with 8); rounds: each round's ratio"
    )
    print(
        f"  {'database':14}{'workers':>8}{'commands/s':>12}{'p50 ms':>9}{'p99 ms':>9}"
        f"{'vs first':>10}{'CPU client':>12}{'API':>7}{'PG':>7}{'API ÷ x1':>10}  rounds"
    )
    base = 0.0
    by_setup: dict[tuple[str, int], tuple[float, float, float]] = {}
    fewest: dict[str, Setup] = {}
    for setup in table:
        middle = sorted(range(rounds), key=lambda i: setup.measured[i][1])[rounds // 2]
        _, rate, p50, p99 = setup.measured[middle]
        # CPU per command: each column's own median over the rounds (a busy neighbour inflates
        # one round's CPU less than its commands/s, but it does)
        client, api, postgres = (statistics.median(c[i] for c in setup.cpu) for i in range(3))
        base = base or rate
        by_setup.setdefault((setup.label, setup.workers), (rate, api, postgres))
        first = fewest.setdefault(setup.label, setup)
        first_api = statistics.median(c[1] for c in first.cpu)
        per_round = ", ".join(
            f"{mine[1] / theirs[1]:.2f}" for mine, theirs in zip(setup.cpu, first.cpu, strict=True)
        )
        print(
            f"  {setup.label:14}{setup.workers:>8}{rate:>12.0f}{p50:>9.2f}{p99:>9.2f}"
            f"{rate / base:>10.2f}{client:>12.2f}{api:>7.2f}{postgres:>7.2f}"
            f"{api / first_api:>10.2f}  {per_round}"
        )
    sqlite = by_setup.get(("SQLite normal", 1))
    postgres_one = by_setup.get(("PostgreSQL", 1))
    if sqlite is not None and postgres_one is not None:
        pairs = zip(_rows(table, "PostgreSQL", 1), _rows(table, "SQLite normal", 1), strict=False)
        print(
            f"  PostgreSQL x1 commands/s ÷ SQLite normal x1: {postgres_one[0] / sqlite[0]:.2f}"
            f" (target at least {PG_RATIO_TARGET}); rounds:"
            f" {', '.join(f'{pg[1] / lite[1]:.2f}' for pg, lite in pairs)};"
            f" API CPU per command on PostgreSQL x1: {postgres_one[1]:.2f} ms"
            f" (target at most {PG_CPU_TARGET_MS}); CPU per command, the API's and"
            f" PostgreSQL's, ÷ SQLite normal x1's: {sum(postgres_one[1:]) / sqlite[1]:.2f}"
            f" ({postgres_one[1]:.2f} + {postgres_one[2]:.2f} ms ÷ {sqlite[1]:.2f} ms; target at"
            f" most {PG_TOTAL_CPU_TARGET})"
        )


def _rows(table: list[Setup], label: str, workers: int) -> list[tuple[int, float, float, float]]:
    """The rounds of one set-up (empty when the run has none)."""
    for setup in table:
        if setup.label == label and setup.workers == workers:
            return setup.measured
    return []


UNREACHED_RATE = "100000000/second"
"""A rate limit no bench reaches: the limiter runs on every request, and never refuses."""


def run_rate_limit(clients: int, commands: int, rounds: int) -> None:
    """The rate limit's cost: the same commands on two API servers, one with
    ``--rate-limit off`` and one with a limit it never reaches (so every request goes
    through the limiter), rounds alternating; prints commands/s of each and on ÷ off."""
    per_client = max(1, commands // clients)
    with tempfile.TemporaryDirectory(prefix="spies-bench-") as tmp:
        workdir = Path(tmp)
        print("recording game scripts from random playouts ...", flush=True)
        scripts = record_scripts(workdir, per_game=4)
        plans = plan_games(scripts, clients, per_client + WARMUP)
        off_port, on_port = free_port(), free_port()
        results: list[tuple[Any, Any]] = []
        with (
            api_server(workdir / "off.db", off_port, "--rate-limit", "off"),
            api_server(workdir / "on.db", on_port, "--rate-limit", UNREACHED_RATE),
        ):
            for number in range(1, rounds + 1):
                measured = []
                for port in (off_port, on_port):
                    work = asyncio.run(api_work(port, plans, per_client + WARMUP))
                    asyncio.run(drive(port, [Work(w.requests[:WARMUP]) for w in work]))
                    rest = [Work(w.requests[WARMUP:]) for w in work]
                    measured.append(summary(*asyncio.run(drive(port, rest))))
                results.append((measured[0], measured[1]))
                print(
                    f"  round {number}: limit off {measured[0][1]:.0f} commands/s,"
                    f" on {measured[1][1]:.0f} commands/s,"
                    f" on ÷ off {measured[1][1] / measured[0][1]:.2f}",
                    flush=True,
                )
    ratios = [on[1] / off[1] for off, on in results]
    middle = sorted(range(len(ratios)), key=ratios.__getitem__)[len(ratios) // 2]
    off, on = results[middle]
    print(
        f"\nthe rate limit's cost: {clients} clients, uvicorn (1 worker),"
        f" Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; the median of {rounds} rounds"
    )
    print(f"{'':26}{'requests':>9}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}")
    for label, (count, rate, p50, p99) in (
        ("--rate-limit off", off),
        (f"--rate-limit {UNREACHED_RATE}", on),
    ):
        print(f"  {label:24}{count:>9}{rate:>9.0f}{p50:>9.2f}{p99:>9.2f}")
    print(
        f"  commands/s with the limit ÷ without: {ratios[middle]:.2f};"
        f" rounds: {', '.join(f'{r:.2f}' for r in ratios)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--commands", type=int, default=12_000, help="per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--db",
        action="append",
        metavar="DB",
        help="measure the API alone on this database (a file, sqlite, or a postgresql:// URL)",
    )
    parser.add_argument(
        "--workers",
        default="1,2,4",
        metavar="N[,N...]",
        help="spies-api processes per PostgreSQL database",
    )
    parser.add_argument(
        "--sqlite-workers",
        default="1",
        metavar="N[,N...]",
        help="spies-api processes per SQLite database",
    )
    parser.add_argument(
        "--sqlite-sync",
        default="normal",
        metavar="MODE[,MODE]",
        help="spies-api --sync modes to run each SQLite database with (normal, full)",
    )
    parser.add_argument(
        "--rate-limit-cost",
        action="store_true",
        help="measure the rate limiter's cost instead: the API with --rate-limit off beside"
        " the API with a limit it never reaches",
    )
    parser.add_argument(
        "--clients-each",
        action="store_true",
        help="with --db: --clients for each worker process (the round's commands shared by"
        " all), so that each process batches as one alone does",
    )
    parser.add_argument("--serve-baseline", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_baseline:
        serve_baseline(args.serve_baseline[0], int(args.serve_baseline[1]), args.serve_baseline[2])
        return
    if args.rate_limit_cost:
        run_rate_limit(args.clients, args.commands, args.rounds)
        return
    if args.db:
        workers = [int(n) for n in args.workers.split(",")]
        sqlite_workers = [int(n) for n in args.sqlite_workers.split(",")]
        sqlite_sync = args.sqlite_sync.split(",")
        run_scaling(
            args.clients,
            args.commands,
            args.rounds,
            args.db,
            workers,
            sqlite_workers,
            sqlite_sync,
            clients_each=args.clients_each,
        )
        return
    run(args.clients, args.commands, args.rounds)


if __name__ == "__main__":
    main()
