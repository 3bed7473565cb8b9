"""Examples and error responses for the OpenAPI document (documentation only).

The values come from a real Deck of Spies game (seed ``"readme-demo"``, the session of
``docs/api.md``), as a seat and as a spectator saw them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from litestar.openapi import ResponseSpec
from litestar.openapi.spec import Example

from spies_api.problems.table import PROBLEM_MEDIA_TYPE, problem_document
from spies_api.schemas import NAME_MAX, Problem
from spies_api.settings import DEFAULTS, KIB
from spies_core.errors import UnknownGameError
from spies_core.registry import get_game

__all__ = [
    "KEY_ID",
    "RECEIPT_EXAMPLE",
    "COMMAND_REQUEST_EXAMPLES",
    "PARAMETER_CODES",
    "CREATE_REQUEST_EXAMPLES",
    "GAME_ID",
    "VIEW_EXAMPLE",
    "example",
    "problems",
]

GAME_ID: Final = "p4o45j2v5srgh5il"
BLACK_SPY_ID: Final = "x7gk2mqhz3nwa5rc"
NEXT_ID: Final = "b2rj6v4fqk7dx3ye"
HEAD_HASH: Final = "e162d97bde1a9b3a894a3c1bf307b5494e9b503ddc9105feb1e02276d09c325e"
TOKEN: Final = "rMuZqATWCiASHaJ0ZqW9VMIhM90Hs2c4Rsh0UX1yH9w"
CREATED_AT: Final = "2026-11-29T18:28:38.350886Z"
PLAYED_AT: Final = "2026-11-29T18:28:41.785251Z"


@dataclass
class _Example(Example):
    """An example rendered as given: Litestar drops ``None`` from the values it renders,
    which would take the ``null`` fields out of an example."""

    def to_schema(self) -> dict[str, Any]:
        return {"summary": self.summary, "value": self.value}


def example(summary: str, value: Any) -> Example:
    """An OpenAPI example (Litestar keys it by position)."""
    return _Example(summary=summary, value=value)


CREATE_REQUEST_EXAMPLES: Final = [
    example("A reproducible Deck of Spies game", {"game": "deck-of-spies", "seed": "readme-demo"}),
    example(
        "A four-player Black Spy game with a secret seed",
        {"game": "black-spy", "players": 4, "options": {}},
    ),
    example(
        "Spies & Lies on a longer board, one reserve deception token per side",
        {"game": "spies-and-lies", "options": {"board_length": 4, "deception_reserve": "per-side"}},
    ),
]

SEATED_CREATE_EXAMPLE: Final = {
    "game": "black-spy",
    "players": 4,
    "seats": [
        {"type": "creator", "name": "Ada"},
        {"type": "open"},
        {"type": "bot", "bot": "random"},
        {"type": "bot", "bot": "random"},
    ],
}
CREATE_REQUEST_EXAMPLES.append(
    example("Black Spy with one creator seat, one open seat and two bots", SEATED_CREATE_EXAMPLE)
)

SEATED_CREATED_EXAMPLE: Final = {
    "id": BLACK_SPY_ID,
    "game": "black-spy",
    "players": 4,
    "status": "active",
    "version": 3,
    "head_hash": HEAD_HASH,
    "created_at": CREATED_AT,
    "seats": [
        {"seat": 0, "type": "creator", "name": "Ada", "bot": None, "token": TOKEN},
        {"seat": 1, "type": "open", "name": None, "bot": None},
        {"seat": 2, "type": "bot", "name": None, "bot": "random"},
        {"seat": 3, "type": "bot", "name": None, "bot": "random"},
    ],
    "receipt": None,
}

JOIN_REQUEST_EXAMPLES: Final = [example("Join as Grace", {"name": "Grace"})]
BOT_REQUEST_EXAMPLES: Final = [example("Hand the seat to the random bot", {"bot": "random"})]
BOTS_EXAMPLE: Final = {
    "bots": [
        {
            "name": "random",
            "games": ["deck-of-spies", "black-spy", "spies-and-lies"],
            "description": "plays a uniformly random legal command",
        }
    ]
}

COMMAND_REQUEST_EXAMPLES: Final = [
    example(
        "Counter the top spy (Deck of Spies)",
        {"command": {"type": "counter", "cards": ["2C", "4C"]}, "expected_version": 4},
    ),
    example("Play a card (Black Spy)", {"command": {"type": "play_card", "card": "red-1"}}),
    example(
        "Pass three cards while other seats pass too (Black Spy; the version of /legal)",
        {
            "command": {"type": "pass_cards", "cards": ["red-1", "blue-4", "green-7"]},
            "expected_version": 6,
        },
    ),
    example(
        "Only at exactly this version of the game (the strict check)",
        {"command": {"type": "counter", "cards": ["2C", "4C"]}, "expected_game_version": 4},
    ),
]

_RECORD: Final = {
    "id": GAME_ID,
    "game": "deck-of-spies",
    "players": 1,
    "status": "active",
    "version": 4,
    "head_hash": HEAD_HASH,
}
"""What the create answer and the summary say alike of the example game."""

KEY_ID: Final = "b88a8e7c6a4a7323"
"""The example signing key's id (its private key is sha256 of ``spies example key``)."""

