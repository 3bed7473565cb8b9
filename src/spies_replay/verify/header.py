"""The header (the game's record, or an export's first line) against the log: no hash
covers it, so every field is re-derived from the rows.

Seq 1 is ``game_created`` (``missing-game-created``) and agrees with the record's game,
players, seed commitment and source, algorithm, creation time and options, and its ``log``
with the chain the log was walked in, from the export's ``format`` (``header-mismatch``);
the record's ``updated_at`` is a log time (``invalid-timestamp``).
At the end: the log is not empty and ends at the record's version (``missing-event``,
``unexpected-event``) in its head hash (``head-mismatch``), and the last row's time is
the record's ``updated_at`` (``header-mismatch``). Its status and outcome are the end's
(:mod:`~spies_replay.verify.ending`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from spies_replay.codec import CHAIN_VERSION, canonical_json, encode, event_tag
from spies_replay.meta import GameCreated
from spies_replay.store.records import EventRow, GameRecord
from spies_replay.times import parse_utc
from spies_replay.verify.report import fail

__all__ = ["check_created", "check_head", "check_updated_at", "check_updated_at_is_a_time"]


def check_created(record: GameRecord, event: Any, log: str) -> None:
    """Seq 1 is ``game_created``, and says what the record says, and the chain ``log``:
    ``"log": "spies-replay/3"`` in format 3, no ``log`` in format 1's chain."""
    if not isinstance(event, GameCreated):
        raise fail(1, "missing-game-created", f"seq 1 is {event_tag(event)}, not game_created")
    options = (canonical_json(encode(event.options)), canonical_json(encode(record.options)))
    mismatched = [
        name
        for name, logged, stored in (
            ("game", event.game, record.game),
            ("players", event.players, record.players),
            ("seed_commitment", event.seed_commitment, record.seed_commitment),
            ("seed_source", str(event.seed_source), str(record.seed_source)),
            ("rng", event.rng, record.rng),
            ("created_at", event.created_at, record.created_at),
            ("options", *options),
            ("format", event.log, msgspec.UNSET if log == CHAIN_VERSION else log),
        )
        if logged != stored
    ]
    if mismatched:
        raise fail(
            1, "header-mismatch", f"game_created disagrees with the game's {', '.join(mismatched)}"
        )


def check_updated_at_is_a_time(record: GameRecord) -> None:
    """The record's ``updated_at`` is a time as the log writes them (read at seq 1)."""
    if parse_utc(record.updated_at) is None:
        raise fail(
            1,
            "invalid-timestamp",
            f"the game's updated_at {record.updated_at!r} is not an RFC 3339 time in"
            " UTC as the log writes it",
        )


def check_head(record: GameRecord, last: int, head_hash: str) -> None:
    """The log, ``last`` rows chained to ``head_hash``, is the record's version and head."""
    if last == 0:
        raise fail(1, "missing-event", "the log is empty")
    if record.version > last:
        raise fail(
            last + 1,
            "missing-event",
            f"the game is at version {record.version} but its log ends at seq {last}",
        )
    if record.version < last:
        raise fail(
            record.version + 1,
            "unexpected-event",
            f"the log goes on past the game's version {record.version} to seq {last}",
        )
    if record.head_hash != head_hash:
        raise fail(
            last,
            "head-mismatch",
            f"the game's head hash {record.head_hash[:16]}… is not the last event's hash",
        )


def check_updated_at(record: GameRecord, rows: Sequence[EventRow]) -> None:
    """The game's ``updated_at`` is its last event's time, as the store writes it (the one
    field of a record that neither the chain nor ``game_created`` holds)."""
    last = rows[-1]
    if record.updated_at != last.recorded_at:
        raise fail(
            last.seq,
            "header-mismatch",
            f"the game's updated_at {record.updated_at[:40]!r} is not the time of its"
            f" last event, {last.recorded_at[:40]!r} (seq {last.seq})",
        )
