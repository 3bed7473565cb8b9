"""``abort``: an operator ends a game in progress, verifiably.

The end is appended to the game's log like any command's batch
(:func:`spies_api.game.clocks.abort_game`: ``game_aborted`` with the reason ``aborted`` and
the operator's words, the clocks stopped, ``seed_revealed``), through the store's append and
its version check, so a server that is still playing the game sees it end (its watch, or its
next append's version check) and ``verify`` accepts the log.
Exit status 0 once it is appended, 1 when the game is missing or
already finished (the message says which), 2 for words that cannot be recorded (empty, over
:data:`~spies_replay.meta.ABORT_DETAIL_MAX` characters, a character that is not printable).
"""

from __future__ import annotations

import argparse
from typing import TextIO

from spies_api.game import abort_game
from spies_replay import AbortReason, EventStore, GameFinishedError, GameNotFoundError
from spies_replay.cli.output import EXIT_OK, EXIT_PROBLEM, Output, UsageError, shown

__all__ = ["abort"]


def abort(store: EventStore, args: argparse.Namespace, out: Output, stdin: TextIO) -> int:
    """``abort GAME --reason TEXT``: exit 1 when the game is missing or already over."""
    try:
        prepared = abort_game(
            store, args.game_id, reason=AbortReason.ABORTED, detail=args.reason, games=args.games
        )
    except GameNotFoundError:
        return _refused(out, f"no game {args.game_id!r} in this database: nothing to abort")
    except GameFinishedError:
        outcome = store.get_game(args.game_id).outcome
        why = "" if outcome is None else f" (outcome: {outcome.reason})"
        return _refused(out, f"game {args.game_id!r} is finished already{why}: nothing to abort")
    except ValueError as exc:
        raise UsageError(f"--reason: {exc}") from exc
    head = prepared.head
    if out.json:
        out.data(
            {
                "aborted": head.id,
                "game": head.game,
                "version": head.version,
                "head_hash": head.head_hash,
                "outcome": prepared.outcome,
                "events": [event.type for event in prepared.events],
            }
        )
    else:
        types = ", ".join(event.type for event in prepared.events)
        out.line(
            f"aborted {shown(head.id)} ({shown(head.game)}) at version {head.version}: {types};"
            f" head {head.head_hash[:16]}"
        )
    return EXIT_OK


def _refused(out: Output, message: str) -> int:
    if out.json:
        out.data({"error": message, "exit": EXIT_PROBLEM})
    out.note(f"spies-replay: error: {shown(message)}")
    return EXIT_PROBLEM