RECEIPT_EXAMPLE: Final = {
    "game_id": GAME_ID,
    "seq": 4,
    "head_hash": HEAD_HASH,
    "key_id": KEY_ID,
    "signature": (
        "i_t9-tAfrubDtAHSClAkphOyWM8crIiKkNLA3P0gjYglMMEVeqr1wQAv_GYzgp3DcBmdBlKjx_IZx7wYbyo-Bw"
    ),
}
"""The example game's receipt at version 4, signed by the example key (it verifies)."""

CREATED_EXAMPLE: Final = {
    **_RECORD,
    "created_at": CREATED_AT,
    "seats": [{"seat": 0, "type": "creator", "name": None, "bot": None, "token": TOKEN}],
    "receipt": RECEIPT_EXAMPLE,
}

SUMMARY_EXAMPLE: Final = {
    **_RECORD,
    "seats": [{"seat": 0, "type": "creator", "name": None, "bot": None}],
    "to_act": [0],
    "outcome": None,
    "options": {},
    "seed_commitment": "a0f200b681fe30739a242ecac905f7f3d3a139a4c5bcb387a32570cf3b983e42",
    "seed_source": "client",
    "rng": "hmac-sha256-fisher-yates/1",
    "created_at": CREATED_AT,
    "updated_at": CREATED_AT,
    "rematch": None,
    "rematch_of": None,
    "clock": None,
    "open_until": None,
}

_SPY_RANKS: Final = ("5", "6", "7", "8", "9", "10", "J", "Q", "K")

VIEW_EXAMPLE: Final = {
    "game": "deck-of-spies",
    "version": 4,
    "seat": 0,
    "phase": "playing",
    "turn": 1,
    "flags": {
        "strict_necessity": True,
        "ace_counts_in_necessity": True,
        "retire_multiple_ranks": False,
    },
    "top_spy": "5S",
    "spies_left": 36,
    "unseen_spies": [
        *(rank + suit for suit in "CDH" for rank in _SPY_RANKS),
        *(rank + "S" for rank in _SPY_RANKS[1:]),
    ],
    "hand": ["2C", "4C", "2D", "AS", "2S"],
    "hand_count": 5,
    "hand_total": 11,
    "draw_deck_count": 11,
    "draw_deck_cards": ["AC", "3C", "AD", "3D", "4D", "AH", "2H", "3H", "4H", "3S", "4S"],
    "draw_discard": [],
    "spy_discard": [],
    "spy_discard_count": 0,
    "removed": [],
    "owned_faces": 0,
    "to_act": [0],
    "result": None,
    "clock": None,
    "dealt": True,
}

SPY_COUNTERED: Final = {
    "type": "spy_countered",
    "spy": "5S",
    "cards": ["2C", "4C"],
    "seq": 5,
    "recorded_at": PLAYED_AT,
}

COMMAND_RESPONSE_EXAMPLE: Final = {
    "version": 7,
    "status": "active",
    "events": [
        SPY_COUNTERED,
        {
            "type": "cards_drawn",
            "cards": ["4H", "4S"],
            "count": 2,
            "seq": 6,
            "recorded_at": PLAYED_AT,
        },
        {"type": "spy_revealed", "spy": "7D", "turn": 2, "seq": 7, "recorded_at": PLAYED_AT},
    ],
    "outcome": None,
    "receipt": None,
}

LEGAL_EXAMPLE: Final = {
    "version": 4,
    "seat": 0,
    "commands": [
        {"type": "counter", "cards": ["2C", "4C"], "retire": []},
        {"type": "counter", "cards": ["2C", "4C"], "retire": ["2D", "2S"]},
        {"type": "recruit", "cards": ["4C", "AS"], "retire": []},
    ],
    "note": None,
}

