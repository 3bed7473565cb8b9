"""``spies-replay``: list, show, step through, verify, export and import stored games, and
end one for an operator.

Usage::

    spies-replay [--db PATH] [--json] list [--game ID] [--status active|finished]
    spies-replay [--db PATH] [--json] show GAME [--at SEQ] [--as SEAT]
    spies-replay [--db PATH] [--json] step GAME [--at SEQ] [--as SEAT]
    spies-replay [--db PATH] [--json] verify [GAME [--head HASH] | --all]
    spies-replay [--json] verify --file EXPORT [--head HASH]
                 [--receipt R.json]... [--keys KEYS.json]
    spies-replay [--db PATH] [--json] export GAME [-o FILE]
    spies-replay [--db PATH] [--json] import FILE [--head HASH]
    spies-replay [--json] copy --from SRC --to DST
    spies-replay [--db PATH] [--json] abort GAME --reason TEXT
    spies-replay [--db PATH] [--json] keys list|rotate

``--db`` (default ``spies.db``) and ``--json`` may also follow the subcommand. A database is a
SQLite file path or a ``postgresql://`` URL. ``copy`` moves every game, in progress or not,
between any two databases with its hashes intact (:mod:`spies_replay.copying`). ``abort``
ends a game in progress for an operator (:mod:`~spies_replay.cli.operate`): the log records
``game_aborted`` with the operator's words, the game is over with nobody winning, and it
verifies like any other.

Hidden information: ``show`` and ``step`` print what one viewer could see at that step:
a spectator by default, or the seat given with ``--as``. While a game is in progress its
events are redacted for that viewer too; once it is over its log is public (it can be
exported with the revealed seed), so events are shown in full, while the view stays the
viewer's. ``export`` refuses games in progress.

A game has steps 0 (before the first event) to its version; ``show`` starts at the last,
``step`` at 0. On a terminal ``step`` reads single keys
(:data:`~spies_replay.cli.keys.STEP_KEYS`): ``n``, space, Enter or the right arrow for the
next step, ``b`` or the left arrow for the one before, ``f`` or Home for step 0, ``l`` or End
for the last, a digit or ``j`` to type a step number, ``q`` or Esc to quit, ``h`` for help.
From a pipe it reads one command per line: ``n``/``next`` (or an empty line),
``b``/``back``, ``j SEQ``/``jump SEQ`` (or just ``SEQ``), ``f``/``first``, ``l``/``last``,
``q``/``quit`` (or end of input), ``h``/``help``.

``verify`` re-derives every shuffle and command, and re-runs every recorded bot move with the
bot and version its mark names (the bots of this build, :mod:`~spies_replay.cli.bots`); what
the log does not let this build prove is a ``caveat:`` line under the game's ``ok`` line
(a bot or bot version this build lacks, a mark from before bots had versions), which leaves
the exit status 0. ``--head HASH`` checks that the game (or with ``--file``, an export that is
not stored) ends in the head hash its server published, which is what ties a log to the
server that played it; ``import --head`` refuses a file that does not. ``--receipt R.json``
(repeatable, with GAME or ``--file``) checks that the log holds the head each receipt the
server signed names at its seq (``receipt-mismatch``), and with ``--keys KEYS.json`` (the
server's ``GET /keys``) that its signature is the listed key's. ``keys`` lists the
database's receipt signing keys or rotates them (:mod:`~spies_replay.cli.signing`).

Every error is one line on stderr (``spies-replay: error: ...``), never a traceback: a file
that is not UTF-8, a line nested deeper than 64 levels, a game id outside the server's
alphabet (:data:`~spies_replay.transfer.GAME_ID`) included. No text output prints a
character read from a file raw: what is not printable is escaped
(:func:`~spies_replay.cli.output.shown`). A closed output pipe
(``spies-replay export GAME | head``) is a normal end, exit status 0.

The subcommands live in modules by group: :mod:`~spies_replay.cli.browse` (``list``,
``show``, ``step``; ``step``'s keys in :mod:`~spies_replay.cli.keys`),
:mod:`~spies_replay.cli.audit` (``verify``), :mod:`~spies_replay.cli.exchange`
(``export``, ``import``, ``copy``) and :mod:`~spies_replay.cli.operate` (``abort``);
:mod:`~spies_replay.cli.output` is what they share. This
module parses the command line and runs one of them. Like the rest of the package, it knows
the games only through the registry (or the mapping :func:`main` is given).

Who may import it: nothing in ``src/`` (it is the console script; tests call :func:`main`).
Unlike the rest of :mod:`spies_replay`, it imports ``spies_bots``, in one module
(:mod:`~spies_replay.cli.bots`), to hand the registered bots to ``verify`` and ``import``, and
the application layer (:mod:`spies_api.game`, never the HTTP app), in one module
(:mod:`~spies_replay.cli.operate`), to append an abort as the server appends a game's batch.

Exit status: 0 when all is well (caveats included); 1 when ``verify`` finds a problem (naming
the game and the first bad seq, ``published-head-mismatch`` for another head than the one
given), ``import`` refuses a file (tampered, not an export, or not ending in the given
head) or ``abort`` finds no game in progress (missing, or finished already: it says which);
2 on usage errors, ``abort`` words that cannot be recorded included,
which include an unknown game id, a seq or seat the game does not have, a database that
cannot be used (missing, a directory, not a database), a file that cannot be read or written,
a ``--head`` that is not 64 hex digits or that goes with ``--all``, exporting a game in
progress and importing a game id that is already stored.
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

import structlog

from spies_core.decider import AnySpec
from spies_core.errors import SpiesError, UnknownGameError
from spies_replay import (
    GameExistsError,
    GameNotFinishedError,
    GameNotFoundError,
    GameStatus,
    InvalidExportError,
    SeqOutOfRangeError,
    StoreUnavailableError,
    TamperedLogError,
    open_store,
)
from spies_replay.cli.audit import verify, verify_file
from spies_replay.cli.bots import REGISTERED_BOTS
from spies_replay.cli.browse import list_games, show, step
from spies_replay.cli.exchange import copy, export, import_file
from spies_replay.cli.keys import STEP_KEYS, STEP_LINE_HELP
from spies_replay.cli.operate import abort
from spies_replay.cli.output import (
    EXIT_OK,
    EXIT_PROBLEM,
    EXIT_USAGE,
    Handler,
    Output,
    UsageError,
    shown,
)
from spies_replay.cli.signing import keys
from spies_replay.marks import BotPolicies
from spies_replay.meta import ABORT_DETAIL_MAX

__all__ = ["EXIT_OK", "EXIT_PROBLEM", "EXIT_USAGE", "main"]

_HANDLERS: dict[str, Handler] = {
    "list": list_games,
    "show": show,
    "step": step,
    "verify": verify,
    "export": export,
    "import": import_file,
    "abort": abort,
    "keys": keys,  # receipts
}
"""The subcommands that run on the ``--db`` store (``copy`` opens two of its own)."""


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
        description="List, show, step through, verify, export and import stored games,"
        " and end one for an operator.",
        parents=[common],
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    listing = commands.add_parser("list", parents=[common], help="list games, newest first")
    listing.add_argument("--game", help="only games of this game id")
    listing.add_argument("--status", choices=[str(s) for s in GameStatus])
    listing.add_argument(
        "--limit", type=_count(1), default=1000, metavar="N", help="at most N games (1000)"
    )
    listing.add_argument(
        "--offset", type=_count(0), default=0, metavar="N", help="skip the first N games (0)"
    )

    showing = commands.add_parser("show", parents=[common], help="show a game at a step")
    stepping = commands.add_parser(
        "step",
        parents=[common],
        help="step through a game",
        description="Step through a game, from step 0 (before the first event) to the last.\n\n"
        "Keys on a terminal (no Enter needed):\n"
        + "".join(f"  {keys:<32}{action}\n" for keys, action in STEP_KEYS)
        + f"\nFrom a pipe, one command a line: {STEP_LINE_HELP}.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    for sub, start in ((showing, "the last"), (stepping, "0, before the first event")):
        sub.add_argument("game_id", metavar="GAME")
        sub.add_argument(
            "--at", type=_count(None), metavar="SEQ", help=f"the step to start at (default {start})"
        )
        sub.add_argument(
            "--as", dest="seat", type=_count(None), metavar="SEAT", help="view as this seat"
        )

    verifying = commands.add_parser(
        "verify", parents=[common], help="verify one game, all, or an export file"
    )
    which = verifying.add_mutually_exclusive_group()
    which.add_argument("game_id", metavar="GAME", nargs="?")
    which.add_argument("--all", action="store_true", help="every game (the default)")
    which.add_argument(
        "--file", metavar="EXPORT", help="an export file, stored nowhere (- for stdin)"
    )
    verifying.add_argument("--head", type=_head_hash, metavar="HASH", help=_HEAD_HELP)
    verifying.add_argument(  # receipts
        "--receipt",
        dest="receipts",
        action="append",
        default=[],
        metavar="R.json",
        help="a receipt the server signed: the log must hold its head at its seq (repeatable)",
    )
    verifying.add_argument(
        "--keys", metavar="KEYS.json", help="the server's GET /keys: check receipts' signatures"
    )

    exporting = commands.add_parser("export", parents=[common], help="export a finished game")
    exporting.add_argument("game_id", metavar="GAME")
    exporting.add_argument("-o", "--output", metavar="FILE", help="file to write (default stdout)")

    importing = commands.add_parser("import", parents=[common], help="verify and import a file")
    importing.add_argument("file", metavar="FILE", help="an export (- for stdin)")
    importing.add_argument("--head", type=_head_hash, metavar="HASH", help=_HEAD_HELP)

    copying = commands.add_parser(
        "copy", parents=[common], help="copy every game to another database, hashes intact"
    )
    copying.add_argument("--from", dest="source", required=True, metavar="SRC")
    copying.add_argument("--to", dest="target", required=True, metavar="DST")

    aborting = commands.add_parser(
        "abort",
        parents=[common],
        help="end a game in progress for an operator (nobody wins)",
        description="End a game in progress: the log records game_aborted with your words,"
        " the clocks stop, the seed is revealed; nobody wins and the game verifies.",
    )
    aborting.add_argument("game_id", metavar="GAME")
    aborting.add_argument(
        "--reason",
        required=True,
        metavar="TEXT",
        help=f"why, for the log and the players (1 to {ABORT_DETAIL_MAX} printable characters)",
    )
    signing = commands.add_parser(  # receipts
        "keys", parents=[common], help="list or rotate the receipt signing keys"
    )
    signing.add_argument("action", choices=["list", "rotate"])
    return parser


_HEAD_HELP = "the head hash the game's server published: the log must end in it"
_HASH = re.compile(r"[0-9a-f]{64}", re.ASCII)


def _head_hash(text: str) -> str:
    """An argparse type: a head hash, 64 hex digits (lower-cased)."""
    if _HASH.fullmatch(text.lower()) is None:
        raise argparse.ArgumentTypeError(
            f"expected the 64 hex digits of a head hash, not {shown(text)[:80]!r}"
        )
    return text.lower()


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
    bots: BotPolicies | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run ``spies-replay``; return the exit status.

    Args:
        argv: the arguments (default ``sys.argv[1:]``).
        games: the games to decode (default the registry; tests pass their own).
        bots: the bots ``verify`` and ``import`` re-run recorded bot moves with (default
            the registry of ``spies_bots``).
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
    out = Output(stdout, stderr, bool(getattr(args, "json", False)))
    db: str = getattr(args, "db", "spies.db")
    args.bots = REGISTERED_BOTS if bots is None else bots
    args.games = games
    try:
        if args.command == "copy":
            return copy(args, out)
        if args.command == "verify":
            if args.head is not None and not (args.game_id or args.file):
                raise UsageError("verify --head needs one game: GAME or --file EXPORT")
            if (args.receipts or args.keys) and not (args.game_id or args.file):
                raise UsageError("verify --receipt needs one game: GAME or --file EXPORT")
            if args.file is not None:
                return verify_file(args, out, stdin)
        with open_store(db, create=args.command == "import") as store:
            return _HANDLERS[args.command](store, args, out, stdin)
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
        refused = "import refused" if args.command == "import" else f"cannot verify {args.file}"
        return _error(out, f"{refused}: {exc}", EXIT_PROBLEM)
    except SpiesError as exc:
        return _error(out, str(exc), EXIT_USAGE if exc.code == "invalid-seat" else EXIT_PROBLEM)
    except RecursionError:  # the nesting checks' backstop: input too deep for the decoder
        return _error(out, "input nested too deeply to decode", EXIT_PROBLEM)


def _error(out: Output, message: str, status: int) -> int:
    if out.json:
        out.data({"error": message, "exit": status})
    out.note(f"spies-replay: error: {shown(message)}")
    return status


def _configure_logging(stderr: TextIO) -> None:
    """Warnings and errors as one line each on stderr (JSON off a terminal).

    Left alone when the host process configured structlog already.
    """
    if structlog.is_configured():
        return
    # JSON escapes every control character; on a terminal the values are escaped first, as
    # a log line may carry a game id read from the database.
    renderers: list[Any] = (
        [_printable_values, structlog.dev.ConsoleRenderer()]
        if stderr.isatty()
        else [structlog.processors.JSONRenderer()]
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso"),
            structlog.processors.dict_tracebacks,
            *renderers,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING),
        # Look sys.stderr up per line, so a replaced stream (tests, a host app) is followed.
        logger_factory=lambda *_: structlog.PrintLogger(sys.stderr),
        cache_logger_on_first_use=False,
    )


def _printable_values(_: Any, __: str, event: dict[str, Any]) -> dict[str, Any]:
    """A structlog processor: every string value of a log line escaped for the terminal."""
    return {key: shown(value) if isinstance(value, str) else value for key, value in event.items()}
