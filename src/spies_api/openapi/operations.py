"""What the document says of each operation, keyed by its operation id.

The controllers say what a route does (its path, its body, its dependencies) and take the
rest from here with :func:`documented`: the summary, the description, who may call it, and
every answer with its codes and examples. So a handler reads as what it does, and the
document's prose is in one place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from litestar.openapi import ResponseSpec

from spies_api.openapi.examples import (
    BOT_GAMES_429,
    BOTS_EXAMPLE,
    COMMAND_RESPONSE_EXAMPLE,
    CREATED_EXAMPLE,
    EVENTS_EXAMPLE,
    HANDED_SEAT_EXAMPLE,
    JOINED_EXAMPLE,
    LEGAL_EXAMPLE,
    PARAMETER_CODES,
    REMATCH_EXAMPLE,
    SEATED_CREATED_EXAMPLE,
    SUMMARY_EXAMPLE,
    TAKEN_BACK_EXAMPLE,
    VIEW_EXAMPLE,
    example,
    free_path_limited,
    not_ready,
    problems,
)
from spies_api.schemas import (
    NAME_MAX,
    AnyView,
    BotList,
    CommandResponse,
    EventsPage,
    GameCreatedResponse,
    GameList,
    GameSummary,
    Health,
    JoinedSeat,
    LegalCommands,
    PublicSeat,
    Readiness,
    RematchResponse,
    StreamMessage,
)
from spies_api.settings import DEFAULTS

__all__ = [
    "EXPORT_MEDIA_TYPE",
    "OPERATIONS",
    "OPTIONAL_SEAT_TOKEN",
    "SEAT_TOKEN_REQUIRED",
    "Operation",
    "documented",
]

EXPORT_MEDIA_TYPE: Final = "application/x-ndjson"
"""The media type of a game's export (JSON Lines)."""

OPTIONAL_SEAT_TOKEN: Final[list[dict[str, list[str]]]] = [{"seatToken": []}, {}]
"""Security of endpoints open to spectators: a seat token, or none."""
SEAT_TOKEN_REQUIRED: Final[list[dict[str, list[str]]]] = [{"seatToken": []}]
"""Security of endpoints that need a seat."""


@dataclass(frozen=True, slots=True)
class Operation:
    """One operation as the document describes it.

    Attributes:
        summary: a line.
        description: what it does, for a client's author.
        responses: every answer, by status.
        security: who may call it (``None``: anyone, no token).
    """

    summary: str
    description: str
    responses: dict[int, ResponseSpec] = field(default_factory=dict)
    security: list[dict[str, list[str]]] | None = None


def _ok(container: Any, description: str, *examples: tuple[str, Any]) -> ResponseSpec:
    return ResponseSpec(
        data_container=container,
        description=description,
        generate_examples=False,
        examples=[example(summary, value) for summary, value in examples],
    )


_STREAM_EXAMPLE: Final = (
    'id: 5\r\ndata: {"type":"spy_countered","spy":"5S","cards":["2C","4C"],"seq":5,'
    '"recorded_at":"2026-11-29T18:28:41.785251Z"}\r\n\r\n: keep-alive\r\n\r\n'
)
_VIEW_DESCRIPTION: Final = (
    "The game's view struct (tagged by `game`) with `version` and `seat` (`null` for a"
    " spectator): the seat's own hidden cards and what the rules make public, never another"
    " seat's hidden cards or a deck's order while the game is in progress."
)
_GAME_NOT_FOUND: Final = {400: PARAMETER_CODES, 404: "`game-not-found`"}
_JOIN_CODES: Final = {
    400: "`malformed-body`, `invalid-parameter`",
    404: "`game-not-found`, `seat-not-found`",
    409: "`seat-taken`, `game-over`",
    422: "`invalid-name`",
}
_HOLDER_CODES: Final = {
    400: "`malformed-body`, `invalid-parameter`",
    401: "`unauthorized`",
    403: "`forbidden` (a token of another game), `not-your-seat` (of another seat)",
    404: "`game-not-found`, `seat-not-found`",
    409: "`seat-not-handed` (no bot plays the seat), `game-over`",
    422: "`unknown-bot`",
}

