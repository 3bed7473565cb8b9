"""``/games/{id}/seats``, ``/games/{id}/join``, ``/games/{id}/rematch`` and ``/bots``:
seats, the lobby's joins, bots at the table and rematches."""

from __future__ import annotations

from typing import Annotated, Any, Final

from litestar import Controller, Request, Response, delete, get, post, route
from litestar.di import NamedDependency
from litestar.enums import HttpMethod
from litestar.openapi import ResponseSpec
from litestar.params import Body, FromPath, PathParameter

from spies_api.http.body import StrictBody
from spies_api.http.params import SEAT_TOKEN_REQUIRED
from spies_api.openapi.examples import (
    BOT_REQUEST_EXAMPLES,
    BOTS_EXAMPLE,
    HANDED_SEAT_EXAMPLE,
    JOIN_REQUEST_EXAMPLES,
    JOINED_EXAMPLE,
    PARAMETER_CODES,
    REMATCH_EXAMPLE,
    TAKEN_BACK_EXAMPLE,
    example,
    problems,
)
from spies_api.schemas import (
    BotList,
    BotRequest,
    JoinedSeat,
    JoinRequest,
    PublicSeat,
    RematchResponse,
)
from spies_api.service.games import GameService
from spies_api.table.seats import NAME_MAX, bot_list

__all__ = ["BotsController", "SeatsController"]

Seat = Annotated[int, PathParameter(ge=0, le=63, description="A seat number, from 0.")]
JoinBody = Annotated[JoinRequest, Body(examples=JOIN_REQUEST_EXAMPLES)]

