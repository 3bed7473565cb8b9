"""``/games/{id}/events``: the log as the caller may see it, paged and live (SSE)."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, Response, get
from litestar.params import HeaderParameter
from litestar.response import ServerSentEvent

from spies_api.http.compression import NOT_COMPRESSED
from spies_api.http.dependencies import Provided
from spies_api.http.edge import rate_key_of
from spies_api.http.params import MAX_INDEX, After, EventsLimit, StreamTicketParam
from spies_api.http.streaming import event_stream
from spies_api.openapi.operations import documented
from spies_api.problems.errors import InvalidParameterError
from spies_api.schemas import EventsPage
from spies_api.service.auth import Caller
from spies_api.service.notify import EventNotifier
from spies_api.service.placement import blocking
from spies_api.service.queries import GameQueries
from spies_api.service.slots import StreamSlots
from spies_api.service.stream_state import StreamStates
from spies_api.service.tickets import StreamTickets
from spies_api.settings import Settings
from spies_replay.store.records import GameStatus

__all__ = ["EventsController", "resume_point", "stream_caller"]

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


def stream_caller(caller: Caller, ticket: str | None, tickets: StreamTickets, query: Any) -> Caller:
    """Who a stream is for: the caller, or the seat its ``?ticket=`` opens.

    Raises:
        InvalidParameterError: ``token-in-url``: a ``?token=`` (a seat token never goes in
            a URL); ``invalid-parameter``: both a ticket and a bearer token.
        UnauthorizedError: ``invalid-stream-ticket``: a ticket unknown, used, expired or of
            another game (the ticket is used up either way).
    """
    if "token" in query:
        raise InvalidParameterError(
            "a seat token never goes in a URL (it would be logged and kept in histories):"
            " send it as 'Authorization: Bearer <token>', or open a seat's stream from a"
            " browser with a ticket (POST /games/{id}/seats/{seat}/stream-ticket, then"
            " ?ticket=)",
            code="token-in-url",
        )
    if ticket is None:
        return caller
    if caller.seat is not None:
        raise InvalidParameterError(
            "send either a stream ticket or an Authorization header, not both"
        )
    return Caller(caller.game_id, tickets.redeem(caller.game_id, ticket))


class EventsController(Controller):
    """The event log."""

    path = "/games/{game_id:str}/events"
    tags = ["events"]

    @get("/", sync_to_thread=True, **documented("listEvents"))
    def list_events(
        self,
        caller: Provided[Caller],
        queries: Provided[GameQueries],
        settings: Provided[Settings],
        after: After = 0,
        limit: EventsLimit = None,
    ) -> EventsPage:
        """The event log."""
        size = settings.events_page_default if limit is None else limit
        return queries.events(
            caller.game_id, caller.seat, after=after, limit=min(size, settings.events_page_max)
        )

    @get("/stream", opt={NOT_COMPRESSED: True}, **documented("streamEvents"))
    async def stream_events(
        self,
        caller: Provided[Caller],
        queries: Provided[GameQueries],
        notifier: Provided[EventNotifier],
        streams: Provided[StreamSlots],
        tickets: Provided[StreamTickets],
        stream_states: Provided[StreamStates],
        settings: Provided[Settings],
        request: Request[Any, Any, Any],
        last_event_id: LastEventId = None,
        after: After = 0,
        ticket: StreamTicketParam = None,
    ) -> Response[Any]:
        """The event log, live."""
        start = resume_point(last_event_id, after)
        caller = stream_caller(caller, ticket, tickets, request.query_params)
        record = await blocking(queries.record, caller.game_id)
        if record.status == GameStatus.FINISHED and start >= record.version:
            return Response(content=None, status_code=204)
        slot = streams.take(caller.game_id, caller.seat, client=rate_key_of(request.scope))
        return ServerSentEvent(
            event_stream(queries, stream_states, notifier, settings, caller, start, slot),
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
