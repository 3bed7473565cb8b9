"""``verify``: one stored game, all of them, or an export file, each named with its first
problem by seq.

Each recorded bot move is re-run with the bot that made it (:mod:`spies_replay.cli.bots`);
what the log does not let this build prove (a bot move it cannot re-run, a label older than
what it labels) is a ``caveat:`` line under the game's ``ok`` line, and exit status 0. With
``--head HASH`` the game must end in that head hash, the one its server published: that is
what anchors a log to the server that played it (exit 1 with ``published-head-mismatch``
otherwise).
"""

from __future__ import annotations

import argparse
from typing import Final, TextIO, TypeVar

import msgspec

from spies_core.registry import GAMES
from spies_replay import EventStore, VerifyReport, verify_all, verify_game
from spies_replay.cli.exchange import open_input
from spies_replay.cli.output import (
    EXIT_OK,
    EXIT_PROBLEM,
    Output,
    UsageError,
    proven,
    report_lines,
    shown,
)
from spies_replay.receipts import KeyList, Receipt
from spies_replay.transfer import read_export
from spies_replay.verify import verify_log

__all__ = ["read_receipts", "verify", "verify_file"]

T = TypeVar("T")

_MAX_JSON: Final = 1 << 20
"""The largest receipt or key list read (a receipt is a few hundred bytes)."""


def verify(store: EventStore, args: argparse.Namespace, out: Output, stdin: TextIO) -> int:
    """``verify``: exit 1 when any game has a problem."""
    if args.game_id:
        receipts, keys = read_receipts(args)
        reports = [
            verify_game(
                store,
                args.game_id,
                bots=args.bots,
                head=args.head,
                games=args.games,
                receipts=receipts,
                keys=keys,
            )
        ]
    else:
        reports = verify_all(store, bots=args.bots, games=args.games)
    return _print(reports, out)


def verify_file(args: argparse.Namespace, out: Output, stdin: TextIO) -> int:
    """``verify --file EXPORT``: an export checked as ``import`` checks it, stored nowhere."""
    receipts, keys = read_receipts(args)
    with open_input(args.file, stdin) as source:
        record, rows = read_export(source)
    games = GAMES if args.games is None else args.games
    report = verify_log(
        games, record, rows, bots=args.bots, head=args.head, receipts=receipts, keys=keys
    )
    return _print([report.report], out)


def read_receipts(args: argparse.Namespace) -> tuple[list[Receipt], KeyList | None]:
    """The ``--receipt`` files and the ``--keys`` file, each one JSON document.

    Raises:
        UsageError: a file that cannot be read or is not a receipt (or a key list).
    """
    receipts = [_read_json(path, Receipt, "a receipt") for path in args.receipts]
    keys = None if args.keys is None else _read_json(args.keys, KeyList, "GET /keys's answer")
    return receipts, keys


def _read_json(path: str, kind: type[T], what: str) -> T:
    try:
        with open(path, "rb") as source:
            data = source.read(_MAX_JSON + 1)
    except OSError as exc:
        raise UsageError(f"cannot read {shown(path)}: {exc.strerror}") from exc
    if len(data) > _MAX_JSON:
        raise UsageError(f"{shown(path)} is larger than {_MAX_JSON} bytes: not {what}")
    try:
        return msgspec.json.decode(data, type=kind)
    except msgspec.DecodeError as exc:
        raise UsageError(f"{shown(path)} is not {what}: {shown(str(exc))}") from exc


def _print(reports: list[VerifyReport], out: Output) -> int:
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
        head = shown((report.head_hash or "")[:16])
        out.line(
            f"ok    {shown(report.game_id)} ({shown(report.game)}, {shown(report.status)}):"
            f" {report.events} events, head {head}; {proven(report)}"
        )
    else:
        problem = report.problem
        where = "" if problem.seq is None else f" at seq {problem.seq}"
        out.line(f"FAIL  {shown(report.game_id)}{where}: {problem.code}: {shown(problem.message)}")
    for line in report_lines(report):
        out.line(line)
