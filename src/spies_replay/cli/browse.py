"""``list``, ``show`` and ``step``: the stored games, and one game at a step as a viewer saw it.

``show`` and ``step`` print what one viewer could see at that step: a spectator by default,
or the seat given with ``--as``. While a game is in progress its events are redacted for that
viewer too; once it is over its log is public, so events are shown in full, while the view
stays the viewer's.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from spies_core.decider import AnySpec
from spies_core.registry import get_game
from spies_replay import (
    EventStore,
    GameRecord,
    GameStatus,
    MetaEvent,
    StoredEvent,
    ViewAt,
    is_meta,
    redact_for,
    view_at,
)
from spies_replay.cli.keys import KEYS_HELP, STEP_LINE_HELP, read_commands
from spies_replay.cli.output import EXIT_OK, Output, escaped, shown
from spies_replay.codec import codec_for
from spies_replay.meta import describe_meta
from spies_replay.reading import decode_rows

__all__ = ["list_games", "show", "step"]


def list_games(store: EventStore, args: argparse.Namespace, out: Output, stdin: TextIO) -> int:
    """``list``: the stored games (filtered, one page), as a table or one JSON object."""
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
            f"{shown(record.id):<18}{shown(record.game):<16}{shown(record.status):<10}"
            f"{record.players:>7}{record.version:>8}  {shown(record.head_hash[:16])}"
        )
    listed = len(page.games)
    total = f"{page.total} game{'' if page.total == 1 else 's'}"
    out.line(total if listed == page.total else f"{listed} of {total}")
    return EXIT_OK


def show(store: EventStore, args: argparse.Namespace, out: Output, stdin: TextIO) -> int:
    """``show``: one game at a step (default the last)."""
    _display(store, args, _screen(store, args, args.at, args.seat), out)
    return EXIT_OK


def step(store: EventStore, args: argparse.Namespace, out: Output, stdin: TextIO) -> int:
    """``step``: one game from a step (default 0) on, moved by keys or line commands."""
    record = store.get_game(args.game_id)
    seq = 0 if args.at is None else args.at
    first = _screen(store, args, seq, args.seat)
    interactive = stdin.isatty()
    help_text = KEYS_HELP if interactive else STEP_LINE_HELP
    _display(store, args, first, out)
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
            _display(store, args, _screen(store, args, seq, args.seat), out)
    except KeyboardInterrupt:  # Ctrl+C on a terminal: quit like q
        out.line()
    return EXIT_OK


def _screen(
    store: EventStore, args: argparse.Namespace, seq: int | None, seat: int | None
) -> ViewAt:
    return view_at(store, args.game_id, at=seq, seat=seat, games=args.games)


def _event_at(store: EventStore, spec: AnySpec, record: GameRecord, seq: int) -> StoredEvent | None:
    if seq < 1:
        return None
    found = decode_rows(codec_for(spec), store.read_rows(record.id, after=seq - 1, limit=1))
    return found[0] if found else None


def _describe(spec: AnySpec, event: Any) -> str:
    if event is None:
        return "(hidden from this viewer)"
    if is_meta(event):
        assert isinstance(event, MetaEvent)
        return describe_meta(event)
    return spec.describe_event(event)


def _display(store: EventStore, args: argparse.Namespace, at: ViewAt, out: Output) -> None:
    record = at.record
    spec = get_game(record.game, args.games)
    stored = _event_at(store, spec, record, at.seq)
    public = record.status == GameStatus.FINISHED
    event = None
    if stored is not None:
        event = stored.event if public else redact_for(spec, stored.event, at.seat)
    viewer = "spectator" if at.seat is None else f"seat {at.seat}"
    # The texts come from the log: every string in the event and the view is escaped
    # before it is described or drawn (JSON keeps the data as stored; its encoder escapes).
    described = _describe(spec, escaped(event))
    drawn = spec.render_view(escaped(at.view))
    if out.json:
        out.data(
            {
                "id": record.id,
                "game": record.game,
                "status": record.status,
                "version": record.version,
                "seq": at.seq,
                "seat": at.seat,
                "event": None
                if stored is None
                else {
                    "seq": stored.seq,
                    "type": stored.type,
                    "actor": stored.actor,
                    "hash": stored.hash,
                    "event": event,
                    "text": described,
                },
                "view": at.view,
                "text": drawn,
            }
        )
        return
    out.line(
        f"{shown(record.id)} ({shown(record.game)}, {shown(record.status)}) step {at.seq} of"
        f" {record.version}, as {viewer}"
    )
    if stored is None:
        out.line("before the first event")
    else:
        actor = "" if stored.actor is None else f" [seat {stored.actor}]"
        out.line(f"#{stored.seq}{actor} {described}")
    if not at.view.dealt:
        out.line("nothing dealt yet (a game with an open seat deals when its last one is taken)")
    out.line(drawn)
