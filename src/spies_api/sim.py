"""``spies-sim``: bots against bots, with win rates and their 95% confidence intervals.

Usage::

    spies-sim GAME --seats BOT[,BOT...] [--games N] [--seed S] [--jobs J] [--options JSON]
              [--record DB] [--checkpoint FILE] [--json]

Plays ``N`` games (default 100) of ``GAME`` in memory, seat ``k`` played by the ``k``-th bot
of ``--seats`` (so ``--seats`` names as many bots as the game has players), on ``J`` worker
processes (default: every core), with a progress bar on a terminal (stderr; none when piped).
It prints per seat the wins, draws and losses, the win rate counting a draw half with its
Wilson 95% confidence interval, the score, why the games ended, the mean game length, the
decision time per seat and per bot, and games per second; per team too when seats share a
side (Spies & Lies with 4 seats). ``--json`` prints the same as one JSON object, every
measured time under a ``timing`` key. A decision's time is the CPU its process spent in the
bot (``time.process_time``), which other processes on a busy machine do not inflate; games
per second are by the wall clock.

Seeds: game ``i`` of a run with seed ``S`` is played from the client seed ``"S:i"``, taken as
the server takes a client's seed (its UTF-8 bytes), with the server's nonces; the bot of
seat ``k`` draws from ``random.Random("S:i:k")``. A game's result depends on ``S`` and ``i``
alone, so the same seed gives the same results for any ``--jobs``, and game ``i`` is the
game the server would create with seed ``"S:i"`` and the same commands.

``--checkpoint FILE`` makes a long run resumable: each game's result is appended to
``FILE`` (JSON lines, after a first line naming the run) as it is played, and a run started
again with the same ``FILE`` plays only the games the file lacks. Since a game's result
depends on the seed and its index alone, the report of a run finished in several sittings
equals that of one uninterrupted run, its timings apart (``games_per_second`` counts only the
games played in this sitting). A file written by another run (another game, seats, seed or
options) is refused; a line cut short by a kill is dropped.

``--record DB`` writes every game into a replay database (created when missing) through the
server's engine: created with its client seed, which is committed at creation and revealed at
the end, then each bot command submitted as its seat's. The workers only play; the parent
process alone writes, in game order (SQLite has one writer). ``spies-replay --db DB verify
--all`` re-derives every recorded game, and any of them can be stepped through.

Exit status: 0 when the games were played; 2 on bad input (an unknown game or bot, a bot that
does not play the game, a wrong number of seats, options the game refuses, ``--games`` or
``--jobs`` below 1, a ``--record`` path that cannot be written, a ``--checkpoint`` file of
another run or combined with ``--record``), reported as one line on
stderr before anything is played or written; 1 when a game fails midway (a bot returns a
command that is not legal, or recording fails); 130 on Ctrl+C.

This tool lives in ``spies_api`` because it needs both the bots (``spies_bots``) and the
replay log (``spies_replay``): ``spies_bots`` stays pure and ``spies_replay`` never imports the
bots, and ``spies_api`` is the one package that may import both.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import signal
import statistics
import sys
import time
from array import array
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any, BinaryIO, NoReturn, TextIO

import msgspec

from spies_bots.match import play_match
from spies_bots.registry import policy_for
from spies_core.decider import start_game
from spies_core.errors import InvalidOptionsError, SpiesError
from spies_core.registry import get_game
from spies_core.rng import FairRng
from spies_replay.engine import create_game, seed_from_client, submit_command
from spies_replay.errors import ReplayError
from spies_replay.store.backends import open_store
from spies_replay.store.locations import is_postgres_url, redact
from spies_replay.store.protocols import EventStore

__all__ = ["GameResult", "Run", "Tally", "main", "play_game", "wilson"]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2

Z95 = 1.959963984540054
"""The 97.5% quantile of the standard normal distribution: a two-sided 95% interval."""

_json = msgspec.json.Encoder()


class UsageError(SpiesError):
    """Bad input on the command line (exit 2)."""

    default_code = "usage"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see spies-sim --help)")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="spies-sim",
        description="Play bots against bots and report win rates with 95% confidence intervals.",
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
        "--checkpoint",
        metavar="FILE",
        help="append each game's result to FILE and skip the games it already holds (resume)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


# -- the run ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Run:
    """A validated request: what to play and where to record it."""

    game: str
    bots: tuple[str, ...]
    games: int
    seed: str
    jobs: int
    options: dict[str, Any]
    record: str | None = None
    """A SQLite file path or a ``postgresql://`` URL."""
    checkpoint: str | None = None
    """A file of the results played so far (JSON lines), to resume from."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """What one game leaves behind for the report (and, when recording, its commands)."""

    index: int
    winners: tuple[int, ...]
    draw: bool
    reason: str
    scores: tuple[int, ...]
    commands: int
    events: int
    sides: tuple[int | None, ...]
    times: tuple[array[float], ...]
    """Per seat, the seconds of each of its decisions."""
    moves: tuple[tuple[int, Any], ...] | None = None
    """``(seat, command)`` in order, kept only when the game is to be recorded."""


def game_seed(seed: str, index: int) -> str:
    """The client seed of game ``index`` of a run with seed ``seed``."""
    return f"{seed}:{index}"


def play_game(run: Run, index: int, *, keep_moves: bool = False) -> GameResult:
    """Play game ``index`` of ``run``; its result depends on ``run.seed`` and ``index`` only."""
    spec = get_game(run.game)
    policies = [policy_for(bot, run.game) for bot in run.bots]
    rngs = [Random(f"{run.seed}:{index}:{seat}") for seat in range(len(run.bots))]
    match = play_match(
        spec,
        policies,
        seed=seed_from_client(game_seed(run.seed, index)),
        rngs=rngs,
        options=run.options,
        clock=time.process_time,
    )
    times = tuple(array("d") for _ in run.bots)
    for decision in match.decisions:
        assert decision.seconds is not None
        times[decision.seat].append(decision.seconds)
    outcome = match.outcome
    return GameResult(
        index=index,
        winners=outcome.winners,
        draw=outcome.draw,
        reason=outcome.reason,
        scores=outcome.scores,
        commands=len(match.decisions),
        events=match.events,
        sides=match.sides,
        times=times,
        moves=match.commands if keep_moves else None,
    )


def _play_chunk(task: tuple[Run, tuple[int, ...], bool]) -> list[GameResult]:
    run, indices, keep_moves = task
    return [play_game(run, i, keep_moves=keep_moves) for i in indices]


def _ignore_interrupts() -> None:
    """Workers leave Ctrl+C to the parent, which stops them all."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _results(run: Run, keep_moves: bool, indices: Sequence[int]) -> Iterator[GameResult]:
    """The result of each game in ``indices`` (ascending), in order, on ``run.jobs`` processes.

    Games are dealt out in chunks of consecutive indices; which process plays a chunk does
    not matter, since a game's result depends on its index alone.
    """
    if run.jobs == 1 or len(indices) == 1:
        for index in indices:
            yield play_game(run, index, keep_moves=keep_moves)
        return
    size = max(1, min(64, len(indices) // (run.jobs * 8)))
    tasks = [
        (run, tuple(indices[start : start + size]), keep_moves)
        for start in range(0, len(indices), size)
    ]
    # Leaving the block (done, an error, Ctrl+C) terminates the workers.
    with multiprocessing.Pool(run.jobs, initializer=_ignore_interrupts) as pool:
        for chunk in pool.imap(_play_chunk, tasks):
            yield from chunk


def _record(store: EventStore, run: Run, result: GameResult) -> None:
    """Create game ``result.index`` through the engine and submit its commands."""
    assert result.moves is not None
    created = create_game(
        store, run.game, len(run.bots), run.options, seed=game_seed(run.seed, result.index)
    )
    game_id, state, version = created.record.id, created.state, created.record.version
    outcome = created.record.outcome
    for seat, command in result.moves:
        submitted = submit_command(store, game_id, seat, command, state=state, version=version)
        state, version, outcome = submitted.state, submitted.version, submitted.outcome
    if outcome is None or (outcome.winners, outcome.draw) != (result.winners, result.draw):
        raise ReplayError(
            f"game {result.index} ({game_id}) ended differently when recorded: {outcome!r}",
            code="record-diverged",
        )


# -- checkpoint ------------------------------------------------------------------------------


class _Header(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The first line of a checkpoint file: the run its results belong to."""

    spies_sim_checkpoint: int
    game: str
    seats: tuple[str, ...]
    seed: str
    options: dict[str, Any]


class _Saved(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One game's result, one line of a checkpoint file."""

    index: int
    winners: tuple[int, ...]
    draw: bool
    reason: str
    scores: tuple[int, ...]
    commands: int
    events: int
    sides: tuple[int | None, ...]
    times: tuple[tuple[float, ...], ...]


CHECKPOINT_FORMAT = 1


class Checkpoint:
    """The results of a run so far, in a file that each new result is appended to."""

    def __init__(
        self, path: Path, header: _Header, results: dict[int, GameResult], keep: int
    ) -> None:
        self.path = path
        self.results = results
        """The games already played, by index."""
        self._header = header
        self._keep = keep
        """The length of the file's sound part: 0 for a new file."""
        self._file: BinaryIO | None = None

    @classmethod
    def read(cls, path: Path, run: Run) -> Checkpoint:
        """Read what ``path`` holds for ``run``; nothing is written yet.

        Raises:
            UsageError: the file is not a checkpoint, belongs to another run, or is damaged.
        """
        header = _Header(
            spies_sim_checkpoint=CHECKPOINT_FORMAT,
            game=run.game,
            seats=run.bots,
            seed=run.seed,
            options=run.options,
        )
        if path.is_dir():
            raise UsageError(f"--checkpoint {path} is a directory, not a file")
        try:
            data = path.read_bytes() if path.exists() else b""
        except OSError as exc:
            raise UsageError(f"--checkpoint {path}: {exc.strerror or exc}") from None
        lines = data.split(b"\n")
        if not data:
            return cls(path, header, {}, 0)
        try:
            found = msgspec.json.decode(lines[0], type=_Header)
        except msgspec.DecodeError:
            raise UsageError(f"--checkpoint {path} is not a spies-sim checkpoint file") from None
        if found != header:
            raise UsageError(
                f"--checkpoint {path} holds another run ({found.game}, seats"
                f" {','.join(found.seats)}, seed {found.seed!r}, options"
                f" {_json.encode(found.options).decode()}); give another file or that run's"
                " arguments"
            )
        results: dict[int, GameResult] = {}
        keep = len(lines[0]) + 1
        for number, line in enumerate(lines[1:], start=2):
            last = number == len(lines)
            try:
                saved = msgspec.json.decode(line, type=_Saved)
            except msgspec.DecodeError:
                if last:  # an empty tail, or a line cut short when the run was killed
                    break
                raise UsageError(f"--checkpoint {path}: line {number} is damaged") from None
            keep += len(line) + 1
            results.setdefault(saved.index, _from_saved(saved))
        return cls(path, header, results, keep)

    def open(self) -> None:
        """Start appending: write the header to a new file, or drop a cut-off last line."""
        if self._keep == 0:
            self._file = self.path.open("wb")
            self._file.write(_json.encode(self._header) + b"\n")
        else:
            self._file = self.path.open("r+b")
            self._file.truncate(self._keep)
            self._file.seek(self._keep)
        self._file.flush()

    def append(self, result: GameResult) -> None:
        """Add one game's result to the file."""
        saved = _Saved(
            index=result.index,
            winners=result.winners,
            draw=result.draw,
            reason=result.reason,
            scores=result.scores,
            commands=result.commands,
            events=result.events,
            sides=result.sides,
            times=tuple(tuple(t) for t in result.times),
        )
        assert self._file is not None, "open() first"
        self._file.write(_json.encode(saved) + b"\n")
        self._file.flush()

    def close(self) -> None:
        """Close the file."""
        if self._file is not None:
            self._file.close()


def _from_saved(saved: _Saved) -> GameResult:
    return GameResult(
        index=saved.index,
        winners=saved.winners,
        draw=saved.draw,
        reason=saved.reason,
        scores=saved.scores,
        commands=saved.commands,
        events=saved.events,
        sides=saved.sides,
        times=tuple(array("d", t) for t in saved.times),
    )


# -- statistics ------------------------------------------------------------------------------


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n`` (a draw may count half).

    >>> [round(x, 4) for x in wilson(0, 10)]
    [0.0, 0.2775]
    >>> [round(x, 4) for x in wilson(50, 100)]
    [0.4038, 0.5962]
    """
    if n <= 0:
        raise ValueError(f"no trials: n = {n}")
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return low, high


@dataclass(slots=True)
class _Record:
    """Wins, draws and losses of one seat or team."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    won_by: Counter[str] = field(default_factory=Counter)

    def add(self, won: bool, draw: bool, reason: str) -> None:
        if draw:
            self.draws += 1
        elif won:
            self.wins += 1
            self.won_by[reason] += 1
        else:
            self.losses += 1

    def report(self) -> dict[str, Any]:
        games = self.wins + self.draws + self.losses
        rate = (self.wins + self.draws / 2) / games
        low, high = wilson(self.wins + self.draws / 2, games)
        return {
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": rate,
            "ci95": [low, high],
            "won_by": dict(sorted(self.won_by.items())),
        }


def _spread(values: Sequence[float]) -> dict[str, float] | None:
    if not values:
        return None
    return {"mean": statistics.fmean(values), "min": min(values), "max": max(values)}


def _timing(times: Sequence[float]) -> dict[str, Any]:
    if not times:
        return {"median_ms": None, "worst_ms": None}
    return {"median_ms": statistics.median(times) * 1000, "worst_ms": max(times) * 1000}


class Tally:
    """The running totals of a run, fed one game at a time; :meth:`report` is the report."""

    def __init__(self, run: Run) -> None:
        players = len(run.bots)
        self.run = run
        self.games = 0
        self.seats = [_Record() for _ in range(players)]
        self.scores: list[list[int]] = [[] for _ in range(players)]
        self.times = [array("d") for _ in range(players)]
        self.reasons: Counter[str] = Counter()
        self.commands: list[int] = []
        self.events: list[int] = []
        self.teams: dict[int, tuple[list[int], _Record]] | None = None

    def add(self, result: GameResult) -> None:
        """Count one game."""
        players = len(self.run.bots)
        if self.teams is None:
            self.teams = _teams(result.sides)
        self.games += 1
        self.reasons[result.reason] += 1
        self.commands.append(result.commands)
        self.events.append(result.events)
        for seat in range(players):
            self.seats[seat].add(seat in result.winners, result.draw, result.reason)
            self.times[seat].extend(result.times[seat])
        if len(result.scores) == players:
            for seat, score in enumerate(result.scores):
                self.scores[seat].append(score)
        for group, record in self.teams.values():
            won = any(seat in result.winners for seat in group)
            record.add(won, result.draw, result.reason)

    def report(self, seconds: float, played: int | None = None) -> dict[str, Any]:
        """The report, as the JSON object ``--json`` prints.

        Everything but the values under ``timing`` keys depends only on the run's game,
        seats, options, seed and number of games.

        Args:
            seconds: the wall-clock time of this sitting.
            played: the games played in it (default: all; fewer when resumed).
        """
        played = self.games if played is None else played
        run, games = self.run, self.games
        by_bot: dict[str, array[float]] = {}
        for seat, bot in enumerate(run.bots):
            by_bot.setdefault(bot, array("d")).extend(self.times[seat])
        return {
            "game": run.game,
            "players": len(run.bots),
            "seats": list(run.bots),
            "games": games,
            "seed": run.seed,
            "options": run.options,
            "per_seat": [
                {"seat": seat, "bot": bot}
                | self.seats[seat].report()
                | {
                    "score": _spread(self.scores[seat]),
                    "decisions": len(self.times[seat]),
                    "timing": _timing(self.times[seat]),
                }
                for seat, bot in enumerate(run.bots)
            ],
            "teams": [
                {"side": side, "seats": group, "bots": [run.bots[s] for s in group]}
                | record.report()
                for side, (group, record) in sorted((self.teams or {}).items())
            ],
            "reasons": dict(sorted(self.reasons.items())),
            "length": {"commands": _spread(self.commands), "events": _spread(self.events)},
            "bots": {
                bot: {"decisions": len(spent), "timing": _timing(spent)}
                for bot, spent in by_bot.items()
            },
            "timing": {
                "seconds": seconds,
                "played": played,
                "games_per_second": played / seconds if seconds > 0 and played else None,
                "jobs": run.jobs,
            },
            "record": None if run.record is None else redact(run.record),
        }


def _teams(sides: Sequence[int | None]) -> dict[int, tuple[list[int], _Record]]:
    """Seats grouped by side, when some side has several seats (a team game); else none."""
    members: dict[int, list[int]] = {}
    for seat, side in enumerate(sides):
        if side is not None:
            members.setdefault(side, []).append(seat)
    if not any(len(group) > 1 for group in members.values()):
        return {}
    return {side: (group, _Record()) for side, group in members.items()}


# -- text ------------------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{_percent(x)}%"


def _percent(x: float) -> str:
    """A share as a percentage, with a second decimal below 1% so that small bounds show."""
    return f"{100 * x:.2f}" if 0 < x < 0.01 else f"{100 * x:.1f}"


def _ms(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3g}" if value < 1 else f"{value:.1f}"


def _render(report: dict[str, Any]) -> list[str]:
    timing = report["timing"]
    lines = [
        f"{report['game']}: {report['games']:,} games from seed {report['seed']!r},"
        f" seats {', '.join(report['seats'])}"
        + (f", options {_json.encode(report['options']).decode()}" if report["options"] else ""),
        "",
        f"{'seat':>4}  {'bot':<10}{'wins':>7}{'draws':>7}{'losses':>8}{'win rate':>10}"
        f"  {'95% CI':<13}{'score':>8}{'decisions':>11}{'median ms':>11}{'worst ms':>10}",
    ]
    for seat in report["per_seat"]:
        low, high = seat["ci95"]
        score = "-" if seat["score"] is None else f"{seat['score']['mean']:.2f}"
        ci = f"{_percent(low)}-{_percent(high)}%"
        lines.append(
            f"{seat['seat']:>4}  {seat['bot']:<10}{seat['wins']:>7,}{seat['draws']:>7,}"
            f"{seat['losses']:>8,}{_pct(seat['win_rate']):>10}"
            f"  {ci:<13}{score:>8}{seat['decisions']:>11,}"
            f"{_ms(seat['timing']['median_ms']):>11}{_ms(seat['timing']['worst_ms']):>10}"
        )
    if report["teams"]:
        lines += ["", f"{'team':>4}  {'seats (bots)':<28}{'wins':>7}{'draws':>7}{'losses':>8}"]
        lines[-1] += f"{'win rate':>10}  95% CI"
        for team in report["teams"]:
            low, high = team["ci95"]
            who = ", ".join(f"{s} {b}" for s, b in zip(team["seats"], team["bots"], strict=True))
            lines.append(
                f"{team['side']:>4}  {who:<28}{team['wins']:>7,}{team['draws']:>7,}"
                f"{team['losses']:>8,}{_pct(team['win_rate']):>10}"
                f"  {_percent(low)}-{_percent(high)}%"
            )
    games = report["games"]
    reasons = ", ".join(f"{r} {n:,} ({_pct(n / games)})" for r, n in report["reasons"].items())
    lines += ["", f"ended by: {reasons}"]
    if len(report["reasons"]) > 1:
        for seat in report["per_seat"]:
            if seat["won_by"]:
                won = ", ".join(f"{r} {n:,}" for r, n in seat["won_by"].items())
                lines.append(f"  seat {seat['seat']} won by: {won}")
    commands, events = report["length"]["commands"], report["length"]["events"]
    lines.append(
        f"length: {commands['mean']:.1f} commands (min {commands['min']:,}, max"
        f" {commands['max']:,}), {events['mean']:.1f} events per game"
    )
    lines.append("decision time per bot:")
    for bot, spent in report["bots"].items():
        lines.append(
            f"  {bot:<10} median {_ms(spent['timing']['median_ms'])} ms,"
            f" worst {_ms(spent['timing']['worst_ms'])} ms over {spent['decisions']:,} decisions"
        )
    rate = timing["games_per_second"]
    jobs = timing["jobs"]
    played = timing["played"]
    lines.append(
        f"speed: {'-' if rate is None else f'{rate:,.1f}'} games/s ({played:,} games in"
        f" {timing['seconds']:.1f} s on {jobs} process{'es' if jobs > 1 else ''})"
    )
    if checkpoint := report.get("checkpoint"):
        lines.append(
            f"checkpoint: {checkpoint['path']} ({checkpoint['resumed']:,} games read from it,"
            f" {played:,} played now)"
        )
    if report["record"]:
        lines.append(f"recorded: {games:,} games in {report['record']}")
    return lines


class _Progress:
    """A one-line progress bar with games per second, on a terminal only."""

    def __init__(self, stream: TextIO, total: int) -> None:
        self.stream = stream
        self.total = total
        self.enabled = stream.isatty()
        self.start = time.perf_counter()
        self.shown = 0.0

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if done < self.total and now - self.shown < 0.1:
            return
        self.shown = now
        elapsed = now - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        width = 30
        filled = width * done // self.total
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done:,}/{self.total:,} games"
            f"  {rate:,.1f} games/s "
        )
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r\033[K")
            self.stream.flush()


# -- validation ------------------------------------------------------------------------------


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
    start_game(spec, len(bots), options, FairRng(seed_from_client(game_seed(args.seed, 0)), 0))
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    jobs = (os.cpu_count() or 1) if args.jobs is None else args.jobs
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {jobs}")
    record: str | None = args.record
    if record is not None and not is_postgres_url(record):
        _check_writable(Path(record))
    if args.checkpoint is not None and record is not None:
        raise UsageError(
            "--checkpoint and --record cannot be combined: a recorded run is written in one go"
        )
    if args.checkpoint is not None and not args.checkpoint:
        raise UsageError("--checkpoint must name a file")
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
    )


def _check_writable(path: Path) -> None:
    """Refuse a ``--record`` path that SQLite could not write (it also writes beside it)."""
    folder = path.parent
    if path.is_dir():
        raise UsageError(f"--record {path} is a directory, not a database file")
    if not folder.is_dir():
        raise UsageError(f"--record {path}: there is no directory {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"--record {path}: the directory {folder} is not writable")
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise UsageError(f"--record {path} is not writable")


# -- main ------------------------------------------------------------------------------------


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
        store = _open_store(run.record)
    except SystemExit as exit_:  # --help
        return int(exit_.code or 0)
    except SpiesError as exc:
        return _error(stdout, stderr, as_json, exc, EXIT_USAGE)
    progress = _Progress(stderr, run.games)
    tally = Tally(run)
    resumed = _resume(tally, checkpoint)
    start = time.perf_counter()
    try:
        _play(run, tally, progress, store, checkpoint)
    except KeyboardInterrupt:
        progress.close()
        stderr.write("spies-sim: interrupted\n")
        return 130
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
        stdout.write("\n".join(_render(report)) + "\n")
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
    progress: _Progress,
    store: EventStore | None,
    checkpoint: Checkpoint | None,
) -> None:
    """Play the games still to play, recording or checkpointing each, into ``tally``."""
    todo = [i for i in range(run.games) if checkpoint is None or i not in checkpoint.results]
    try:
        if checkpoint is not None:
            checkpoint.open()
        for result in _results(run, store is not None, todo) if todo else ():
            if store is not None:
                _record(store, run, result)
            if checkpoint is not None:
                checkpoint.append(result)
            tally.add(result)
            progress.update(tally.games)
    except OSError as exc:
        message = f"cannot write the checkpoint {run.checkpoint}: {exc.strerror or exc}"
        raise UsageError(message, code="checkpoint-failed") from None


def _open_store(location: str | None) -> EventStore | None:
    if location is None:
        return None
    try:
        return open_store(location)
    except ReplayError as exc:
        raise UsageError(f"--record: {exc}") from None


def _error(
    stdout: TextIO, stderr: TextIO, as_json: bool, exc: SpiesError | Exception, status: int
) -> int:
    code = exc.code if isinstance(exc, SpiesError) else "database-error"
    message = exc.message if isinstance(exc, SpiesError) else str(exc)
    if as_json:
        stdout.write(_json.encode({"error": message, "code": code, "exit": status}).decode() + "\n")
    stderr.write(f"spies-sim: error: {message} [{code}]\n")
    return status
