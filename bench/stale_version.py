"""The cost of accepting a stale ``expected_version``, against one command's pure step.

A command whose ``expected_version`` is behind the game is applied when the seat's legal
commands then and now are the same (:func:`spies_api.service.commands.stale_version_accepted`):
the state at that version is read from the log's nearest snapshot and the seat's legal
commands are listed twice. This bench times that check on a 6-seat Black Spy game in its
passing phase (four seats passed since the version: the case the check exists for), and, as
the baseline measured in the same run, the pure step of the same command
(:func:`spies_replay.engine.prepare_command`). Prints the medians and their ratio, never
asserts.

Usage: python bench/stale_version.py [--rounds N]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from spies_api.service.commands import stale_version_accepted
from spies_core.registry import GAMES
from spies_replay import engine
from spies_replay.store.sqlite import SQLiteEventStore


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=250, help="timed pairs (default 250)")
    args = parser.parse_args()
    spec = GAMES["black-spy"]
    with tempfile.TemporaryDirectory() as folder:
        store = SQLiteEventStore(Path(folder) / "bench.db")
        try:
            game_id = engine.create_game(store, "black-spy", players=6, seed="bench").record.id
            head = engine.load_head(store, game_id)
            chosen_at = head.version
            for seat in range(1, 5):
                engine.submit_command(
                    store, game_id, seat, spec.legal_commands(head.state, seat)[0]
                )
            head = engine.load_head(store, game_id)
            command = spec.legal_commands(head.state, 0)[0]
            check: list[float] = []
            step: list[float] = []
            for _ in range(args.rounds):  # alternate, so that both see the same machine
                started = time.perf_counter()
                accepted = stale_version_accepted(store, head, 0, chosen_at)
                check.append(time.perf_counter() - started)
                started = time.perf_counter()
                engine.prepare_command(spec, head, 0, command)
                step.append(time.perf_counter() - started)
            assert accepted
        finally:
            store.close()
    checked, stepped = statistics.median(check), statistics.median(step)
    print(
        f"black-spy, 6 seats, 4 passes since the version ({args.rounds} rounds):"
        f" stale-version check median {checked * 1e3:.3f} ms; baseline, the command's pure step,"
        f" median {stepped * 1e3:.3f} ms; check / step {checked / stepped:.2f}"
    )


if __name__ == "__main__":
    main()
