"""What a person reads: the report as text on stdout, and a progress bar on a terminal."""

from __future__ import annotations

import time
from typing import Any, TextIO

import msgspec

__all__ = ["Progress", "render"]

_json = msgspec.json.Encoder()


def render(report: dict[str, Any]) -> list[str]:
    """The lines of the text report of a run (see :meth:`spies_sim.tally.Tally.report`)."""
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
