"""The log as clients see it: every event with its ``seq`` and ``recorded_at``, a page of
events, and a message of the event stream."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Final

import msgspec

from spies_api.schemas.per_game import members_of, one_games, union_of
from spies_core.registry import GAMES
from spies_replay.meta import META_EVENTS
from spies_replay.store.records import GameStatus

__all__ = ["AnyEvent", "EventsPage", "StreamMessage", "event_out", "events_of_game"]


def _event_out_type(event_type: type[msgspec.Struct]) -> type[msgspec.Struct]:
    """The event as sent: its fields, then ``seq`` and ``recorded_at``; same tag."""
    out = msgspec.defstruct(
        event_type.__name__,
        [("seq", _SEQ), ("recorded_at", _RECORDED_AT)],
        bases=(event_type,),
        tag=event_type.__struct_config__.tag,
        frozen=True,
        kw_only=True,
        module=__name__,
    )
    out.__doc__ = (event_type.__doc__ or event_type.__name__).strip()
    return out


_SEQ = Annotated[
    int,
    msgspec.Meta(
        description="The event's position in the game's log: 1 for the first event; the"
        " game's version after it."
    ),
]
_RECORDED_AT = Annotated[
    str,
    msgspec.Meta(description="When the event was appended: an ISO 8601 UTC timestamp."),
]

_EVENT_TYPES: Final[tuple[type[msgspec.Struct], ...]] = (
    META_EVENTS[0],
    *(event for spec in GAMES.values() for event in members_of(spec.event_type)),
    *META_EVENTS[1:],
)
_EVENT_OUT: Final[dict[type[msgspec.Struct], type[msgspec.Struct]]] = {
    event: _event_out_type(event) for event in _EVENT_TYPES
}

if TYPE_CHECKING:
    AnyEvent = Any
else:
    AnyEvent = union_of(_EVENT_OUT.values())


def _game_events_out(spec: Any) -> Any:
    """The events a game's log can hold, as sent: the log's own and the game's."""
    own = members_of(spec.event_type)
    return union_of(_EVENT_OUT[event] for event in (META_EVENTS[0], *own, *META_EVENTS[1:]))


def events_of_game(answer: type[msgspec.Struct]) -> Any:
    """How an answer with ``events`` is documented: one schema per game
    (``<Game><Answer>``), whose ``events`` are that game's and the log's own, discriminated
    by ``type`` (the answer does not name its game: the path's game does)."""
    return union_of(
        one_games(
            answer,
            {"events": list[_game_events_out(spec)]},  # type: ignore[misc]
            f"{spec.options_type.__name__.removesuffix('Options')}{answer.__name__}",
            doc=f"{(answer.__doc__ or answer.__name__).strip()} A game of {spec.title}"
            f" (``{name}``).",
            module=__name__,
        )
        for name, spec in GAMES.items()
    )


def event_out(event: msgspec.Struct, seq: int, recorded_at: str) -> msgspec.Struct:
    """The Struct sent for an (already redacted) event at ``seq``."""
    out_type = _EVENT_OUT[type(event)]
    return out_type(**msgspec.structs.asdict(event), seq=seq, recorded_at=recorded_at)


class EventsPage(msgspec.Struct, frozen=True, kw_only=True):
    """A page of the log as the caller may see it."""

    events: list[AnyEvent]
    """The events after ``after``, in seq order, redacted for the caller while the game is
    in progress (everything once it is over)."""
    next_after: int
    """Pass as ``after`` for the next page: the last seq looked at (``after`` when none)."""
    version: int
    """The game's version when the page was read."""
    status: GameStatus
    """``active`` while the game goes on, ``finished`` once it is over."""


class StreamMessage(msgspec.Struct, frozen=True, kw_only=True, tag_field="event", tag="message"):
    """An event of the log, one message of ``GET /games/{id}/events/stream``
    (``text/event-stream``) as an ``EventSource`` hands it over (``onmessage``). On the wire
    it has an ``id:`` line and one ``data:`` line and no ``event:`` line, which SSE reads as
    ``message``; keep-alive comments carry no message."""

    id: str
    """The event's seq: send it back as ``Last-Event-ID`` to resume after it."""
    data: str
    """One event as JSON, exactly as an item of ``events`` in ``GET /games/{id}/events``."""
