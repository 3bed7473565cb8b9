"""Rules-core speed: a random agent plays full games of every registered game on one core.

An *action* is one command: list the legal commands of the seats to act, pick one at random,
``decide`` it and ``evolve`` its events. Prints actions/s and full games/s per game and seat
count, the ratio to the project's target, and, as a baseline measured in the same run, the
same loop over a trivial game (so figures from different machines can be compared).

Usage: python bench/rules.py [--seconds S] [--game ID]
"""

from __future__ import annotations

import argparse
import time
from random import Random

from spies_core import GAMES, fold, start_game
from spies_core.decider import AnySpec
from spies_core.errors import InvalidOptionsError

TARGETS = {"deck-of-spies": 10_000, "black-spy": 20_000, "spies-and-lies": 20_000}
"""The project's targets: actions/s per game on one core."""


def play(spec: AnySpec, players: int, rng: Random) -> int:
    """Play one game with a random agent; return the number of actions."""
    state = fold(spec, start_game(spec, players, {}, rng))
    actions = 0
    outcome, to_act, legal, decide, evolve = (
        spec.outcome,
        spec.to_act,
        spec.legal_commands,
        spec.decide,
        spec.evolve,
    )
    while outcome(state) is None:
        seat = rng.choice(sorted(to_act(state)))
        command = rng.choice(legal(state, seat))
        for event in decide(state, seat, command, rng):
            state = evolve(state, event)
        actions += 1
    return actions


def baseline(seconds: float) -> float:
    """The same agent loop over a trivial game: 30 turns of choosing one of 20 numbers."""
    rng = Random(0)
    actions = 0
    deadline = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < deadline:
        state: tuple[int, ...] = ()
        while len(state) < 30:
            options = [n for n in range(20) if n not in state[-3:]]
            state = (*state, rng.choice(options))
            actions += 1
    return actions / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per game and seat count")
    parser.add_argument("--game", choices=sorted(GAMES), help="only this game")
    args = parser.parse_args()

    base = baseline(min(args.seconds, 2.0))
    print(f"baseline (trivial game loop): {base:,.0f} actions/s")
    print(
        f"{'game':<16}{'seats':>6}{'actions/s':>12}{'games/s':>10}{'target':>9}{'ratio':>7}"
        f"{'x baseline':>11}"
    )
    for spec in GAMES.values():
        if args.game and spec.name != args.game:
            continue
        for players in range(spec.min_players, spec.max_players + 1):
            try:
                start_game(spec, players, {}, Random(0))
            except InvalidOptionsError:
                continue
            rng = Random(players)
            games = actions = 0
            start = time.perf_counter()
            while time.perf_counter() - start < args.seconds:
                actions += play(spec, players, rng)
                games += 1
            elapsed = time.perf_counter() - start
            rate = actions / elapsed
            target = TARGETS.get(spec.name, 10_000)
            print(
                f"{spec.name:<16}{players:>6}{rate:>12,.0f}{games / elapsed:>10,.1f}"
                f"{target:>9,}{rate / target:>7.2f}{rate / base:>11.3f}"
            )


if __name__ == "__main__":
    main()
