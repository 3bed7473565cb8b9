"""Reading a game's log: the folded state, a viewer's view and the clocks after any event.

What the replay tool shows (``spies-replay show`` and ``step``) and what the application
layer (:mod:`spies_api.game`) loads a head from: a state is folded from the nearest snapshot,
and long refolds leave new snapshots behind. Nothing here writes an event.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import msgspec
import structlog

from spies_core.clock import ClockState, TimeControl
from spies_core.decider import AnySpec
from spies_core.step import view_at as versioned_view
from spies_replay.clocks import (
    clock_view,
    state_of,
    stopped_clocks,
    to_ms,
)
from spies_replay.errors import (
    ReplayError,
    SeqOutOfRangeError,
)
from spies_replay.meta import (
    ClocksUpdated,
    GameCreated,
    is_meta,
)
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import (
    GameRecord,
)

__all__ = [
    "LoadedState",
    "ViewAt",
    "clock_at",
    "game_created",
    "load_state",
    "redact_for",
    "time_control",
    "view_at",
]

_log = structlog.get_logger("spies_replay.reading")
_CLOCKS_UPDATED: Final = str(ClocksUpdated.__struct_config__.tag)


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


def game_created(store: EventStore, game_id: str) -> GameCreated | None:
    """The game's first event, ``game_created`` (``None`` in a log that lacks it).

    Raises:
        GameNotFoundError: no such game.
    """
    first = store.read_events(game_id, after=0, limit=1)
    created = first[0].event if first else None
    return created if isinstance(created, GameCreated) else None


def time_control(store: EventStore, game_id: str) -> TimeControl | None:
    """The game's time control (``game_created.clock``), or ``None``.

    Raises:
        GameNotFoundError: no such game.
    """
    created = game_created(store, game_id)
    return None if created is None else created.clock


def clock_at(store: EventStore, game_id: str, at: int | None = None) -> ClockState | None:
    """Every seat's clock after event ``at`` (default: the head), or ``None`` without a clock:
    the last ``clocks_updated`` up to there; before the first one (a game not dealt yet),
    every seat's full time, none running."""
    created = game_created(store, game_id)
    control = None if created is None else created.clock
    if created is None or control is None:
        return None
    last = store.last_event(game_id, [_CLOCKS_UPDATED], upto=at)
    if last is None or not isinstance(last.event, ClocksUpdated):
        return stopped_clocks(control, created.players)
    return state_of(control, last.event)


def load_state(store: EventStore, game_id: str, *, at: int | None = None) -> LoadedState:
    """The folded state after event ``at`` (default: the head), from the nearest snapshot.

    Meta events are skipped by the fold; the state "after" one is the state before it. A
    snapshot that no longer decodes (the state type changed) is dropped and the state is
    refolded from the start; long refolds leave new snapshots behind.

    Raises:
        GameNotFoundError: no such game.
        SeqOutOfRangeError: ``at`` is not in ``0 .. version``.
    """
    with store.reading():
        record = store.get_game(game_id)
        target = record.version if at is None else at
        if not 0 <= target <= record.version:
            raise SeqOutOfRangeError(game_id, target, record.version)
        codec = store.codec(record.game)
        spec = codec.spec
        start, state = 0, None
        snapshot = store.latest_snapshot(game_id, target) if target else None
        if snapshot is not None:
            try:
                state = codec.state.decode(snapshot[1])
                start = snapshot[0]
            except (msgspec.DecodeError, msgspec.ValidationError) as exc:
                _log.warning("snapshot_ignored", game_id=game_id, seq=snapshot[0], error=str(exc))
        rows = store.read_game_payloads(game_id, after=start, upto=target)
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


def view_at(
    store: EventStore, game_id: str, *, at: int | None = None, seat: int | None = None
) -> ViewAt:
    """The view of ``seat`` (``None``: a spectator) after event ``at`` (default: the head).

    Raises:
        GameNotFoundError: no such game.
        SeqOutOfRangeError: ``at`` is not in ``0 .. version``.
        ReplayError: ``seat`` is not a seat of the game (code ``invalid-seat``).
    """
    loaded = load_state(store, game_id, at=at)
    record = loaded.record
    if seat is not None and not 0 <= seat < record.players:
        seats = "only seat 0" if record.players == 1 else f"seats 0 to {record.players - 1}"
        raise ReplayError(
            f"game {game_id!r} has {seats}; there is no seat {seat}",
            code="invalid-seat",
        )
    clocks = clock_at(store, game_id, loaded.seq)
    when = (
        None if clocks is None else store.read_rows(game_id, after=loaded.seq - 1, upto=loaded.seq)
    )
    now = to_ms(when[0].recorded_at) if when else 0
    view = versioned_view(
        store.spec(record.game), loaded.state, seat, loaded.seq, clock_view(clocks, now)
    )
    return ViewAt(record=record, seq=loaded.seq, seat=seat, state=loaded.state, view=view)
