"""Seats: joining an open one, handing one to a bot and taking it back, and rematches.

Every change is a seat event in the game's log, decided against the seats as they stand and
appended at the version they were read at (:func:`spies_api.game.seats.read_seats`, decided
here, :func:`spies_api.game.seats.append_seat_change`; a version conflict is decided again
on the seats read anew, a bounded number of times): racing joins of one seat, even from
several processes, are decided one after the other, and exactly one finds it open. In this
process a game's seat changes and commands take turns on the same per-game lock, and a
change moves the game's cached head to its new version.

Tokens: a joined seat gets a new random token (a player's seat one derived from the player's
token: :mod:`spies_api.service.players`), returned once and stored only hashed. A
rematch seat's token is ``HMAC-SHA256(previous token, "spies-rematch/1:<next id>:<seat>")``
(:func:`~spies_api.service.players.rematch_token`): only the holder of the seat's token in
the finished game can compute it, and the same holder asking again gets the same token,
though the server keeps only its hash. When the finished game's seat was a player's, the
rematch seat is recorded as that player's in the same write that gives it its token (the
creation of the rematch, or the claim's append).
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import Any, Final

import msgspec
import structlog

from spies_api.game import (
    SEAT_CHANGE_ATTEMPTS,
    SeatChange,
    append_seat_change,
    create_game,
    new_game_id,
    read_seats,
)
from spies_api.problems.errors import (
    ForbiddenError,
    RematchTooEarlyError,
    SeatsClosedError,
    TakeBackTooEarlyError,
    UnauthorizedError,
)
from spies_api.schemas import BotInfo, BotList, ChangedSeat, JoinedSeat, RematchResponse
from spies_api.service.auth import Caller
from spies_api.service.creation import GameCreator, bot_plays_timeouts, check_name
from spies_api.service.effects import WriteEffects
from spies_api.service.locks import GameLocks
from spies_api.service.placement import blocking
from spies_api.service.players import rematch_owner, rematch_token
from spies_api.service.queries import public_seats
from spies_bots import BOTS, policy_for
from spies_replay.errors import (
    GameFinishedError,
    NoOpenSeatError,
    RematchExistsError,
    SeatNotFoundError,
    SeatNotHeldError,
    SeatTakenError,
    VersionConflictError,
)
from spies_replay.meta import (
    SeatClaimed,
    SeatEvent,
    SeatHandedToBot,
    SeatJoined,
    SeatState,
    SeatTakenBack,
    SeatType,
)
from spies_replay.reading import Games, last_event, time_control
from spies_replay.store.keyring import KeyDatabase
from spies_replay.store.players import seat_owner
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import Clock, GameRecord, GameStatus, SeatOwner, hash_token

__all__ = ["SeatService", "attempt_seat_change", "bot_list", "moved_since_handed", "rematch_token"]

_HUMAN: Final = (SeatType.CREATOR, SeatType.JOINED)
_HANDED: Final = str(SeatHandedToBot.__struct_config__.tag)
QuotaHold = Callable[[], AbstractContextManager[Callable[[str], None]]]
"""A place in the bot-game quota: a context that records the game it was taken for."""
_ROWS_AT_A_TIME: Final = 64
"""Rows read at a time after a hand-over, looking for the seat's move (usually among the
first few)."""


@contextmanager
def _uncounted() -> Iterator[Callable[[str], None]]:
    """No place taken: the game is not one the quota counts."""
    yield lambda _game_id: None


def moved_since_handed(store: EventStore, game_id: str, seat: int) -> bool:
    """Whether ``seat`` has moved (a command of the seat: its bot's, a forced one or its
    holder's own) since it was last handed to a bot (blocking: the log is read back to that
    hand-over, then forward from it a few rows at a time).

    Raises:
        GameNotFoundError: no such game.
    """
    upto: int | None = None
    while True:
        handed = last_event(store, game_id, [_HANDED], upto=upto)
        if handed is None:
            return True  # no hand-over of the seat on record: nothing to wait for
        if handed.event.seat == seat:
            break
        upto = handed.seq - 1
    after = handed.seq
    while rows := store.read_rows(game_id, after=after, upto=after + _ROWS_AT_A_TIME):
        if any(row.actor == seat and row.command is not None for row in rows):
            return True
        after = rows[-1].seq
    return False


def bot_list() -> BotList:
    """Every registered bot, in the registry's order."""
    return BotList(
        bots=[
            BotInfo(name=bot.name, games=list(bot.games), description=bot.description)
            for bot in BOTS.values()
        ]
    )


