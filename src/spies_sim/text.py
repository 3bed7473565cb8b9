"""What a person reads: the report as text on stdout, and a progress bar on a terminal."""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any, TextIO

import msgspec

__all__ = ["SHARED_WIN", "Progress", "render", "win_rate_formula"]

SHARED_WIN = "a tie for the win with another seat or team, which the rules let both win"
"""What the ``shared`` column counts (the report's legend and ``--help`` say it)."""

_json = msgspec.json.Encoder()


def render(report: dict[str, Any]) -> list[str]:
    """The lines of the text report of a run (see :meth:`spies_sim.tally.Tally.report`)."""
    timing = report["timing"]
    score_name = report["score_name"]
    width = max(8, len(score_name) + 2)
    lines = [
        f"{report['game']}: {_games(report['games'])} from seed {report['seed']!r},"
        f" seats {', '.join(report['seats'])}"
        + (f", options {_json.encode(report['options']).decode()}" if report["options"] else ""),
        "",
        f"{'seat':>4}  {'bot':<10}{_RESULTS_HEADER}{'win rate':>10}"
        f"  {'95% CI':<13}{score_name:>{width}}{'decisions':>11}{'median ms':>11}{'worst ms':>10}",
    ]
    for seat in report["per_seat"]:
        low, high = seat["ci95"]
        score = "-" if seat["score"] is None else f"{seat['score']['mean']:.2f}"
        ci = f"{_percent(low)}-{_percent(high)}%"
        lines.append(
            f"{seat['seat']:>4}  {seat['bot']:<10}{_results(seat)}{_pct(seat['win_rate']):>10}"
            f"  {ci:<13}{score:>{width}}{seat['decisions']:>11,}"
            f"{_ms(seat['timing']['median_ms']):>11}{_ms(seat['timing']['worst_ms']):>10}"
        )
    if report["teams"]:
        lines += ["", f"{'team':>4}  {'seats (bots)':<28}{_RESULTS_HEADER}"]
        lines[-1] += f"{'win rate':>10}  95% CI"
        for team in report["teams"]:
            low, high = team["ci95"]
            who = ", ".join(f"{s} {b}" for s, b in zip(team["seats"], team["bots"], strict=True))
            lines.append(
                f"{team['side']:>4}  {who:<28}{_results(team)}{_pct(team['win_rate']):>10}"
                f"  {_percent(low)}-{_percent(high)}%"
            )
    lines += ["", *_legend(report), ""]
    games = report["games"]
    reasons = ", ".join(f"{r} {n:,} ({_pct(n / games)})" for r, n in report["reasons"].items())
    lines.append(f"ended by: {reasons}")
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
            f" worst {_ms(spent['timing']['worst_ms'])} ms over"
            f" {_counted(spent['decisions'], 'decision')}"
        )
    rate = timing["games_per_second"]
    jobs = timing["jobs"]
    played = timing["played"]
    lines.append(
        f"speed: {'-' if rate is None else f'{rate:,.1f}'} games/s ({_games(played)} in"
        f" {timing['seconds']:.1f} s on {jobs} process{'es' if jobs > 1 else ''})"
    )
    if checkpoint := report.get("checkpoint"):
        lines.append(
            f"checkpoint: {checkpoint['path']} ({_games(checkpoint['resumed'])} read from it,"
            f" {played:,} played now)"
        )
    if report["record"]:
        lines.append(f"recorded: {_games(games)} in {report['record']}")
    return lines


def _counted(count: int, noun: str) -> str:
    """``count`` with thousands separators and ``noun`` in the singular for 1."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def _games(count: int) -> str:
    return _counted(count, "game")


_RESULTS_HEADER = f"{'wins':>7}{'shared':>8}{'draws':>7}{'losses':>8}"
"""The heads of the columns of :func:`_results`."""


def _results(row: dict[str, Any]) -> str:
    """A seat's or a team's wins, shared wins, draws and losses, in their columns."""
    return f"{row['wins']:>7,}{row['shared_wins']:>8,}{row['draws']:>7,}{row['losses']:>8,}"


def _legend(report: dict[str, Any]) -> list[str]:
    """What the columns of the tables count: shared wins, the win rate, the score."""
    lines = [
        f"shared: {SHARED_WIN}",
        f"win rate: {win_rate_formula(report['win_rate_weights'])}, with its Wilson 95%"
        " confidence interval",
    ]
    if any(seat["score"] is not None for seat in report["per_seat"]):
        lines.append(f"{report['score_name']}: each seat's mean at the end of a game")
    return lines


def win_rate_formula(weights: dict[str, float]) -> str:
    """The win rate as a formula of the columns, e.g. ``(wins + shared + draws/2) / games``.

    Args:
        weights: how much of a win each result counts for (the report's
            ``win_rate_weights``).
    """
    columns = (("win", "wins"), ("shared_win", "shared"), ("draw", "draws"), ("loss", "losses"))
    credit = " + ".join(_weighted(label, weights[key]) for key, label in columns if weights[key])
    return f"({credit}) / games"


def _weighted(label: str, weight: float) -> str:
    share = Fraction(weight).limit_denominator(100)
    if share == 1:
        return label
    if share.numerator == 1:
        return f"{label}/{share.denominator}"
    return f"{share} × {label}"


def _pct(x: float) -> str:
    return f"{_percent(x)}%"


def _percent(x: float) -> str:
    """A share as a percentage, with a second decimal below 1% so that small bounds show."""
    return f"{100 * x:.2f}" if 0 < x < 0.01 else f"{100 * x:.1f}"


def _ms(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3g}" if value < 1 else f"{value:.1f}"


class Progress:
    """A one-line progress bar with games per second, on a terminal only (none when piped)."""

    def __init__(self, stream: TextIO, total: int) -> None:
        self.stream = stream
        self.total = total
        self.enabled = stream.isatty()
        self.start = time.perf_counter()
        self.shown = 0.0

    def update(self, done: int) -> None:
        """Show that ``done`` games of the total are played (at most ten times a second)."""
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
        """Clear the bar's line."""
        if self.enabled:
            self.stream.write("\r\033[K")
            self.stream.flush()
