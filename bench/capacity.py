"""Capacity: one ``spies-api`` process holding tens of thousands of active games.

For each database (``--db``: ``sqlite`` for a fresh temporary file, the default, or a
``postgresql://`` URL, in which each set-up gets a schema of its own, dropped afterwards;
repeatable) and each count of ``--games`` (10,000 and 50,000), plus the in-run baseline of
``--baseline`` (100) games:

1. **Populate.** This process creates the active Deck of Spies games in the database
   through the API's own game creator (the same code as ``POST /games``, without HTTP, so
   that 50,000 games take seconds rather than minutes), each with a typed seed from a small
   pool whose commands were recorded beforehand from random playouts.
2. **Start-up.** A ``spies-api`` process is started on that database; start-up is the time
   from ``exec`` to its first answer to ``GET /games?limit=1``, printed against the same
   start-up on an empty database (Python's imports, the app) and with the CPU the process
   used meanwhile: a process that replayed every game at start-up would show it here. Then
   the process reads ahead the heads kept with the games not finished, within its
   ``--cache-bytes`` (``spies_api.service.warming``): the bench waits for its
   ``caches_warmed`` line and prints when it came and the CPU it took, apart from the load's.
3. **Memory.** The server's resident memory, idle, then after the load; per active game:
   the difference from the 100-game run divided by the difference in games.
4. **Load.** ``--clients`` (16) keep-alive clients post ``--commands`` (960) accepted
   commands a round (``--rounds``, 3, visiting the set-ups in turn; the median round is
   kept), spread over every game (each client owns the games ``i % clients`` and
   takes them in a random order, one command each, round after round), a few warm-up
   commands first. It prints p50 and p99 latency and the ratio to the 100-game run
   (target: p50 at most 1.2×), and the server's CPU per command (from ``/proc``, less
   sensitive than latency to a busy machine) and its ratio: with 100 games every command
   finds its game's head in use; with 50,000 almost none does, and each finds it read
   ahead (packed: an unpacking) or, beyond the budget or with ``--cache-bytes 0``, makes a
   cold miss (a read of its kept head and of its seat's token).

Then **idle CPU** (``--idle-games``, 2,000): Black Spy games of three seats, one person and
two bots, created by this process, which also plays the bots' first moves as the server's
scheduler would (:func:`play_bots`); a server is started, and once nothing is due its CPU
(with its bot worker processes, from ``/proc/<pid>/stat``) is read, ``--settle`` (10) s
after its start (its bot worker process takes about 0.6 s of CPU to start: a one-off, not
idle work), over ``--idle-seconds`` (20); the same after a restart (target: under 5% of a core each
time). The load average is printed: the machine is shared.

It prints and never asserts. Usage::

    python bench/capacity.py [--db sqlite] [--db postgresql://...] [--games 10000,50000]
        [--baseline 100] [--clients 16] [--commands 960] [--rounds 3] [--idle-games 2000]
        [--idle-seconds 20] [--settle 10] [--cache-bytes BYTES] [--skip-capacity] [--skip-idle]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import msgspec
import structlog

from api import Connection, Script, cpu_seconds, free_port, record_script
from spies_api import Settings
from spies_api.app import Runtime
from spies_api.schemas import CreateGameRequest
from spies_replay.store.locations import is_postgres_url, redact
from spies_replay.store.sqlite import SQLiteEventStore

LATENCY_TARGET = 1.2
MEMORY_TARGET_KB = 10.0
STARTUP_TARGET_S = 5.0
IDLE_TARGET = 5.0
WARMUP = 5
"""Commands per client before the clock starts."""
SEEDS = 64
"""Seeds recorded; the games share them (a typed seed may be used by any number of games)."""


def quiet_logs() -> None:
    """This process creates many games: drop the API's log lines below warnings."""
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))


