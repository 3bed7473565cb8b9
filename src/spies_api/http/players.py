"""``/players``: make a player, list the player's games (:mod:`spies_api.service.players`)."""

from __future__ import annotations

import math
from typing import Annotated, Any

from litestar import Controller, Request, Response, get
from litestar.params import Body

from spies_api.http.body import body_post
from spies_api.http.dependencies import Provided
from spies_api.http.edge import RateLimiter, rate_key_of
from spies_api.http.params import GamesLimit, Offset
from spies_api.openapi.operations import documented
from spies_api.openapi.operations.players import CREATE_PLAYER_EXAMPLES
from spies_api.problems.errors import TooManyPlayersError
from spies_api.schemas import CreatePlayerRequest, PlayerCreated, PlayerGames
from spies_api.service.placement import blocking
from spies_api.service.players import PlayerService
from spies_api.settings import Settings

__all__ = ["PlayerDoor", "PlayersController"]


class PlayerDoor:
    """How many players each client may create: a bucket per client (on the event loop).

    Args:
        limiter: the buckets (``Settings.player_rate_limit``), or ``None`` for no limit.
    """

    def __init__(self, limiter: RateLimiter | None) -> None:
        self.limiter = limiter

    def admit(self, client: str) -> None:
        """Take one of ``client``'s creations.

        Raises:
            TooManyPlayersError: its bucket is empty (429, with ``Retry-After``).
        """
        if self.limiter is None:
            return
        wait = self.limiter.take(client)
        if wait > 0:
            raise TooManyPlayersError(
                "this address has created as many players as the server allows for now; a"
                " browser keeps its player: reuse its token",
                retry_after=max(1, math.ceil(wait)),
            )


class PlayersController(Controller):
    """Players: an optional identity that owns the seats it creates or joins."""

    path = "/players"
    tags = ["players"]

    @body_post("/", CreatePlayerRequest, "createPlayer", status_code=201)
    async def create_player(
        self,
        data: Annotated[CreatePlayerRequest, Body(examples=CREATE_PLAYER_EXAMPLES)],
        players: Provided[PlayerService],
        player_door: Provided[PlayerDoor],
        request: Request[Any, Any, Any],
    ) -> Response[PlayerCreated]:
        """Create a player."""
        player_door.admit(rate_key_of(request.scope))
        created = await blocking(players.create, data.display_name)
        return Response(created, status_code=201)

    @get("/me/games", sync_to_thread=True, **documented("listPlayerGames"))
    def my_games(
        self,
        players: Provided[PlayerService],
        settings: Provided[Settings],
        request: Request[Any, Any, Any],
        limit: GamesLimit = None,
        offset: Offset = 0,
    ) -> Response[PlayerGames]:
        """List the player's games."""
        player = players.me(request.headers.get("authorization"))
        size = settings.games_page_default if limit is None else limit
        listed = players.games(player, limit=min(size, settings.games_page_max), offset=offset)
        # the answer holds seat tokens: no cache, not even the browser's, keeps it
        return Response(listed, headers={"Cache-Control": "no-store"})
