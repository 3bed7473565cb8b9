"""``spies-sim``: the command line.

Usage::

    spies-sim GAME --seats BOT[,BOT...] [--games N] [--seed S] [--jobs J] [--options JSON]
              [--record DB [--clock JSON]] [--checkpoint FILE] [--json]

Plays ``N`` games (default 100) of ``GAME`` in memory, seat ``k`` played by the ``k``-th bot
of ``--seats`` (so ``--seats`` names as many bots as the game has players), on ``J`` worker
processes (default: every core), with a progress bar on a terminal (stderr; none when piped).
It prints per seat the wins, shared wins (a tie for the win the rules allow, counted apart
from outright wins), draws and losses, the win rate (a win or a shared win counts whole, a
draw half) with its Wilson 95% confidence interval, the mean score under the name the game
gives it (:attr:`~spies_core.decider.GameSpec.score_name`), why the games ended, the mean
game length, the decision time per seat and per bot, and games per second; per team too when
seats share a side (Spies & Lies with 4 seats); :mod:`spies_sim.tally` says how each game is
counted. ``--json`` prints the same as one JSON object
(:meth:`spies_sim.tally.Tally.report`), every measured time under a ``timing`` key. A
decision's time is the CPU its process spent in the bot, which other processes on a busy
machine do not inflate; games per second are by the wall clock.

Seeds: game ``i`` of a run with seed ``S`` is the server's game with client seed ``"S:i"``
(:mod:`spies_sim.games`), so the same seed gives the same results for any ``--jobs``.
``--checkpoint FILE`` makes a long run resumable (:mod:`spies_sim.checkpoint`;
``games_per_second`` then counts only the games played in this sitting), and ``--record DB``
writes every game into a replay database (:mod:`spies_sim.record`); with ``--clock JSON``
(a time control as ``POST /games`` takes it) every recorded game carries that clock, its
clocks recorded with each command as the server records them, so ``spies-replay verify``
checks them too (no clock runs out: bots decide in milliseconds).

Exit status: 0 when the games were played; 2 on bad input (an unknown game or bot, a bot that
does not play the game, a wrong number of seats, options the game refuses, ``--games`` or
``--jobs`` below 1, a ``--record`` path that cannot be written, a ``--checkpoint`` file of
another run or combined with ``--record``, a bad ``--clock`` or one without ``--record``),
reported as one line on
stderr before anything is played or written; 1 when a game fails midway (a bot returns a
command that is not legal, or recording fails); 130 on Ctrl+C.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn, TextIO

import msgspec

from spies_api.game import seed_from_client
from spies_bots.registry import policy_for
from spies_core.clock import CLOCK_LIMITS, OnTimeout, TimeControl
from spies_core.decider import AnySpec, start_game
from spies_core.errors import InvalidOptionsError, SpiesError
from spies_core.registry import GAMES, get_game
from spies_core.rng import FairRng
from spies_replay import EventStore
from spies_sim.checkpoint import Checkpoint
from spies_sim.errors import UsageError
from spies_sim.games import Run, game_seed
from spies_sim.record import check_location, open_record_store, record_game
from spies_sim.tally import WIN_RATE_WEIGHTS, Tally
from spies_sim.text import SHARED_WIN, Progress, render, win_rate_formula
from spies_sim.workers import results

__all__ = ["EXIT_FAILED", "EXIT_OK", "EXIT_USAGE", "main"]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

_json = msgspec.json.Encoder()


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see spies-sim --help)")


def _counting() -> str:
    """The ``--help`` epilog: how the report counts (the games from the registry)."""
    scores = "; ".join(f"{spec.name}: {spec.score_name}" for spec in GAMES.values())
    return (
        f"Each game counts once per seat (and per team) as a win, a shared win ({SHARED_WIN}),"
        f" a draw or a loss; the win rate is {win_rate_formula(WIN_RATE_WEIGHTS)}, so a shared"
        " win counts as a whole win. The score column holds each seat's mean outcome score,"
        f" named for what the game scores: {scores}."
    )


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="spies-sim",
        description="Play bots against bots and report win rates with 95% confidence intervals.",
        epilog=_counting(),
    )
    parser.add_argument("game", metavar="GAME", help="a game id, e.g. black-spy")
    parser.add_argument(
        "--seats",
        required=True,
        metavar="BOT[,BOT...]",
        help="the bot of each seat, comma-separated: as many as the game has players",
    )
    parser.add_argument("--games", type=int, default=100, metavar="N", help="games (100)")
    parser.add_argument("--seed", default="0", metavar="S", help="the run's seed (0)")
    parser.add_argument(
        "--jobs", type=int, default=None, metavar="J", help="worker processes (every core)"
    )
    parser.add_argument(
        "--options", default=None, metavar="JSON", help="the game's options, a JSON object"
    )
    parser.add_argument("--record", metavar="DB", help="write every game to this replay database")
    parser.add_argument(
        "--clock",
        metavar="JSON",
        help="with --record: the time control of every recorded game, as POST /games takes it,"
        " e.g. '{\"turn_seconds\": 30}' (the bots play as without it)",
    )
    parser.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="append each game's result to FILE and skip the games it already holds (resume)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def _validate(args: argparse.Namespace) -> Run:
    """Check everything before anything is played or written.

    Raises:
        UnknownGameError, UnknownBotError, InvalidOptionsError, UsageError.
    """
    spec = get_game(args.game)
    bots = tuple(name.strip() for name in args.seats.split(","))
    for bot in bots:
        policy_for(bot, spec.name)
    allowed = sorted(spec.seat_counts)
    if len(bots) not in allowed:
        counts = ", ".join(map(str, allowed[:-1])) + (" or " if len(allowed) > 1 else "")
        raise InvalidOptionsError(
            f"{spec.name} is played by {counts}{allowed[-1]} players;"
            f" --seats names {len(bots)} bot{'s' if len(bots) != 1 else ''}",
            code="invalid-players",
        )
    options: object = {}
    if args.options is not None:
        try:
            options = msgspec.json.decode(args.options)
        except msgspec.DecodeError as exc:
            raise InvalidOptionsError(f"--options is not valid JSON: {exc}") from None
        if not isinstance(options, dict):
            raise InvalidOptionsError(f"--options must be a JSON object, not {args.options}")
    if not args.seed:
        raise UsageError("--seed must not be empty")
    # The first game's setup, for the game's own refusal of these options.
    start_game(spec, len(bots), options, FairRng(seed_from_client(game_seed(args.seed, 0)), 0))
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    jobs = (os.cpu_count() or 1) if args.jobs is None else args.jobs
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {jobs}")
    record: str | None = args.record
    if record is not None:
        check_location(record)
    if args.checkpoint is not None and record is not None:
        raise UsageError(
            "--checkpoint and --record cannot be combined: a recorded run is written in one go"
        )
    if args.checkpoint is not None and not args.checkpoint:
        raise UsageError("--checkpoint must name a file")
    clock = None
    if args.clock is not None:
        if record is None:
            raise UsageError(
                "--clock applies to --record only: bots decide in milliseconds, so no clock"
                " runs out in a game played in memory"
            )
        clock = _time_control(spec, args.clock)
    assert isinstance(options, dict)
    return Run(
        game=spec.name,
        bots=bots,
        games=args.games,
        seed=args.seed,
        jobs=min(jobs, args.games),
        options=options,
        record=record,
        checkpoint=args.checkpoint,
        clock=clock,
    )


def _time_control(spec: AnySpec, text: str) -> TimeControl:
    """The ``--clock`` time control, checked as far as recording needs.

    The server's own check (``POST /games``) stays the authority on what a game accepts;
    this one refuses what the engine could not record, or the server would not run: a clock
    with no limit, seconds that are negative, under the server's minimums
    (:data:`~spies_core.clock.CLOCK_LIMITS`: the recording writes a game's commands
    milliseconds apart, far inside them) or more than a week, ``forfeit`` in a game no
    seat's leaving decides, a bot that does not play the game.

    Raises:
        UsageError: a bad ``--clock``. UnknownBotError: its ``timeout_bot``.
    """
    try:
        control = msgspec.json.decode(text, type=TimeControl)
    except msgspec.ValidationError as exc:
        raise UsageError(f"--clock: {exc}") from None
    except msgspec.DecodeError as exc:
        raise UsageError(f"--clock is not valid JSON: {exc}") from None
    limits = [s for s in (control.turn_seconds, control.budget_seconds) if s is not None]
    if not limits:
        raise UsageError("--clock needs turn_seconds, budget_seconds or both")
    for seconds in (*limits, control.increment_seconds):
        if not math.isfinite(seconds) or seconds < 0 or seconds > CLOCK_LIMITS.max_seconds:
            raise UsageError(f"--clock: {seconds} is not a number of seconds up to a week")
    for name, given, shortest in (
        ("turn_seconds", control.turn_seconds, CLOCK_LIMITS.min_turn_seconds),
        ("budget_seconds", control.budget_seconds, CLOCK_LIMITS.min_budget_seconds),
    ):
        if given is not None and given < shortest:
            raise UsageError(
                f"--clock: {name} {given} is too short: at least {shortest:g} s, as the"
                " server allows"
            )
    if control.increment_seconds and control.budget_seconds is None:
        raise UsageError("--clock: increment_seconds is added to a budget: give budget_seconds")
    if control.on_timeout is OnTimeout.FORFEIT and spec.forfeit is None:
        raise UsageError(f"--clock: on_timeout 'forfeit' is refused for {spec.title}; use 'bot'")
    if control.abandon_after is not None and (
        control.abandon_after < 1 or control.on_timeout is not OnTimeout.BOT
    ):
        raise UsageError("--clock: abandon_after is at least 1, with on_timeout 'bot'")
    policy_for(control.timeout_bot, spec.name)
    return control


def main(
    argv: Sequence[str] | None = None,
    *,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run ``spies-sim``; return the exit status.

    Args:
        argv: the arguments (default ``sys.argv[1:]``).
        stdout: the report (default ``sys.stdout``).
        stderr: the progress bar and errors (default ``sys.stderr``).
    """
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    as_json = "--json" in (sys.argv[1:] if argv is None else argv)
    try:
        args = _parser().parse_args(argv)
        run = _validate(args)
        checkpoint = None if run.checkpoint is None else Checkpoint.read(Path(run.checkpoint), run)
        store = open_record_store(run.record)
    except SystemExit as exit_:  # --help
        return int(exit_.code or 0)
    except SpiesError as exc:
        return _error(stdout, stderr, as_json, exc, EXIT_USAGE)
    progress = Progress(stderr, run.games)
    tally = Tally(run)
    resumed = _resume(tally, checkpoint)
    start = time.perf_counter()
    try:
        _play(run, tally, progress, store, checkpoint)
    except KeyboardInterrupt:
        progress.close()
        stderr.write("spies-sim: interrupted\n")
        return EXIT_INTERRUPTED
    except SpiesError as exc:
        progress.close()
        return _error(stdout, stderr, as_json, exc, EXIT_FAILED)
    finally:
        if store is not None:
            store.close()
        if checkpoint is not None:
            checkpoint.close()
    seconds = time.perf_counter() - start
    progress.close()
    report = tally.report(seconds, played=tally.games - resumed)
    if run.checkpoint is not None:
        report["checkpoint"] = {"path": run.checkpoint, "resumed": resumed}
    if as_json:
        stdout.write(_json.encode(report).decode() + "\n")
    else:
        stdout.write("\n".join(render(report)) + "\n")
    return EXIT_OK


