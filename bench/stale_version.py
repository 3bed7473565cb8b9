"""The cost of checking a stale ``expected_version``, against one command's pure step.

A command whose ``expected_version`` is behind the game is applied when the seat has not
acted since that version and its legal commands then and now are the same
(:func:`spies_api.service.commands.stale_version_accepted`): the seat's last command is
carried by the game's head, and the state at that version is read from the log's nearest
snapshot and the seat's legal commands are listed twice. This bench times, on a 6-seat
Black Spy game in the passing phase of a later deal (four seats passed since the version):

- the check for a seat that has not acted since (seat 0: accepted, the case the check
  exists for);
- the check for a seat that has (seat 1, which passed since: refused);
- loading the game's head from the log (:func:`spies_api.game.loading.load_head`: what a
  process does on a cache miss, and where each seat's last command is read);

and, as the baseline measured in the same run, the pure step of seat 0's command
(:func:`spies_api.game.commands.prepare_command`). Prints the medians and their ratios to the
step, never asserts.

Usage: python bench/stale_version.py [--rounds N]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from spies_api import game
from spies_api.service.commands import stale_version_accepted
from spies_core.registry import GAMES
from spies_replay.store.sqlite import SQLiteEventStore


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=250, help="timed rounds (default 250)")
    parser.add_argument(
        "--events", type=int, default=200, help="play at least this many events first (200)"
    )
    args = parser.parse_args()
    spec = GAMES["black-spy"]
    with tempfile.TemporaryDirectory() as folder:
        store = SQLiteEventStore(Path(folder) / "bench.db")
        try:
            game_id = game.create_game(store, "black-spy", players=6, seed="bench").record.id
            head = _later_deal(store, game_id, args.events)
            chosen_at = head.version
            for seat in range(1, 5):
                game.submit_command(store, game_id, seat, spec.legal_commands(head.state, seat)[0])
            head = game.load_head(store, game_id)
            command = spec.legal_commands(head.state, 0)[0]
            timed: dict[str, Callable[[], object]] = {
                "check, seat 0 (accepted)": lambda: stale_version_accepted(
                    store, head, 0, chosen_at
                ),
                "check, seat 1 (acted since: refused)": lambda: stale_version_accepted(
                    store, head, 1, chosen_at
                ),
                "load_head": lambda: game.load_head(store, game_id),
                "baseline, the command's pure step": lambda: game.prepare_command(
                    spec, head, 0, command
                ),
            }
            times: dict[str, list[float]] = {name: [] for name in timed}
            for _ in range(args.rounds):  # interleaved, so that all see the same machine
                for name, call in timed.items():
                    started = time.perf_counter()
                    call()
                    times[name].append(time.perf_counter() - started)
            assert stale_version_accepted(store, head, 0, chosen_at)
            assert not stale_version_accepted(store, head, 1, chosen_at)
        finally:
            store.close()
    medians = {name: statistics.median(found) for name, found in times.items()}
    step = medians["baseline, the command's pure step"]
    print(
        f"black-spy, 6 seats, {chosen_at} events, 4 passes since the version"
        f" ({args.rounds} rounds):"
    )
    for name, median in medians.items():
        print(f"  {name:<40} median {median * 1e3:8.3f} ms   / step {median / step:6.2f}")


def _later_deal(store: SQLiteEventStore, game_id: str, events: int) -> game.Head:
    """Play the first legal command of the lowest seat to act until the game has ``events``
    events and every seat is to act (the passing phase of a deal)."""
    spec = GAMES["black-spy"]
    head = game.load_head(store, game_id)
    while head.version < events or len(spec.to_act(head.state)) < 6:
        seat = min(spec.to_act(head.state))
        game.submit_command(store, game_id, seat, spec.legal_commands(head.state, seat)[0])
        head = game.load_head(store, game_id)
    return head


if __name__ == "__main__":
    main()
