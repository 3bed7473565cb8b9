"""What sealing a command's batch costs in each log format: format 1 (msgspec's deterministic
JSON) and format 3 (RFC 8785: msgspec's bytes where the types allow, ``rfc8785`` otherwise;
see ``spies_replay.jcs``), and format 3 with every row through ``rfc8785``, for comparison.

For each registered game it plays commands from a random playout (up to 300) and seals each
command's events as the API does, then prints the microseconds per command, the best of
``--repeat`` timings. It prints and never asserts. Usage::

    python bench/seal.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import timeit
from typing import Any

from spies_core.registry import GAMES
from spies_core.rng import FairRng
from spies_core.step import setup, step
from spies_replay import codec
from spies_replay.codec import CHAIN_VERSION, FORMAT_3, seal
from spies_replay.jcs import jcs_bytes

RECORDED_AT = "2026-12-01T12:00:00.000000Z"


def batches(game: str, limit: int = 300) -> list[tuple[list[Any], Any, int]]:
    """The events, command and seat of each command of a random playout."""
    spec = GAMES[game]
    state = setup(spec, spec.min_players, {}, FairRng(b"bench-seal", 0)).state
    rng, version, found = random.Random(game), 1, []
    while len(found) < limit:
        seats = sorted(spec.to_act(state))
        if not seats:
            break
        command = rng.choice(spec.legal_commands(state, seats[0]))
        moved = step(spec, state, seats[0], command, FairRng(b"bench-seal", version))
        version += len(moved.events)
        found.append((list(moved.events), command, seats[0]))
        state = moved.state
        if moved.finished:
            break
    return found


def per_command(work: list[tuple[list[Any], Any, int]], log: str, repeat: int) -> float:
    def run() -> None:
        for events, command, seat in work:
            seal(
                "00" * 32, 1, events, recorded_at=RECORDED_AT, log=log, actor=seat, command=command
            )

    number = 10
    return min(timeit.repeat(run, number=number, repeat=repeat)) / number / len(work) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print("microseconds to seal one command's batch (best of", args.repeat, "timings)")
    print(f"{'game':16} {'commands':>8} {'format 1':>9} {'format 3':>9} {'all rfc8785':>12}")
    for game in GAMES:
        work = batches(game)
        one = per_command(work, CHAIN_VERSION, args.repeat)
        three = per_command(work, FORMAT_3, args.repeat)
        fast = codec.row_bytes
        codec.row_bytes = lambda fields, *kinds: jcs_bytes(fields)
        try:
            slow = per_command(work, FORMAT_3, args.repeat)
        finally:
            codec.row_bytes = fast
        print(f"{game:16} {len(work):>8} {one:>9.1f} {three:>9.1f} {slow:>12.1f}")


if __name__ == "__main__":
    main()
