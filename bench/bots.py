"""Bot speed: the median and worst decision time of every bot, per game and phase, on one core.

For every registered bot, every game it plays and every seat count the game allows, a fixed
number of seeded games is played in this process (no worker processes), the bot at seat 0
and ``random`` at the other seats, each decision timed
(:func:`spies_bots.match.play_match`). Prints the median and worst time of the bot's
decisions, over the whole game and per phase (the view's ``phase``, for games whose view has
one), against the targets (median at most 50 ms, worst at most 250 ms, so that a server that
seats bots never stalls). As a baseline measured in the same run, ``x legal`` divides the
median decision by the median time the core took to list the legal commands at the same
decisions, so that figures from different machines can be compared. Figures are printed,
never asserted.

Times are the CPU this process spent (``time.process_time``) by default: on an idle core
that is the wall-clock latency, and on a shared machine other processes do not inflate it.
``--clock wall`` times wall-clock (``time.perf_counter``) instead; the load average is printed.

By default each seat draws from a plain ``random.Random`` for the whole game. ``--version N``
asks every bot as the server does at version ``N`` (its policies and generator as the build
keeps them, :meth:`spies_bots.BotSpec.at`): a fresh generator for each decision, made inside
the timed call, so ``--version 1`` (CPython's Mersenne Twister) against ``--version 2`` (the
protocol's bot stream) compares what the generators cost per move.

Usage: python bench/bots.py [--games N] [--bot NAME] [--game ID] [--seed S] [--clock cpu|wall]
       [--version N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from random import Random
from typing import Any

from spies_bots import BOTS, policy_for
from spies_bots.base import Policy
from spies_bots.match import Decision, play_match
from spies_core import GAMES, start_game
from spies_core.errors import InvalidOptionsError

MEDIAN_TARGET_MS = 50.0
WORST_TARGET_MS = 250.0

CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}


def seat_counts(game: str) -> list[int]:
    """The numbers of players the game accepts with its default options."""
    spec = GAMES[game]
    counts = []
    for players in range(spec.min_players, spec.max_players + 1):
        try:
            start_game(spec, players, {}, Random(0))
        except InvalidOptionsError:
            continue
        counts.append(players)
    return counts


def as_served(bot: str, game: str, version: int, seed: bytes) -> Policy:
    """``bot``'s policy at ``version``, drawing from a fresh generator of that version for
    each decision (seat and game version from the view), as the server asks it."""
    kept = BOTS[bot].at(version)
    if kept is None:
        raise SystemExit(f"this build has no {bot}@{version}")
    policy, generator = kept.policies[game], kept.generator

    def asked(view: Any, legal: Any, rng: Random) -> Any:
        return policy(view, legal, generator(seed, view.seat, view.version))

    return asked


def measure(
    bot: str,
    game: str,
    players: int,
    games: int,
    seed: str,
    clock: Callable[[], float],
    version: int | None = None,
) -> list[Decision]:
    """Play ``games`` seeded games, ``bot`` at seat 0; return the bot's timed decisions."""
    spec = GAMES[game]
    decisions: list[Decision] = []
    for index in range(games):
        label = f"{seed}:{index}"
        names = [bot, *["random"] * (players - 1)]
        policies = [
            policy_for(name, game)
            if version is None
            else as_served(name, game, version, label.encode())
            for name in names
        ]
        match = play_match(
            spec,
            policies,
            seed=label.encode(),
            rngs=[Random(f"{label}:{seat}") for seat in range(players)],
            clock=clock,
        )
        decisions += [d for d in match.decisions if d.seat == 0]
    return decisions


def row(bot: str, game: str, players: int, phase: str, decisions: list[Decision]) -> str:
    """One line of the table."""
    spent = [d.seconds or 0.0 for d in decisions]
    listing = [d.legal_seconds or 0.0 for d in decisions]
    median, worst = statistics.median(spent) * 1000, max(spent) * 1000
    baseline = statistics.median(listing) * 1000
    verdict = "ok" if median <= MEDIAN_TARGET_MS and worst <= WORST_TARGET_MS else "SLOW"
    ratio = f"{median / baseline:>9.3g}" if baseline > 0 else f"{'-':>9}"
    return (
        f"{bot:<10}{game:<16}{players:>6}  {phase:<10}{len(decisions):>10,}"
        f"{median:>11.3g}{worst:>10.3g}{baseline:>10.3g}{ratio}  {verdict}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per bot, game and seats")
    parser.add_argument("--bot", choices=sorted(BOTS), help="only this bot")
    parser.add_argument("--game", choices=sorted(GAMES), help="only this game")
    parser.add_argument("--seed", default="bench", help="the seed of the games")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu", help="what to time")
    parser.add_argument(
        "--version", type=int, help="ask every bot at this version with its generator"
    )
    args = parser.parse_args()
    clock = CLOCKS[args.clock]

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"targets: median <= {MEDIAN_TARGET_MS:.0f} ms, worst <= {WORST_TARGET_MS:.0f} ms;"
        f" {args.games} games per row, the bot at seat 0, random elsewhere, one core;"
        f" {args.clock} clock; load average {load} on {os.cpu_count()} cores;"
        f" generators: {'plain per seat' if args.version is None else f'version {args.version}'}"
    )
    print(
        f"{'bot':<10}{'game':<16}{'seats':>6}  {'phase':<10}{'decisions':>10}"
        f"{'median ms':>11}{'worst ms':>10}{'legal ms':>10}{'x legal':>9}  target"
    )
    started = time.perf_counter()
    for bot in BOTS.values():
        if args.bot and bot.name != args.bot:
            continue
        for game in bot.games:
            if args.game and game != args.game:
                continue
            for players in seat_counts(game):
                decisions = measure(
                    bot.name, game, players, args.games, args.seed, clock, args.version
                )
                if not decisions:
                    continue
                print(row(bot.name, game, players, "all", decisions))
                phases = sorted({d.phase for d in decisions if d.phase is not None})
                for phase in phases if len(phases) > 1 else []:
                    print(
                        row(
                            bot.name,
                            game,
                            players,
                            phase,
                            [d for d in decisions if d.phase == phase],
                        )
                    )
    print(f"total {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
