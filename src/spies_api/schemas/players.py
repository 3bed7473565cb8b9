"""Players: ``POST /players`` and ``GET /players/me/games``."""

from __future__ import annotations

from typing import Annotated, Final

import msgspec

from spies_api.schemas.seats import NAME_MAX
from spies_replay.store.records import GameStatus

__all__ = ["CreatePlayerRequest", "PlayerCreated", "PlayerGame", "PlayerGames"]

_NAME_LENGTH: Final = msgspec.Meta(extra_json_schema={"minLength": 1, "maxLength": NAME_MAX})


class CreatePlayerRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Body of ``POST /players`` (optional: no body is a player without a name)."""

    display_name: Annotated[str | None, _NAME_LENGTH] = None
    """A display name of printable characters, as a seat's name (kept, never a secret);
    ``null``: none."""


class PlayerCreated(msgspec.Struct, frozen=True, kw_only=True):
    """Answer to ``POST /players``: the player's id and its secret token (once)."""

    player_id: str
    """The player's public id."""
    token: str
    """The player's secret bearer token (``player.`` and 43 url-safe characters), shown only
    here: send it as ``Authorization: Bearer <token>`` to ``POST /games``, the joins and
    ``GET /players/me/games``. It is not a seat token: a game's endpoints refuse it."""
    display_name: str | None = None
    """The display name given, or ``null``."""


class PlayerGame(msgspec.Struct, frozen=True, kw_only=True):
    """One seat a player holds, and the way back to it."""

    game_id: str
    """The game's id."""
    game: str
    """The game id, e.g. ``black-spy``."""
    seat: int
    """The player's seat in it."""
    status: GameStatus
    """``active`` or ``finished``."""
    version: int
    """The game's version now."""
    to_act: list[int]
    """The seats that may send a command now (empty once the game is over)."""
    updated_at: str
    """When the game last changed (ISO 8601 UTC)."""
    seat_token: str
    """The seat's bearer token: the very token the creation or the join answered (derived
    from the player's token, so only its holder gets it; the server keeps neither)."""


class PlayerGames(msgspec.Struct, frozen=True, kw_only=True):
    """A page of the player's seats, newest first (by when the player took each)."""

    games: list[PlayerGame]
    """This page's seats, newest first."""
    total: int
    """How many seats the player holds, over all pages."""
    limit: int
    """The page size used (the request's ``limit``, lowered to the server's maximum)."""
    offset: int
    """How many seats this page skipped."""
