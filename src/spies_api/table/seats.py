"""Seats: who holds each seat, joining an open one, handing one to a bot, and rematches.

Every change is decided inside the store's write transaction
(:meth:`~spies_replay.store.EventStore.change_seat`) against the seats as they are then, and
recorded there as a seat event in the game's log: racing joins of one seat, even from
several processes, are decided one after the other, and exactly one finds it open.

Tokens: a joined seat gets a new random token, returned once and stored only hashed. A
rematch seat's token is ``HMAC-SHA256(previous token, "spies-rematch/1:<next id>:<seat>")``:
only the holder of the seat's token in the finished game can compute it, and the same
holder asking again gets the same token, though the server keeps only its hash.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Callable, Sequence
from typing import Final

import structlog

from spies_api.problems.errors import (
    ForbiddenError,
    InvalidNameError,
    InvalidSeatsError,
    RematchTooEarlyError,
    SeatsClosedError,
    UnauthorizedError,
)
from spies_api.schemas import (
    AnySeatRequest,
    BotInfo,
    BotList,
    BotSeatRequest,
    CreatorSeatRequest,
    JoinedSeat,
    PublicSeat,
    RematchResponse,
)
from spies_api.service.auth import SeatAuthenticator, bearer_token
from spies_api.service.cache import CachedGame, KeyedLocks, StateCache
from spies_api.service.placement import Turn
from spies_bots import BOTS, policy_for
from spies_replay.engine import CreatedGame, create_game, new_game_id
from spies_replay.errors import (
    GameFinishedError,
    NoOpenSeatError,
    RematchExistsError,
    SeatNotFoundError,
    SeatNotHeldError,
    SeatTakenError,
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
from spies_replay.store import EventStore, GameRecord, GameStatus, SeatChange, hash_token

__all__ = ["NAME_MAX", "SeatService", "check_name", "public_seats"]

NAME_MAX: Final = 40
"""The longest display name, in characters."""
_REMATCH_CONTEXT: Final = "spies-rematch/1"
_HUMAN: Final = (SeatType.CREATOR, SeatType.JOINED)


def check_name(name: str) -> str:
    """A display name as given, if it is 1 to 40 printable characters.

    Raises:
        InvalidNameError: empty, too long, or with a control character.
    """
    if not 1 <= len(name) <= NAME_MAX or not name.isprintable() or not name.strip():
        shown = name if len(name) <= NAME_MAX else name[:NAME_MAX] + "…"
        raise InvalidNameError(
            f"a name is 1 to {NAME_MAX} printable characters and not blank; {shown!r}"
            f" ({len(name)} characters) is not"
        )
    return name


def public_seats(seats: Sequence[SeatState]) -> list[PublicSeat]:
    """The summary's ``seats``."""
    return [PublicSeat(seat=s.seat, type=s.type, name=s.name, bot=s.bot) for s in seats]


