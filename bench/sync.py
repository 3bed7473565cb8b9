"""What durability costs: commands/s appended with SQLite ``--sync normal`` and ``--sync full``.

Plays the same random playouts of every registered game (fixed seeds, so every set-up does
the same work) through the engine (``create_game``, then ``submit_command`` with the state
in hand, as the API does with its cache: one transaction per command), on a fresh SQLite
file with ``synchronous=NORMAL`` (a committed command survives a crash of the process) and
another with ``synchronous=FULL`` (it also survives a power loss: a sync of the file at each
commit). With ``--db URL`` it also plays them on PostgreSQL (``synchronous_commit`` on: the
write-ahead log is flushed at each commit), for comparison. Only the commands are timed.

The rounds visit the set-ups in turn, so a busy neighbour slows them all alike; it prints
each round, then per set-up the median round's commands/s, the median and worst command in
ms, and the commands/s as a ratio of ``normal``'s. The files are made in ``--dir`` (default
a temporary directory), which should be on the disk whose cost is in question: on a
memory-backed file system a sync costs nothing. It prints and never asserts. Usage::

    python bench/sync.py [--games 4] [--rounds 3] [--dir DIR] [--db postgresql://...]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from spies_api.game import create_game, submit_command
from spies_core.registry import GAMES
from spies_replay.store.backends import open_store
from spies_replay.store.locations import redact
from spies_replay.store.protocols import EventStore
from spies_replay.store.sqlite import SyncMode


@dataclass
class Setup:
    """One store to play on, and each round's (commands, seconds, per-command seconds)."""

    label: str
    open: str | Path
    sync: SyncMode = "normal"
    rounds: list[tuple[int, float, list[float]]] = field(default_factory=list)


def play(store: EventStore, games: int, tag: str) -> tuple[int, float, list[float]]:
    """Random playouts of every registered game (seeds ``{tag}-N``); the time spent in
    ``submit_command``."""
    timings: list[float] = []
    for name, spec in GAMES.items():
        for number in range(games):
            rng = random.Random(number)
            created = create_game(store, name, spec.min_players, None, seed=f"{tag}-{number}")
            state, version = created.state, created.record.version
            while spec.outcome(state) is None:
                seat = rng.choice(sorted(spec.to_act(state)))
                command = rng.choice(spec.legal_commands(state, seat))
                started = time.perf_counter()
                result = submit_command(
                    store, created.record.id, seat, command, state=state, version=version
                )
                timings.append(time.perf_counter() - started)
                state, version = result.state, result.version
    return len(timings), sum(timings), timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="playouts per game per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dir", type=Path, help="where the SQLite files go")
    parser.add_argument("--db", metavar="URL", help="also a PostgreSQL database, to compare")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="spies-bench-", dir=args.dir) as tmp:
        table = [
            Setup("SQLite --sync normal", Path(tmp) / "normal.db", "normal"),
            Setup("SQLite --sync full", Path(tmp) / "full.db", "full"),
        ]
        if args.db:
            table.append(Setup("PostgreSQL", args.db))
        for number in range(args.rounds):
            for setup in table[number % len(table) :] + table[: number % len(table)]:
                with open_store(setup.open, sync=setup.sync) as store:
                    measured = play(store, args.games, "bench-sync")
                setup.rounds.append(measured)
                print(
                    f"  round {number + 1}: {setup.label}: {measured[0] / measured[1]:,.0f}"
                    " commands/s",
                    flush=True,
                )
        place = os.path.realpath(tmp)
    print(
        f"\ncommands appended through the engine, one transaction each, Python"
        f" {sys.version.split()[0]}, {os.cpu_count()} CPUs; SQLite files in {place}"
        + (f", PostgreSQL at {redact(args.db)}" if args.db else "")
        + f"; the median of {args.rounds} rounds"
    )
    print(f"  {'':22}{'commands':>9}{'commands/s':>12}{'median ms':>11}{'worst ms':>10}  ÷ normal")
    base = 0.0
    for setup in table:
        count, seconds, timings = sorted(setup.rounds, key=lambda r: r[0] / r[1])[
            len(setup.rounds) // 2
        ]
        rate = count / seconds
        base = base or rate
        print(
            f"  {setup.label:22}{count:>9}{rate:>12,.0f}{statistics.median(timings) * 1000:>11.2f}"
            f"{max(timings) * 1000:>10.2f}  {rate / base:>8.3f}"
        )


if __name__ == "__main__":
    main()
