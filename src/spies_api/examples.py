"""Examples and error responses for the OpenAPI document (documentation only).

The example values are taken from a real Deck of Spies game (seed ``"demo"``) and shortened.
"""

from __future__ import annotations

from typing import Any, Final

from litestar.openapi import ResponseSpec
from litestar.openapi.spec import Example

from spies_api.errors import PROBLEM_MEDIA_TYPE, PROBLEM_TYPE_PREFIX
from spies_api.schemas import Problem

__all__ = [
    "COMMAND_REQUEST_EXAMPLES",
    "PARAMETER_CODES",
    "CREATE_REQUEST_EXAMPLES",
    "GAME_ID",
    "example",
    "problems",
]

GAME_ID: Final = "k7qv3xw2m5tz4bna"
HEAD_HASH: Final = "9c1e5f0b3a7d2e4c6b8a0f1e3d5c7b9a1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b"
TOKEN: Final = "q3Xz0r8mS1vA6fJ2pK9tN4wB7cY5hL0dE3gU8iO1uR6"
CREATED_AT: Final = "2026-11-29T17:00:00.000000Z"


def example(summary: str, value: Any) -> Example:
    """An OpenAPI example (Litestar keys it by position)."""
    return Example(summary=summary, value=value)


CREATE_REQUEST_EXAMPLES: Final = [
    example("A Deck of Spies game", {"game": "deck-of-spies"}),
    example(
        "A reproducible four-player Black Spy game",
        {"game": "black-spy", "players": 4, "seed": "tuesday-club", "options": {}},
    ),
]

COMMAND_REQUEST_EXAMPLES: Final = [
    example(
        "Counter the top spy (Deck of Spies)",
        {"command": {"type": "counter", "cards": ["2H", "4S"]}, "expected_version": 9},
    ),
    example("Play a card (Black Spy)", {"command": {"type": "play_card", "card": "red-1"}}),
]

CREATED_EXAMPLE: Final = {
    "id": GAME_ID,
    "game": "deck-of-spies",
    "players": 1,
    "status": "active",
    "version": 9,
    "head_hash": HEAD_HASH,
    "created_at": CREATED_AT,
    "seats": [{"seat": 0, "token": TOKEN}],
}

SUMMARY_EXAMPLE: Final = {
    "id": GAME_ID,
    "game": "deck-of-spies",
    "players": 1,
    "status": "active",
    "version": 9,
    "head_hash": HEAD_HASH,
    "seats": [{"seat": 0}],
    "to_act": [0],
    "outcome": None,
    "options": {},
    "seed_commitment": "2a4d…",
    "seed_source": "server",
    "rng": "hmac-sha256-fisher-yates/1",
    "created_at": CREATED_AT,
    "updated_at": CREATED_AT,
}

SPY_COUNTERED: Final = {
    "type": "spy_countered",
    "spy": "5C",
    "cards": ["2H", "4S"],
    "seq": 10,
    "recorded_at": "2026-11-29T17:00:05.000000Z",
}

COMMAND_RESPONSE_EXAMPLE: Final = {
    "version": 12,
    "status": "active",
    "events": [
        SPY_COUNTERED,
        {
            "type": "cards_drawn",
            "cards": ["7D", "QS"],
            "count": 2,
            "seq": 11,
            "recorded_at": "2026-11-29T17:00:05.000000Z",
        },
        {"type": "spy_revealed", "spy": "6H", "seq": 12, "recorded_at": "2026-11-29T17:00:05Z"},
    ],
    "outcome": None,
}

LEGAL_EXAMPLE: Final = {
    "version": 9,
    "seat": 0,
    "commands": [
        {"type": "counter", "cards": ["2H", "4S"], "retire": []},
        {"type": "recruit", "cards": ["9C"], "retire": []},
    ],
}

EVENTS_EXAMPLE: Final = {
    "events": [SPY_COUNTERED],
    "next_after": 10,
    "version": 12,
    "status": "active",
}

PARAMETER_CODES: Final = "`invalid-parameter` (a query, path or header parameter)"
"""The 400 codes of operations without a body."""

_PARAMETER_EXAMPLE: Final = (
    "Invalid parameter",
    "invalid-parameter",
    "Validation failed for GET /games?limit=0",
    {"errors": [{"message": "Expected `int` >= 1", "key": "limit", "source": "query"}]},
)

_PROBLEMS: Final[dict[int, tuple[str, str, str, dict[str, Any]]]] = {
    400: (
        "Malformed body or parameter",
        "malformed-body",
        "invalid request body: Object contains unknown field `cardz` - at `$.command`",
        {},
    ),
    401: ("Missing or unknown token", "unauthorized", "this token is not a seat of the game", {}),
    403: ("Token of another game", "forbidden", "this token is a seat of another game", {}),
    404: ("Unknown game or step", "game-not-found", f"no game with id {GAME_ID!r}", {}),
    409: (
        "Stale expected_version, or the game is not finished",
        "version-conflict",
        f"game {GAME_ID!r} is at version 12, not 9: another command was recorded first",
        {"current_version": 12, "expected_version": 9},
    ),
    413: ("Body over 64 KiB", "body-too-large", "Request Entity Too Large", {}),
    422: (
        "Refused by the rules (the code names the rule)",
        "not-your-turn",
        "seat 2 may not act now",
        {},
    ),
    503: (
        "Another process keeps the database locked",
        "database-busy",
        "the database is busy with another writer; retry shortly",
        {},
    ),
}

_TITLES: Final = {
    400: "Malformed request body",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Game not found",
    409: "Version conflict",
    413: "Request body too large",
    422: "Command refused by the rules",
    503: "Database busy",
}

_CODES: Final[dict[int, str]] = {
    400: "`malformed-body` (body not JSON, wrong type, unknown field), `invalid-parameter`",
    401: "`unauthorized`",
    403: "`forbidden`",
    404: "`game-not-found`, `seq-out-of-range`",
    409: "`version-conflict` (with `current_version`), `game-not-finished`",
    413: "`body-too-large`",
    422: (
        "a rule's code (`not-your-turn`, `must-follow`, `unnecessary-card`, ...), `game-over`,"
        " `wrong-game-command`, `idempotency-key-reused`, `unknown-game`, `unknown-option`,"
        " `invalid-options`, `invalid-deal`, `invalid-players`, `unsupported-variant`"
    ),
    503: "`database-busy` (with `Retry-After`)",
}


def problems(*statuses: int, codes: dict[int, str] | None = None) -> dict[int, ResponseSpec]:
    """Problem-details responses for ``statuses``, each with its codes and an example."""
    specs: dict[int, ResponseSpec] = {}
    for status in statuses:
        listed = (codes or {}).get(status, _CODES[status])
        parameter_only = status == 400 and "malformed-body" not in listed
        description, code, detail, extra = (
            _PARAMETER_EXAMPLE if parameter_only else _PROBLEMS[status]
        )
        title = "Invalid parameter" if parameter_only else _TITLES[status]
        specs[status] = ResponseSpec(
            data_container=Problem,
            media_type=PROBLEM_MEDIA_TYPE,
            description=f"{description}. Codes: {listed}.",
            generate_examples=False,
            examples=[
                example(
                    description,
                    {
                        "type": PROBLEM_TYPE_PREFIX + code,
                        "title": title,
                        "status": status,
                        "detail": detail,
                        "code": code,
                        **extra,
                    },
                )
            ],
        )
    return specs