def rematch_token(previous_token: str, next_id: str, seat: int) -> str:
    """The token of ``seat`` in the rematch ``next_id``, derived from its previous token."""
    message = f"{_REMATCH_CONTEXT}:{next_id}:{seat}".encode()
    digest = hmac.new(previous_token.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def bot_list() -> BotList:
    """Every registered bot, in the registry's order."""
    return BotList(
        bots=[
            BotInfo(name=bot.name, games=list(bot.games), description=bot.description)
            for bot in BOTS.values()
        ]
    )


class SeatService:
    """Seat holders, joins, hand-overs to bots and rematches, over one store.

    Args:
        store: the replay log.
        cache: the folded states (a seat event moves a cached state to the new version).
        locks: the per-game locks shared with the command pipeline.
        auth: the seat authenticator (told of each token handed out).
        turn: this process's write turn.
        appended: called with the game id after every append.
    """

    def __init__(
        self,
        store: EventStore,
        cache: StateCache,
        locks: KeyedLocks,
        auth: SeatAuthenticator,
        turn: Turn,
        appended: Callable[[str], None],
    ) -> None:
        self.store = store
        self.cache = cache
        self.locks = locks
        self.auth = auth
        self.turn = turn
        self.appended = appended
        self.log = structlog.get_logger("spies_api").bind()

    # -- creation --------------------------------------------------------------------------

    def holders(
        self, game: str, players: int | None, requested: Sequence[AnySeatRequest] | None
    ) -> list[SeatState] | None:
        """The seats a create request asks for (``None``: every seat the creator's).

        Raises:
            UnknownGameError: not a registered game.
            InvalidSeatsError: not one entry per seat.
            UnknownBotError: a bot that does not exist or does not play the game.
            InvalidNameError: a creator seat's name that is not 1 to 40 printable characters.
        """
        if requested is None:
            return None
        spec = self.store.spec(game)
        count = spec.min_players if players is None else players
        if len(requested) != count:
            raise InvalidSeatsError(
                f"seats lists {len(requested)} seats, but the game has {count}: give one entry"
                " per seat"
            )
        seats: list[SeatState] = []
        for seat, wanted in enumerate(requested):
            if isinstance(wanted, CreatorSeatRequest):
                name = None if wanted.name is None else check_name(wanted.name)
                seats.append(SeatState(seat=seat, type=SeatType.CREATOR, name=name))
            elif isinstance(wanted, BotSeatRequest):
                policy_for(wanted.bot, spec.name)
                seats.append(SeatState(seat=seat, type=SeatType.BOT, bot=wanted.bot))
            else:
                seats.append(SeatState(seat=seat, type=SeatType.OPEN))
        return seats

    def created(self, created: CreatedGame) -> None:
        """Remember a new game's tokens and cache its state."""
        record = created.record
        for seat, token in enumerate(created.tokens):
            if token is not None:
                self.auth.remember(record.id, seat, token)
        finished = record.status == GameStatus.FINISHED
        self.cache.put(record.id, CachedGame(record.game, record.version, created.state, finished))
        if any(s.bot is not None for s in created.seats):
            self.appended(record.id)  # a bot may be the first to act

    # -- reads -----------------------------------------------------------------------------

    def seats(self, record: GameRecord) -> list[PublicSeat]:
        """A game's seats as anyone may see them."""
        return public_seats(self.store.seat_states(record.id, record.players))

    # -- changes ---------------------------------------------------------------------------

    def _change(
        self,
        game_id: str,
        choose: Callable[[list[SeatState], dict[int, str]], SeatEvent | None],
        token_hash: str | None = None,
    ) -> SeatChange:
        """Record one seat change, keeping the cached state at the game's new version."""
        with self.locks.hold(game_id), self.turn:
            try:
                change = self.store.change_seat(game_id, choose, token_hash=token_hash)
            except GameFinishedError as exc:
                raise SeatsClosedError(
                    f"game {game_id!r} has finished; its seats can no longer change"
                ) from exc
            if change.event is not None:
                entry = self.cache.get(game_id)
                if entry is not None and entry.version == change.version - 1:
                    self.cache.put(
                        game_id, CachedGame(entry.game, change.version, entry.state, False)
                    )
        if change.event is not None:
            self.appended(game_id)
            self.log.info(
                "seat_changed",
                game_id=game_id,
                seat=change.event.event.seat,
                change=change.event.type,
                version=change.version,
            )
        return change

    def join(self, game_id: str, seat: int | None, name: str) -> JoinedSeat:
        """Join an open seat (``seat``, or the first open one) with a display name.

        Raises:
            GameNotFoundError: no such game.
            InvalidNameError: not 1 to 40 printable characters.
            SeatNotFoundError: no seat ``seat`` in this game.
            SeatTakenError: ``seat`` is not open.
            NoOpenSeatError: no open seat (``seat`` is ``None``).
            SeatsClosedError: the game is over.
        """
        name = check_name(name)
        token = secrets.token_urlsafe(32)

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

        change = self._change(game_id, choose, hash_token(token))
        assert change.event is not None
        taken: int = change.event.event.seat
        self.auth.remember(game_id, taken, token)
        return JoinedSeat(seat=taken, token=token)

    def holder_seat(self, game_id: str, seat: int, authorization: str | None) -> None:
        """Check that the caller holds ``seat``'s token.

        Raises:
            GameNotFoundError: no such game.
            SeatNotFoundError: no such seat.
            UnauthorizedError: no token, or a token of no seat.
            ForbiddenError: a token of another seat (``not-your-seat``) or game.
        """
        record = self.store.get_game(game_id)
        if not 0 <= seat < record.players:
            raise SeatNotFoundError(
                f"game {game_id!r} has seats 0 to {record.players - 1}; there is no seat {seat}"
            )
        caller = self.auth.seat(game_id, authorization, known_game=True)
        if caller is None:
            raise UnauthorizedError("this needs the seat's token: Authorization: Bearer <token>")
        if caller != seat:
            raise ForbiddenError(
                f"this token is seat {caller}'s, not seat {seat}'s", code="not-your-seat"
            )

    def hand_to_bot(
        self, game_id: str, seat: int, authorization: str | None, bot: str
    ) -> PublicSeat:
        """Hand the caller's seat to a bot, which plays it on the server until taken back.

        Raises:
            Anything :meth:`holder_seat` raises.
            UnknownBotError: no such bot, or it does not play this game.
            SeatsClosedError: the game is over.
        """
        self.holder_seat(game_id, seat, authorization)
        policy_for(bot, self.store.get_game(game_id).game)

        def choose(seats: list[SeatState], _tokens: dict[int, str]) -> SeatEvent | None:
            if seats[seat].type not in _HUMAN:
                raise SeatNotHeldError(f"seat {seat} is a bot's from the start")
            return None if seats[seat].bot == bot else SeatHandedToBot(seat=seat, bot=bot)

        return public_seats(self._change(game_id, choose).seats)[seat]

    def take_back(self, game_id: str, seat: int, authorization: str | None) -> PublicSeat:
        """Take the caller's seat back from its bot.

        Raises:
            Anything :meth:`holder_seat` raises.
            SeatNotHeldError: no bot plays the seat (``seat-not-handed``).
            SeatsClosedError: the game is over.
        """
        self.holder_seat(game_id, seat, authorization)

        def choose(seats: list[SeatState], _tokens: dict[int, str]) -> SeatEvent:
            if seats[seat].bot is None:
                raise SeatNotHeldError(f"no bot plays seat {seat} of game {game_id!r}")
            return SeatTakenBack(seat=seat)

        return public_seats(self._change(game_id, choose).seats)[seat]

    # -- rematch ---------------------------------------------------------------------------

    def rematch(self, game_id: str, authorization: str | None) -> RematchResponse:
        """The caller's seat in the rematch of a finished game (created by the first call).

        Raises:
            GameNotFoundError: no such game.
            UnauthorizedError, ForbiddenError: no token of a seat of this game.
            RematchTooEarlyError: the game is in progress (``game-not-finished``).
        """
        token = bearer_token(authorization)
        record = self.store.get_game(game_id)
        seat = self.auth.seat(game_id, authorization, known_game=True)
        if seat is None or token is None:
            raise UnauthorizedError("a rematch needs a seat token: Authorization: Bearer <token>")
        if record.status != GameStatus.FINISHED:
            raise RematchTooEarlyError(
                f"game {game_id!r} is still in progress; a rematch follows a finished game"
            )
        next_id = self.store.rematch_of(game_id)
        if next_id is None:
            try:
                return self._create_rematch(record, seat, token)
            except RematchExistsError as exc:
                next_id = exc.next_id
        return self._claim(next_id, seat, rematch_token(token, next_id, seat))

    def _create_rematch(self, record: GameRecord, seat: int, token: str) -> RematchResponse:
        holders = [
            SeatState(
                seat=s.seat,
                type=s.type,
                name=s.name,
                bot=s.bot if s.type == SeatType.BOT else None,
            )
            for s in self.store.seat_states(record.id, record.players)
        ]
        options = dict(record.options)
        deal = self.store.get_deal(record.id)
        if deal is not None:
            options["deal"] = deal
        next_id = new_game_id()
        mine = rematch_token(token, next_id, seat)
        with self.turn:
            created = create_game(
                self.store,
                record.game,
                record.players,
                options,
                game_id=next_id,
                seats=holders,
                tokens={seat: mine},
                rematch_of=record.id,
            )
        self.created(created)
        self.log.info("rematch_created", game_id=next_id, rematch_of=record.id, seat=seat)
        return RematchResponse(id=next_id, seat=seat, token=mine)

    def _claim(self, next_id: str, seat: int, token: str) -> RematchResponse:
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
            self._change(next_id, choose, digest)
        except SeatsClosedError:
            # The rematch is over already: a seat that claimed it may still ask again.
            if self.store.check_token(next_id, token) != seat:
                raise
        self.auth.remember(next_id, seat, token)
        return RematchResponse(id=next_id, seat=seat, token=token)


def _check_seat(game_id: str, seat: int, seats: Sequence[SeatState]) -> None:
    if not 0 <= seat < len(seats):
        raise SeatNotFoundError(
            f"game {game_id!r} has seats 0 to {len(seats) - 1}; there is no seat {seat}"
        )
