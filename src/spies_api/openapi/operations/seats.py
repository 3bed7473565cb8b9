"""The operations on seats: joins, hand-overs to a bot and back, a rematch, the bots."""

from __future__ import annotations

from typing import Final

from spies_api.openapi.examples import BOTS_EXAMPLE, KEY_ID, NEXT_ID
from spies_api.openapi.operations.common import (
    BOT_GAMES_NOTES,
    OPTIONAL_PLAYER_TOKEN,
    SEAT_TOKEN_REQUIRED,
    Operation,
    ok,
)
from spies_api.openapi.problems import (
    BODY,
    EVERY_OPERATION,
    ON_A_GAME,
    SEAT_CALLER,
    Raised,
    problems,
)
from spies_api.problems.errors import TooManyBotGamesError
from spies_api.schemas import (
    NAME_MAX,
    TICKET_SECONDS,
    TICKETS_PER_SEAT,
    BotList,
    ChangedSeat,
    JoinedSeat,
    KeyList,
    RematchResponse,
    StreamTicket,
)

__all__ = ["SEATS_OPERATIONS"]

JOINED_EXAMPLE: Final = {
    "seat": 1,
    "token": "Xq3v0yL2dC7mJd9oQ4mJr8r1y5e6Z0w2uY1oC9pT3hA",
    "receipt": None,
}
HANDED_SEAT_EXAMPLE: Final = {
    "seat": 1,
    "type": "joined",
    "name": "Grace",
    "bot": "random",
    "receipt": None,
}
TAKEN_BACK_EXAMPLE: Final = {**HANDED_SEAT_EXAMPLE, "bot": None}
REMATCH_EXAMPLE: Final = {
    "id": NEXT_ID,
    "seat": 0,
    "token": "1hQ3mZ5s0bN8yW2cE4rT6uI9oP7aS1dF3gH5jK7lZ9x",
    "receipt": None,
}

_KEYS_EXAMPLE: Final = {
    "keys": [
        {
            "key_id": KEY_ID,
            "algorithm": "ed25519",
            "public_key": "hRl3ExLG5TtiB_BlJNtgoSBG1LVXSoKsi1WSS2P-m6k",
        }
    ]
}
"""The example key (:data:`~spies_api.openapi.examples.KEY_ID`), which signed the example
receipt."""

_SEAT_CHANGE: Final[tuple[Raised, ...]] = ("version-conflict", "game-over", "storage-full")
"""What any change of a game's seats may answer besides its own codes: a race lost again and
again to other writers of the game, a finished game, a full disk."""
_JOIN: Final[tuple[Raised, ...]] = (
    *BODY,
    "unknown-player",
    "game-not-found",
    "invalid-name",
    "invalid-entropy",
    "entropy-not-accepted",
    *_SEAT_CHANGE,
)
"""What a join answers, whichever seat it takes."""
_HOLDER: Final[tuple[Raised, ...]] = (*ON_A_GAME, *SEAT_CALLER, "not-your-seat", "seat-not-found")
"""What an operation on a seat by its holder answers (the seat's own token)."""
_NOTES: Final = {
    "invalid-entropy": "not 16 to 64 bytes of hex",
    "entropy-not-accepted": "entropy to a game whose `seed_source` is not `mixed`",
    "game-over": "the game has finished",
    "version-conflict": "other changes of the game won the race every time; retry",
    "seat-not-handed": "no bot plays the seat",
    "handed-seat-not-moved": "the seat has not moved since its hand-over",
    **BOT_GAMES_NOTES,
}

