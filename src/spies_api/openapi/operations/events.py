"""The operations on a game's log: a page of events, the live stream."""

from __future__ import annotations

from typing import Final

from litestar.openapi import ResponseSpec

from spies_api.openapi.examples import EVENTS_EXAMPLE, example
from spies_api.openapi.operations.common import OPTIONAL_SEAT_TOKEN, Operation, ok
from spies_api.openapi.problems import ON_A_GAME, SEAT_CALLER, problems
from spies_api.schemas import AnyStreamMessage, EventsPage
from spies_api.settings import DEFAULTS

__all__ = ["EVENTS_OPERATIONS"]

_STREAM_EVENT: Final = (
    '{"type":"spy_countered","spy":"5S","cards":["2C","4C"],"seq":5,'
    '"recorded_at":"2026-11-29T18:28:41.785251Z"}'
)
# The example is one message as the schema describes it (what an EventSource hands over):
# an example must match its schema. Its lines on the wire are in the response's description.
_STREAM_EXAMPLE: Final = {"event": "message", "id": "5", "data": _STREAM_EVENT}

EVENTS_OPERATIONS: Final[dict[str, Operation]] = {
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
            200: ok(EventsPage, "A page of events.", ("One event", EVENTS_EXAMPLE)),
            **problems(*ON_A_GAME, *SEAT_CALLER),
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
            "**State pushed.** Every stream opens with one `event: snapshot` message, and"
            " each batch of events that brings it to the game's version is followed by one"
            " `event: state` message; the `data` of both is a `StreamState`: `version`, the"
            " summary's `status` and `to_act`, the reader's `view` (as `GET"
            " /games/{id}/view`) and, for a seat, its `legal` commands (as `GET"
            " /games/{id}/legal`; `null` for a spectator). Events with a seq up to its"
            " `version` are already in it. Neither has an `id` (`Last-Event-ID` stays the last"
            " event's) and an `EventSource` hands them only to `snapshot` and `state`"
            " listeners, never to `onmessage`. A client that follows the stream needs no"
            " `GET /view` or `GET /legal` after each move.\n\n"
            "**A seat's stream from a browser.** `EventSource` cannot send `Authorization`,"
            " and a seat token never goes in a URL (`?token=` is 400 `token-in-url`): ask"
            " for a ticket with the seat's token (`POST"
            " /games/{id}/seats/{seat}/stream-ticket`) and open"
            " `/games/{id}/events/stream?ticket=<ticket>`. A ticket opens one stream, once,"
            " within its `expires_at`, on the server process that issued it; an unknown,"
            " used or expired ticket is 401 `invalid-stream-ticket` (never the spectators'"
            " stream). `EventSource` reconnects with the same URL, whose ticket is used: on"
            " its `error`, close it, ask for a new ticket and open"
            " `?ticket=<new>&after=<last id seen>`.\n\n"
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
                data_container=AnyStreamMessage,
                media_type="text/event-stream",
                description=(
                    "Server-sent events; the schema is that of each message, by its kind"
                    " (`event`, the SSE field; `message` when the message has no `event:`"
                    " line): `message`, an event of the log (`id` its seq, `data` the event"
                    " as JSON, as in `GET /games/{id}/events`); `snapshot` (first) and"
                    " `state` (after each batch), the reader's `StreamState`; `reconnect`,"
                    " a server's last word at shutdown. Each message is lines `field: value`"
                    " ended by a blank line; `data` is one line of JSON. The example's"
                    " message on the wire, then a keep-alive: `id: 5\\r\\ndata:"
                    f" {_STREAM_EVENT}\\r\\n\\r\\n: keep-alive\\r\\n\\r\\n`."
                ),
                generate_examples=False,
                examples=[example("An event of the log", _STREAM_EXAMPLE)],
            ),
            204: ResponseSpec(
                data_container=None,
                description="The game is over and every event was already sent.",
            ),
            **problems(
                *ON_A_GAME,
                "token-in-url",
                *SEAT_CALLER,
                "invalid-stream-ticket",
                "too-many-client-streams",
                "too-many-streams",
                notes={
                    "invalid-parameter": "a query, path or header parameter, or both a ticket"
                    " and a bearer token",
                    "token-in-url": "a seat token in the URL",
                    "unauthorized": "a bad bearer token",
                    "invalid-stream-ticket": "a ticket unknown, used, expired or of another game",
                    "too-many-client-streams": "the client already holds as many open streams"
                    " as allowed, `max_streams_per_client`",
                    "too-many-streams": "the game's spectator streams, or the server's"
                    " streams, are at their cap",
                },
                examples={503: "too-many-streams"},
            ),
        },
    ),
}
"""The operations on a game's log, by operation id."""
