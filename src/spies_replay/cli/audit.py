"""``verify``: one stored game or all of them, each named with its first problem by seq."""

from __future__ import annotations

import argparse
from typing import TextIO

from spies_replay import EventStore, VerifyReport, verify_all, verify_game
from spies_replay.cli.output import EXIT_OK, EXIT_PROBLEM, REDERIVED_TEXT, Output

__all__ = ["verify"]


def verify(store: EventStore, args: argparse.Namespace, out: Output, stdin: TextIO) -> int:
    """``verify``: exit 1 when any game has a problem."""
    reports = [verify_game(store, args.game_id)] if args.game_id else verify_all(store)
    failed = [report for report in reports if not report.ok]
    if out.json:
        out.data({"ok": not failed, "games": reports})
    else:
        for report in reports:
            _verify_line(report, out)
        games = f"{len(reports)} game{'' if len(reports) == 1 else 's'}"
        out.line(f"{games} verified, {len(failed)} with problems")
    return EXIT_PROBLEM if failed else EXIT_OK


def _verify_line(report: VerifyReport, out: Output) -> None:
    if report.problem is None:
        head = (report.head_hash or "")[:16]
        out.line(
            f"ok    {report.game_id} ({report.game}, {report.status}): {report.events} events,"
            f" head {head}; {REDERIVED_TEXT[report.rederived]}"
        )
    else:
        problem = report.problem
        where = "" if problem.seq is None else f" at seq {problem.seq}"
        out.line(f"FAIL  {report.game_id}{where}: {problem.code}: {problem.message}")
    for warning in report.warnings:
        out.line(f"      warning: {warning}")
