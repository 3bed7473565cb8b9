"""``/games/{id}/events``: the log as the caller may see it, paged and live (SSE)."""

from __future__ import annotations

from typing import Annotated, Any

import anyio
from litestar import Controller, Request, Response, get
from litestar.di import NamedDependency
from litestar.openapi import ResponseSpec
from litestar.params import FromPath, HeaderParameter
from litestar.response import ServerSentEvent

from spies_api.http.params import MAX_INDEX, OPTIONAL_SEAT_TOKEN, After, EventsLimit
from spies_api.http.streaming import event_stream
from spies_api.openapi.examples import EVENTS_EXAMPLE, PARAMETER_CODES, example, problems
from spies_api.problems.errors import InvalidParameterError
from spies_api.schemas import EventsPage, StreamMessage
from spies_api.service.games import GameService
from spies_replay.store import GameStatus

__all__ = ["EventsController", "resume_point"]

_STREAM_EXAMPLE = (
    'id: 5\r\ndata: {"type":"spy_countered","spy":"5S","cards":["2C","4C"],"seq":5,'
    '"recorded_at":"2026-11-29T18:28:41.785251Z"}\r\n\r\n: keep-alive\r\n\r\n'
)

LastEventId = Annotated[
    str | None,
    HeaderParameter(
        name="Last-Event-ID",
        pattern=r"^\s*[0-9]{0,16}\s*$",
        description="Resume after this seq (sent by EventSource on reconnection).",
    ),
]


def resume_point(last_event_id: str | None, after: int) -> int:
    """Where a stream starts: after ``Last-Event-ID`` if given, else after ``after``.

    Raises:
        InvalidParameterError: ``Last-Event-ID`` is not a seq.
    """
    if last_event_id is None or not last_event_id.strip():
        return after
    text = last_event_id.strip()
    if not text.isascii() or not text.isdigit() or len(text) > 16 or int(text) > MAX_INDEX:
        raise InvalidParameterError(
            "Last-Event-ID must be the seq of an event this stream sent (a whole number)"
        )
    return int(text)


class EventsController(Controller):
    """The event log."""

    path = "/games/{game_id:str}/events"
    tags = ["events"]

    @get(
        "/",
        sync_to_thread=True,
        operation_id="listEvents",
        summary="The event log",
        description=(
            "Events with `seq > after`, each flat: the event's fields, `type`, `seq` and"
            " `recorded_at`. While the game is in progress each caller sees them redacted by"
            " the rules (a spectator sees only public facts); once it is over, everything."
            " Pass `next_after` as `after` for the next page."
        ),
        security=OPTIONAL_SEAT_TOKEN,
        responses={
            200: ResponseSpec(
                data_container=EventsPage,
                description="A page of events.",
                generate_examples=False,
                examples=[example("One event", EVENTS_EXAMPLE)],
            ),
            **problems(400, 401, 403, 404, codes={400: PARAMETER_CODES, 404: "`game-not-found`"}),
        },
    )
    def list_events(
        self,
        game_id: FromPath[str],
        request: Request[Any, Any, Any],
        service: NamedDependency[GameService],
        after: After = 0,
        limit: EventsLimit = None,
    ) -> EventsPage:
        """The event log."""
        seat = service.caller(game_id, request.headers.get("authorization"))
        settings = service.settings
        size = settings.events_page_default if limit is None else limit
        return service.events(game_id, seat, after=after, limit=min(size, settings.events_page_max))

    @get(
        "/stream",
        operation_id="streamEvents",
        summary="The event log, live (server-sent events)",
        description=(
            "The same events as `GET /games/{id}/events`, as `text/event-stream`: one message"
            " per event with `id: <seq>` and `data: <event JSON>`; a `: keep-alive` comment at"
            " least every 15 s; the stream ends after the final event (`seed_revealed`)."
            " Resumes after `Last-Event-ID` (or `?after=`). 204 when a finished game has"
            " nothing after that point (EventSource then stops reconnecting). A game has at"
            " most 64 open streams at once (server setting `max_streams_per_game`); one more"
            " is 503 `too-many-streams` with `Retry-After`."
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
                    400: PARAMETER_CODES,
                    404: "`game-not-found`",
                    503: "`too-many-streams` (with `Retry-After`)",
                },
                examples={503: "too-many-streams"},
            ),
        },
    )
    async def stream_events(
        self,
        game_id: FromPath[str],
        request: Request[Any, Any, Any],
        service: NamedDependency[GameService],
        last_event_id: LastEventId = None,
        after: After = 0,
    ) -> Response[Any]:
        """The event log, live."""
        start = resume_point(last_event_id, after)
        authorization = request.headers.get("authorization")
        seat = await anyio.to_thread.run_sync(service.caller, game_id, authorization)
        record = await anyio.to_thread.run_sync(service.record, game_id)
        if record.status == GameStatus.FINISHED and start >= record.version:
            return Response(content=None, status_code=204)
        slot = service.streams.take(game_id)
        return ServerSentEvent(
            event_stream(service, game_id, seat, start, slot),
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
