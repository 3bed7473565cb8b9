"""Seat changes: a seat event sealed after the game's last event, and, when it takes the last
open seat of a game whose deal is deferred, the deal in the same batch.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from spies_api.game.commands import check_batch
from spies_api.game.creation import deal_events, deferred_setup
from spies_api.game.loading import Head, any_open, kept_head, stored_events
from spies_core.clock import ClockState
from spies_core.decider import AnySpec
from spies_core.registry import get_game
from spies_core.step import Step
from spies_replay.codec import CHAIN_VERSION, chain_of, seal
from spies_replay.errors import (
    EntropyNotAcceptedError,
    GameFinishedError,
)
from spies_replay.meta import (
    EntropyAdded,
    GameCreated,
    SeatEvent,
    SeatJoined,
    SeatState,
    SeedSource,
    apply_seat_event,
)
from spies_replay.reading import Games, StoredEvent, entropy_added, game_created
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import (
    Append,
    GameRecord,
    GameSecrets,
    GameStatus,
    SeatOwner,
    utc_now,
)

__all__ = [
    "PendingDeal",
    "PreparedSeatChange",
    "SEAT_CHANGE_ATTEMPTS",
    "SeatChange",
    "SeatChoice",
    "SeatTable",
    "append_seat_change",
    "pending_deal",
    "prepare_seat_change",
    "read_seats",
]

SEAT_CHANGE_ATTEMPTS: Final = 20
"""Seat changes read the seats, decide, then append at the version read; another writer in
between makes their caller read and decide again, at most this many times."""


SeatChoice = Callable[[list[SeatState], dict[int, str]], SeatEvent | None]
"""Decides a seat change from the seats and the held token hashes."""


@dataclass(frozen=True, slots=True)
class SeatChange:
    """What a seat change did.

    Attributes:
        seats: the seats after it.
        event: the appended seat event, or ``None`` when nothing changed.
        version: the game's version after it.
        head_hash: the game's head hash after it.
        dealt: whether it took the last open seat of a game whose deal was deferred, and
            dealt the game in the same batch.
    """

    seats: list[SeatState]
    event: StoredEvent | None
    version: int
    head_hash: str
    dealt: bool = False


@dataclass(frozen=True, slots=True)
class PendingDeal:
    """What a waiting game deals from when its last open seat is taken.

    Attributes:
        spec: the game.
        created: its ``game_created`` (seats, options, time control, ``deal_deferred``).
        secrets: its seed (and explicit deal, if any).
    """

    spec: AnySpec
    created: GameCreated
    secrets: GameSecrets


@dataclass(frozen=True, slots=True)
class PreparedSeatChange:
    """A seat event sealed, ready to append (see :func:`prepare_seat_change`).

    Attributes:
        append: the batch to hand to the store.
        seats: the seats after it.
        events: its events: the seat event, then, when it took a waiting game's last open
            seat, the deal (the setup events and the clocks starting).
        dealt: whether it dealt the game.
        state: the game's state after it when it dealt (else the state did not change).
        clock: the clocks after it when it dealt a game with a time control.
    """

    append: Append
    seats: list[SeatState]
    events: list[Any]
    dealt: bool = False
    state: Any = None
    clock: ClockState | None = None


def prepare_seat_change(
    record: GameRecord,
    seats: list[SeatState],
    event: SeatEvent,
    *,
    log: str,
    token_hash: str | None = None,
    recorded_at: str | None = None,
    deal: PendingDeal | None = None,
    entropy: bytes | None = None,
    owner: SeatOwner | None = None,
) -> PreparedSeatChange:
    """Seal one seat event after the game's last event (``record``'s version and head hash)
    in the game's chain ``log`` (:func:`~spies_replay.codec.chain_of` its ``game_created``).

    When the event takes the last open seat of a game whose deal is deferred (``deal``, read
    from its log), the deal follows in the same batch: the setup events drawn exactly as at
    creation (:func:`deferred_setup`), then the clocks starting (or ``seed_revealed`` when
    the setup ends the game).

    A joiner's ``entropy`` (checked by the caller: 16 to 64 bytes) follows its
    ``seat_joined`` as ``entropy_added``, and goes into the seed of the deal. ``owner``, the
    player whose seat it becomes (with ``token_hash``), is written in the same append.

    Raises:
        GameFinishedError: the game is over (its seats are final).
        EntropyNotAcceptedError: ``entropy`` with a seat event other than a join, or to a
            game whose seed is not ``mixed``.
    """
    if record.status == GameStatus.FINISHED:
        raise GameFinishedError(f"game {record.id!r} has finished; its seats are final")
    changed = apply_seat_event(seats, event)
    now = utc_now() if recorded_at is None else recorded_at
    events: list[Any] = [event]
    if entropy is not None:
        if not isinstance(event, SeatJoined) or record.seed_source is not SeedSource.MIXED:
            raise EntropyNotAcceptedError(
                f"game {record.id!r} takes no entropy: its seed is {str(record.seed_source)!r};"
                " a joiner's entropy goes into a game created with a commitment (seed"
                " 'mixed'). Join without entropy, or join another game"
            )
        added = EntropyAdded(seat=event.seat, entropy=entropy.hex())
        events.append(added)
        if deal is not None:
            deal = dataclasses.replace(
                deal,
                secrets=dataclasses.replace(deal.secrets, entropy=(*deal.secrets.entropy, added)),
            )
    started: Step[Any, Any] | None = None
    clocks = None
    if (
        deal is not None
        and deal.created.deal_deferred
        and any_open(seats)
        and not any_open(changed)
    ):
        started = deferred_setup(deal.spec, deal.created, deal.secrets)
        dealt, clocks = deal_events(deal.spec, deal.created, deal.secrets, started, now)
        events += dealt
    rows = seal(record.head_hash, record.version + 1, events, recorded_at=now, log=log)
    append = Append(
        game_id=record.id,
        version=record.version,
        head_hash=record.head_hash,
        rows=rows,
        outcome=None if started is None else started.outcome,
        state=None if started is None else started.state,
        seat=changed[event.seat],
        token_hash=token_hash,
        owner=owner,
        # the scheduler looks at the game again: a bot may now be the one to act, or no more
        due_at=now,
    )
    check_batch(append)
    return PreparedSeatChange(
        append=append,
        seats=changed,
        events=events,
        dealt=started is not None,
        state=None if started is None else started.state,
        clock=clocks,
    )


def pending_deal(
    store: EventStore, record: GameRecord, games: Games | None = None
) -> PendingDeal | None:
    """What the game deals from at its last join, when its deal is deferred."""
    created = game_created(store, record.id, games=games)
    found = store.secrets(record.id)
    if created is None or not created.deal_deferred or found is None:
        return None
    if record.seed_source is SeedSource.MIXED:
        found = dataclasses.replace(found, entropy=entropy_added(store, record.id, games=games))
    return PendingDeal(spec=get_game(record.game, games), created=created, secrets=found)


@dataclass(frozen=True, slots=True)
class SeatTable:
    """A game's seats as they stand at one version: what a seat change is decided from.

    Attributes:
        record: the game's record at that version.
        seats: each seat's holder.
        tokens: the hashes of the seat tokens held, by seat.
        deal: what the game deals from when its last open seat is taken (``None``: no open
            seat, or its deal is not deferred).
        log: the chain the game is sealed in (its ``game_created.log``).
    """

    record: GameRecord
    seats: list[SeatState]
    tokens: dict[int, str]
    deal: PendingDeal | None = None
    log: str = CHAIN_VERSION

    @property
    def finished(self) -> bool:
        """Whether the game is over (its seats are final)."""
        return self.record.status == GameStatus.FINISHED

    def unchanged(self) -> SeatChange:
        """The answer of a seat change that changes nothing."""
        return SeatChange(
            seats=self.seats,
            event=None,
            version=self.record.version,
            head_hash=self.record.head_hash,
        )


def read_seats(store: EventStore, game_id: str, *, games: Games | None = None) -> SeatTable:
    """The game's seats at its last event, in one read.

    Raises:
        GameNotFoundError: no such game.
    """
    deal = None
    with store.reading():
        record = store.get_game(game_id)
        seats = store.seat_states(game_id, record.players)
        tokens = store.token_hashes(game_id)
        created = game_created(store, game_id, games=games)
        if any_open(seats):  # a join may take the last open seat of a waiting game
            deal = pending_deal(store, record, games)
    log = chain_of(None if created is None else created.log)
    return SeatTable(record=record, seats=seats, tokens=tokens, deal=deal, log=log)


def _moved(head: Head, prepared: PreparedSeatChange) -> Head:
    """``head`` after the seat change ``prepared``: its seats, a joiner's entropy, and, when
    it dealt the game, its state and clocks."""
    append = prepared.append
    moved = head.after(
        append,
        prepared.state,
        finished=append.outcome is not None,
        clock=prepared.clock,
        seats=prepared.seats,
    )
    added = tuple(event for event in prepared.events if isinstance(event, EntropyAdded))
    if not added:
        return moved
    secrets = dataclasses.replace(moved.secrets, entropy=(*moved.secrets.entropy, *added))
    return dataclasses.replace(moved, secrets=secrets)


def append_seat_change(
    store: EventStore,
    table: SeatTable,
    event: SeatEvent,
    *,
    token_hash: str | None = None,
    recorded_at: str | None = None,
    entropy: bytes | None = None,
    owner: SeatOwner | None = None,
    games: Games | None = None,
) -> SeatChange:
    """Append ``event``, decided from ``table``, at the version ``table`` was read at
    (:func:`prepare_seat_change`): so two racing changes are decided one after the other,
    across processes, and the second is refused by the store's version check, to be decided
    again by its caller on the seats read anew (at most :data:`SEAT_CHANGE_ATTEMPTS` times).
    With ``token_hash`` the event's seat gets that token, and with ``owner`` it is that
    player's, in the same transaction; so is the game's head after it, moved on from the
    head kept at that version (none kept there: none written; the game looked up among
    ``games``, default the registry).

    Raises:
        GameFinishedError: the game is over.
        VersionConflictError: the game moved on since ``table`` was read.
        SeatTakenError: the seat already has a token.
    """
    prepared = prepare_seat_change(
        table.record,
        table.seats,
        event,
        log=table.log,
        token_hash=token_hash,
        recorded_at=recorded_at,
        deal=table.deal,
        entropy=entropy,
        owner=owner,
    )
    append = prepared.append
    kept = kept_head(store.head_row(table.record.id), games)
    if kept is not None and kept.version == append.version:
        append = dataclasses.replace(append, head=_moved(kept, prepared).packed())
    store.append(append)
    return SeatChange(
        seats=prepared.seats,
        event=stored_events(append, prepared.events)[0],
        version=append.new_version,
        head_hash=append.new_head_hash,
        dealt=prepared.dealt,
    )