SEATS_OPERATIONS: Final[dict[str, Operation]] = {
    "joinSeat": Operation(
        summary="Join an open seat",
        description=(
            f"Takes an open seat with a display name (1 to {NAME_MAX} printable characters,"
            " public) and returns the seat's secret bearer token, once. Of any number of racing"
            " joins of one seat exactly one wins; the others get 409 `seat-taken`. Recorded"
            " in the log as `seat_joined`. In a game created with a commitment (`seed_source`"
            " `mixed`), `entropy` (16 to 64 bytes as hex) goes into the seed of the deal,"
            " recorded as `entropy_added` after the join (`docs/protocol.md`, entropy)."
            " With a player token (`POST /players`) as"
            " `Authorization: Bearer`, the seat is the player's (`GET /players/me/games`); any"
            " other `Authorization` is ignored."
        ),
        security=OPTIONAL_PLAYER_TOKEN,
        responses={
            200: ok(JoinedSeat, "The seat and its token.", ("Seat 1 joined", JOINED_EXAMPLE)),
            **problems(
                *_JOIN,
                "seat-not-found",
                "seat-taken",
                notes=_NOTES,
                examples={404: "seat-not-found", 422: "invalid-name"},
            ),
        },
    ),
    "joinGame": Operation(
        summary="Join the first open seat",
        description=(
            "Takes the game's first open seat with a display name and returns it with its"
            " secret bearer token, once; 409 `no-open-seat` when none is left. A player token"
            " makes the seat the player's, as for `joinSeat`."
        ),
        security=OPTIONAL_PLAYER_TOKEN,
        responses={
            200: ok(JoinedSeat, "The seat taken and its token.", ("Seat 1 joined", JOINED_EXAMPLE)),
            **problems(
                *_JOIN,
                "no-open-seat",
                notes=_NOTES,
                examples={409: "no-open-seat", 422: "invalid-name"},
            ),
        },
    ),
    "handSeatToBot": Operation(
        summary="Hand the seat to a bot",
        description=(
            "With the seat's own token: a registered bot (`GET /bots`) plays the seat on the"
            " server from now on, until `DELETE` on the same path takes it back. Recorded in"
            " the log as `seat_handed_to_bot`; the bot's commands are recorded as the seat's,"
            " marked with the bot's name. Handing a seat to the bot that already plays it"
            " changes nothing."
        ),
        security=SEAT_TOKEN_REQUIRED,
        responses={
            200: ok(
                ChangedSeat,
                "The seat now.",
                ("Seat 1 played by the random bot", HANDED_SEAT_EXAMPLE),
            ),
            **problems(
                *BODY,
                *_HOLDER,
                "seat-not-handed",
                "unknown-bot",
                TooManyBotGamesError,
                *_SEAT_CHANGE,
                notes=_NOTES,
                examples={403: "not-your-seat", 404: "seat-not-found", 422: "unknown-bot"},
            ),
        },
    ),
    "takeSeatBack": Operation(
        summary="Take the seat back from its bot",
        description=(
            "With the seat's own token: the seat's bot stops playing it. Recorded in the log"
            " as `seat_taken_back`. 409 `seat-not-handed` when no bot plays the seat, 409"
            " `handed-seat-not-moved` when the seat has not moved since it was handed over"
            " (its bot moves when the seat is next to act; a seat handed over on time moved"
            " in the same batch)."
        ),
        security=SEAT_TOKEN_REQUIRED,
        responses={
            200: ok(
                ChangedSeat, "The seat now.", ("Seat 1 back with its holder", TAKEN_BACK_EXAMPLE)
            ),
            **problems(
                *_HOLDER,
                "seat-not-handed",
                "handed-seat-not-moved",
                *_SEAT_CHANGE,
                notes=_NOTES,
                examples={403: "not-your-seat", 404: "seat-not-found", 409: "seat-not-handed"},
            ),
        },
    ),
    "streamTicket": Operation(
        summary="A ticket that opens the seat's event stream once",
        description=(
            "With the seat's own token: a secret `ticket` that opens this seat's event"
            " stream once (`GET /games/{id}/events/stream?ticket=<ticket>`), for a client"
            " that cannot send `Authorization`, such as a browser's `EventSource`; the"
            " token itself never goes in a URL. The ticket is good for"
            f" {TICKET_SECONDS:g} s (`expires_at`), once, on the server process that issued"
            f" it; a seat holds at most {TICKETS_PER_SEAT} unused tickets (a new one drops"
            " its oldest). Nothing is recorded in the log."
        ),
        security=SEAT_TOKEN_REQUIRED,
        responses={
            200: ok(
                StreamTicket,
                "The ticket.",
                (
                    "A ticket for seat 1",
                    {
                        "ticket": "q0Zt3WJm6l0a1Jx2kq9cQp7GfG2vJ8y1mV3yC5dZx0s",
                        "expires_at": "2026-11-29T18:29:11.785251Z",
                    },
                ),
            ),
            **problems(*ON_A_GAME, *SEAT_CALLER, "not-your-seat", examples={403: "not-your-seat"}),
        },
    ),
    "rematch": Operation(
        summary="The caller's seat in the rematch",
        description=(
            "With a seat token of a finished game: the same seat in the next game, which"
            " has the same options (but never an explicit `deal`: it deals afresh), a new"
            " secret seed and the same seat types (open seats"
            " stay open, bots stay bots; every other seat is kept for its holder). The first"
            " call creates the next game; each later call by another seat's holder takes"
            " that seat in it (`seat_claimed`); the same seat calling again gets the same"
            " answer. The rematch of a game whose clock has a bot play timeouts counts, when"
            " this call creates it, against the caller's bot games (429 `too-many-bot-games`)."
        ),
        security=SEAT_TOKEN_REQUIRED,
        responses={
            200: ok(
                RematchResponse,
                "The next game's id, and the caller's seat and token in it.",
                ("Seat 0 in the rematch", REMATCH_EXAMPLE),
            ),
            **problems(
                *ON_A_GAME,
                *SEAT_CALLER,
                "game-not-finished",
                "seat-taken",
                "invalid-options",
                TooManyBotGamesError,
                "storage-full",
                notes={
                    "invalid-options": "the game's options are no longer valid",
                    **BOT_GAMES_NOTES,
                },
                examples={409: "game-not-finished", 422: "invalid-options"},
            ),
        },
    ),
    "listBots": Operation(
        summary="List the bots",
        description=(
            "Every registered bot: its name (for a `bot` seat or a hand-over), the games it"
            " plays and how it plays."
        ),
        responses={
            200: ok(BotList, "The bots.", ("The bots", BOTS_EXAMPLE)),
            **problems(every=EVERY_OPERATION[:1]),
        },
    ),
    "listKeys": Operation(  # receipts
        summary="List the receipt signing keys",
        description=(
            "The public keys the server signs receipts with: every answer that appends (a"
            " created game, a command, a join, a hand-over or take-back, a rematch) carries a"
            " `receipt`, an Ed25519 signature of the game's id, version and head hash"
            " (`docs/protocol.md`, receipts). The key of `receipt.key_id` is listed here;"
            " keys retired by a rotation stay listed, so old receipts keep verifying. Save"
            " this answer as KEYS.json for `spies-replay verify --receipt R.json --keys"
            " KEYS.json`."
        ),
        responses={
            200: ok(KeyList, "The keys, oldest first.", ("One key", _KEYS_EXAMPLE)),
            **problems(),
        },
    ),
}
"""The operations on seats and bots, by operation id."""