EVENTS_EXAMPLE: Final = {
    "events": [
        SPY_COUNTERED,
        {"type": "cards_drawn", "cards": None, "count": 2, "seq": 6, "recorded_at": PLAYED_AT},
        {"type": "spy_revealed", "spy": "7D", "turn": 2, "seq": 7, "recorded_at": PLAYED_AT},
    ],
    "next_after": 7,
    "version": 7,
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
        f"game {GAME_ID!r} is at version 7, not 4: another command was recorded first",
        {"current_version": 7, "expected_version": 4},
    ),
    413: (
        f"Body over {DEFAULTS.max_body_bytes // KIB} KiB",
        "body-too-large",
        "Request Entity Too Large",
        {},
    ),
    429: (
        "Over the per-client rate limit (`--rate-limit`, 50/second by default);"
        " see the Retry-After header",
        "too-many-requests",
        "too many requests from this client; retry after the Retry-After seconds",
        {},
    ),
    422: (
        "Refused by the rules (the code names the rule)",
        "not-your-turn",
        "seat 2 may not act now",
        {},
    ),
    503: (
        "Unavailable for now; see the Retry-After header",
        "database-busy",
        "the database is busy with another writer; retry shortly",
        {},
    ),
    507: (
        "The database's disk is full; nothing was written (see the Retry-After header)",
        "storage-full",
        "the database is out of space: nothing of this request was written; reads still"
        " work, writes again once the operator frees space",
        {},
    ),
}


def _refusal_of(game: str) -> str:
    """The detail of an unknown game id, as the one lookup words it."""
    try:
        get_game(game)
    except UnknownGameError as unknown:
        return unknown.message
    raise AssertionError(f"{game!r} is a registered game")


_OTHER_EXAMPLES: Final[dict[str, tuple[str, str]]] = {
    "commitment-used": (
        "Commitment used",
        "seed commitment 'EeaM4BqMG6VKlmOhs6wtQw' was used already: ask for a new one",
    ),
    "seat-taken": ("Seat taken", f"seat 1 of game {BLACK_SPY_ID!r} is joined, not open"),
    "no-open-seat": ("No open seat", f"game {BLACK_SPY_ID!r} has no open seat left"),
    "seat-not-found": (
        "No such seat",
        f"game {BLACK_SPY_ID!r} has seats 0 to 3; there is no seat 7",
    ),
    "seat-not-handed": (
        "Seat not handed to a bot",
        f"no bot plays seat 0 of game {BLACK_SPY_ID!r}",
    ),
    "game-over": ("Game over", f"game {BLACK_SPY_ID!r} has finished; its seats cannot change"),
    "not-your-seat": ("Forbidden", "this token is seat 0's, not seat 2's"),
    "unknown-bot": ("Unknown bot", "unknown bot 'wizard'; known bots: random, greedy, expert"),
    "invalid-name": (
        "Invalid name",
        f"a name is 1 to {NAME_MAX} printable characters and not blank; '' (0 characters) is not",
    ),
    "game-not-finished": ("Game not finished", f"game {BLACK_SPY_ID!r} is still in progress"),
    "unknown-game": ("Unknown game", _refusal_of("chess")),
    "invalid-options": (
        "Invalid options",
        "invalid options for deck-of-spies: Expected `bool`, got `str` - at `$.strict_necessity`",
    ),
    "too-many-streams": (
        "Too many event streams",
        f"game {GAME_ID!r} already has {DEFAULTS.max_streams_per_game} spectator event"
        " streams, the most this server allows on one game (a seat's stream, with its token,"
        " is still served); close one or retry later",
    ),
    "unknown-player": ("Unauthorized", "this is not a player token of this server"),
}
"""Examples of other codes of a status: code -> (title, detail)."""

_OTHER_DESCRIPTIONS: Final[dict[str, str]] = {
    "commitment-used": "The seed commitment was used already, or it expired",
    "seat-taken": "The seat is not open, or the game is over",
    "no-open-seat": "No open seat left, or the game is over",
    "seat-not-found": "Unknown game or seat",
    "seat-not-handed": "No bot plays the seat, or the game is over",
    "not-your-seat": "A token of another seat or game",
    "unknown-bot": "Unknown bot, or a bad name or seats list",
    "invalid-name": "A display name that cannot be used",
    "game-not-finished": "The game is still in progress",
    "unknown-game": "Not a registered game, or options, players or seats it does not take",
    "invalid-options": "The game's options are no longer valid",
    "unknown-player": "Not a player token of this server",
}
"""The response description that goes with an example of another code."""