def _resume(tally: Tally, checkpoint: Checkpoint | None) -> int:
    """Count the games a checkpoint already holds; return how many."""
    if checkpoint is not None:
        for index in sorted(i for i in checkpoint.results if i < tally.run.games):
            tally.add(checkpoint.results[index])
    return tally.games


def _play(
    run: Run,
    tally: Tally,
    progress: Progress,
    store: EventStore | None,
    checkpoint: Checkpoint | None,
) -> None:
    """Play the games still to play, recording or checkpointing each, into ``tally``."""
    todo = [i for i in range(run.games) if checkpoint is None or i not in checkpoint.results]
    try:
        if checkpoint is not None:
            checkpoint.open()
        for result in results(run, store is not None, todo) if todo else ():
            if store is not None:
                record_game(store, run, result)
            if checkpoint is not None:
                checkpoint.append(result)
            tally.add(result)
            progress.update(tally.games)
    except OSError as exc:
        message = f"cannot write the checkpoint {run.checkpoint}: {exc.strerror or exc}"
        raise UsageError(message, code="checkpoint-failed") from None


def _error(
    stdout: TextIO, stderr: TextIO, as_json: bool, exc: SpiesError | Exception, status: int
) -> int:
    code = exc.code if isinstance(exc, SpiesError) else "database-error"
    message = exc.message if isinstance(exc, SpiesError) else str(exc)
    if as_json:
        stdout.write(_json.encode({"error": message, "code": code, "exit": status}).decode() + "\n")
    stderr.write(f"spies-sim: error: {message} [{code}]\n")
    return status
