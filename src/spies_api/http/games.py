"""``/games``: create, list, summarise and export games (public: no token needed)."""

from __future__ import annotations

import re
from typing import Annotated

from litestar import Controller, Response, get, post, route
from litestar.di import NamedDependency
from litestar.enums import HttpMethod
from litestar.openapi import ResponseSpec
from litestar.params import Body, FromPath, FromQuery, QueryParameter

from spies_api.http.body import StrictBody
from spies_api.http.params import GamesLimit, Offset
from spies_api.openapi.examples import (
    CREATE_REQUEST_EXAMPLES,
    CREATED_EXAMPLE,
    PARAMETER_CODES,
    SEATED_CREATED_EXAMPLE,
    SUMMARY_EXAMPLE,
    example,
    problems,
)
from spies_api.problems.errors import InvalidParameterError
from spies_api.schemas import CreateGameRequest, GameCreatedResponse, GameList, GameSummary
from spies_api.service.games import GameService
from spies_api.settings import DEFAULTS
from spies_core.registry import GAMES
from spies_replay.store import GameStatus

__all__ = ["EXPORT_MEDIA_TYPE", "GamesController"]

EXPORT_MEDIA_TYPE = "application/x-ndjson"
_SAFE_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


class GamesController(Controller):
    """Games as a whole."""

    path = "/games"
    tags = ["games"]

    @post(
        "/",
        dto=StrictBody[CreateGameRequest],
        return_dto=None,
        sync_to_thread=True,
        status_code=201,
        operation_id="createGame",
        summary="Create a game",
        description=(
            "Creates a game of a registered game id with `players` seats (default: the game's"
            " minimum), validated `options` (the game's own options schema, chosen by `game`)"
            " and an optional `seed` (a reproducible game)."
            " `seats` (one entry per seat) makes seats `creator` (the default), `open` (to be"
            " joined) or `bot` (played by the server). Returns one secret bearer token per"
            " creator seat, once; only their hashes are kept."
        ),
        responses={
            201: ResponseSpec(
                data_container=GameCreatedResponse,
                description="The game, its version and one secret token per seat.",
                generate_examples=False,
                examples=[
                    example("A new Deck of Spies game", CREATED_EXAMPLE),
                    example("Black Spy with open and bot seats", SEATED_CREATED_EXAMPLE),
                ],
            ),
            **problems(
                400,
                413,
                422,
                503,
                codes={
                    422: "`unknown-game`, `unknown-option`, `invalid-options`, `invalid-deal`,"
                    " `invalid-players`, `unsupported-variant`, `invalid-seats` (not one entry"
                    " per seat), `unknown-bot`, `invalid-name`"
                },
                examples={422: "unknown-game"},
            ),
        },
    )
    def create_game(
        self,
        data: Annotated[CreateGameRequest, Body(examples=CREATE_REQUEST_EXAMPLES)],
        service: NamedDependency[GameService],
    ) -> Response[GameCreatedResponse]:
        """Create a game."""
        created = service.create(data)
        return Response(created, status_code=201, headers={"Location": f"/games/{created.id}"})

    @get(
        "/",
        sync_to_thread=True,
        operation_id="listGames",
        summary="List games",
        description=(
            "Public summaries, oldest first, filtered by game id and status. `open=true` is"
            " the lobby: the games in progress with an open seat to join."
        ),
        responses={
            200: ResponseSpec(
                data_container=GameList,
                description="One page of summaries and the total count.",
                generate_examples=False,
                examples=[
                    example(
                        "One active game",
                        {
                            "games": [SUMMARY_EXAMPLE],
                            "total": 1,
                            "limit": DEFAULTS.games_page_default,
                            "offset": 0,
                        },
                    )
                ],
            ),
            **problems(400, codes={400: PARAMETER_CODES}),
        },
    )
    def list_games(
        self,
        service: NamedDependency[GameService],
        game: Annotated[
            str | None, QueryParameter(description="Only games of this game id.")
        ] = None,
        status: FromQuery[GameStatus | None] = None,
        limit: GamesLimit = None,
        offset: Offset = 0,
        open_seats: Annotated[
            bool | None,
            QueryParameter(
                name="open",
                description=(
                    "`true`: only games in progress with an open seat (the lobby); `false`:"
                    " only the others."
                ),
            ),
        ] = None,
    ) -> GameList:
        """List games."""
        if game is not None and game not in GAMES:
            raise InvalidParameterError(
                f"query parameter game: unknown game {game!r}; known games: {', '.join(GAMES)}"
            )
        settings = service.settings
        size = settings.games_page_default if limit is None else limit
        return service.list_games(
            game=game,
            status=status,
            limit=min(size, settings.games_page_max),
            offset=offset,
            open_seats=open_seats,
        )

    @route("/", http_method=HttpMethod.OPTIONS, include_in_schema=False, sync_to_thread=False)
    def allow(self) -> Response[None]:
        """``OPTIONS /games``: ``Allow`` lists both methods.

        Litestar's automatic OPTIONS handler of a path served by two handlers lists only the
        methods of the first one it saw (``OPTIONS, POST``); this one is exact. It is named
        to sort first: the controller's handlers are registered in name order, and once a
        path has an OPTIONS handler Litestar adds no automatic one.
        """
        return Response(content=None, status_code=204, headers={"Allow": "GET, OPTIONS, POST"})

    @get(
        "/{game_id:str}",
        sync_to_thread=True,
        operation_id="getGame",
        summary="Summary of a game",
        description=(
            "Status, version, seats, the seats to act, the outcome and the head hash (the"
            " fingerprint of the whole log). Public: no hidden card, token or seed."
        ),
        responses={
            200: ResponseSpec(
                data_container=GameSummary,
                description="The public summary.",
                generate_examples=False,
                examples=[example("An active game", SUMMARY_EXAMPLE)],
            ),
            **problems(400, 404, codes={400: PARAMETER_CODES, 404: "`game-not-found`"}),
        },
    )
    def get_game(
        self, game_id: FromPath[str], service: NamedDependency[GameService]
    ) -> GameSummary:
        """Summary of a game."""
        return service.summary(game_id)

    @get(
        "/{game_id:str}/export",
        sync_to_thread=True,
        media_type=EXPORT_MEDIA_TYPE,
        operation_id="exportGame",
        summary="Export a finished game",
        description=(
            "The whole log as `spies-replay/1` JSON Lines: a header line with the game's"
            " record, then one line per event with its command, actor, time and hash; the"
            " last event reveals the seed. `spies-replay import` verifies and imports it, and"
            " re-derives every shuffle. Games in progress are refused (409)."
        ),
        responses={
            200: ResponseSpec(
                data_container=str,
                media_type=EXPORT_MEDIA_TYPE,
                description="JSON Lines, one object per line.",
                generate_examples=False,
                examples=[
                    example(
                        "The first two lines",
                        '{"format":"spies-replay/1","id":"p4o45j2v5srgh5il",'
                        '"game":"deck-of-spies","players":1,"options":{},"status":"finished",'
                        '"version":127,...}\n'
                        '{"seq":1,"type":"game_created","actor":null,"command":null,'
                        '"event":{"type":"game_created","game":"deck-of-spies",...},...}\n',
                    )
                ],
            ),
            **problems(
                400,
                404,
                409,
                codes={
                    400: PARAMETER_CODES,
                    404: "`game-not-found`",
                    409: "`game-not-finished`",
                },
                examples={409: "game-not-finished"},
            ),
        },
    )
    def export_game(
        self, game_id: FromPath[str], service: NamedDependency[GameService]
    ) -> Response[bytes]:
        """Export a finished game."""
        body = service.export(game_id)
        name = game_id if _SAFE_NAME.fullmatch(game_id) else "game"
        return Response(
            body,
            media_type=EXPORT_MEDIA_TYPE,
            headers={"Content-Disposition": f'attachment; filename="{name}.jsonl"'},
        )