def databases(given: list[str] | None, script: str) -> list[str]:
    """The ``--db`` values of a bench (``sqlite`` when none), each ``sqlite`` or a
    ``postgresql://`` URL; another exits with one line naming ``script``."""
    dbs = given or ["sqlite"]
    for db in dbs:
        if db != "sqlite" and not is_postgres_url(db):
            sys.exit(f"{script}: --db {db!r}: expected sqlite or a postgresql:// URL")
    return dbs


# -- the database of one set-up --------------------------------------------------------------


@contextlib.contextmanager
def fresh_location(db: str, workdir: Path, label: str) -> Iterator[str]:
    """A fresh database: a new SQLite file, or a new schema of the PostgreSQL database."""
    if not is_postgres_url(db):
        yield str(workdir / f"{label}.db")
        return
    import psycopg  # noqa: PLC0415

    schema = f"capacity_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    joiner = "&" if "?" in db else "?"
    try:
        yield f"{db}{joiner}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def populate(
    location: str, requests: list[CreateGameRequest], threads: int
) -> tuple[list[tuple[str, bytes]], float]:
    """Create the games; return (game id, Authorization header of seat 0) and the seconds."""
    runtime = Runtime.open(Settings(db_path=location, configure_logging=False))
    started = time.perf_counter()
    try:

        def create(request: CreateGameRequest) -> tuple[str, bytes]:
            created = runtime.creator.create(request)
            token = created.seats[0].token
            return created.id, f"authorization: Bearer {token}\r\n".encode()

        if threads <= 1:
            games = [create(request) for request in requests]
        else:
            with ThreadPoolExecutor(threads) as pool:
                games = list(pool.map(create, requests, chunksize=64))
    finally:
        runtime.close()
    return games, time.perf_counter() - started


# -- a server process ------------------------------------------------------------------------


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (the bot pool's worker processes), from ``/proc``."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(stat[1]), []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo += children.get(current, [])
    return found


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


@dataclass
class Server:
    """A ``spies-api`` process: its pid, port, start-up seconds and start-up CPU seconds."""

    process: subprocess.Popen[bytes]
    port: int
    startup: float
    startup_cpu: float
    warm: float = 0.0
    """Seconds from start until its read-ahead ended (its ``caches_warmed`` line)."""
    warm_cpu: float = 0.0
    """The CPU seconds it used from its first answer until then."""

    @property
    def pid(self) -> int:
        return self.process.pid


def answers(port: int) -> bool:
    async def ask() -> int:
        connection = await Connection.open(port)
        try:
            status, _ = await connection.call("GET", "/games?limit=1")
            return status
        finally:
            connection.close()

    try:
        return asyncio.run(ask()) == 200
    except OSError:
        return False


@contextlib.contextmanager
def api_process(location: str, *options: str, log: Path | None = None) -> Iterator[Server]:
    """A ``spies-api`` process on ``location``, up and answering; stopped on exit. Its log
    lines go to the file ``log`` (none are kept by default)."""
    port = free_port()
    started = time.perf_counter()
    with contextlib.ExitStack() as files:
        out = subprocess.DEVNULL if log is None else files.enter_context(log.open("wb"))
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "spies_api",
                "--db",
                location,
                "--port",
                str(port),
                *("--rate-limit", "off", "--max-bot-games-per-client", "off"),  # one load client
                *("--max-games-per-client", "off"),
                *options,
            ],
            stdout=out,
            stderr=out,
        )
    try:
        while not answers(port):
            if process.poll() is not None:
                raise RuntimeError(f"spies-api on {redact(location)} exited")
            if time.perf_counter() - started > 120:
                raise RuntimeError(f"spies-api on {redact(location)} did not start")
            time.sleep(0.01)
        startup = time.perf_counter() - started
        yield Server(process, port, startup, cpu_seconds([process.pid]))
    finally:
        process.terminate()
        process.wait(timeout=60)


# -- the load --------------------------------------------------------------------------------


@dataclass
class Game:
    id: str
    auth: bytes
    script: Script
    step: int = 0


