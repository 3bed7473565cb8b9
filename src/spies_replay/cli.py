"""``spies-replay``: list, show, step through, verify, export and import stored games.

Usage::

    spies-replay [--db PATH] [--json] list [--game ID] [--status active|finished]
    spies-replay [--db PATH] [--json] show GAME [--at SEQ] [--as SEAT]
    spies-replay [--db PATH] [--json] step GAME [--at SEQ] [--as SEAT]
    spies-replay [--db PATH] [--json] verify [GAME | --all]
    spies-replay [--db PATH] [--json] export GAME [-o FILE]
    spies-replay [--db PATH] [--json] import FILE
    spies-replay [--json] copy --from SRC --to DST

``--db`` (default ``spies.db``) and ``--json`` may also follow the subcommand. A database is a
SQLite file path or a ``postgresql://`` URL. ``copy`` moves every game, in progress or not,
between any two databases with its hashes intact (:mod:`spies_replay.copying`).

Hidden information: ``show`` and ``step`` print what one viewer could see at that step:
a spectator by default, or the seat given with ``--as``. While a game is in progress its
events are redacted for that viewer too; once it is over its log is public (it can be
exported with the revealed seed), so events are shown in full, while the view stays the
viewer's. ``export`` refuses games in progress.

A game has steps 0 (before the first event) to its version; ``show`` starts at the last,
``step`` at 0. On a terminal ``step`` reads single keys (:data:`STEP_KEYS`): ``n``, space,
Enter or the right arrow for the next step, ``b`` or the left arrow for the one before, ``f``
or Home for step 0, ``l`` or End for the last, a digit or ``j`` to type a step number, ``q``
or Esc to quit, ``h`` for help. From a pipe it reads one command per line: ``n``/``next`` (or
an empty line), ``b``/``back``, ``j SEQ``/``jump SEQ`` (or just ``SEQ``), ``f``/``first``,
``l``/``last``, ``q``/``quit`` (or end of input), ``h``/``help``.

Every error is one line on stderr (``spies-replay: error: ...``), never a traceback. A closed
output pipe (``spies-replay export GAME | head``) is a normal end, exit status 0.

Exit status: 0 when all is well; 1 when ``verify`` finds a problem (naming the game and the
first bad seq) or ``import`` refuses a file (tampered or not an export); 2 on usage errors,
which include an unknown game id, a seq or seat the game does not have, a database that
cannot be used (missing, a directory, not a database), a file that cannot be written,
exporting a game in progress and importing a game id that is already stored.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import IO, Any, TextIO

import msgspec
import structlog

from spies_core.decider import AnySpec
from spies_core.errors import SpiesError, UnknownGameError
from spies_replay.copying import CopyOutcome, copy_store
from spies_replay.engine import ViewAt, redact_for, view_at
from spies_replay.errors import (
    GameExistsError,
    GameNotFinishedError,
    GameNotFoundError,
    InvalidExportError,
    SeqOutOfRangeError,
    StoreUnavailableError,
    TamperedLogError,
)
from spies_replay.keys import KEYS_HELP, STEP_KEYS, STEP_LINE_HELP, read_commands
from spies_replay.meta import MetaEvent, describe_meta, is_meta
from spies_replay.store.backends import open_store
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import GameRecord, GameStatus, StoredEvent
from spies_replay.transfer import export_lines, import_game
from spies_replay.verify import Rederivation, VerifyReport, verify_all, verify_game

__all__ = ["main"]

EXIT_OK = 0
EXIT_PROBLEM = 1
EXIT_USAGE = 2

_REDERIVED_TEXT = {
    Rederivation.REVEALED_SEED: "every shuffle and command re-derived from the revealed seed",
    Rederivation.OPERATOR_SEED: (
        "every shuffle and command re-derived from the server's secret seed (operator audit)"
    ),
    Rederivation.NOT_CHECKED: "shuffles not re-derived (no seed available)",
}

_json = msgspec.json.Encoder()


class UsageError(Exception):
    """A request the tool cannot carry out as asked (exit 2)."""


class _Out:
    """Where the subcommands write: text or JSON lines on stdout, notes on stderr."""

    def __init__(self, stdout: TextIO, stderr: TextIO, as_json: bool) -> None:
        self.stdout = stdout
        self.stderr = stderr
        self.json = as_json

    def line(self, text: str = "") -> None:
        self.stdout.write(text + "\n")

    def data(self, value: object) -> None:
        self.stdout.write(_json.encode(value).decode() + "\n")

    def note(self, text: str) -> None:
        self.stderr.write(text + "\n")


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--db",
        metavar="DB",
        default=argparse.SUPPRESS,
        help="a SQLite file or a postgresql:// URL (spies.db)",
    )
    common.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help="machine-readable output"
    )
    parser = argparse.ArgumentParser(
        prog="spies-replay",
        description="List, show, step through, verify, export and import stored games.",
        parents=[common],
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    listing = commands.add_parser("list", parents=[common], help="list games")
    listing.add_argument("--game", help="only games of this game id")
    listing.add_argument("--status", choices=[str(s) for s in GameStatus])
    listing.add_argument(
        "--limit", type=_count(1), default=1000, metavar="N", help="at most N games (1000)"
    )
    listing.add_argument(
        "--offset", type=_count(0), default=0, metavar="N", help="skip the first N games (0)"
    )

    show = commands.add_parser("show", parents=[common], help="show a game at a step")
    step = commands.add_parser(
        "step",
        parents=[common],
        help="step through a game",
        description="Step through a game, from step 0 (before the first event) to the last.\n\n"
        "Keys on a terminal (no Enter needed):\n"
        + "".join(f"  {keys:<32}{action}\n" for keys, action in STEP_KEYS)
        + f"\nFrom a pipe, one command a line: {STEP_LINE_HELP}.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    for sub, start in ((show, "the last"), (step, "0, before the first event")):
        sub.add_argument("game_id", metavar="GAME")
        sub.add_argument(
            "--at", type=_count(None), metavar="SEQ", help=f"the step to start at (default {start})"
        )
        sub.add_argument(
            "--as", dest="seat", type=_count(None), metavar="SEAT", help="view as this seat"
        )

    verify = commands.add_parser("verify", parents=[common], help="verify one game or all")
    which = verify.add_mutually_exclusive_group()
    which.add_argument("game_id", metavar="GAME", nargs="?")
    which.add_argument("--all", action="store_true", help="every game (the default)")

    export = commands.add_parser("export", parents=[common], help="export a finished game")
    export.add_argument("game_id", metavar="GAME")
    export.add_argument("-o", "--output", metavar="FILE", help="file to write (default stdout)")

    importing = commands.add_parser("import", parents=[common], help="verify and import a file")
    importing.add_argument("file", metavar="FILE", help="an export (- for stdin)")

    copying = commands.add_parser(
        "copy", parents=[common], help="copy every game to another database, hashes intact"
    )
    copying.add_argument("--from", dest="source", required=True, metavar="SRC")
    copying.add_argument("--to", dest="target", required=True, metavar="DST")
    return parser


def _count(least: int | None) -> Callable[[str], int]:
    """An argparse type: a whole number, at least ``least`` (any, when ``None``)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
        if least is not None and value < least:
            raise argparse.ArgumentTypeError(f"expected at least {least}, not {value}")
        return value

    return parse


