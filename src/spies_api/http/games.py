"""``/games``: create, list, summarise and export games (public: no token needed)."""

from __future__ import annotations

import re
from typing import Annotated, Any, Final

from litestar import Controller, Request, Response, get, route
from litestar.enums import HttpMethod
from litestar.params import Body, FromPath, FromQuery, QueryParameter

from spies_api.http.body import body_post
from spies_api.http.dependencies import Provided
from spies_api.http.edge import rate_key_of
from spies_api.http.etags import IfNoneMatch, Tagged, entity_tag, is_fresh, not_modified, tagged
from spies_api.http.params import GamesLimit, Offset
from spies_api.openapi.examples import CREATE_REQUEST_EXAMPLES
from spies_api.openapi.operations import EXPORT_MEDIA_TYPE, documented
from spies_api.problems.errors import InvalidParameterError
from spies_api.schemas import (
    BotSeatRequest,
    CreateGameRequest,
    GameCreatedResponse,
    GameList,
    GameSummary,
)
from spies_api.service.creation import GameCreator, bot_plays_timeouts
from spies_api.service.players import PlayerService, SeatClaims
from spies_api.service.queries import GameQueries
from spies_api.settings import Settings
from spies_api.table.quota import BotGameQuota, GameQuota
from spies_core.errors import UnknownGameError
from spies_core.registry import GAMES, get_game
from spies_replay.store.records import GameStatus

__all__ = ["GamesController"]

_SAFE_NAME: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")

OpenSeats = Annotated[
    bool | None,
    QueryParameter(
        name="open",
        description=(
            "`true`: only games in progress with an open seat (the lobby); `false`: only the"
            " others."
        ),
    ),
]

Before = Annotated[
    str | None,
    QueryParameter(
        max_length=64,
        description=(
            "A game id, the `next_before` of the previous page: only the games listed after"
            " it (older). Pages read this way neither skip nor repeat a game when new games"
            " are created meanwhile, as an `offset` would."
        ),
    ),
]


class GamesController(Controller):
    """Games as a whole."""

    path = "/games"
    tags = ["games"]

    @body_post("/", CreateGameRequest, "createGame", status_code=201, sync_to_thread=True)
    def create_game(
        self,
        data: Annotated[CreateGameRequest, Body(examples=CREATE_REQUEST_EXAMPLES)],
        creator: Provided[GameCreator],
        bot_quota: Provided[BotGameQuota],
        game_quota: Provided[GameQuota],
        players: Provided[PlayerService],
        request: Request[Any, Any, Any],
    ) -> Response[GameCreatedResponse]:
        """Create a game."""
        client = rate_key_of(request.scope)
        player = players.of_header(request.headers.get("authorization"))
        claims = None if player is None else SeatClaims(player)
        token_for = None if claims is None else claims.token_for
        bots_play = any(isinstance(seat, BotSeatRequest) for seat in data.seats or ())
        with game_quota.hold(client) as counted:
            if bots_play or bot_plays_timeouts(data.clock):
                with bot_quota.hold(client) as record:
                    created = creator.create(data, token_for)
                    record(created.id)
            else:
                created = creator.create(data, token_for)
            counted(created.id)
        if claims is not None:  # recorded with the game, in its one transaction
            players.owned(claims.player, created.id, sorted(claims.made))
        return Response(created, status_code=201, headers={"Location": f"/games/{created.id}"})

    @get("/", sync_to_thread=True, **documented("listGames"))
    def list_games(
        self,
        queries: Provided[GameQueries],
        settings: Provided[Settings],
        game: Annotated[
            str | None,
            QueryParameter(description="Only games of this game id.", enum=sorted(GAMES)),
        ] = None,
        status: FromQuery[GameStatus | None] = None,
        limit: GamesLimit = None,
        offset: Offset = 0,
        open_seats: OpenSeats = None,
        before: Before = None,
    ) -> GameList:
        """List games."""
        if game is not None:
            try:
                get_game(game)
            except UnknownGameError as unknown:
                raise InvalidParameterError(f"query parameter game: {unknown.message}") from None
        size = settings.games_page_default if limit is None else limit
        return queries.list_games(
            game=game,
            status=status,
            limit=min(size, settings.games_page_max),
            offset=offset,
            open_seats=open_seats,
            before=before,
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

    @get("/{game_id:str}", sync_to_thread=True, **documented("getGame"))
    def get_game(
        self,
        game_id: FromPath[str],
        queries: Provided[GameQueries],
        if_none_match: IfNoneMatch = None,
    ) -> Response[GameSummary]:
        """Summary of a game: 304 when ``If-None-Match`` names the tag of its current version
        and rematch link (checked on its record, before anything is folded)."""
        if if_none_match is not None:
            version, rematch = queries.summary_version(game_id)
            tag = entity_tag(Tagged.SUMMARY, game_id, version, None, rematch)
            if is_fresh(if_none_match, tag):
                return not_modified(tag, private=False)
        summary = queries.summary(game_id)
        tag = entity_tag(Tagged.SUMMARY, game_id, summary.version, None, summary.rematch or "")
        return tagged(summary, tag, private=False)

    @get(
        "/{game_id:str}/export",
        sync_to_thread=True,
        media_type=EXPORT_MEDIA_TYPE,
        **documented("exportGame"),
    )
    def export_game(
        self, game_id: FromPath[str], queries: Provided[GameQueries]
    ) -> Response[bytes]:
        """Export a finished game."""
        body = queries.export(game_id)
        name = game_id if _SAFE_NAME.fullmatch(game_id) else "game"
        return Response(
            body,
            media_type=EXPORT_MEDIA_TYPE,
            headers={"Content-Disposition": f'attachment; filename="{name}.jsonl"'},
        )