@dataclass(eq=False)
class SeatService:
    """Joins, hand-overs to bots and rematches, over one store (on the event loop).

    Args:
        store: the replay log.
        locks: the per-game locks shared with the commands.
        creator: creates a rematch's game.
        effects: what a seat change changes in this process (the cached head, the tokens,
            the listeners).
    """

    store: EventStore
    locks: GameLocks
    creator: GameCreator
    effects: WriteEffects
    log: Any = field(init=False, repr=False)
    """Bound once, with the logging configuration in force when the app starts."""

    def __post_init__(self) -> None:
        self.log = structlog.get_logger("spies_api").bind()

    async def _change(
        self,
        game_id: str,
        choose: Callable[[list[SeatState], dict[int, str]], SeatEvent | None],
        token_hash: str | None = None,
        entropy: bytes | None = None,
        owner: SeatOwner | None = None,
    ) -> SeatChange:
        """Record one seat change, keeping the cached head at the game's new version (with
        ``token_hash`` the seat's new token, with ``owner`` the player who owns it).

        Each attempt reads the seats, decides with ``choose`` (this layer's own rule) and
        appends at the version read, on a worker thread; the store's version check refuses
        an attempt another writer overtook, and it is decided again on the seats read anew,
        at most :data:`~spies_api.game.seats.SEAT_CHANGE_ATTEMPTS` times.
        """
        async with self.locks.hold(game_id):
            for attempt in range(SEAT_CHANGE_ATTEMPTS):
                try:
                    change = await blocking(
                        attempt_seat_change,
                        self.store,
                        game_id,
                        choose,
                        token_hash,
                        self.creator.clock,
                        None,
                        entropy,
                        owner,
                    )
                except GameFinishedError as exc:
                    raise SeatsClosedError(
                        f"game {game_id!r} has finished; its seats cannot change"
                    ) from exc
                except VersionConflictError:
                    if attempt == SEAT_CHANGE_ATTEMPTS - 1:
                        raise
                    continue
                break
            if change.event is not None:
                self.effects.seat_changed(game_id, change)
        if change.event is not None:
            self.log.info(
                "seat_changed",
                game_id=game_id,
                seat=change.event.event.seat,
                change=change.event.type,
                version=change.version,
            )
        return change

    async def join(
        self,
        game_id: str,
        seat: int | None,
        name: str,
        entropy: bytes | None = None,
        token: str | None = None,
        owner: SeatOwner | None = None,
    ) -> JoinedSeat:
        """Join an open seat (``seat``, or the first open one) with a display name; in a
        game created with a commitment, the joiner's ``entropy`` (16 to 64 bytes, checked by
        the caller) goes into the seed of the deal, which comes at the last join. ``token``
        is the seat's token (default a new random one; a player's is derived:
        :mod:`spies_api.service.players`), and ``owner`` that player, recorded with the seat
        in the join's one append.

        Raises:
            GameNotFoundError: no such game.
            InvalidNameError: not 1 to 40 printable characters.
            SeatNotFoundError: no seat ``seat`` in this game.
            SeatTakenError: ``seat`` is not open.
            NoOpenSeatError: no open seat (``seat`` is ``None``).
            SeatsClosedError: the game is over.
            EntropyNotAcceptedError: ``entropy`` to a game whose seed is not ``mixed``.
        """
        name = check_name(name)
        token = secrets.token_urlsafe(32) if token is None else token

        def choose(seats: list[SeatState], _tokens: dict[int, str]) -> SeatEvent:
            if seat is None:
                free = [s.seat for s in seats if s.type == SeatType.OPEN]
                if not free:
                    raise NoOpenSeatError(f"game {game_id!r} has no open seat left")
                return SeatJoined(seat=free[0], name=name)
            _check_seat(game_id, seat, seats)
            if seats[seat].type != SeatType.OPEN:
                raise SeatTakenError(
                    f"seat {seat} of game {game_id!r} is {seats[seat].type}, not open"
                )
            return SeatJoined(seat=seat, name=name)

        change = await self._change(game_id, choose, hash_token(token), entropy, owner)
        assert change.event is not None
        taken: int = change.event.event.seat
        self.effects.token(game_id, taken, token)
        receipt = self.creator.receipt(game_id, change.version, change.head_hash)
        return JoinedSeat(seat=taken, token=token, receipt=receipt)

    async def _holder(self, caller: Caller, seat: int) -> GameRecord:
        """The game's record, once the caller is known to hold ``seat``'s token.

        Raises:
            GameNotFoundError: no such game.
            SeatNotFoundError: no such seat.
            UnauthorizedError: no token, or a token of no seat.
            ForbiddenError: a token of another seat (``not-your-seat``) or game.
        """
        game_id = caller.game_id
        record = await blocking(self.store.get_game, game_id)
        if not 0 <= seat < record.players:
            raise SeatNotFoundError(
                f"game {game_id!r} has seats 0 to {record.players - 1}; there is no seat {seat}"
            )
        if caller.seat is None:
            raise UnauthorizedError("this needs the seat's token: Authorization: Bearer <token>")
        if caller.seat != seat:
            raise ForbiddenError(
                f"this token is seat {caller.seat}'s, not seat {seat}'s", code="not-your-seat"
            )
        return record

    async def hand_to_bot(self, caller: Caller, seat: int, bot: str) -> ChangedSeat:
        """Hand the caller's seat to a bot, which plays it on the server until taken back.

        Raises:
            Anything :meth:`_holder` raises.
            UnknownBotError: no such bot, or it does not play this game.
            SeatsClosedError: the game is over.
        """
        record = await self._holder(caller, seat)
        policy_for(bot, record.game)

        def choose(seats: list[SeatState], _tokens: dict[int, str]) -> SeatEvent | None:
            if seats[seat].type not in _HUMAN:
                raise SeatNotHeldError(f"seat {seat} is a bot's from the start")
            return None if seats[seat].bot == bot else SeatHandedToBot(seat=seat, bot=bot)

        return self._changed(caller.game_id, seat, await self._change(caller.game_id, choose))

    async def take_back(self, caller: Caller, seat: int) -> ChangedSeat:
        """Take the caller's seat back from its bot, once the seat has moved since it was
        handed over: a hand-over and its take-back never hold a game up (a seat abandoned on
        time is handed over with its forced move, so it can be taken back at once).

        Raises:
            Anything :meth:`_holder` raises.
            SeatNotHeldError: no bot plays the seat (``seat-not-handed``).
            TakeBackTooEarlyError: the seat has not moved since its hand-over
                (``handed-seat-not-moved``).
            SeatsClosedError: the game is over.
        """
        await self._holder(caller, seat)
        game_id = caller.game_id

        def choose(seats: list[SeatState], _tokens: dict[int, str]) -> SeatEvent:
            if seats[seat].bot is None:
                raise SeatNotHeldError(f"no bot plays seat {seat} of game {game_id!r}")
            # read at the version the change is appended at: a move meanwhile retries it
            if not moved_since_handed(self.store, game_id, seat):
                raise TakeBackTooEarlyError(
                    f"seat {seat} of game {game_id!r} has not moved since it was handed to"
                    f" {seats[seat].bot!r}: take it back once it has moved (its bot moves"
                    " when the seat is next to act)"
                )
            return SeatTakenBack(seat=seat)

        return self._changed(game_id, seat, await self._change(game_id, choose))

    def _changed(self, game_id: str, seat: int, change: SeatChange) -> ChangedSeat:
        """The answer to a hand-over or take-back: the seat now, and the signed receipt of
        the game's head after it (receipts)."""
        held = public_seats(change.seats)[seat]
        receipt = self.creator.receipt(game_id, change.version, change.head_hash)
        return ChangedSeat(**msgspec.structs.asdict(held), receipt=receipt)

    # -- rematch ---------------------------------------------------------------------------

    async def rematch(self, caller: Caller, hold: QuotaHold | None = None) -> RematchResponse:
        """The caller's seat in the rematch of a finished game (created by the first call).

        Args:
            caller: who asks.
            hold: the caller's place in the bot-game quota
                (:meth:`~spies_api.table.quota.BotGameQuota.hold`), taken when the call
                creates the rematch of a game whose timeouts a bot plays: such a game plays
                to its end with nobody at the table, so a chain of its rematches is a chain
                of bot games.

        Raises:
            GameNotFoundError: no such game.
            UnauthorizedError: no token of a seat of this game.
            RematchTooEarlyError: the game is in progress (``game-not-finished``).
            TooManyBotGamesError: the rematch would be one bot game too many.
        """
        game_id, seat, token = caller.game_id, caller.seat, caller.token
        record = await blocking(self.store.get_game, game_id)
        if seat is None or token is None:
            raise UnauthorizedError("a rematch needs a seat token: Authorization: Bearer <token>")
        if record.status != GameStatus.FINISHED:
            raise RematchTooEarlyError(
                f"game {game_id!r} is still in progress; a rematch follows a finished game"
            )
        _, next_id = await blocking(self.store.rematch_links, game_id)
        owner = await blocking(self._owner, game_id, seat)
        if next_id is None:
            try:
                return await blocking(self._create_rematch, record, seat, token, hold, owner)
            except RematchExistsError as exc:
                next_id = exc.next_id
        mine = rematch_token(token, next_id, seat)
        return await self._claim(
            next_id, seat, mine, None if owner is None else rematch_owner(owner, next_id)
        )

    def _owner(self, game_id: str, seat: int) -> SeatOwner | None:
        """The player who owns ``seat`` of the finished game, whose rematch seat is theirs
        too (blocking)."""
        if not isinstance(self.store, KeyDatabase):
            return None  # a store that keeps no players
        return seat_owner(self.store, game_id, seat)

    def _create_rematch(
        self,
        record: GameRecord,
        seat: int,
        token: str,
        hold: QuotaHold | None,
        owner: SeatOwner | None,
    ) -> RematchResponse:
        """Create the next game (blocking: on a worker thread)."""
        holders = [
            SeatState(
                seat=s.seat,
                type=s.type,
                name=s.name,
                bot=s.bot if s.type == SeatType.BOT else None,
            )
            for s in self.store.seat_states(record.id, record.players)
        ]
        # A fresh server seed and no explicit deal (the record's options never hold it): the
        # finished game's cards are public now, and a rematch must not deal them again.
        options = dict(record.options)
        next_id = new_game_id()
        mine = rematch_token(token, next_id, seat)
        clock = time_control(self.store, record.id)  # a rematch keeps its game's clock
        with hold() if hold is not None and bot_plays_timeouts(clock) else _uncounted() as place:
            created = create_game(
                self.store,
                record.game,
                record.players,
                options,
                game_id=next_id,
                seats=holders,
                tokens={seat: mine},
                owners=None if owner is None else {seat: rematch_owner(owner, next_id)},
                rematch_of=record.id,
                clock=clock,
                created_at=self.creator.clock(),
                open_seat_ttl=self.creator.open_seat_ttl,
            )
            place(next_id)
        self.creator.effects.created(created)
        self.log.info("rematch_created", game_id=next_id, rematch_of=record.id, seat=seat)
        head = created.head
        receipt = self.creator.receipt(next_id, head.version, head.head_hash)
        return RematchResponse(id=next_id, seat=seat, token=mine, receipt=receipt)

    async def _claim(
        self, next_id: str, seat: int, token: str, owner: SeatOwner | None
    ) -> RematchResponse:
        """Claim ``seat`` of the rematch ``next_id`` with its derived ``token`` (and, for a
        player's seat, record ``owner`` with it)."""
        digest = hash_token(token)

        def choose(seats: list[SeatState], tokens: dict[int, str]) -> SeatEvent | None:
            held = tokens.get(seat)
            if held is not None:
                if hmac.compare_digest(held, digest):
                    return None  # this seat asked before: the same answer
                raise SeatTakenError(f"seat {seat} of game {next_id!r} is taken")
            if seats[seat].type not in _HUMAN:
                raise SeatTakenError(f"seat {seat} of game {next_id!r} is {seats[seat].type}")
            return SeatClaimed(seat=seat)

        try:
            change = await self._change(next_id, choose, digest, owner=owner)
            receipt = self.creator.receipt(next_id, change.version, change.head_hash)
        except SeatsClosedError:
            # The rematch is over already: a seat that claimed it may still ask again.
            if await blocking(self.store.check_token, next_id, token) != seat:
                raise
            over = await blocking(self.store.get_game, next_id)
            receipt = self.creator.receipt(next_id, over.version, over.head_hash)
        self.effects.token(next_id, seat, token)
        return RematchResponse(id=next_id, seat=seat, token=token, receipt=receipt)


