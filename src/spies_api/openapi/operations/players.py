"""The operations of players: make one, list its games."""

from __future__ import annotations

from typing import Final

from spies_api.openapi.examples import example
from spies_api.openapi.operations.common import PLAYER_TOKEN_REQUIRED, Operation, ok
from spies_api.openapi.problems import PARAMETERS, problems
from spies_api.schemas import NAME_MAX, PlayerCreated, PlayerGames

__all__ = ["CREATE_PLAYER_EXAMPLES", "PLAYERS_OPERATIONS"]

CREATE_PLAYER_EXAMPLES: Final = [
    example("A player with a name", {"display_name": "Ada"}),
    example("A player without a name", {}),
]
"""The examples of ``POST /players``'s body."""

_PLAYER_EXAMPLE: Final = {
    "player_id": "5f0c8e1d2a9b7c34",
    "token": "player.q0lk3Hc8Zf1b6m9T2xYwRvA4sNuJpEoG7iD5LtKa1Bc",
    "display_name": "Ada",
}
_GAMES_EXAMPLE: Final = {
    "games": [
        {
            "game_id": "szfaio33ykf3d6wf",
            "game": "black-spy",
            "seat": 0,
            "status": "active",
            "version": 12,
            "to_act": [0],
            "updated_at": "2026-12-02T18:00:00.000000Z",
            "seat_token": "7bB0k1mQ0sPz2V8cXy4nW6eR9tU3iO5aL1dF7gH2jK8",
        }
    ],
    "total": 1,
    "limit": 50,
    "offset": 0,
}

PLAYERS_OPERATIONS: Final[dict[str, Operation]] = {
    "createPlayer": Operation(
        summary="Create a player",
        description=(
            "An optional identity: returns a player id and its secret token, once (the server"
            " keeps only its hash). Send the token as `Authorization: Bearer <token>` with"
            " `POST /games` or a join, and the seats handed out are recorded as the player's;"
            " `GET /players/me/games` lists them with their seat tokens. The body is `{}` or"
            f' `{{"display_name"}}` (1 to {NAME_MAX} printable characters). Each client address'
            " may create a few players an hour (`--player-rate-limit`): one more is 429"
            " `too-many-players`."
        ),
        responses={
            201: ok(PlayerCreated, "The player and its token.", ("A player", _PLAYER_EXAMPLE)),
            **problems(
                "malformed-body",
                "body-too-large",
                "invalid-name",
                "too-many-players",
                "storage-full",
            ),
        },
    ),
    "listPlayerGames": Operation(
        summary="The player's games",
        description=(
            "With a player token: the seats the player took (created or joined with the"
            " token), newest first, each with its game's status, version, `to_act` and the"
            " seat's token: the same token the creation or join answered, derived again from"
            " the player's token (so a lost seat token is found here, and only the player's"
            " own). A seat token is not a player token: 401 `unknown-player`."
        ),
        security=PLAYER_TOKEN_REQUIRED,
        responses={
            200: ok(PlayerGames, "A page of the player's seats.", ("One game", _GAMES_EXAMPLE)),
            **problems(
                *PARAMETERS,
                "unauthorized",
                "unknown-player",
                notes={"unauthorized": "no or a malformed header"},
                examples={401: "unknown-player"},
            ),
        },
    ),
}