def main(
    argv: Sequence[str] | None = None,
    *,
    games: Mapping[str, AnySpec] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run ``spies-replay``; return the exit status.

    Args:
        argv: the arguments (default ``sys.argv[1:]``).
        games: the games to decode (default the registry; tests pass their own).
        stdin: input for ``step`` and ``import -`` (default ``sys.stdin``).
        stdout: output (default ``sys.stdout``).
        stderr: notes and errors (default ``sys.stderr``).
    """
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    _configure_logging(stderr)
    out = _Out(stdout, stderr, bool(getattr(args, "json", False)))
    db: str = getattr(args, "db", "spies.db")
    handlers: dict[str, Callable[[EventStore, argparse.Namespace, _Out, TextIO], int]] = {
        "list": _list,
        "show": _show,
        "step": _step,
        "verify": _verify,
        "export": _export,
        "import": _import,
    }
    try:
        if args.command == "copy":
            return _copy(args, out, games)
        with open_store(db, create=args.command == "import", games=games) as store:
            return handlers[args.command](store, args, out, stdin)
    except BrokenPipeError:
        # The reader went away (``| head``): a normal end. Point stdout at /dev/null so the
        # interpreter's final flush does not fail again.
        if stdout is sys.__stdout__:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.__stdout__.fileno())
        return EXIT_OK
    except (UsageError, GameNotFoundError, SeqOutOfRangeError, UnknownGameError) as exc:
        return _error(out, str(exc), EXIT_USAGE)
    except (GameNotFinishedError, GameExistsError, StoreUnavailableError) as exc:
        return _error(out, str(exc), EXIT_USAGE)
    except (TamperedLogError, InvalidExportError) as exc:
        return _error(out, f"import refused: {exc}", EXIT_PROBLEM)
    except SpiesError as exc:
        return _error(out, str(exc), EXIT_USAGE if exc.code == "invalid-seat" else EXIT_PROBLEM)


def _error(out: _Out, message: str, status: int) -> int:
    if out.json:
        out.data({"error": message, "exit": status})
    out.note(f"spies-replay: error: {message}")
    return status


def _configure_logging(stderr: TextIO) -> None:
    """Warnings and errors as one line each on stderr (JSON off a terminal).

    Left alone when the host process configured structlog already.
    """
    if structlog.is_configured():
        return
    renderer: Any = (
        structlog.dev.ConsoleRenderer() if stderr.isatty() else structlog.processors.JSONRenderer()
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso"),
            structlog.processors.dict_tracebacks,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING),
        # Look sys.stderr up per line, so a replaced stream (tests, a host app) is followed.
        logger_factory=lambda *_: structlog.PrintLogger(sys.stderr),
        cache_logger_on_first_use=False,
    )


# -- list ------------------------------------------------------------------------------------


def _list(store: EventStore, args: argparse.Namespace, out: _Out, stdin: TextIO) -> int:
    page = store.list_games(
        game=args.game, status=args.status, limit=args.limit, offset=args.offset
    )
    if out.json:
        out.data({"games": page.games, "total": page.total})
        return EXIT_OK
    if not page.games:
        out.line("no games")
        return EXIT_OK
    out.line(f"{'id':<18}{'game':<16}{'status':<10}{'players':>7}{'events':>8}  head")
    for record in page.games:
        out.line(
            f"{record.id:<18}{record.game:<16}{record.status:<10}{record.players:>7}"
            f"{record.version:>8}  {record.head_hash[:16]}"
        )
    shown = len(page.games)
    total = f"{page.total} game{'' if page.total == 1 else 's'}"
    out.line(total if shown == page.total else f"{shown} of {total}")
    return EXIT_OK


# -- show and step ---------------------------------------------------------------------------


def _screen(store: EventStore, game_id: str, seq: int | None, seat: int | None) -> ViewAt:
    return view_at(store, game_id, at=seq, seat=seat)


def _event_at(store: EventStore, record: GameRecord, seq: int) -> StoredEvent | None:
    if seq < 1:
        return None
    found = store.read_events(record.id, after=seq - 1, limit=1)
    return found[0] if found else None


def _describe(spec: AnySpec, event: Any) -> str:
    if event is None:
        return "(hidden from this viewer)"
    if is_meta(event):
        assert isinstance(event, MetaEvent)
        return describe_meta(event)
    return spec.describe_event(event)


def _display(store: EventStore, shown: ViewAt, out: _Out) -> None:
    record = shown.record
    spec = store.spec(record.game)
    stored = _event_at(store, record, shown.seq)
    public = record.status == GameStatus.FINISHED
    event = None
    if stored is not None:
        event = stored.event if public else redact_for(spec, stored.event, shown.seat)
    viewer = "spectator" if shown.seat is None else f"seat {shown.seat}"
    if out.json:
        out.data(
            {
                "id": record.id,
                "game": record.game,
                "status": record.status,
                "version": record.version,
                "seq": shown.seq,
                "seat": shown.seat,
                "event": None
                if stored is None
                else {
                    "seq": stored.seq,
                    "type": stored.type,
                    "actor": stored.actor,
                    "hash": stored.hash,
                    "event": event,
                    "text": _describe(spec, event),
                },
                "view": shown.view,
                "text": spec.render_view(shown.view),
            }
        )
        return
    out.line(
        f"{record.id} ({record.game}, {record.status}) step {shown.seq} of {record.version},"
        f" as {viewer}"
    )
    if stored is None:
        out.line("before the first event")
    else:
        actor = "" if stored.actor is None else f" [seat {stored.actor}]"
        out.line(f"#{stored.seq}{actor} {_describe(spec, event)}")
    out.line(spec.render_view(shown.view))


def _show(store: EventStore, args: argparse.Namespace, out: _Out, stdin: TextIO) -> int:
    _display(store, _screen(store, args.game_id, args.at, args.seat), out)
    return EXIT_OK


def _step(store: EventStore, args: argparse.Namespace, out: _Out, stdin: TextIO) -> int:
    record = store.get_game(args.game_id)
    seq = 0 if args.at is None else args.at
    shown = _screen(store, args.game_id, seq, args.seat)
    interactive = stdin.isatty()
    help_text = KEYS_HELP if interactive else STEP_LINE_HELP
    _display(store, shown, out)
    if interactive:
        out.note(help_text)
    try:
        for line in read_commands(stdin, out.stdout):
            word, _, rest = line.lower().partition(" ")
            target: int | None
            if word in ("", "n", "next"):
                target = seq + 1
            elif word in ("b", "back", "p", "prev"):
                target = seq - 1
            elif word in ("f", "first"):
                target = 0
            elif word in ("l", "last"):
                target = record.version
            elif word in ("j", "jump") and rest.strip().lstrip("-").isdigit():
                target = int(rest)
            elif word.isdigit():
                target = int(word)
            elif word in ("q", "quit", "exit"):
                break
            elif word in ("h", "help", "?"):
                out.note(help_text)
                continue
            else:
                out.note(f"unknown command {line!r}; {help_text}")
                continue
            if not 0 <= target <= record.version:
                out.note(
                    f"no step {target}: the game has steps 0 (before the first event)"
                    f" to {record.version}"
                )
                continue
            seq = target
            _display(store, _screen(store, args.game_id, seq, args.seat), out)
    except KeyboardInterrupt:  # Ctrl+C on a terminal: quit like q
        out.line()
    return EXIT_OK


# -- verify ----------------------------------------------------------------------------------


def _verify(store: EventStore, args: argparse.Namespace, out: _Out, stdin: TextIO) -> int:
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


def _verify_line(report: VerifyReport, out: _Out) -> None:
    if report.problem is None:
        head = (report.head_hash or "")[:16]
        out.line(
            f"ok    {report.game_id} ({report.game}, {report.status}): {report.events} events,"
            f" head {head}; {_REDERIVED_TEXT[report.rederived]}"
        )
    else:
        problem = report.problem
        where = "" if problem.seq is None else f" at seq {problem.seq}"
        out.line(f"FAIL  {report.game_id}{where}: {problem.code}: {problem.message}")
    for warning in report.warnings:
        out.line(f"      warning: {warning}")


# -- export and import -----------------------------------------------------------------------


def _export(store: EventStore, args: argparse.Namespace, out: _Out, stdin: TextIO) -> int:
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
        out.line(f"exported {count} events of {args.game_id} to {args.output}")
    return EXIT_OK


@contextmanager
def _open_input(name: str, stdin: TextIO) -> Iterator[IO[Any]]:
    if name == "-":
        yield stdin
        return
    try:
        file = open(name, "rb")  # noqa: SIM115  (closed below)
    except OSError as exc:
        raise UsageError(f"cannot read {name}: {(exc.strerror or '').lower()}") from exc
    with file:
        yield file


def _import(store: EventStore, args: argparse.Namespace, out: _Out, stdin: TextIO) -> int:
    if args.file == "-" and stdin.isatty():
        out.note("reading an export from the terminal; end it with Ctrl+D")
    with _open_input(args.file, stdin) as source:
        report = import_game(store, source)
    if out.json:
        out.data({"imported": report})
    else:
        out.line(
            f"imported {report.game_id} ({report.game}): {report.events} events, head"
            f" {(report.head_hash or '')[:16]}; {_REDERIVED_TEXT[report.rederived]}"
        )
    return EXIT_OK


# -- copy ------------------------------------------------------------------------------------


def _copy(args: argparse.Namespace, out: _Out, games: Mapping[str, AnySpec] | None) -> int:
    with (
        open_store(args.source, create=False, games=games) as source,
        open_store(args.target, games=games) as target,
    ):
        copied = copy_store(source, target)
    different = [game for game in copied if game.outcome is CopyOutcome.DIFFERENT]
    if out.json:
        out.data({"ok": not different, "games": copied})
    else:
        for game in copied:
            out.line(
                f"{game.outcome:<13} {game.game_id}: {game.events} events,"
                f" head {game.head_hash[:16]}"
            )
        done = sum(game.outcome is CopyOutcome.COPIED for game in copied)
        out.line(
            f"{done} copied, {len(copied) - done - len(different)} already there,"
            f" {len(different)} different (left alone)"
        )
    return EXIT_PROBLEM if different else EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