def attempt_seat_change(
    store: EventStore,
    game_id: str,
    choose: Callable[[list[SeatState], dict[int, str]], SeatEvent | None],
    token_hash: str | None,
    clock: Clock,
    games: Games | None = None,
    entropy: bytes | None = None,
    owner: SeatOwner | None = None,
) -> SeatChange:
    """One attempt at a seat change: read the seats, decide, append at the version read
    (with ``owner``, the player the seat becomes, in the same append).

    Raises:
        GameFinishedError: the game is over.
        VersionConflictError: another writer moved the game on since the seats were read.
        Whatever ``choose`` raises. Nothing is written.
    """
    table = read_seats(store, game_id, games=games)
    if table.finished:
        raise GameFinishedError(f"game {game_id!r} has finished; its seats are final")
    event = choose(table.seats, table.tokens)
    if event is None:
        return table.unchanged()
    return append_seat_change(
        store,
        table,
        event,
        token_hash=token_hash,
        recorded_at=clock(),
        entropy=entropy,
        owner=owner,
        games=games,
    )


def _check_seat(game_id: str, seat: int, seats: Sequence[SeatState]) -> None:
    if not 0 <= seat < len(seats):
        raise SeatNotFoundError(
            f"game {game_id!r} has seats 0 to {len(seats) - 1}; there is no seat {seat}"
        )