_JOIN_CODES: Final = {
    400: "`malformed-body`, `invalid-parameter`",
    404: "`game-not-found`, `seat-not-found`",
    409: "`seat-taken`, `game-over`",
    422: "`invalid-name`",
}
_HOLDER_CODES: Final = {
    400: "`malformed-body`, `invalid-parameter`",
    401: "`unauthorized`",
    403: "`forbidden` (a token of another game), `not-your-seat` (of another seat)",
    404: "`game-not-found`, `seat-not-found`",
    409: "`seat-not-handed` (no bot plays the seat), `game-over`",
    422: "`unknown-bot`",
}


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

    @post(
        "/seats/{seat:int}/join",
        dto=StrictBody[JoinRequest],
        return_dto=None,
        status_code=200,
        sync_to_thread=True,
        operation_id="joinSeat",
        summary="Join an open seat",
        description=(
            f"Takes an open seat with a display name (1 to {NAME_MAX} printable characters,"
            " public) and returns the seat's secret bearer token, once. Of any number of racing"
            " joins of one seat exactly one wins; the others get 409 `seat-taken`. Recorded"
            " in the log as `seat_joined`."
        ),
        responses={
            200: ResponseSpec(
                data_container=JoinedSeat,
                description="The seat and its token.",
                generate_examples=False,
                examples=[example("Seat 1 joined", JOINED_EXAMPLE)],
            ),
            **problems(
                400,
                404,
                409,
                413,
                422,
                503,
                codes=_JOIN_CODES,
                examples={404: "seat-not-found", 409: "seat-taken", 422: "invalid-name"},
            ),
        },
    )
    def join_seat(
        self,
        game_id: FromPath[str],
        seat: Seat,
        data: JoinBody,
        service: NamedDependency[GameService],
    ) -> JoinedSeat:
        """Join an open seat."""
        return service.seats.join(game_id, seat, data.name)

    @post(
        "/join",
        dto=StrictBody[JoinRequest],
        return_dto=None,
        status_code=200,
        sync_to_thread=True,
        operation_id="joinGame",
        summary="Join the first open seat",
        description=(
            "Takes the game's first open seat with a display name and returns it with its"
            " secret bearer token, once; 409 `no-open-seat` when none is left."
        ),
        responses={
            200: ResponseSpec(
                data_container=JoinedSeat,
                description="The seat taken and its token.",
                generate_examples=False,
                examples=[example("Seat 1 joined", JOINED_EXAMPLE)],
            ),
            **problems(
                400,
                404,
                409,
                413,
                422,
                503,
                codes={
                    **_JOIN_CODES,
                    404: "`game-not-found`",
                    409: "`no-open-seat`, `game-over`",
                },
                examples={409: "no-open-seat", 422: "invalid-name"},
            ),
        },
    )
    def join_game(
        self,
        game_id: FromPath[str],
        data: JoinBody,
        service: NamedDependency[GameService],
    ) -> JoinedSeat:
        """Join the first open seat."""
        return service.seats.join(game_id, None, data.name)

    @post(
        "/seats/{seat:int}/bot",
        dto=StrictBody[BotRequest],
        return_dto=None,
        status_code=200,
        sync_to_thread=True,
        operation_id="handSeatToBot",
        summary="Hand the seat to a bot",
        description=(
            "With the seat's own token: a registered bot (`GET /bots`) plays the seat on the"
            " server from now on, until `DELETE` on the same path takes it back. Recorded in"
            " the log as `seat_handed_to_bot`; the bot's commands are recorded as the seat's,"
            " marked with the bot's name. Handing a seat to the bot that already plays it"
            " changes nothing."
        ),
        security=SEAT_TOKEN_REQUIRED,
        responses={
            200: ResponseSpec(
                data_container=PublicSeat,
                description="The seat now.",
                generate_examples=False,
                examples=[example("Seat 1 played by the random bot", HANDED_SEAT_EXAMPLE)],
            ),
            **problems(
                400,
                401,
                403,
                404,
                409,
                413,
                422,
                503,
                codes=_HOLDER_CODES,
                examples={
                    403: "not-your-seat",
                    404: "seat-not-found",
                    409: "seat-not-handed",
                    422: "unknown-bot",
                },
            ),
        },
    )
    def hand_to_bot(
        self,
        game_id: FromPath[str],
        seat: Seat,
        data: Annotated[BotRequest, Body(examples=BOT_REQUEST_EXAMPLES)],
        request: Request[Any, Any, Any],
        service: NamedDependency[GameService],
    ) -> PublicSeat:
        """Hand the seat to a bot."""
        authorization = request.headers.get("authorization")
        return service.seats.hand_to_bot(game_id, seat, authorization, data.bot)

    @delete(
        "/seats/{seat:int}/bot",
        status_code=200,
        sync_to_thread=True,
        operation_id="takeSeatBack",
        summary="Take the seat back from its bot",
        description=(
            "With the seat's own token: the seat's bot stops playing it. Recorded in the log"
            " as `seat_taken_back`. 409 `seat-not-handed` when no bot plays the seat."
        ),
        security=SEAT_TOKEN_REQUIRED,
        responses={
            200: ResponseSpec(
                data_container=PublicSeat,
                description="The seat now.",
                generate_examples=False,
                examples=[example("Seat 1 back with its holder", TAKEN_BACK_EXAMPLE)],
            ),
            **problems(
                400,
                401,
                403,
                404,
                409,
                503,
                codes={**_HOLDER_CODES, 400: PARAMETER_CODES},
                examples={403: "not-your-seat", 404: "seat-not-found", 409: "seat-not-handed"},
            ),
        },
    )
    def take_back(
        self,
        game_id: FromPath[str],
        seat: Seat,
        request: Request[Any, Any, Any],
        service: NamedDependency[GameService],
    ) -> PublicSeat:
        """Take the seat back from its bot."""
        return service.seats.take_back(game_id, seat, request.headers.get("authorization"))

    @post(
        "/rematch",
        status_code=200,
        sync_to_thread=True,
        operation_id="rematch",
        summary="The caller's seat in the rematch",
        description=(
            "With a seat token of a finished game: the same seat in the next game, which"
            " has the same options, a new secret seed and the same seat types (open seats"
            " stay open, bots stay bots; every other seat is kept for its holder). The first"
            " call creates the next game; each later call by another seat's holder takes"
            " that seat in it (`seat_claimed`); the same seat calling again gets the same"
            " answer."
        ),
        security=SEAT_TOKEN_REQUIRED,
        responses={
            200: ResponseSpec(
                data_container=RematchResponse,
                description="The next game's id, and the caller's seat and token in it.",
                generate_examples=False,
                examples=[example("Seat 0 in the rematch", REMATCH_EXAMPLE)],
            ),
            **problems(
                400,
                401,
                403,
                404,
                409,
                422,
                503,
                codes={
                    400: PARAMETER_CODES,
                    404: "`game-not-found`",
                    409: "`game-not-finished`, `seat-taken`",
                    422: "`invalid-options` (the game's options are no longer valid)",
                },
                examples={409: "game-not-finished", 422: "invalid-options"},
            ),
        },
    )
    def rematch(
        self,
        game_id: FromPath[str],
        request: Request[Any, Any, Any],
        service: NamedDependency[GameService],
    ) -> RematchResponse:
        """The caller's seat in the rematch."""
        return service.seats.rematch(game_id, request.headers.get("authorization"))


class BotsController(Controller):
    """The bots the server can seat."""

    path = "/bots"
    tags = ["seats"]

    @get(
        "/",
        sync_to_thread=False,
        operation_id="listBots",
        summary="List the bots",
        description=(
            "Every registered bot: its name (for a `bot` seat or a hand-over), the games it"
            " plays and how it plays."
        ),
        responses={
            200: ResponseSpec(
                data_container=BotList,
                description="The bots.",
                generate_examples=False,
                examples=[example("The bots", BOTS_EXAMPLE)],
            ),
            **problems(),
        },
    )
    def list_bots(self) -> BotList:
        """List the bots."""
        return bot_list()
