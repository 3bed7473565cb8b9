"""Creating a game: its seats as the request asks, the game in the log, its tokens once.

Who holds each seat is checked before anything is written: one entry per seat, a creator
seat's display name, a bot that exists and plays the game. The new game's head goes into the
cache and its tokens are remembered as verified, so its first commands read nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec
import structlog

from spies_api.problems.errors import InvalidNameError, InvalidSeatsError, UnfairDealError
from spies_api.schemas import (
    NAME_MAX,
    AnySeatRequest,
    BotSeatRequest,
    CreateGameRequest,
    CreatorSeatRequest,
    GameCreatedResponse,
    SeatToken,
    from_record,
)
from spies_api.service.effects import WriteEffects
from spies_bots import policy_for
from spies_replay.engine import create_game
from spies_replay.meta import SeatState, SeatType
from spies_replay.store.protocols import EventStore

__all__ = ["GameCreator", "check_fair", "check_name", "holders"]


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


def holders(
    store: EventStore, game: str, players: int | None, requested: Sequence[AnySeatRequest] | None
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
    spec = store.spec(game)
    count = spec.min_players if players is None else players
    if len(requested) != count:
        raise InvalidSeatsError(
            f"seats lists {len(requested)} seats, but the game has {count}: give one entry per seat"
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


def check_fair(request: CreateGameRequest, seats: Sequence[SeatState] | None) -> None:
    """Refuse a deal the creator chose in a game that seats someone else.

    A client ``seed`` makes every shuffle known to whoever knows the seed, and
    ``options.deal`` lays the cards out: both are for games whose every person seat the
    creator holds (puzzles, bug reports, tests; bot seats allowed). A game with an open seat
    deals from a server seed that nobody knows.

    Raises:
        UnfairDealError: a ``seed`` or a ``deal`` with an open seat.
    """
    chosen = [
        name
        for name, given in (
            ("seed", request.seed is not None),
            ("options.deal", "deal" in (request.options or {})),
        )
        if given
    ]
    open_seats = [s.seat for s in seats or () if s.type == SeatType.OPEN]
    if chosen and open_seats:
        raise UnfairDealError(
            f"{' and '.join(chosen)} cannot be given for a game with an open seat (seat"
            f" {open_seats[0]}): whoever chose them would know what a joiner is dealt; leave"
            " them out (the server deals from a secret seed), or hold every person seat"
        )


@dataclass(eq=False)
class GameCreator:
    """Creates games (blocking: run it on a worker thread).

    Args:
        store: the replay log.
        effects: what a creation changes in this process (the new head, its tokens).
    """

    store: EventStore
    effects: WriteEffects
    log: Any = field(init=False, repr=False)
    """Bound once, with the logging configuration in force when the app starts."""

    def __post_init__(self) -> None:
        self.log = structlog.get_logger("spies_api").bind()

    def create(self, request: CreateGameRequest) -> GameCreatedResponse:
        """Create a game and return its seat tokens (once).

        Raises:
            UnknownGameError: not a registered game.
            InvalidOptionsError: bad ``players``, ``options`` or ``seed``.
            InvalidSeatsError, UnknownBotError, InvalidNameError: bad ``seats``.
        """
        seats = holders(self.store, request.game, request.players, request.seats)
        check_fair(request, seats)
        created = create_game(
            self.store,
            request.game,
            request.players,
            request.options,
            request.seed,
            seats=seats,
        )
        self.effects.created(created)
        record = created.record
        self.log.info("game_created", game_id=record.id, game=record.game, players=record.players)
        return from_record(
            GameCreatedResponse,
            record,
            seats=[
                SeatToken(
                    seat=held.seat,
                    type=held.type,
                    name=held.name,
                    bot=held.bot,
                    token=msgspec.UNSET if token is None else token,
                )
                for held, token in zip(created.seats, created.tokens, strict=True)
            ],
        )