def plan(games: list[Game], clients: int, per_client: int, seed: int) -> list[list[Game]]:
    """Per client, the order of its games' commands: its games (``i % clients``) in a random
    order, one command each, round after round."""
    rng = random.Random(seed)
    plans = []
    for index in range(clients):
        mine = games[index::clients]
        rng.shuffle(mine)
        order: list[Game] = []
        while len(order) < per_client:
            order += mine[: per_client - len(order)]
        plans.append(order)
    return plans


async def drive(port: int, plans: list[list[Game]]) -> list[float]:
    """Each client posts its games' next commands in turn; return the latencies (s)."""
    connections = [await Connection.open(port) for _ in plans]
    latencies: list[float] = []
    refused = 0

    async def client(index: int) -> None:
        nonlocal refused
        connection = connections[index]
        for game in plans[index]:
            _, body = game.script.steps[game.step]
            game.step += 1
            sent = time.perf_counter()
            status, data = await connection.call(
                "POST", f"/games/{game.id}/commands", body, game.auth
            )
            latencies.append(time.perf_counter() - sent)
            if status != 200:
                refused += 1
                if refused == 1:
                    print(f"  warning: a command got {status}: {data[:200]!r}", file=sys.stderr)

    await asyncio.gather(*(client(i) for i in range(len(plans))))
    for connection in connections:
        connection.close()
    if refused:
        print(f"  warning: {refused} commands were refused", file=sys.stderr)
    return latencies


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


