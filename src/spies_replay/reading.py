"""A game's log read back: its rows decoded into events, the folded state, a viewer's view
and the clocks after any event.

The store (:mod:`spies_replay.store`) is payload-agnostic: it hands back rows of JSON text
with their seqs, types and hashes. Reading them as event Structs needs the game's decoders
(:func:`spies_replay.codec.codec_for`), found by the game's id among the games given
(default: the registry, :data:`spies_core.registry.GAMES`), through
:func:`spies_core.registry.get_game`. What the replay tool shows (``spies-replay show`` and
``step``) and what the application layer (:mod:`spies_api.game`) loads a head from: a state
is folded from the nearest snapshot, and long refolds leave new snapshots behind. Nothing
here writes an event.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

import msgspec
import structlog

from spies_core.clock import ClockState, TimeControl
from spies_core.decider import AnySpec
from spies_core.registry import get_game
from spies_core.step import Table
from spies_core.step import view_at as versioned_view
from spies_replay.clocks import clock_view, state_of, stopped_clocks, to_ms
from spies_replay.codec import GameCodec, codec_for
from spies_replay.errors import ReplayError, SeqOutOfRangeError
from spies_replay.meta import (
    META_TYPES,
    SEAT_EVENTS,
    ClocksUpdated,
    EntropyAdded,
    GameCreated,
    is_meta,
    seat_table,
)
from spies_replay.store.protocols import EventLog, EventStore, GameIndex
from spies_replay.store.records import EventRow, GameRecord

__all__ = [
    "Games",
    "LoadedState",
    "StoredEvent",
    "LongFoldError",
    "ViewAt",
    "clock_after",
    "clock_at",
    "decode_rows",
    "entropy_added",
    "game_created",
    "last_event",
    "load_state",
    "read_events",
    "redact_for",
    "time_control",
    "view_at",
]

_log = structlog.get_logger("spies_replay.reading")
_CLOCKS_UPDATED: Final = str(ClocksUpdated.__struct_config__.tag)
_ENTROPY_ADDED: Final = str(EntropyAdded.__struct_config__.tag)
Games = Mapping[str, AnySpec]
"""The games a game id is looked up among (``None`` where one is asked: the registry)."""


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
    (:func:`redact_for`).

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


class LongFoldError(Exception):
    """A fold longer than its caller allows (:func:`load_state`'s ``most``), refused before
    its rows are read: the caller folds it where a long fold does not hold others up."""


@dataclass(frozen=True, slots=True)
class LoadedState:
    """A folded state and where it stands.

    Attributes:
        record: the game's record (at the time of loading).
        seq: the seq of the last event folded in (the version, for the head).
        state: the state after that event.
    """

    record: GameRecord
    seq: int
    state: Any


@dataclass(frozen=True, slots=True)
class ViewAt:
    """A viewer's view of a game after event ``seq``.

    Attributes:
        record: the game's record.
        seq: the step shown.
        seat: the viewer (``None``: a spectator).
        state: the state (for the caller's own use; never sent to a client).
        view: ``spec.view(state, seat)`` with its ``version`` set to ``seq``.
    """

    record: GameRecord
    seq: int
    seat: int | None
    state: Any
    view: Any


def redact_for(spec: AnySpec, event: Any, seat: int | None) -> Any:
    """An event as ``seat`` (``None``: a spectator) may see it; meta events are public."""
    return event if is_meta(event) else spec.redact(event, seat)


def game_created(
    store: EventStore, game_id: str, *, games: Games | None = None, game: str | None = None
) -> GameCreated | None:
    """The game's first event, ``game_created`` (``None`` in a log that lacks it); ``game``:
    its registered game id, when the caller has read it already (one read fewer).

    Raises:
        GameNotFoundError: no such game (without ``game``).
    """
    if game is None:
        first = read_events(store, game_id, after=0, limit=1, games=games)
    else:
        rows = store.read_rows(game_id, after=0, limit=1)
        first = decode_rows(codec_for(get_game(game, games)), rows)
    created = first[0].event if first else None
    return created if isinstance(created, GameCreated) else None


def entropy_added(
    store: EventStore, game_id: str, *, games: Games | None = None
) -> tuple[EntropyAdded, ...]:
    """The players' contributions to a ``mixed`` game's seed, in log order (the mixed seed
    orders them itself: :func:`~spies_replay.meta.mixed_seed`).

    Raises:
        GameNotFoundError: no such game.
    """
    record = store.get_game(game_id)
    codec = codec_for(get_game(record.game, games))
    rows = [row for row in store.read_rows(game_id) if row.type == _ENTROPY_ADDED]
    found = [codec.event.decode(row.payload) for row in rows]
    return tuple(event for event in found if isinstance(event, EntropyAdded))


def time_control(
    store: EventStore, game_id: str, *, games: Games | None = None
) -> TimeControl | None:
    """The game's time control (``game_created.clock``), or ``None``.

    Raises:
        GameNotFoundError: no such game.
    """
    created = game_created(store, game_id, games=games)
    return None if created is None else created.clock


def clock_at(
    store: EventStore, game_id: str, at: int | None = None, *, games: Games | None = None
) -> ClockState | None:
    """Every seat's clock after event ``at`` (default: the head), or ``None`` without a clock:
    the last ``clocks_updated`` up to there; before the first one (a game not dealt yet),
    every seat's full time, none running."""
    return clock_after(store, game_id, game_created(store, game_id, games=games), at, games=games)


def clock_after(
    store: EventStore,
    game_id: str,
    created: GameCreated | None,
    at: int | None = None,
    *,
    games: Games | None = None,
) -> ClockState | None:
    """:func:`clock_at`, the game's ``game_created`` (``created``) read already: a read of
    the log fewer for a caller that needs both."""
    control = None if created is None else created.clock
    if created is None or control is None:
        return None
    last = last_event(store, game_id, [_CLOCKS_UPDATED], upto=at, games=games)
    if last is None or not isinstance(last.event, ClocksUpdated):
        return stopped_clocks(control, created.players)
    return state_of(control, last.event)


def load_state(
    store: EventStore,
    game_id: str,
    *,
    at: int | None = None,
    games: Games | None = None,
    most: int | None = None,
) -> LoadedState:
    """The folded state after event ``at`` (default: the head), from the nearest snapshot,
    folding at most ``most`` events after it (default: any number).

    Meta events are skipped by the fold; the state "after" one is the state before it. A
    snapshot that no longer decodes (the state type changed) is dropped and the state is
    refolded from the start; long refolds leave new snapshots behind.

    Raises:
        GameNotFoundError: no such game.
        SeqOutOfRangeError: ``at`` is not in ``0 .. version``.
        LongFoldError: more than ``most`` events follow the nearest snapshot (nothing folded).
    """
    with store.reading():
        record = store.get_game(game_id)
        target = record.version if at is None else at
        if not 0 <= target <= record.version:
            raise SeqOutOfRangeError(game_id, target, record.version)
        codec = codec_for(get_game(record.game, games))
        spec = codec.spec
        start, state = 0, None
        snapshot = store.latest_snapshot(game_id, target) if target else None
        if snapshot is not None:
            try:
                state = codec.state.decode(snapshot[1])
                start = snapshot[0]
            except (msgspec.DecodeError, msgspec.ValidationError) as exc:
                _log.warning("snapshot_ignored", game_id=game_id, seq=snapshot[0], error=str(exc))
        if most is not None and target - start > most:
            raise LongFoldError(f"{target - start} events to fold in game {game_id!r}, over {most}")
        rows = store.read_payloads(game_id, after=start, upto=target, skip=META_TYPES)
    if state is None:
        if snapshot is not None:  # undecodable: the state type changed; rebuild the cache
            store.drop_snapshots(game_id)
        state, start = spec.initial_state(), 0
    events = codec.decode_game_events([row[1] for row in rows])
    every = store.snapshot_every
    evolve = spec.evolve
    new_snapshots: list[tuple[int, Any]] = []
    last = start
    for (seq, _payload), event in zip(rows, events, strict=True):
        state = evolve(state, event)
        if seq - last >= every:
            new_snapshots.append((seq, state))
            last = seq
    if new_snapshots:
        store.save_snapshots(game_id, new_snapshots)
    return LoadedState(record=record, seq=target, state=state)


def seat_names_at(
    store: EventStore,
    game_id: str,
    seq: int,
    games: Games | None = None,
    *,
    spec: AnySpec | None = None,
) -> tuple[str | None, ...]:
    """Each seat's display name after event ``seq``: ``game_created``'s seats and the seat
    events up to it (only those rows are read). A caller that holds the game's ``spec``
    passes it, and the game's record is not read again.

    Raises:
        GameNotFoundError: no such game.
    """
    if spec is None:
        spec = get_game(store.get_game(game_id).game, games)
    codec = codec_for(spec)
    skip = {member.__struct_config__.tag for member in _members(codec.spec.event_type)}
    skip |= META_TYPES - _SEAT_TABLE_TYPES
    rows = store.read_payloads(game_id, after=0, upto=seq, skip=skip)
    events = [codec.event.decode(payload) for _seq, payload in rows]
    return tuple(held.name for held in seat_table(events)) if events else ()


def _members(union: Any) -> tuple[Any, ...]:
    return tuple(getattr(union, "__args__", (union,)))


_SEAT_TABLE_TYPES: Final = frozenset(
    str(kind.__struct_config__.tag) for kind in (GameCreated, *SEAT_EVENTS)
)
"""The events a seat table is folded from."""


def view_at(
    store: EventStore,
    game_id: str,
    *,
    at: int | None = None,
    seat: int | None = None,
    games: Games | None = None,
) -> ViewAt:
    """The view of ``seat`` (``None``: a spectator) after event ``at`` (default: the head).

    Raises:
        GameNotFoundError: no such game.
        SeqOutOfRangeError: ``at`` is not in ``0 .. version``.
        ReplayError: ``seat`` is not a seat of the game (code ``invalid-seat``).
    """
    loaded = load_state(store, game_id, at=at, games=games)
    record = loaded.record
    if seat is not None and not 0 <= seat < record.players:
        seats = "only seat 0" if record.players == 1 else f"seats 0 to {record.players - 1}"
        raise ReplayError(
            f"game {game_id!r} has {seats}; there is no seat {seat}",
            code="invalid-seat",
        )
    clocks = clock_at(store, game_id, loaded.seq, games=games)
    when = (
        None if clocks is None else store.read_rows(game_id, after=loaded.seq - 1, upto=loaded.seq)
    )
    now = to_ms(when[0].recorded_at) if when else 0
    spec = get_game(record.game, games)
    names = seat_names_at(store, game_id, loaded.seq, spec=spec)
    view = versioned_view(
        spec,
        loaded.state,
        seat,
        loaded.seq,
        clock_view(clocks, now),
        Table(record.players, record.options, names),
    )
    return ViewAt(record=record, seq=loaded.seq, seat=seat, state=loaded.state, view=view)
