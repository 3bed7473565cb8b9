"""What every operation's documentation is made of: :class:`Operation`, a success answer
(:func:`ok`), who may call it, and the codes several operations share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from litestar.openapi import ResponseSpec
from litestar.openapi.spec import OpenAPIHeader, OpenAPIType, Schema

from spies_api.openapi.examples import example

__all__ = [
    "BOT_GAMES_NOTES",
    "CONTENT_DISPOSITION",
    "ETAG",
    "EXPORT_MEDIA_TYPE",
    "IDEMPOTENT_REPLAYED",
    "OPTIONAL_PLAYER_TOKEN",
    "OPTIONAL_SEAT_TOKEN",
    "PLAYER_TOKEN_REQUIRED",
    "RETRY_AFTER",
    "RETRY_LATER_STATUSES",
    "SEAT_TOKEN_REQUIRED",
    "Operation",
    "if_none_match_answers",
    "ok",
]

EXPORT_MEDIA_TYPE: Final = "application/x-ndjson"
"""The media type of a game's export (JSON Lines)."""

OPTIONAL_SEAT_TOKEN: Final[list[dict[str, list[str]]]] = [{"seatToken": []}, {}]
"""Security of endpoints open to spectators: a seat token, or none."""
SEAT_TOKEN_REQUIRED: Final[list[dict[str, list[str]]]] = [{"seatToken": []}]
"""Security of endpoints that need a seat."""
PLAYER_TOKEN_REQUIRED: Final[list[dict[str, list[str]]]] = [{"playerToken": []}]
"""Security of endpoints that need a player."""
OPTIONAL_PLAYER_TOKEN: Final[list[dict[str, list[str]]]] = [{"playerToken": []}, {}]
"""Security of the endpoints where a player token records the seats as the player's."""


RETRY_AFTER: Final = OpenAPIHeader(
    schema=Schema(type=OpenAPIType.INTEGER, minimum=0),
    description="Seconds after which the same request may succeed.",
    required=True,
)
"""``Retry-After``: every 429, 503 and 507 answer carries it (:mod:`spies_api.problems.table`)."""
RETRY_LATER_STATUSES: Final = (429, 503, 507)
"""The statuses whose answers say when to try again."""

IDEMPOTENT_REPLAYED: Final = OpenAPIHeader(
    schema=Schema(type=OpenAPIType.STRING, enum=["true"]),
    description=(
        "`true` when this is the stored answer of an earlier request with the same"
        " `Idempotency-Key` (nothing was applied again); absent otherwise."
    ),
)

CONTENT_DISPOSITION: Final = OpenAPIHeader(
    schema=Schema(
        type=OpenAPIType.STRING, pattern=r'^attachment; filename="[A-Za-z0-9_-]+\.jsonl"$'
    ),
    description='`attachment; filename="<game id>.jsonl"`: a browser saves the export as a file.',
    required=True,
)


ETAG: Final = OpenAPIHeader(
    schema=Schema(type=OpenAPIType.STRING, pattern=r'^W/"[0-9a-f]{24}"$'),
    description=(
        "A weak entity tag of this answer: of the game's version and of who reads it (a"
        " seat, or a spectator). Send it back as `If-None-Match`: while it is current, the"
        " answer is 304 with no body. A running clock's `remaining_ms` in a 304'd answer is"
        " as of the first answer; its `deadline` is current."
    ),
    required=True,
)


@dataclass(frozen=True, slots=True)
class Operation:
    """One operation as the document describes it.

    Attributes:
        summary: a line.
        description: what it does, for a client's author.
        responses: every answer, by status.
        security: who may call it (``None``: anyone, no token).
        headers: the headers of its answers, by status (``Retry-After`` is added to every
            429, 503 and 507 without being listed here).
    """

    summary: str
    description: str
    responses: dict[int, ResponseSpec] = field(default_factory=dict)
    security: list[dict[str, list[str]]] | None = None
    headers: dict[int, dict[str, OpenAPIHeader]] = field(default_factory=dict)


def ok(container: Any, description: str, *examples: tuple[str, Any]) -> ResponseSpec:
    """A success answer: its body's type, what it is, and named examples of it."""
    return ResponseSpec(
        data_container=container,
        description=description,
        generate_examples=False,
        examples=[example(summary, value) for summary, value in examples],
    )


def if_none_match_answers() -> tuple[dict[int, ResponseSpec], dict[int, dict[str, OpenAPIHeader]]]:
    """The 304 answer of a read with an ``ETag``, and the headers of its 200 and 304."""
    spec = ResponseSpec(
        data_container=None,
        description=(
            "Not modified: `If-None-Match` named the current `ETag`; no body (keep the"
            " answer that carried that tag)."
        ),
    )
    return {304: spec}, {200: {"ETag": ETAG}, 304: {"ETag": ETAG}}


BOT_GAMES_NOTES: Final = {
    "too-many-bot-games": "the client already has as many active bot games, with a bot seat or"
    " a clock whose timeouts a bot plays, as allowed, `--max-bot-games-per-client`",
    "server-bot-games-full": "the server already runs as many as it admits, all clients"
    " together, `--max-bot-games`",
}
"""What the codes of the operations that seat a bot mean."""
