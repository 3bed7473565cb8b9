"""Examples and error responses for the OpenAPI document (documentation only).

The values come from a real Deck of Spies game (seed ``"readme-demo"``, the session of
``docs/api.md``), as a seat and as a spectator saw them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from litestar.openapi.spec import Example

__all__ = [
    "KEY_ID",
    "RECEIPT_EXAMPLE",
    "COMMAND_REQUEST_EXAMPLES",
    "CREATE_REQUEST_EXAMPLES",
    "GAME_ID",
    "VIEW_EXAMPLE",
    "example",
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
    "names": ["Ada"],
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