_TITLES: Final = {
    400: "Malformed request body",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Game not found",
    409: "Version conflict",
    413: "Request body too large",
    422: "Command refused by the rules",
    429: "Too many requests",
    503: "Database busy",
    507: "Database full",
}

BOT_GAMES_429: Final = (
    "`too-many-requests` (with `Retry-After`), `too-many-bot-games` (with `Retry-After`: the"
    " client already has as many active bot games, with a bot seat or a clock whose timeouts a"
    " bot plays, as allowed, `--max-bot-games-per-client`), `server-bot-games-full` (with"
    " `Retry-After`: the server already runs as many as it admits, all clients together,"
    " `--max-bot-games`)"
)
"""The 429 codes of the operations that seat a bot."""

_CODES: Final[dict[int, str]] = {
    400: "`malformed-body` (body not JSON, wrong type, unknown field), `invalid-parameter`",
    401: "`unauthorized`",
    403: "`forbidden`",
    404: "`game-not-found`, `seq-out-of-range`",
    409: "`version-conflict` (with `current_version`), `game-not-finished`",
    413: "`body-too-large`",
    429: "`too-many-requests` (with `Retry-After`)",
    422: (
        "a rule's code (`not-your-turn`, `must-follow`, `unnecessary-card`, ...), `game-over`,"
        " `wrong-game-command`, `idempotency-key-reused`, `unknown-game`, `unknown-option`,"
        " `invalid-options`, `invalid-deal`, `invalid-players`, `unsupported-variant`"
    ),
    503: "`database-busy`, `store-unavailable` (with `Retry-After`)",
    507: "`storage-full` (with `Retry-After`)",
}


def problems(
    *statuses: int, codes: dict[int, str] | None = None, examples: dict[int, str] | None = None
) -> dict[int, ResponseSpec]:
    """Problem-details responses for ``statuses``, 429 and 503, each with its codes and an
    example.

    Every operation documents 429 (a server run with a rate limit may answer it anywhere) and
    503 (a database gone away: ``store-unavailable``).
    ``examples`` picks another code's example for a status (see ``_OTHER_EXAMPLES``).
    """
    specs: dict[int, ResponseSpec] = {}
    for status in sorted({*statuses, 429, 503}):
        listed = (codes or {}).get(status, _CODES[status])
        parameter_only = status == 400 and "malformed-body" not in listed
        description, code, detail, extra = (
            _PARAMETER_EXAMPLE if parameter_only else _PROBLEMS[status]
        )
        title = "Invalid parameter" if parameter_only else _TITLES[status]
        other = (examples or {}).get(status)
        if other is not None:
            code, (title, detail) = other, _OTHER_EXAMPLES[other]
            description, extra = _OTHER_DESCRIPTIONS.get(other, description), {}
        specs[status] = ResponseSpec(
            data_container=Problem,
            media_type=PROBLEM_MEDIA_TYPE,
            description=f"{description}. Codes: {listed}.",
            generate_examples=False,
            examples=[example(description, problem_document(status, code, title, detail, extra))],
        )
    return specs


NOT_READY_EXAMPLE: Final = problem_document(
    503,
    "not-ready",
    "Not ready",
    "this process is shutting down: send new requests to another one",
    {"reason": "draining"},
)
"""What ``GET /readyz`` answers while the process drains."""


def free_path_limited() -> dict[int, ResponseSpec]:
    """429 alone, for the operators' paths: not counted by ``--rate-limit``, but by the
    bucket of the free paths (``--free-paths-rate-limit``)."""
    spec = problems()[429]
    return {
        429: ResponseSpec(
            data_container=spec.data_container,
            media_type=spec.media_type,
            description=(
                f"Over the per-client bucket of the paths the rate limit does not count"
                f" (`--free-paths-rate-limit`, {DEFAULTS.free_paths_rate_limit} by default);"
                " see the Retry-After header. Codes: `too-many-requests`."
            ),
            generate_examples=False,
            examples=spec.examples,
        )
    }


def not_ready() -> dict[int, ResponseSpec]:
    """The one problem of ``GET /readyz``: 503 ``not-ready`` with its ``reason``."""
    return {
        503: ResponseSpec(
            data_container=Problem,
            media_type=PROBLEM_MEDIA_TYPE,
            description=(
                "Not ready (with `Retry-After`). Codes: `not-ready`, its `reason` one of"
                " `draining`, `store-unavailable`, `database-busy`, `migrations-pending`."
            ),
            generate_examples=False,
            examples=[example("Shutting down", NOT_READY_EXAMPLE)],
        )
    }