@dataclass
class SetUp:
    """One database with one count of games, its server and its figures."""

    db: str
    games: list[Game]
    populate_s: float
    server: Server | None = None
    rss_idle_kib: int = 0
    rss_loaded_kib: int = 0
    rounds: list[tuple[float, float, float, float]] = field(default_factory=list)
    """(p50 ms, p99 ms, commands/s, the server's CPU ms per command) per round."""

    def median(self) -> tuple[float, float, float, float]:
        return sorted(self.rounds)[len(self.rounds) // 2]

    def cpu_ms(self) -> float:
        """The median round's CPU per command (less sensitive to a busy machine)."""
        return statistics.median(r[3] for r in self.rounds)


def prepare(db: str, location: str, count: int, scripts: list[Script]) -> SetUp:
    requests = [
        CreateGameRequest(game="deck-of-spies", seed=scripts[i % len(scripts)].seed)
        for i in range(count)
    ]
    threads = 8 if is_postgres_url(location) else 1
    created, populate_s = populate(location, requests, threads)
    games = [
        Game(game_id, auth, scripts[i % len(scripts)]) for i, (game_id, auth) in enumerate(created)
    ]
    print(f"  {redact(db)}: {count} games created in {populate_s:.1f} s", flush=True)
    return SetUp(redact(db), games, populate_s)


def one_round(setup: SetUp, clients: int, per_client: int, number: int) -> None:
    assert setup.server is not None
    plans = plan(setup.games, clients, WARMUP + per_client, seed=number * 7919 + len(setup.games))
    asyncio.run(drive(setup.server.port, [order[:WARMUP] for order in plans]))
    cpu, started = cpu_seconds([setup.server.pid]), time.perf_counter()
    latencies = asyncio.run(drive(setup.server.port, [order[WARMUP:] for order in plans]))
    elapsed = time.perf_counter() - started
    cpu_ms = (cpu_seconds([setup.server.pid]) - cpu) / len(latencies) * 1000
    p50, p99 = statistics.median(latencies) * 1000, percentile(latencies, 0.99) * 1000
    setup.rounds.append((p50, p99, len(latencies) / elapsed, cpu_ms))
    print(
        f"    round {number}: {len(setup.games)} games: p50 {p50:.2f} ms, p99 {p99:.2f} ms,"
        f" {len(latencies) / elapsed:.0f} commands/s, {cpu_ms:.2f} ms CPU a command",
        flush=True,
    )


def empty_startup(db: str, workdir: Path) -> tuple[float, float]:
    """Start-up seconds (and CPU seconds) of a process on an empty database."""
    with fresh_location(db, workdir, "empty") as location:
        Runtime.open(Settings(db_path=location, configure_logging=False)).close()  # migrated
        with api_process(location) as server:
            return server.startup, server.startup_cpu


def warmed(server: Server, log: Path, started: float, limit: float = 600.0) -> None:
    """Wait for ``server``'s read-ahead to end (its log's ``caches_warmed`` or
    ``caches_not_warmed`` line; none with ``--cache-bytes 0``: then at once), and note its
    seconds from start and the CPU it used after the first answer."""
    while time.perf_counter() - started < limit:
        text = log.read_text(errors="replace") if log.exists() else ""
        if "caches_warmed" in text or "caches_not_warmed" in text:
            break
        if server.process.poll() is not None:
            raise RuntimeError("spies-api exited")
        time.sleep(0.05)
    else:
        raise RuntimeError(f"no read-ahead line in {log} after {limit:g} s")
    server.warm = time.perf_counter() - started
    server.warm_cpu = cpu_seconds([server.pid]) - server.startup_cpu


def run_capacity(
    dbs: list[str],
    counts: list[int],
    baseline: int,
    clients: int,
    commands: int,
    rounds: int,
    options: tuple[str, ...] = (),
) -> None:
    per_client = max(1, commands // clients)
    # the baseline's client with the fewest games takes the most commands from each
    fewest = max(1, baseline // clients)
    per_game = rounds * -(-(WARMUP + per_client) // fewest)
    results: list[tuple[str, list[SetUp], tuple[float, float]]] = []
    with tempfile.TemporaryDirectory(prefix="spies-capacity-") as tmp:
        workdir = Path(tmp)
        with SQLiteEventStore(workdir / "scripts.db") as store:
            scripts = [
                record_script(store, "deck-of-spies", 1, f"capacity-{i}", random.Random(i))
                for i in range(SEEDS * 4)
            ]
        scripts = [s for s in scripts if len(s.steps) >= per_game][:SEEDS]
        if not scripts:
            sys.exit(
                f"capacity.py: the {baseline}-game baseline needs games of {per_game} commands:"
                " lower --commands or --rounds, or raise --baseline"
            )
        print(
            f"{len(scripts)} seeds, Deck of Spies; {clients} clients, {per_client * clients}"
            f" commands a round; load average {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        for db in dbs:
            empty = empty_startup(db, workdir)
            print(f"  {redact(db)}: empty database: start-up {empty[0]:.2f} s", flush=True)
            with contextlib.ExitStack() as stack:
                setups = []
                for count in [baseline, *counts]:
                    location = stack.enter_context(fresh_location(db, workdir, f"g{count}"))
                    setup = prepare(db, location, count, scripts)
                    # one server starts (and reads ahead) at a time: they do not share the CPU
                    log = workdir / f"server-{count}.log"
                    began = time.perf_counter()
                    setup.server = stack.enter_context(api_process(location, *options, log=log))
                    warmed(setup.server, log, began)
                    print(
                        f"  {count} games: start-up {setup.server.startup:.2f} s"
                        f" ({setup.server.startup_cpu:.2f} s CPU); read ahead after"
                        f" {setup.server.warm:.2f} s ({setup.server.warm_cpu:.2f} s CPU more)",
                        flush=True,
                    )
                    setups.append(setup)
                time.sleep(2.0)  # the schedulers have read their (empty) index of due work
                for setup in setups:
                    assert setup.server is not None
                    setup.rss_idle_kib = rss_kib(setup.server.pid)
                # rounds visit the set-ups in turn: a busy neighbour slows all alike
                for number in range(1, rounds + 1):
                    for setup in setups:
                        one_round(setup, clients, per_client, number)
                for setup in setups:
                    assert setup.server is not None
                    setup.rss_loaded_kib = rss_kib(setup.server.pid)
            results.append((redact(db), setups, empty))

    print(
        f"\ncapacity of one spies-api process: Deck of Spies games, {clients} clients,"
        f" {per_client * clients} commands a round spread over all games, the median of"
        f" {rounds} rounds; ratios against {baseline} games in the same run;"
        f" {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{'database':>10}{'games':>8}{'start s':>9}{'CPU s':>7}{'empty s':>9}{'warm s':>8}"
        f"{'CPU s':>7}{'RSS MiB':>9}"
        f"{'KB/game idle':>13}{'KB/game':>9}{'p50 ms':>8}{'p99 ms':>8}{'p50 ×':>7}{'p99 ×':>7}"
        f"{'CPU ms':>8}{'CPU ×':>7}"
    )
    for label, setups, empty in results:
        name = "postgres" if is_postgres_url(label) else "sqlite"
        base = setups[0]
        base_p50, base_p99, _, _ = base.median()
        for setup in setups:
            assert setup.server is not None
            extra = len(setup.games) - len(base.games)
            idle_kb = (setup.rss_idle_kib - base.rss_idle_kib) * 1.024 / extra if extra else 0.0
            loaded_kb = (
                (setup.rss_loaded_kib - base.rss_loaded_kib) * 1.024 / extra if extra else 0.0
            )
            p50, p99, _, _ = setup.median()
            print(
                f"{name:>10}{len(setup.games):>8}{setup.server.startup:>9.2f}"
                f"{setup.server.startup_cpu:>7.2f}{empty[0]:>9.2f}"
                f"{setup.server.warm:>8.2f}{setup.server.warm_cpu:>7.2f}"
                f"{setup.rss_loaded_kib / 1024:>9.1f}{idle_kb:>13.2f}{loaded_kb:>9.2f}"
                f"{p50:>8.2f}{p99:>8.2f}{p50 / base_p50:>7.2f}{p99 / base_p99:>7.2f}"
                f"{setup.cpu_ms():>8.2f}{setup.cpu_ms() / base.cpu_ms():>7.2f}"
            )
    print(
        f"targets: p50 × at most {LATENCY_TARGET}; at most {MEMORY_TARGET_KB:g} KB per idle"
        f" active game; start-up under {STARTUP_TARGET_S:g} s with 50,000 games"
    )


# -- idle CPU --------------------------------------------------------------------------------


def idle_cpu(pid: int, seconds: float) -> float:
    """The percentage of one core the process and its children use over ``seconds``."""
    pids = process_tree(pid)
    before, started = cpu_seconds(pids), time.perf_counter()
    time.sleep(seconds)
    return (cpu_seconds(pids) - before) / (time.perf_counter() - started) * 100


def settle(location: str, server: Server, limit: float = 600.0) -> float:
    """Wait until nothing is due in the database (the bots have moved); return the seconds."""
    from spies_replay.store.backends import open_store  # noqa: PLC0415

    started = time.perf_counter()
    store = open_store(location)
    try:
        while store.due_games(limit=1):
            if time.perf_counter() - started > limit:
                raise RuntimeError("the bots did not finish their moves")
            if server.process.poll() is not None:
                raise RuntimeError("the server exited")
            time.sleep(0.5)
    finally:
        store.close()
    return time.perf_counter() - started


def play_bots(location: str, game_ids: list[str], threads: int) -> float:
    """Play every bot seat's due moves in this process, as the server's scheduler would (the
    bot's policy, its seeded rng, the move marked with the bot); return the seconds.

    On a busy machine a server with one bot worker plays a few bot moves a second (each
    decision waits for a worker process to be scheduled), so 2,000 games' first passes
    would take longer than the idle measurement; played here, the server starts with
    nothing due, which is the idle state being measured."""
    from spies_api.game import load_head, submit_command
    from spies_api.table.bots import plan_turn  # noqa: PLC0415
    from spies_bots import get_bot, policy_for  # noqa: PLC0415
    from spies_replay.marks import bot_mark  # noqa: PLC0415
    from spies_replay.store.backends import open_store  # noqa: PLC0415

    started = time.perf_counter()
    store = open_store(location)

    def play(game_id: str) -> None:
        head = load_head(store, game_id)
        while (turn := plan_turn(head)) is not None:
            command = policy_for(turn.bot, turn.game)(turn.view, list(turn.legal), turn.rng())
            mark = bot_mark(turn.bot, get_bot(turn.bot).version)
            submit_command(store, game_id, turn.seat, command, version=turn.version, bot=mark)
            head = load_head(store, game_id)

    try:
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(play, game_ids))
    finally:
        store.close()
    return time.perf_counter() - started


def run_idle(dbs: list[str], count: int, seconds: float, quiet: float) -> None:
    rows: list[tuple[str, float, float, float, float, float]] = []
    bots = [{"type": "bot", "bot": "random"}] * 2
    request = msgspec.convert(
        {"game": "black-spy", "players": 3, "seats": [{"type": "creator"}, *bots]},
        CreateGameRequest,
    )
    with tempfile.TemporaryDirectory(prefix="spies-idle-") as tmp:
        for db in dbs:
            with fresh_location(db, Path(tmp), "idle") as location:
                threads = 8 if is_postgres_url(location) else 1
                created, created_s = populate(location, [request] * count, threads)
                moved_s = play_bots(location, [game_id for game_id, _ in created], threads)
                print(
                    f"  {redact(db)}: {count} Black Spy games created in {created_s:.1f} s,"
                    f" their bots' first moves played in {moved_s:.1f} s",
                    flush=True,
                )
                with api_process(location) as server:
                    played = settle(location, server)
                    time.sleep(quiet)
                    first = idle_cpu(server.pid, seconds)
                with api_process(location) as server:
                    time.sleep(quiet)
                    again = idle_cpu(server.pid, seconds)
                    startup = server.startup
                rows.append((redact(db), created_s, played, first, again, startup))
                print(
                    f"  {redact(db)}: bots moved in {played:.1f} s; idle {first:.2f}% of a"
                    f" core; after a restart ({startup:.2f} s) {again:.2f}%",
                    flush=True,
                )
    print(
        f"\nidle CPU: {count} Black Spy games, each waiting on its one person (two bot seats),"
        f" over {seconds:g} s; server and its bot workers; load average"
        f" {os.getloadavg()[0]:.1f}"
    )
    print(f"{'database':>10}{'idle % core':>13}{'after restart':>15}{'restart s':>11}")
    for label, _, _, first, again, startup in rows:
        name = "sqlite" if not label.startswith("postgres") else "postgres"
        print(f"{name:>10}{first:>13.2f}{again:>15.2f}{startup:>11.2f}")
    print(f"target: under {IDLE_TARGET:g}% of a core")


def counts_of(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", action="append", help="sqlite or a postgresql:// URL")
    parser.add_argument("--games", type=counts_of, default=[10_000, 50_000])
    parser.add_argument("--baseline", type=int, default=100)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--commands", type=int, default=960, help="per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--idle-games", type=int, default=2000)
    parser.add_argument("--idle-seconds", type=float, default=20.0)
    parser.add_argument(
        "--settle", type=float, default=10.0, help="seconds after start before idle CPU is read"
    )
    parser.add_argument(
        "--cache-bytes",
        help="the servers' --cache-bytes (default theirs, 64 MiB; 0: nothing read ahead or"
        " kept packed, every command on a game not used yet a cold miss)",
    )
    parser.add_argument("--skip-capacity", action="store_true")
    parser.add_argument("--skip-idle", action="store_true")
    args = parser.parse_args(argv)
    dbs = databases(args.db, "capacity.py")
    quiet_logs()
    if not args.skip_capacity:
        options = () if args.cache_bytes is None else ("--cache-bytes", args.cache_bytes)
        run_capacity(
            dbs, args.games, args.baseline, args.clients, args.commands, args.rounds, options
        )
    if not args.skip_idle:
        run_idle(dbs, args.idle_games, args.idle_seconds, args.settle)


if __name__ == "__main__":
    main()
