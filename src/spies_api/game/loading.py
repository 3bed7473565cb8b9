"""A game's head: everything a command needs of a game at its last event, loaded from the
log (:func:`load_head`) or carried forward by the caller after each append (:meth:`Head.after`).

Each append keeps the head after it with the game (:meth:`Head.packed`, a
:class:`~spies_api.game.compact.CompactHead`), so that loading a head is one read of the
game's row; a game whose kept head is absent or behind its version is folded from the log
(:func:`fold_head`) and its head written back.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
import structlog

from spies_api.game.compact import (
    HEAD_FORMAT,
    CompactHead,
    decode_compact,
    encode_compact,
    encode_state,
)
from spies_core.clock import ClockState
from spies_core.decider import AnySpec, Seat
from spies_core.registry import get_game
from spies_replay.clocks import (
    from_ms,
    next_deadline,
    to_ms,
)
from spies_replay.codec import CHAIN_VERSION, GameCodec, chain_of, codec_for
from spies_replay.errors import (
    ReplayError,
)
from spies_replay.meta import (
    SeatState,
    SeatType,
    SeedSource,
)
from spies_replay.reading import (
    Games,
    StoredEvent,
    clock_after,
    entropy_added,
    game_created,
    load_state,
)
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import Append, GameRecord, GameSecrets, GameStatus, HeadRow

__all__ = ["Head", "any_open", "fold_head", "kept_head", "load_head", "stored_events"]

_log = structlog.get_logger("spies_api.game")


@dataclass(frozen=True, slots=True)
class Head:
    """Everything a command needs of a game, at its last event: what a caller caches.

    Attributes:
        id: the game's id.
        game: the registered game id.
        version: the seq of the last event.
        head_hash: the hash of the last event (the next row chains from it).
        state: the folded state at ``version``.
        finished: whether the game is over.
        secrets: the seed (every command's chance is drawn from it) and the explicit deal
            (revealed with the seed).
        seats: each seat's holder (which seats a bot plays).
        clock: every seat's clock, for a game with a time control; else ``None``.
        deal_deferred: the game was created with an open seat and deals when its last
            open seat is taken (``game_created.deal_deferred``).
        open_until: when its open seats expire (``game_created.open_until``; ``None``:
            never): a game still waiting then is abandoned.
        log: the chain its rows are sealed in (``game_created.log``: format 3's for a game
            created since, format 1's for an older one, which continues in it).
        acted: each seat's last command, by seat: the seq of its first row (``0``: none
            yet; a seat beyond the tuple has not acted either). Every command recorded as
            the seat's counts, whoever chose it: its holder's, its bot's, a forced move
            after its clock ran out.
    """

    id: str
    game: str
    version: int
    head_hash: str
    state: Any
    finished: bool
    secrets: GameSecrets
    seats: tuple[SeatState, ...] = ()
    clock: ClockState | None = None
    acted: tuple[int, ...] = ()
    deal_deferred: bool = False
    open_until: str | None = None
    log: str = CHAIN_VERSION

    @classmethod
    def of(
        cls,
        record: GameRecord,
        state: Any,
        secrets: GameSecrets,
        seats: Sequence[SeatState] = (),
        clock: ClockState | None = None,
        acted: Mapping[int, int] | None = None,
        *,
        deal_deferred: bool = False,
        open_until: str | None = None,
        log: str = CHAIN_VERSION,
    ) -> Head:
        """The head of a game whose record and state are at the same version; ``acted``
        maps each seat that has acted to the seq of its last command."""
        last = {} if acted is None else acted
        return cls(
            id=record.id,
            game=record.game,
            version=record.version,
            head_hash=record.head_hash,
            state=state,
            finished=record.status == GameStatus.FINISHED,
            secrets=secrets,
            seats=tuple(seats),
            clock=clock,
            acted=tuple(last.get(seat, 0) for seat in range(record.players)),
            deal_deferred=deal_deferred,
            open_until=open_until,
            log=log,
        )

    def packed(self) -> str:
        """The head as the store keeps it with the game (:attr:`Append.head`): everything
        but its seed and explicit deal."""
        return encode_compact(
            CompactHead(
                format=HEAD_FORMAT,
                id=self.id,
                version=self.version,
                head_hash=self.head_hash,
                log=self.log,
                state=encode_state(self.state),
                seats=self.seats,
                clock=self.clock,
                acted=self.acted,
                deal_deferred=self.deal_deferred,
                open_until=self.open_until,
                entropy=self.secrets.entropy,
            )
        )

    @classmethod
    def unpack(
        cls, text: str, codec: GameCodec, secrets: GameSecrets, *, finished: bool
    ) -> Head | None:
        """The head :meth:`packed` wrote, of a game of ``codec``'s with ``secrets`` (its
        seed and deal: never packed), finished or not; ``None``: of another format.

        Raises:
            msgspec.DecodeError: ``text`` is not JSON.
            msgspec.ValidationError: it is not a packed head (or its state not the game's).
        """
        kept = decode_compact(text)
        if kept.format != HEAD_FORMAT:
            return None
        return cls(
            id=kept.id,
            game=codec.spec.name,
            version=kept.version,
            head_hash=kept.head_hash,
            state=codec.state.decode(kept.state),
            finished=finished,
            secrets=dataclasses.replace(secrets, entropy=kept.entropy),
            seats=kept.seats,
            clock=kept.clock,
            acted=kept.acted,
            deal_deferred=kept.deal_deferred,
            open_until=kept.open_until,
            log=kept.log,
        )

    @classmethod
    def unpacked(cls, found: HeadRow, codec: GameCodec) -> Head | None:
        """The head kept with the game (:meth:`packed`), read with its row: ``None`` when
        none is kept at the game's version, or the one kept does not decode, is of another
        format, or names another game, version or head hash than the game's row."""
        record, secrets, text = found.record, found.secrets, found.head
        if text is None or secrets is None:
            return None
        at = (record.id, record.version, record.head_hash)
        return cls.checked(text, codec, secrets, at, finished=record.status == GameStatus.FINISHED)

    @classmethod
    def checked(
        cls,
        text: str,
        codec: GameCodec,
        secrets: GameSecrets,
        at: tuple[str, int, str],
        *,
        finished: bool,
    ) -> Head | None:
        """The head :meth:`packed` wrote, when it is the head ``at`` names (its game's id,
        version and head hash); else, or when it does not decode, ``None`` (logged)."""
        try:
            head = cls.unpack(text, codec, secrets, finished=finished)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            _log.warning("head_not_decoded", game_id=at[0], error=str(exc))
            return None
        if head is None or (head.id, head.version, head.head_hash) != at:
            _log.warning("head_not_used", game_id=at[0], version=at[1])
            return None
        return head

    @property
    def waiting(self) -> bool:
        """Whether the game waits for players: its deal is deferred and a seat is still
        open, so nothing is dealt and no seat may act."""
        return self.deal_deferred and any_open(self.seats)

    def expired(self, now: str) -> bool:
        """Whether the game still waits for players at ``now``, its open seats expired."""
        return (
            not self.finished
            and self.waiting
            and self.open_until is not None
            and to_ms(self.open_until) <= to_ms(now)
        )

    def acted_since(self, seat: Seat, version: int) -> bool:
        """Whether a command of ``seat`` was recorded after event ``version``."""
        return 0 <= seat < len(self.acted) and self.acted[seat] > version

    def due_at(self, spec: AnySpec, now: str) -> str | None:
        """When the server has work to do on the game at this head: ``now`` when a seat a
        bot plays is to act, else the earliest deadline of a running clock, else ``None``
        (the game waits on people with no clock, or is over); for a game waiting for
        players, when its open seats expire (``None``: never)."""
        if self.finished:
            return None
        if self.waiting:
            return self.open_until
        bots = {seat.seat for seat in self.seats if seat.bot is not None}
        if bots & spec.to_act(self.state):
            return now
        deadline = None if self.clock is None else next_deadline(self.clock)
        return None if deadline is None else from_ms(deadline)

    def after(
        self,
        batch: Append,
        state: Any = None,
        *,
        finished: bool = False,
        clock: ClockState | None = None,
        seats: Sequence[SeatState] | None = None,
    ) -> Head:
        """The head after ``batch`` was appended (with what the batch changed)."""
        acted = self.acted
        for row in batch.rows:
            if row.actor is not None and 0 <= row.actor < len(acted):
                acted = (*acted[: row.actor], row.seq, *acted[row.actor + 1 :])
        return dataclasses.replace(
            self,
            version=batch.new_version,
            head_hash=batch.new_head_hash,
            state=self.state if state is None else state,
            finished=self.finished or finished,
            clock=self.clock if clock is None else clock,
            seats=self.seats if seats is None else tuple(seats),
            acted=acted,
        )


def stored_events(append: Append, events: Sequence[Any]) -> list[StoredEvent]:
    """The rows of ``append`` with their decoded ``events``, as a reader of the log gets them."""
    return [
        StoredEvent(
            seq=row.seq,
            type=row.type,
            event=event,
            actor=row.actor,
            recorded_at=row.recorded_at,
            hash=row.hash,
            bot=row.bot,
        )
        for row, event in zip(append.rows, events, strict=True)
    ]


def load_head(
    store: EventStore, game_id: str, *, games: Games | None = None, most: int | None = None
) -> Head:
    """The game's head with its secrets (the game looked up among ``games``, default the
    registry): the head kept with the game, read with its row and its secrets in one read
    (:meth:`Head.unpacked`); else (none kept at its version, or one not to be used) folded
    from the log (:func:`fold_head`, at most ``most`` events) and written back, so that the
    next load reads one row (a cache's write: one that fails is only logged).

    Raises:
        GameNotFoundError: no such game.
        LongFoldError: no head kept, and more than ``most`` events to fold (see
            :func:`~spies_replay.reading.load_state`).
        ReplayError: the game has no stored seed (code ``seed-missing``).
    """
    head = kept_head(store.head_row(game_id), games)
    if head is not None:
        return head
    head = fold_head(store, game_id, games=games, most=most)
    store.save_head(game_id, head.version, head.packed())
    return head


def kept_head(found: HeadRow, games: Games | None = None) -> Head | None:
    """The head kept with the game of ``found`` (a store's ``head_row``), when it is to be
    used (:meth:`Head.unpacked`), the game looked up among ``games`` (default the registry).

    Raises:
        UnknownGameError: the game is not among ``games``.
    """
    return Head.unpacked(found, codec_for(get_game(found.record.game, games)))


def fold_head(
    store: EventStore, game_id: str, *, games: Games | None = None, most: int | None = None
) -> Head:
    """The game's head, folded from its nearest snapshot, with its secrets (the game looked
    up among ``games``, default the registry), folding at most ``most`` events; the head
    kept with the game is not read.

    Raises:
        GameNotFoundError: no such game.
        LongFoldError: more than ``most`` events to fold (see
            :func:`~spies_replay.reading.load_state`).
        ReplayError: the game has no stored seed (code ``seed-missing``).
    """
    with store.reading():
        loaded = load_state(store, game_id, games=games, most=most)
        found = store.secrets(game_id)
        seats = store.seat_states(game_id, loaded.record.players)
        created = game_created(store, game_id, games=games, game=loaded.record.game)
        clock = clock_after(store, game_id, created, games=games)
        acted = store.last_commands(game_id)
    if found is None:
        raise ReplayError(f"game {game_id!r} has no stored seed", code="seed-missing")
    if loaded.record.seed_source is SeedSource.MIXED:
        found = dataclasses.replace(found, entropy=entropy_added(store, game_id, games=games))
    return Head.of(
        loaded.record,
        loaded.state,
        found,
        seats,
        clock,
        acted,
        deal_deferred=created is not None and created.deal_deferred,
        open_until=None if created is None else created.open_until,
        log=chain_of(None if created is None else created.log),
    )


def any_open(seats: Sequence[SeatState]) -> bool:
    return any(seat.type == SeatType.OPEN for seat in seats)
