"""``/games/{id}/...``: the caller's view, legal commands, commands and replays."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, Response, get, post
from litestar.di import NamedDependency
from litestar.openapi import ResponseSpec
from litestar.params import Body, FromPath, HeaderParameter, PathParameter, QueryParameter

from spies_api.http.body import StrictBody
from spies_api.http.params import OPTIONAL_SEAT_TOKEN, SEAT_TOKEN_REQUIRED
from spies_api.openapi.examples import (
    COMMAND_REQUEST_EXAMPLES,
    COMMAND_RESPONSE_EXAMPLE,
    LEGAL_EXAMPLE,
    PARAMETER_CODES,
    VIEW_EXAMPLE,
    example,
    problems,
)
from spies_api.problems.errors import InvalidParameterError
from spies_api.schemas import AnyView, CommandRequest, CommandResponse, LegalCommands
from spies_api.service.games import GameService
from spies_api.settings import DEFAULTS

__all__ = ["PlayController"]

_VIEW_DESCRIPTION = (
    "The game's view struct (tagged by `game`) with `version` and `seat` (`null` for a"
    " spectator): the seat's own hidden cards and what the rules make public, never another"
    " seat's hidden cards or a deck's order while the game is in progress."
)

IdempotencyKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key",
        min_length=1,
        description=(
            "Retry safely: the same key and body return the first response without applying"
            " the command again; the same key with another body is 422. At most the server's"
            f" `--idempotency-key-max-length` characters ({DEFAULTS.idempotency_key_max_length}"
            " unless set otherwise); a longer key is 400."
        ),
    ),
]


class PlayController(Controller):
    """What a seat sees and does."""

    path = "/games/{game_id:str}"
    tags = ["play"]

    @get(
        "/view",
        sync_to_thread=True,
        operation_id="getView",
        summary="The caller's view",
        description=_VIEW_DESCRIPTION,
        security=OPTIONAL_SEAT_TOKEN,
        responses={
            200: ResponseSpec(
                data_container=AnyView,
                description="The view now.",
                generate_examples=False,
                examples=[example("Seat 0 of a Deck of Spies game", VIEW_EXAMPLE)],
            ),
            **problems(400, 401, 403, 404, codes={400: PARAMETER_CODES, 404: "`game-not-found`"}),
        },
    )
    def get_view(
        self,
        game_id: FromPath[str],
        request: Request[Any, Any, Any],
        service: NamedDependency[GameService],
    ) -> AnyView:
        """The caller's view."""
        seat = service.caller(game_id, request.headers.get("authorization"))
        return service.view(game_id, seat)

    @get(
        "/legal",
        sync_to_thread=True,
        operation_id="getLegalCommands",
        summary="The caller's legal commands",
        description=(
            "Exactly the commands the rules accept from the caller now; each item can be"
            " posted back unchanged as `command`. Empty for a spectator, a seat not to act,"
            " and a finished game."
        ),
        security=OPTIONAL_SEAT_TOKEN,
        responses={
            200: ResponseSpec(
                data_container=LegalCommands,
                description="The version they apply to, and the commands.",
                generate_examples=False,
                examples=[example("Two of seat 0's commands", LEGAL_EXAMPLE)],
            ),
            **problems(400, 401, 403, 404, codes={400: PARAMETER_CODES, 404: "`game-not-found`"}),
        },
    )
    def get_legal(
        self,
        game_id: FromPath[str],
        request: Request[Any, Any, Any],
        service: NamedDependency[GameService],
    ) -> LegalCommands:
        """The caller's legal commands."""
        seat = service.caller(game_id, request.headers.get("authorization"))
        return service.legal(game_id, seat)

    @post(
        "/commands",
        dto=StrictBody[CommandRequest],
        return_dto=None,
        status_code=200,
        operation_id="postCommand",
        summary="Send a command",
        description=(
            "Applies one command of the token's seat. With `expected_version`, a game at"
            " another version refuses it (409, with `current_version`). Commands on one game"
            " are applied one at a time. Returns the new version and the new events as the"
            " seat may see them; a refused command appends nothing. A replayed"
            " `Idempotency-Key` answer carries the header `Idempotent-Replayed: true`."
        ),
        security=SEAT_TOKEN_REQUIRED,
        responses={
            200: ResponseSpec(
                data_container=CommandResponse,
                description="The command was applied (or replayed from its Idempotency-Key).",
                generate_examples=False,
                examples=[example("A counter", COMMAND_RESPONSE_EXAMPLE)],
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
                codes={404: "`game-not-found`", 409: "`version-conflict` (with `current_version`)"},
            ),
        },
    )
    async def post_command(
        self,
        game_id: FromPath[str],
        data: Annotated[CommandRequest, Body(examples=COMMAND_REQUEST_EXAMPLES)],
        request: Request[Any, Any, Any],
        service: NamedDependency[GameService],
        idempotency_key: IdempotencyKey = None,
    ) -> Response[CommandResponse]:
        """Send a command."""
        # a setting, so checked here rather than by the parameter's schema
        limit = service.settings.idempotency_key_max_length
        if idempotency_key is not None and len(idempotency_key) > limit:
            raise InvalidParameterError(
                f"header parameter Idempotency-Key: {len(idempotency_key)} characters;"
                f" expected 1 to {limit}"
            )
        authorization = request.headers.get("authorization")
        reply = await service.run_command(game_id, authorization, data, idempotency_key)
        headers = {"Idempotent-Replayed": "true"} if reply.replayed else None
        return Response(reply.body, headers=headers)

    @get(
        "/replay/{seq:int}",
        sync_to_thread=True,
        operation_id="getReplay",
        summary="A seat's view after an event",
        description=(
            "The caller's view as it was after event `seq` (0: before the first event)."
            " The same hidden-information rule as the view applies. With `as`, the view of"
            " that seat instead: anyone may choose any seat once the game is finished (its"
            " whole log is public then); while it is in progress, only with that seat's own"
            " token (otherwise 403 `replay-seat-hidden`, which reveals nothing)."
        ),
        security=OPTIONAL_SEAT_TOKEN,
        responses={
            200: ResponseSpec(
                data_container=AnyView,
                description="The view at that step, `version` = `seq`.",
                generate_examples=False,
                examples=[example("Seat 0 after event 4", VIEW_EXAMPLE)],
            ),
            **problems(
                400,
                401,
                403,
                404,
                codes={
                    400: PARAMETER_CODES,
                    403: "`forbidden` (a token of another game), `replay-seat-hidden` (`as`"
                    " another seat of a game in progress)",
                    404: "`game-not-found`, `seq-out-of-range`, `seat-not-found` (`as`)",
                },
            ),
        },
    )
    def get_replay(
        self,
        game_id: FromPath[str],
        seq: Annotated[int, PathParameter(description="The step: an event's seq.")],
        request: Request[Any, Any, Any],
        service: NamedDependency[GameService],
        as_seat: Annotated[
            int | None,
            QueryParameter(
                name="as",
                description=(
                    "View as this seat rather than the token's: any seat of a finished game,"
                    " only the token's own seat of a game in progress."
                ),
            ),
        ] = None,
    ) -> AnyView:
        """A seat's view after an event."""
        seat = service.caller(game_id, request.headers.get("authorization"))
        return service.replay(game_id, seat, seq, as_seat=as_seat)
