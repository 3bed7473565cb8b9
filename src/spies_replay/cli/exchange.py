"""``export``, ``import`` and ``copy``: games out of a database and into another.

``export`` writes a finished game as JSON Lines (games in progress are refused), ``import``
verifies such a file before it stores it, and ``copy`` moves every game, in progress or not,
between any two databases with its hashes intact (:mod:`spies_replay.copying`).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any, TextIO

from spies_replay import EventStore, export_lines, import_game, open_store
from spies_replay.cli.output import (
    EXIT_OK,
    EXIT_PROBLEM,
    Output,
    UsageError,
    proven,
    report_lines,
    shown,
)
from spies_replay.copying import CopyOutcome, copy_store

__all__ = ["copy", "export", "import_file", "open_input"]


def export(store: EventStore, args: argparse.Namespace, out: Output, stdin: TextIO) -> int:
    """``export``: a finished game to stdout or to ``-o FILE``."""
    lines = export_lines(store, args.game_id)
    first = next(lines)  # refuses a game in progress before any file is created
    if args.output is None:
        out.stdout.write(first.decode())
        for line in lines:
            out.stdout.write(line.decode())
        return EXIT_OK
    count = 0
    try:
        file = open(args.output, "wb")  # noqa: SIM115  (closed below)
    except OSError as exc:
        raise UsageError(f"cannot write {args.output}: {(exc.strerror or '').lower()}") from exc
    with file:
        file.write(first)
        for line in lines:
            file.write(line)
            count += 1
    if out.json:
        out.data({"id": args.game_id, "events": count, "file": args.output})
    else:
        out.line(f"exported {count} events of {shown(args.game_id)} to {shown(args.output)}")
    return EXIT_OK


@contextmanager
def open_input(name: str, stdin: TextIO) -> Iterator[IO[Any]]:
    """An export to read: the file ``name``, or stdin for ``-`` (as bytes when it has them,
    so that a file that is not UTF-8 is refused at its line, not by the text layer)."""
    if name == "-":
        yield getattr(stdin, "buffer", stdin)
        return
    try:
        file = open(name, "rb")  # noqa: SIM115  (closed below)
    except OSError as exc:
        raise UsageError(f"cannot read {name}: {(exc.strerror or '').lower()}") from exc
    with file:
        yield file


def import_file(store: EventStore, args: argparse.Namespace, out: Output, stdin: TextIO) -> int:
    """``import``: an export file (``-``: stdin), verified, into the store."""
    if args.file == "-" and stdin.isatty():
        out.note("reading an export from the terminal; end it with Ctrl+D")
    with open_input(args.file, stdin) as source:
        report = import_game(store, source, bots=args.bots, head=args.head, games=args.games)
    if out.json:
        out.data({"imported": report})
    else:
        out.line(
            f"imported {shown(report.game_id)} ({shown(report.game)}): {report.events} events,"
            f" head {shown((report.head_hash or '')[:16])}; {proven(report)}"
        )
        for line in report_lines(report):
            out.line(line)
    return EXIT_OK


def copy(args: argparse.Namespace, out: Output) -> int:
    """``copy``: every game of ``--from`` into ``--to``; exit 1 when one differs there."""
    with (
        open_store(args.source, create=False) as source,
        open_store(args.target) as target,
    ):
        store = copy_store(source, target)
    copied = store.games
    different = [game for game in copied if game.outcome is CopyOutcome.DIFFERENT]
    if out.json:
        out.data(
            {
                "ok": not different,
                "games": copied,
                "players": store.players,
                "owned_seats": store.owned_seats,
            }
        )
    else:
        for game in copied:
            out.line(
                f"{game.outcome:<13} {shown(game.game_id)}: {game.events} events,"
                f" head {shown(game.head_hash[:16])}"
            )
        out.line(f"{store.players} players and {store.owned_seats} of their seats copied")
        done = sum(game.outcome is CopyOutcome.COPIED for game in copied)
        out.line(
            f"{done} copied, {len(copied) - done - len(different)} already there,"
            f" {len(different)} different (left alone)"
        )
    return EXIT_PROBLEM if different else EXIT_OK
