"""The operations on games: create, list, a summary, an export."""

from __future__ import annotations

from typing import Final

from litestar.openapi import ResponseSpec

from spies_api.openapi.examples import (
    CREATED_EXAMPLE,
    SEATED_CREATED_EXAMPLE,
    SUMMARY_EXAMPLE,
    example,
)
from spies_api.openapi.operations.common import (
    BOT_GAMES_NOTES,
    CONTENT_DISPOSITION,
    EXPORT_MEDIA_TYPE,
    OPTIONAL_PLAYER_TOKEN,
    Operation,
    if_none_match_answers,
    ok,
)
from spies_api.openapi.problems import BODY, ON_A_GAME, PARAMETERS, problems
from spies_api.problems.errors import TooManyBotGamesError
from spies_api.schemas import CommitmentResponse, GameCreatedResponse, GameList, GameSummary
from spies_api.settings import DEFAULTS
from spies_core.errors import InvalidOptionsError

_NOT_MODIFIED, _TAGGED_HEADERS = if_none_match_answers()

__all__ = ["GAMES_OPERATIONS"]

GAMES_OPERATIONS: Final[dict[str, Operation]] = {
    "createGame": Operation(
        summary="Create a game",
        description=(
            "Creates a game of a registered game id with `players` seats (default: the game's"
            " minimum), validated `options` (the game's own options schema, chosen by `game`)"
            " and an optional `seed` (a reproducible game)."
            " `seats` (one entry per seat) makes seats `creator` (the default), `open` (to be"
            " joined) or `bot` (played by the server). Returns one secret bearer token per"
            " creator seat, once; only their hashes are kept. A game with an open seat is"
            " dealt when its last open seat is taken: until then it waits for players, and"
            " every view says `dealt: false`. With `commitment_id` (from `POST /commitments`)"
            " and `entropy` (16 to 64 bytes as hex), the game deals from the committed server"
            " seed mixed with the creator's entropy and every joiner's (`seed_source`"
            " `mixed`): nobody alone chose the cards (`docs/protocol.md`, entropy)."
            " With a player token (`POST /players`) as"
            " `Authorization: Bearer`, the creator seats are the player's: `GET"
            " /players/me/games` lists them with their tokens; any other `Authorization` is"
            " ignored."
        ),
        security=OPTIONAL_PLAYER_TOKEN,
        responses={
            201: ok(
                GameCreatedResponse,
                "The game, its version and one secret token per seat.",
                ("A new Deck of Spies game", CREATED_EXAMPLE),
                ("Black Spy with open and bot seats", SEATED_CREATED_EXAMPLE),
            ),
            **problems(
                *BODY,
                "unknown-player",
                "commitment-used",
                "commitment-expired",
                "unknown-game",
                InvalidOptionsError,
                "invalid-seats",
                "fixed-deal-with-open-seat",
                "unknown-bot",
                "invalid-name",
                "invalid-clock",
                "invalid-entropy",
                "entropy-not-accepted",
                "unknown-commitment",
                TooManyBotGamesError,
                "too-many-games",
                "storage-full",
                notes={
                    "invalid-seats": "not one entry per seat",
                    "fixed-deal-with-open-seat": "a `seed` or `options.deal` with an open seat",
                    "invalid-clock": "a time control out of its bounds",
                    "invalid-seed": "an empty `seed`",
                    "entropy-not-accepted": "with a `seed` or a deal",
                    "too-many-games": "the client already has as many active games it created"
                    " as allowed, `--max-games-per-client`; a game waiting for players counts"
                    " until it fills, ends or expires",
                    **BOT_GAMES_NOTES,
                },
                examples={401: "unknown-player", 409: "commitment-used", 422: "unknown-game"},
            ),
        },
    ),
    "createCommitment": Operation(
        summary="Commit to a server seed",
        description=(
            "Draws a secret server seed and answers its sha256 (`seed_commitment`), unused:"
            " send the `commitment_id` with your `entropy` in `POST /games`, and the game"
            " deals from this seed mixed with the entropy of its creator and of each joiner"
            " who gives some (`seed_source` `mixed`; the derivation is `docs/protocol.md`'s"
            " entropy section). The game's `seed_commitment` is this one, and the seed it"
            " reveals at the end hashes to it. A commitment is used once, by the first"
            f" `POST /games` that names it, and expires after {DEFAULTS.commitment_ttl:g} s by"
            " default (`--commitment-ttl`). Nothing is recorded in a log."
        ),
        responses={
            201: ok(
                CommitmentResponse,
                "The commitment.",
                (
                    "A commitment",
                    {
                        "commitment_id": "Xq3d9Rz0bC1lN2mP4sT6vw",
                        "seed_commitment": (
                            "5d1c2e0a3b7f64c9d8e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7"
                        ),
                        "expires_at": "2026-12-02T18:40:00.000000Z",
                    },
                ),
            ),
            **problems(
                "too-many-commitments",
                "storage-full",
                notes={
                    "too-many-commitments": "the client holds `--max-commitments-per-client`"
                    " unused ones, or the server `--max-commitments`"
                },
            ),
        },
    ),
    "listGames": Operation(
        summary="List games",
        description=(
            "Public summaries, newest first, filtered by game id and status. `open=true` is"
            " the lobby: the games in progress with an open seat to join. For the next page,"
            " pass the answer's `next_before` as `before` (stable while new games arrive)."
        ),
        responses={
            200: ok(
                GameList,
                "One page of summaries and the total count.",
                (
                    "One active game",
                    {
                        "games": [SUMMARY_EXAMPLE],
                        "total": 1,
                        "limit": DEFAULTS.games_page_default,
                        "offset": 0,
                        "next_before": None,
                    },
                ),
            ),
            **problems(*PARAMETERS),
        },
    ),
    "getGame": Operation(
        summary="Summary of a game",
        description=(
            "Status, version, seats, the seats to act, the outcome and the head hash (the"
            " fingerprint of the whole log). Public: no hidden card, token or seed."
        ),
        headers=_TAGGED_HEADERS,
        responses={
            200: ok(GameSummary, "The public summary.", ("An active game", SUMMARY_EXAMPLE)),
            **_NOT_MODIFIED,
            **problems(*ON_A_GAME),
        },
    ),
    "exportGame": Operation(
        summary="Export a finished game",
        description=(
            "The whole log as `spies-replay/3` JSON Lines (a game created before format 3:"
            " `spies-replay/1`, or `/2` with players' entropy): a header line with the game's"
            " record, then one line per event with its command, actor, time and hash; the"
            " last event reveals the seed. `spies-replay import` verifies and imports it, and"
            " re-derives every shuffle. Games in progress are refused (409). The format, its"
            " hash chain and its randomness are defined byte for byte in `docs/protocol.md`"
            " (JSON Schemas of the lines in `docs/protocol/`)."
        ),
        headers={200: {"Content-Disposition": CONTENT_DISPOSITION}},
        responses={
            200: ResponseSpec(
                data_container=str,
                media_type=EXPORT_MEDIA_TYPE,
                description="JSON Lines, one object per line.",
                generate_examples=False,
                examples=[
                    example(
                        "The first two lines",
                        '{"format":"spies-replay/3","id":"p4o45j2v5srgh5il",'
                        '"game":"deck-of-spies","players":1,"options":{},"status":"finished",'
                        '"version":127,...}\n'
                        '{"seq":1,"type":"game_created","actor":null,"command":null,'
                        '"event":{"type":"game_created","game":"deck-of-spies",...},...}\n',
                    )
                ],
            ),
            **problems(*ON_A_GAME, "game-not-finished"),
        },
    ),
}
"""The operations on games, by operation id."""