OPERATIONS: Final[dict[str, Operation]] = {
    # -- games ------------------------------------------------------------------------------
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
            " every view says `dealt: false`."
        ),
        responses={
            201: _ok(
                GameCreatedResponse,
                "The game, its version and one secret token per seat.",
                ("A new Deck of Spies game", CREATED_EXAMPLE),
                ("Black Spy with open and bot seats", SEATED_CREATED_EXAMPLE),
            ),
            **problems(
                400,
                413,
                422,
                503,
                507,
                codes={
                    422: "`unknown-game`, `unknown-option`, `invalid-options`, `invalid-deal`,"
                    " `invalid-players`, `unsupported-variant`, `invalid-seats` (not one entry"
                    " per seat), `fixed-deal-with-open-seat` (a `seed` or `options.deal` with an"
                    " open seat), `unknown-bot`, `invalid-name`",
                    429: f"{BOT_GAMES_429}, `too-many-games` (with `Retry-After`: the client"
                    " already has as many active games it created as allowed,"
                    " `--max-games-per-client`; a game waiting for players counts until it"
                    " fills, ends or expires)",
                },
                examples={422: "unknown-game"},
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
            200: _ok(
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
            **problems(400, codes={400: PARAMETER_CODES}),
        },
    ),
    "getGame": Operation(
        summary="Summary of a game",
        description=(
            "Status, version, seats, the seats to act, the outcome and the head hash (the"
            " fingerprint of the whole log). Public: no hidden card, token or seed."
        ),
        responses={
            200: _ok(GameSummary, "The public summary.", ("An active game", SUMMARY_EXAMPLE)),
            **problems(400, 404, codes=_GAME_NOT_FOUND),
        },
    ),
    "exportGame": Operation(
        summary="Export a finished game",
        description=(
            "The whole log as `spies-replay/1` JSON Lines: a header line with the game's"
            " record, then one line per event with its command, actor, time and hash; the"
            " last event reveals the seed. `spies-replay import` verifies and imports it, and"
            " re-derives every shuffle. Games in progress are refused (409). The format, its"
            " hash chain and its randomness are defined byte for byte in `docs/protocol.md`"
            " (JSON Schemas of the lines in `docs/protocol/`)."
        ),
        responses={
            200: ResponseSpec(
                data_container=str,
                media_type=EXPORT_MEDIA_TYPE,
                description="JSON Lines, one object per line.",
                generate_examples=False,
                examples=[
                    example(
                        "The first two lines",
                        '{"format":"spies-replay/1","id":"p4o45j2v5srgh5il",'
                        '"game":"deck-of-spies","players":1,"options":{},"status":"finished",'
                        '"version":127,...}\n'
                        '{"seq":1,"type":"game_created","actor":null,"command":null,'
                        '"event":{"type":"game_created","game":"deck-of-spies",...},...}\n',
                    )
                ],
            ),
            **problems(
                400,
                404,
                409,
                codes={**_GAME_NOT_FOUND, 409: "`game-not-finished`"},
                examples={409: "game-not-finished"},
            ),
        },
    ),
    # -- play -------------------------------------------------------------------------------
    "getView": Operation(
        summary="The caller's view",
        description=_VIEW_DESCRIPTION,
        security=OPTIONAL_SEAT_TOKEN,
        responses={
            200: _ok(AnyView, "The view now.", ("Seat 0 of a Deck of Spies game", VIEW_EXAMPLE)),
            **problems(400, 401, 403, 404, codes=_GAME_NOT_FOUND),
        },
    ),
    "getLegalCommands": Operation(
        summary="The caller's legal commands",
        description=(
            "Exactly the commands the rules accept from the caller now; each item can be"
            " posted back unchanged as `command`. Empty for a spectator, a seat not to act,"
            " and a finished game."
        ),
        security=OPTIONAL_SEAT_TOKEN,
        responses={
            200: _ok(
                LegalCommands,
                "The version they apply to, and the commands.",
                ("Two of seat 0's commands", LEGAL_EXAMPLE),
            ),
            **problems(400, 401, 403, 404, codes=_GAME_NOT_FOUND),
        },
    ),
    "postCommand": Operation(
        summary="Send a command",
        description=(
            "Applies one command of the token's seat. With `expected_version` (the `version`"
            " of `/legal` the command was chosen from), the command is applied if the game is"
            " still at that version, or if it moved on without a command of the seat and"
            " without changing its legal commands: another seat's move in a phase where"
            " several seats act at once (Black Spy's passing, Spies & Lies' intel), a join, a"
            " hand-over, a clock update. Otherwise it is refused (409 `version-conflict`, with"
            " `current_version`): a request sent again is never applied twice. With"
            " `expected_game_version`, the strict check, any other version of the game refuses"
            " it, whatever was recorded since. Commands on one game"
            " are applied one at a time. Returns the new version and the new events as the"
            " seat may see them; a refused command appends nothing. A replayed"
            " `Idempotency-Key` answer carries the header `Idempotent-Replayed: true`."
        ),
        security=SEAT_TOKEN_REQUIRED,
        responses={
            200: _ok(
                CommandResponse,
                "The command was applied (or replayed from its Idempotency-Key).",
                ("A counter", COMMAND_RESPONSE_EXAMPLE),
            ),
            **problems(
                400,
                401,
                403,
                404,
                409,
                413,
                422,
                503,
                507,
                codes={404: "`game-not-found`", 409: "`version-conflict` (with `current_version`)"},
            ),
        },
    ),
    "getReplay": Operation(
        summary="A seat's view after an event",
        description=(
            "The caller's view as it was after event `seq` (0: before the first event)."
            " The same hidden-information rule as the view applies. With `as`, the view of"
            " that seat instead: anyone may choose any seat once the game is finished (its"
            " whole log is public then); while it is in progress, only with that seat's own"
            " token (otherwise 403 `replay-seat-hidden`, which reveals nothing)."
        ),
        security=OPTIONAL_SEAT_TOKEN,
        responses={
            200: _ok(
                AnyView,
                "The view at that step, `version` = `seq`.",
                ("Seat 0 after event 4", VIEW_EXAMPLE),
            ),
            **problems(
                400,
                401,
                403,
                404,
                codes={
                    400: PARAMETER_CODES,
                    403: "`forbidden` (a token of another game), `replay-seat-hidden` (`as`"
                    " another seat of a game in progress)",
                    404: "`game-not-found`, `seq-out-of-range`, `seat-not-found` (`as`)",
                },
            ),
        },
    ),
    # -- events -----------------------------------------------------------------------------
    "listEvents": Operation(
        summary="The event log",
        description=(
            "Events with `seq > after`, each flat: the event's fields, `type`, `seq` and"
            " `recorded_at`. While the game is in progress each caller sees them redacted by"
            " the rules (a spectator sees only public facts); once it is over, everything."
            " Pass `next_after` as `after` for the next page."
        ),
        security=OPTIONAL_SEAT_TOKEN,
        responses={
            200: _ok(EventsPage, "A page of events.", ("One event", EVENTS_EXAMPLE)),
            **problems(400, 401, 403, 404, codes=_GAME_NOT_FOUND),
        },
    ),
    "streamEvents": Operation(
        summary="The event log, live (server-sent events)",
        description=(
            "The same events as `GET /games/{id}/events`, as `text/event-stream`: one message"
            " per event with `id: <seq>` and `data: <event JSON>`; a `: keep-alive` comment at"
            f" least every {DEFAULTS.sse_keepalive_seconds:g} s; the stream ends after the"
            " final event (`seed_revealed`). Resumes after `Last-Event-ID` (or `?after=`)."
            " 204 when a finished game has nothing after that point (EventSource then stops"
            " reconnecting). Events are pushed: a command wakes its game's streams at once"
            " (through another server process sharing the database, within a moment), and"
            " an idle stream sends only its keep-alives.\n\n"
            "**A server shutting down** ends its streams with one last message of type"
            " `reconnect` (`event: reconnect`, no `id`, `retry: 1000`, `data:"
            ' {"reason": "shutdown", "after": N}` with N the last seq sent): reconnect, to'
            " another server process, with `Last-Event-ID` (or `?after=N`); nothing is"
            " lost. An `EventSource` delivers it only to a `reconnect` listener, never to"
            " `onmessage`, and reconnects by itself.\n\n"
            "**Seats before spectators.** A game has at most"
            f" {DEFAULTS.max_streams_per_game} open spectator streams (server setting"
            " `max_streams_per_game`); one more is 503 `too-many-streams` with `Retry-After`."
            " A seat's own streams (with its token) do not count there: each seat may hold"
            f" {DEFAULTS.max_streams_per_seat} (`max_streams_per_seat`), and its next one ends"
            " its oldest, which sends a last `: superseded by a newer stream of this seat`"
            " comment, rather than being"
            " refused, so a client whose old connections died unnoticed is never locked out"
            f" by them. The server holds at most {DEFAULTS.max_streams} streams in all"
            " (`max_streams`); spectators may take all but a tenth of them, which is kept for"
            " seats, so no number of spectators of a game, or of the whole server, refuses a"
            " seat its stream; past that, 503 `too-many-streams` with `Retry-After`. One client"
            f" address holds at most {DEFAULTS.max_streams_per_client} streams, its seats' and"
            " its spectators' together (`max_streams_per_client`, kept below the seats'"
            " tenth), so no one client can take the seats' share; one more is 429"
            " `too-many-client-streams` with `Retry-After`. The caps are per server process."
        ),
        security=OPTIONAL_SEAT_TOKEN,
        responses={
            200: ResponseSpec(
                data_container=StreamMessage,
                media_type="text/event-stream",
                description=(
                    "Server-sent events; the schema is that of each message: `id` is the"
                    " seq, `data` one event as JSON, as in `GET /games/{id}/events`."
                ),
                generate_examples=False,
                examples=[example("An event, then a keep-alive", _STREAM_EXAMPLE)],
            ),
            204: ResponseSpec(
                data_container=None,
                description="The game is over and every event was already sent.",
            ),
            **problems(
                400,
                401,
                403,
                404,
                503,
                codes={
                    **_GAME_NOT_FOUND,
                    429: "`too-many-requests` (with `Retry-After`), `too-many-client-streams`"
                    " (with `Retry-After`: the client already holds as many open streams as"
                    " allowed, `max_streams_per_client`)",
                    503: "`too-many-streams` (with `Retry-After`): the game's spectator"
                    " streams, or the server's streams, are at their cap; `store-unavailable`"
                    " (with `Retry-After`): the database cannot be reached",
                },
                examples={503: "too-many-streams"},
            ),
        },
    ),
    # -- seats ------------------------------------------------------------------------------
    "joinSeat": Operation(
        summary="Join an open seat",
        description=(
            f"Takes an open seat with a display name (1 to {NAME_MAX} printable characters,"
            " public) and returns the seat's secret bearer token, once. Of any number of racing"
            " joins of one seat exactly one wins; the others get 409 `seat-taken`. Recorded"
            " in the log as `seat_joined`."
        ),
        responses={
            200: _ok(JoinedSeat, "The seat and its token.", ("Seat 1 joined", JOINED_EXAMPLE)),
            **problems(
                400,
                404,
                409,
                413,
                422,
                503,
                507,
                codes=_JOIN_CODES,
                examples={404: "seat-not-found", 409: "seat-taken", 422: "invalid-name"},
            ),
        },
    ),
    "joinGame": Operation(
        summary="Join the first open seat",
        description=(
            "Takes the game's first open seat with a display name and returns it with its"
            " secret bearer token, once; 409 `no-open-seat` when none is left."
        ),
        responses={
            200: _ok(
                JoinedSeat, "The seat taken and its token.", ("Seat 1 joined", JOINED_EXAMPLE)
            ),
            **problems(
                400,
                404,
                409,
                413,
                422,
                503,
                507,
                codes={
                    **_JOIN_CODES,
                    404: "`game-not-found`",
                    409: "`no-open-seat`, `game-over`",
                },
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
            200: _ok(
                PublicSeat,
                "The seat now.",
                ("Seat 1 played by the random bot", HANDED_SEAT_EXAMPLE),
            ),
            **problems(
                400,
                401,
                403,
                404,
                409,
                413,
                422,
                503,
                507,
                codes={**_HOLDER_CODES, 429: BOT_GAMES_429},
                examples={
                    403: "not-your-seat",
                    404: "seat-not-found",
                    409: "seat-not-handed",
                    422: "unknown-bot",
                },
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
            200: _ok(
                PublicSeat, "The seat now.", ("Seat 1 back with its holder", TAKEN_BACK_EXAMPLE)
            ),
            **problems(
                400,
                401,
                403,
                404,
                409,
                503,
                507,
                codes={
                    **_HOLDER_CODES,
                    400: PARAMETER_CODES,
                    409: "`seat-not-handed` (no bot plays the seat), `handed-seat-not-moved`"
                    " (the seat has not moved since its hand-over), `game-over`",
                },
                examples={403: "not-your-seat", 404: "seat-not-found", 409: "seat-not-handed"},
            ),
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
            200: _ok(
                RematchResponse,
                "The next game's id, and the caller's seat and token in it.",
                ("Seat 0 in the rematch", REMATCH_EXAMPLE),
            ),
            **problems(
                400,
                401,
                403,
                404,
                409,
                422,
                503,
                507,
                codes={
                    400: PARAMETER_CODES,
                    404: "`game-not-found`",
                    409: "`game-not-finished`, `seat-taken`",
                    422: "`invalid-options` (the game's options are no longer valid)",
                    429: BOT_GAMES_429,
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
            200: _ok(BotList, "The bots.", ("The bots", BOTS_EXAMPLE)),
            **problems(),
        },
    ),
    # -- operations (not the game API: no token; the bucket of the free paths) ---------------
    "healthz": Operation(
        summary="Liveness",
        description=(
            "200 while the process is alive and its event loop answers; the database is not"
            " asked, so a database outage never makes a process look dead (restarting it"
            " would not help). For a supervisor's liveness probe; not counted by the rate"
            " limit (its own bucket per client, far above any prober's rate)."
        ),
        responses={
            200: _ok(Health, "Alive.", ("Alive", {"status": "ok"})),
            **free_path_limited(),
        },
    ),
    "readyz": Operation(
        summary="Readiness",
        description=(
            "200 when this process may be sent traffic: its database answers within a few"
            " seconds and has every migration this code knows. Otherwise 503 `not-ready`"
            " with `Retry-After` and a `reason`: `draining` (it got SIGTERM and is finishing"
            " its requests: send new ones elsewhere), `store-unavailable` or `database-busy`"
            " (the database; the process reconnects by itself), `migrations-pending`. The"
            " database is asked at most once a second: its answer is kept for a second. For a"
            " load balancer's health check; not counted by the rate limit (its own bucket per"
            " client, far above any prober's rate)."
        ),
        responses={
            200: _ok(Readiness, "Ready.", ("Ready", {"status": "ready", "backend": "sqlite"})),
            **free_path_limited(),
            **not_ready(),
        },
    ),
}
"""Every operation of the API, by operation id."""


def documented(operation_id: str) -> dict[str, Any]:
    """The keyword arguments of a route decorator that document ``operation_id``.

    Raises:
        KeyError: an operation this module does not describe (every route must be).
    """
    found = OPERATIONS[operation_id]
    keywords: dict[str, Any] = {
        "operation_id": operation_id,
        "summary": found.summary,
        "description": found.description,
        "responses": found.responses,
    }
    if found.security is not None:
        keywords["security"] = found.security
    return keywords
