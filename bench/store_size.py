"""What a large database costs a command in the store itself, apart from HTTP and the caches.

For each database (``--db``: ``sqlite`` for a fresh temporary file, the default, or a
``postgresql://`` URL, in which each set-up gets a schema of its own) this process creates
``--baseline`` (100) and ``--games`` (50,000) active Deck of Spies games through the API's
own game creator, then plays ``--commands`` (3,000) commands on games picked at random (the
same picks in both set-ups, by index), each in two timed steps on this process's CPU
(``time.process_time``, so the database server's own CPU is not in it):

- **load**: the game's head read from the store as a process that does not hold it reads it
  (``load_head``: the head kept with the game, one read);
- **submit**: the command decided, sealed and appended with the head given
  (``submit_command`` with its state: the append's transaction, nothing read first).

It prints each set-up's CPU per command of each step, and the ratio of the large set-up's
to the baseline's measured in the same run, with the database file's size (SQLite). The
server's own cache of heads is not involved: `bench/capacity.py` measures the whole command.
It prints and never asserts. Usage::

    python bench/store_size.py [--db sqlite] [--db postgresql://...] [--games 50000]
        [--baseline 100] [--commands 3000]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import tempfile
import time
from pathlib import Path

from capacity import databases, fresh_location, quiet_logs
from spies_api import Settings
from spies_api.app import Runtime
from spies_api.game import load_head, submit_command
from spies_api.schemas import CreateGameRequest
from spies_core.registry import GAMES
from spies_replay.store.locations import is_postgres_url


def measure(location: str, games: int, commands: int) -> tuple[float, float, float]:
    """(load ms, submit ms, MiB) per command on a fresh database of ``games`` games."""
    runtime = Runtime.open(Settings(db_path=location, configure_logging=False))
    try:
        creator, store = runtime.creator, runtime.store
        ids = [
            creator.create(CreateGameRequest(game="deck-of-spies", seed=f"size-{i % 64}")).id
            for i in range(games)
        ]
        spec = GAMES["deck-of-spies"]
        rng = random.Random(7)
        loaded = submitted = 0.0
        count = 0
        for _ in range(commands):
            game_id = ids[rng.randrange(len(ids))]
            started = time.process_time()
            head = load_head(store, game_id)
            loaded += time.process_time() - started
            if spec.outcome(head.state) is not None:
                continue
            seat = min(spec.to_act(head.state))
            command = rng.choice(spec.legal_commands(head.state, seat))
            started = time.process_time()
            submit_command(store, game_id, seat, command, state=head.state, version=head.version)
            submitted += time.process_time() - started
            count += 1
    finally:
        runtime.close()
    size = 0.0 if is_postgres_url(location) else os.path.getsize(location) / 2**20
    return loaded / commands * 1000, submitted / max(count, 1) * 1000, size


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", action="append", help="sqlite or a postgresql:// URL")
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--baseline", type=int, default=100)
    parser.add_argument("--commands", type=int, default=3000)
    args = parser.parse_args(argv)
    dbs = databases(args.db, "store_size.py")
    quiet_logs()
    print(
        f"the store's CPU per command, {args.commands} commands on random Deck of Spies games;"
        f" ratios against {args.baseline} games in the same run;"
        f" load average {os.getloadavg()[0]:.1f}"
    )
    print(f"{'database':>10}{'games':>8}{'MiB':>7}{'load ms':>9}{'×':>6}{'submit ms':>11}{'×':>6}")
    with tempfile.TemporaryDirectory(prefix="spies-store-size-") as tmp:
        for db in dbs:
            name = "postgres" if is_postgres_url(db) else "sqlite"
            base: tuple[float, float, float] | None = None
            for games in (args.baseline, args.games):
                with contextlib.ExitStack() as stack:
                    location = stack.enter_context(fresh_location(db, Path(tmp), f"g{games}"))
                    load, submit, size = measure(location, games, args.commands)
                base = base or (load, submit, size)
                print(
                    f"{name:>10}{games:>8}{size:>7.0f}{load:>9.3f}{load / base[0]:>6.2f}"
                    f"{submit:>11.3f}{submit / base[1]:>6.2f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
