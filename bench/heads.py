"""A cache miss, in process: the memory a cached head holds, and the CPU of a miss's reads.

For each database (``--db``: ``sqlite``, a fresh temporary file, the default, or a
``postgresql://`` URL, in a schema of its own dropped afterwards; repeatable) and each
registered game (at its smallest seat count), this process creates ``--games``
(200) games through the API's game creator, and plays each a random
number of random legal commands, up to ``--moves`` (40), below the API (so the heads are
spread from a fresh deal to the middle of a game). Then, on the store's twin the event loop
reads (:meth:`~spies_replay.store.protocols.EventStore.loop_reader`; PostgreSQL has none:
the store itself, as a worker thread reads it), in this one thread:

- **memory**: every game's head loaded (:func:`~spies_api.game.load_head`) and all kept;
  the bytes Python allocated and still holds (``tracemalloc``) divided by the games: what
  one head in :class:`~spies_api.service.states.GameStates` costs, and so what a cache of
  ``--cache`` heads would (SQLite's page cache is not Python's and is not counted); and
  the same head packed as :class:`~spies_api.service.states.GameStates` keeps the heads it
  drops (:class:`~spies_api.service.states.Packed`, with the entry's own bytes), and the
  CPU of unpacking one; and the
  memory of remembering one verified seat token
  (:meth:`~spies_api.service.auth.SeatAuthenticator.remember`);
- **CPU**: the process CPU (``time.process_time``, which a busy machine does not inflate),
  per game, of loading every game's head again as a cache miss does
  (:func:`~spies_api.game.load_head`: the head kept with the game, one read), of folding
  it from the log instead (:func:`~spies_api.game.loading.fold_head`: what a miss cost
  before heads were kept, and still costs for a game whose kept head is absent or
  behind), of encoding the head to keep (:meth:`~spies_api.game.loading.Head.packed`:
  what each append adds), with the kept head's size, and of looking each seat-0 token up
  (:meth:`~spies_api.service.auth.SeatAuthenticator.caller` with nothing remembered).

It prints and never asserts. Usage::

    python bench/heads.py [--db sqlite] [--db postgresql://...] [--games 200] [--moves 40]
        [--cache 1024] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from capacity import fresh_location, quiet_logs
from spies_api import Settings
from spies_api.app import Runtime
from spies_api.game import Head, load_head, submit_command
from spies_api.game.loading import fold_head
from spies_api.schemas import CreateGameRequest
from spies_api.service.auth import SeatAuthenticator
from spies_api.service.states import Packed
from spies_core.registry import GAMES
from spies_replay.store.protocols import EventStore


def create_games(runtime: Runtime, game: str, count: int, moves: int, rng: random.Random) -> Any:
    """``count`` games of ``game``, each played up to ``moves`` random commands: (id, seat-0
    token) each."""
    spec = GAMES[game]
    created = []
    for index in range(count):
        request = CreateGameRequest(game=game, players=spec.min_players, seed=f"heads-{index}")
        new = runtime.creator.create(request)
        created.append((new.id, new.seats[0].token))
        head = load_head(runtime.store, new.id)
        state, version = head.state, head.version
        for _ in range(rng.randint(0, moves)):
            if spec.outcome(state) is not None:
                break
            seat = min(spec.to_act(state))
            command = rng.choice(spec.legal_commands(state, seat))
            done = submit_command(
                runtime.store, new.id, seat, command, state=state, version=version
            )
            state, version = done.state, done.version
    return created


def measure(reader: EventStore, games: list[tuple[str, str]]) -> dict[str, float]:
    """Bytes per kept head, and CPU milliseconds per fold and per token look-up."""
    ids = [game_id for game_id, _ in games]
    for game_id in ids[:10]:  # warm the decoders and the statements' cache
        load_head(reader, game_id)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    heads: list[Head] = [load_head(reader, game_id) for game_id in ids]
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    started = time.process_time()
    for game_id in ids:
        fold_head(reader, game_id)
    fold = time.process_time() - started
    started = time.process_time()
    for game_id in ids:
        load_head(reader, game_id)
    read = time.process_time() - started
    kept = [reader.head_row(game_id).head or "" for game_id in ids]
    started = time.process_time()
    for head in heads:
        head.packed()
    pack = time.process_time() - started
    seats = SeatAuthenticator(reader, capacity=1)
    started = time.process_time()
    for game_id, token in games:
        seats.caller(game_id, token, via=reader)
    token_cpu = time.process_time() - started
    remembering = SeatAuthenticator(reader, capacity=len(games))
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for game_id, token in games:
        remembering.remember(game_id, 0, token)
    tokens = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    packed = [(head.id, Packed.of(head)) for head in heads]
    started = time.process_time()
    for game_id, blob in packed:
        assert blob.unpack(game_id) is not None
    unpack = time.process_time() - started
    return {
        "bytes": held / len(heads),
        "kept": statistics.mean(len(text.encode()) for text in kept),
        "token_bytes": tokens / len(games),
        "packed": statistics.mean(blob.size for _, blob in packed),
        "unpack_ms": unpack * 1000 / len(ids),
        "version": statistics.mean(head.version for head in heads),
        "fold_ms": fold * 1000 / len(ids),
        "read_ms": read * 1000 / len(ids),
        "pack_ms": pack * 1000 / len(ids),
        "token_ms": token_cpu * 1000 / len(ids),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", action="append", help="sqlite or a postgresql:// URL")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--cache", type=int, default=1024)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    quiet_logs()
    rng = random.Random(args.seed)
    print(
        f"{args.games} games each, up to {args.moves} commands;"
        f" KiB per head, and a cache of {args.cache} heads"
    )
    print(
        "| database | game | mean version | KiB per head | MiB per cache | fold ms CPU"
        " | kept head ms CPU | KiB kept | pack ms CPU | token ms CPU | KiB packed | unpack ms CPU"
        " | KiB a remembered token |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as workdir:
        for db in args.db or ["sqlite"]:
            for game in GAMES:
                with fresh_location(db, Path(workdir), game) as location:
                    runtime = Runtime.open(Settings(db_path=location, configure_logging=False))
                    try:
                        games = create_games(runtime, game, args.games, args.moves, rng)
                        reader = runtime.store.loop_reader() or runtime.store
                        found = measure(reader, games)
                    finally:
                        runtime.close()
                kib = found["bytes"] / 1024
                print(
                    f"| {runtime.store.backend} | {game} | {found['version']:.1f} | {kib:.1f}"
                    f" | {kib * args.cache / 1024:.1f} | {found['fold_ms']:.3f}"
                    f" | {found['read_ms']:.3f} | {found['kept'] / 1024:.1f}"
                    f" | {found['pack_ms']:.3f}"
                    f" | {found['token_ms']:.3f} | {found['packed'] / 1024:.1f}"
                    f" | {found['unpack_ms']:.3f} | {found['token_bytes'] / 1024:.2f} |"
                )


if __name__ == "__main__":
    main()
