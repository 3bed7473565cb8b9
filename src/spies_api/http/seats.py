"""``/games/{id}/seats``, ``/games/{id}/join``, ``/games/{id}/rematch`` and ``/bots``:
seats, the lobby's joins, bots at the table and rematches."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, Response, delete, get, post, route
from litestar.enums import HttpMethod
from litestar.params import Body, FromPath, PathParameter

from spies_api.http.body import body_post
from spies_api.http.dependencies import Provided
from spies_api.http.edge import rate_key_of
from spies_api.openapi.examples import BOT_REQUEST_EXAMPLES, JOIN_REQUEST_EXAMPLES
from spies_api.openapi.operations import documented
from spies_api.problems.errors import ForbiddenError, UnauthorizedError
from spies_api.schemas import (
    BotList,
    BotRequest,
    ChangedSeat,
    CommitmentResponse,
    JoinedSeat,
    JoinRequest,
    KeyList,
    RematchResponse,
    StreamTicket,
)
from spies_api.service.auth import Caller
from spies_api.service.commitments import parse_entropy
from spies_api.service.creation import GameCreator
from spies_api.service.keys import ReceiptKeys
from spies_api.service.placement import blocking
from spies_api.service.players import PlayerService, player_token_of
from spies_api.service.tickets import StreamTickets
from spies_api.table.quota import BotGameQuota
from spies_api.table.seats import SeatService, bot_list

__all__ = ["BotsController", "CommitmentsController", "KeysController", "SeatsController"]

Seat = Annotated[int, PathParameter(ge=0, le=63, description="A seat number, from 0.")]
JoinBody = Annotated[JoinRequest, Body(examples=JOIN_REQUEST_EXAMPLES)]
BotBody = Annotated[BotRequest, Body(examples=BOT_REQUEST_EXAMPLES)]


class SeatsController(Controller):
    """Seats of a game: join one, hand one to a bot and take it back, ask for a rematch."""

    path = "/games/{game_id:str}"
    tags = ["seats"]

    @route(
        "/seats/{seat:int}/bot",
        http_method=HttpMethod.OPTIONS,
        include_in_schema=False,
        sync_to_thread=False,
    )
    def allow_bot(self) -> Response[None]:
        """``OPTIONS /games/{id}/seats/{seat}/bot``: ``Allow`` lists both methods (Litestar's
        automatic answer lists only the first handler's; see ``GamesController.allow``)."""
        return Response(content=None, status_code=204, headers={"Allow": "DELETE, OPTIONS, POST"})

    @body_post("/seats/{seat:int}/join", JoinRequest, "joinSeat")
    async def join_seat(
        self,
        game_id: FromPath[str],
        seat: Seat,
        data: JoinBody,
        seats: Provided[SeatService],
        players: Provided[PlayerService],
        request: Request[Any, Any, Any],
    ) -> JoinedSeat:
        """Join an open seat."""
        return await _join(seats, players, request, game_id, seat, data)

    @body_post("/join", JoinRequest, "joinGame")
    async def join_game(
        self,
        game_id: FromPath[str],
        data: JoinBody,
        seats: Provided[SeatService],
        players: Provided[PlayerService],
        request: Request[Any, Any, Any],
    ) -> JoinedSeat:
        """Join the first open seat."""
        return await _join(seats, players, request, game_id, None, data)

    @body_post("/seats/{seat:int}/bot", BotRequest, "handSeatToBot")
    async def hand_to_bot(
        self,
        game_id: FromPath[str],  # first, so the document lists the path's parameters in order
        seat: Seat,
        data: BotBody,
        caller: Provided[Caller],
        seats: Provided[SeatService],
        bot_quota: Provided[BotGameQuota],
        request: Request[Any, Any, Any],
    ) -> ChangedSeat:
        """Hand the seat to a bot."""
        del game_id  # the caller's game
        client = rate_key_of(request.scope)
        with bot_quota.hold(client, caller.game_id) as record:
            handed = await seats.hand_to_bot(caller, seat, data.bot)
            record(caller.game_id)
        return handed

    @delete("/seats/{seat:int}/bot", status_code=200, **documented("takeSeatBack"))
    async def take_back(
        self,
        game_id: FromPath[str],  # first, so the document lists the path's parameters in order
        seat: Seat,
        caller: Provided[Caller],
        seats: Provided[SeatService],
    ) -> ChangedSeat:
        """Take the seat back from its bot."""
        del game_id  # the caller's game
        return await seats.take_back(caller, seat)

    @post("/seats/{seat:int}/stream-ticket", status_code=200, **documented("streamTicket"))
    async def stream_ticket(
        self,
        game_id: FromPath[str],  # first, so the document lists the path's parameters in order
        seat: Seat,
        caller: Provided[Caller],
        tickets: Provided[StreamTickets],
    ) -> StreamTicket:
        """A ticket that opens the seat's event stream once."""
        del game_id  # the caller's game
        if caller.seat is None:
            raise UnauthorizedError("a stream ticket needs the seat's token")
        if caller.seat != seat:
            raise ForbiddenError(
                f"this token is seat {caller.seat}'s, not seat {seat}'s", code="not-your-seat"
            )
        issued = tickets.issue(caller.game_id, seat)
        return StreamTicket(ticket=issued.ticket, expires_at=issued.expires_at)

    @post("/rematch", status_code=200, **documented("rematch"))
    async def rematch(
        self,
        caller: Provided[Caller],
        seats: Provided[SeatService],
        bot_quota: Provided[BotGameQuota],
        request: Request[Any, Any, Any],
    ) -> RematchResponse:
        """The caller's seat in the rematch."""
        client = rate_key_of(request.scope)
        return await seats.rematch(caller, lambda: bot_quota.hold(client))


async def _join(
    seats: SeatService,
    players: PlayerService,
    request: Request[Any, Any, Any],
    game_id: str,
    seat: int | None,
    data: JoinRequest,
) -> JoinedSeat:
    """A join, the seat recorded as the player's when a player token came with it."""
    entropy = _entropy(data.entropy)
    token = player_token_of(request.headers.get("authorization"))
    if token is None:  # no player: the join as it always was
        return await seats.join(game_id, seat, data.name, entropy)
    player = await blocking(players.authenticate, token)
    claim = players.claim(player)
    # the seat and its owner in one append: never a seat taken and not recorded, nor the other way
    joined = await seats.join(game_id, seat, data.name, entropy, claim.token, claim.owner(player))
    players.owned(player, game_id, [joined.seat])
    return joined


class CommitmentsController(Controller):
    """Seed commitments, for games with players' entropy."""

    path = "/commitments"
    tags = ["games"]

    @post("/", status_code=201, sync_to_thread=True, **documented("createCommitment"))
    def create_commitment(
        self, creator: Provided[GameCreator], request: Request[Any, Any, Any]
    ) -> CommitmentResponse:
        """Commit to a server seed."""
        assert creator.commitments is not None  # every backend of this build keeps them
        issued = creator.commitments.issue(rate_key_of(request.scope))
        return CommitmentResponse(
            commitment_id=issued.commitment_id,
            seed_commitment=issued.seed_commitment,
            expires_at=issued.expires_at,
        )


class KeysController(Controller):
    """The receipt signing keys (receipts)."""

    path = "/keys"
    tags = ["seats"]

    @get("/", sync_to_thread=True, **documented("listKeys"))
    def list_keys(self, receipts: Provided[ReceiptKeys]) -> KeyList:
        """List the receipt signing keys."""
        return receipts.listed()


class BotsController(Controller):
    """The bots the server can seat."""

    path = "/bots"
    tags = ["seats"]

    @get("/", sync_to_thread=False, **documented("listBots"))
    def list_bots(self) -> BotList:
        """List the bots."""
        return bot_list()


def _entropy(text: str | None) -> bytes | None:
    return None if text is None else parse_entropy(text)
