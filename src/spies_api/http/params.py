"""Parameter types shared by the controllers."""

from __future__ import annotations

from typing import Annotated, Final

from litestar.params import QueryParameter

from spies_api.settings import DEFAULTS

__all__ = [
    "MAX_INDEX",
    "After",
    "EventsLimit",
    "GamesLimit",
    "Limit",
    "Offset",
    "StreamTicketParam",
]

MAX_INDEX: Final = 2**53 - 1
"""The largest seq or offset accepted (the largest integer a JSON number holds exactly)."""

After = Annotated[
    int,
    QueryParameter(
        ge=0,
        le=MAX_INDEX,
        description="Only events with a greater seq (0: from the start).",
    ),
]
Limit = Annotated[
    int | None,
    QueryParameter(
        ge=1, le=MAX_INDEX, description="At most this many items (capped by the server)."
    ),
]
EventsLimit = Annotated[
    int | None,
    QueryParameter(
        ge=1,
        le=MAX_INDEX,
        description=(
            f"At most this many events: {DEFAULTS.events_page_default} (a whole game) when"
            f" omitted; a larger value than the server's maximum, {DEFAULTS.events_page_max},"
            " is lowered to it."
        ),
    ),
]
GamesLimit = Annotated[
    int | None,
    QueryParameter(
        ge=1,
        le=MAX_INDEX,
        description=(
            f"At most this many games: {DEFAULTS.games_page_default} when omitted; a larger"
            f" value than the server's maximum, {DEFAULTS.games_page_max}, is lowered to it"
            " (the answer's `limit` shows the one applied)."
        ),
    ),
]
Offset = Annotated[int, QueryParameter(ge=0, le=MAX_INDEX, description="Items to skip.")]
StreamTicketParam = Annotated[
    str | None,
    QueryParameter(
        name="ticket",
        min_length=1,
        max_length=128,
        pattern=r"^[A-Za-z0-9_\-]+$",
        description=(
            "A seat's stream ticket (`POST /games/{id}/seats/{seat}/stream-ticket`), for a"
            " client that cannot send `Authorization` (a browser's `EventSource`): the"
            " stream is that seat's. Single use; an unknown, used or expired ticket is 401"
            " `invalid-stream-ticket`, never the spectators' stream."
        ),
    ),
]
