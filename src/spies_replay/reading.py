"""A game's log read back decoded: the store keeps rows, this turns them into events.

The store (:mod:`spies_replay.store`) is payload-agnostic: it hands back rows of JSON text
with their seqs, types and hashes. Reading them as event Structs needs the game's decoders
(:func:`spies_replay.codec.codec_for`), found by the game's id among the games given
(default: the registry, :data:`spies_core.registry.GAMES`), through
:func:`spies_core.registry.get_game`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import msgspec

from spies_core.decider import AnySpec
from spies_core.registry import get_game
from spies_replay.codec import GameCodec, codec_for
from spies_replay.store.protocols import EventLog, GameIndex
from spies_replay.store.records import EventRow

__all__ = ["StoredEvent", "decode_rows", "last_event", "read_events"]


class StoredEvent(msgspec.Struct, frozen=True, kw_only=True):
    """A decoded event with its place in the log."""

    seq: int
    type: str
    event: Any
    """A game event Struct, or a :class:`~spies_replay.meta.MetaEvent`."""
    actor: int | None
    recorded_at: str
    hash: str
    bot: str | None = None
    """The bot that chose the command of this batch (first row only), or ``None``."""


class _Log(EventLog, GameIndex, Protocol):
    """What a decoded read needs of a store: its rows and its games' records."""


def decode_rows(codec: GameCodec, rows: Sequence[EventRow]) -> list[StoredEvent]:
    """``rows`` of one game decoded with its ``codec`` (game and meta events alike)."""
    decode = codec.event.decode
    return [
        StoredEvent(
            seq=row.seq,
            type=row.type,
            event=decode(row.payload),
            actor=row.actor,
            recorded_at=row.recorded_at,
            hash=row.hash,
            bot=row.bot,
        )
        for row in rows
    ]


def read_events(
    store: _Log,
    game_id: str,
    *,
    after: int = 0,
    limit: int | None = None,
    games: Mapping[str, AnySpec] | None = None,
) -> list[StoredEvent]:
    """A game's events with ``seq > after``, in order, at most ``limit``, decoded.

    Events are returned whole; the caller redacts them for its viewer
    (:func:`spies_replay.engine.redact_for`).

    Raises:
        GameNotFoundError: no such game.
        UnknownGameError: the game is not among ``games``.
    """
    record = store.get_game(game_id)
    rows = store.read_rows(game_id, after=after, limit=limit)
    return decode_rows(codec_for(get_game(record.game, games)), rows)


def last_event(
    store: _Log,
    game_id: str,
    types: Sequence[str],
    *,
    upto: int | None = None,
    games: Mapping[str, AnySpec] | None = None,
) -> StoredEvent | None:
    """The last event of one of ``types`` with ``seq <= upto`` (default: the whole log),
    decoded, or ``None``: one indexed read of the log's type column.

    Raises:
        GameNotFoundError: no such game (when it has such a row).
        UnknownGameError: the game is not among ``games``.
    """
    row = store.last_row(game_id, types, upto=upto)
    if row is None:
        return None
    game = store.get_game(game_id).game
    return decode_rows(codec_for(get_game(game, games)), [row])[0]
