"""The state a live stream pushes: the data of its ``snapshot`` and ``state`` messages."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

import msgspec

from spies_api.schemas.commands import GameCommand
from spies_api.schemas.events import StreamMessage
from spies_api.schemas.per_game import AnyView
from spies_replay.store.records import GameStatus

__all__ = [
    "AnyStreamMessage",
    "ReconnectData",
    "ReconnectMessage",
    "SnapshotMessage",
    "StateMessage",
    "StreamState",
]


class StreamState(msgspec.Struct, frozen=True, kw_only=True):
    """What the reader of a stream may see of its game at one version: the data of the
    ``snapshot`` message that opens every stream and of the ``state`` message that follows
    each batch of events (``event: snapshot`` / ``event: state``, no ``id``)."""

    version: int
    """The game's version this state is at: the seq of its last event. Events of the stream
    with a seq up to it are already in it."""
    status: GameStatus
    """``active`` while the game goes on, ``finished`` once it is over."""
    seat: int | None
    """The reader's seat; ``null`` for a spectator."""
    to_act: list[int]
    """The seats to act, in order (empty once the game is over), as in the summary."""
    view: AnyView
    """The reader's view at ``version``, as ``GET /games/{id}/view`` answers it (its clock
    as it stood when the version was first read)."""
    legal: list[GameCommand] | None
    """The commands the reader's seat may send at ``version``, as ``GET
    /games/{id}/legal`` lists them (empty when it may not act); ``null`` for a spectator."""


def _json_of(component: str) -> msgspec.Meta:
    """A ``data`` field: text (as every SSE field is) holding one JSON ``component`` (the
    document says so with ``contentMediaType`` and ``contentSchema``)."""
    return msgspec.Meta(extra_json_schema={"contentSchema": component})


class SnapshotMessage(msgspec.Struct, frozen=True, kw_only=True, tag_field="event", tag="snapshot"):
    """The message that opens every stream: ``event: snapshot`` and one ``data:`` line, no
    ``id:`` (an ``EventSource`` hands it to a ``snapshot`` listener, never ``onmessage``)."""

    data: Annotated[str, _json_of("StreamState")]
    """The reader's state when the stream opened: a ``StreamState`` as one line of JSON."""


class StateMessage(msgspec.Struct, frozen=True, kw_only=True, tag_field="event", tag="state"):
    """The message after each batch of events that brings the stream to the game's version:
    ``event: state`` and one ``data:`` line, no ``id:`` (a ``state`` listener)."""

    data: Annotated[str, _json_of("StreamState")]
    """The reader's state after the batch: a ``StreamState`` as one line of JSON."""


class ReconnectData(msgspec.Struct, frozen=True, kw_only=True):
    """Why a stream ends before its game does, and where to resume."""

    reason: Literal["shutdown"]
    """``shutdown``: the server process is stopping."""
    after: int
    """The seq of the last event this stream sent: reconnect with it as ``Last-Event-ID``
    (or ``?after=``)."""


class ReconnectMessage(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="event", tag="reconnect"
):
    """The last message of a stream its server ends at shutdown: ``event: reconnect``, a
    ``retry:`` line and one ``data:`` line, no ``id:`` (a ``reconnect`` listener)."""

    data: Annotated[str, _json_of("ReconnectData")]
    """Why, and where to resume: a ``ReconnectData`` as one line of JSON."""
    retry: int
    """How soon to reconnect, in milliseconds (``retry:``)."""


if TYPE_CHECKING:
    AnyStreamMessage = Any
else:
    AnyStreamMessage = Union[  # noqa: UP007 (a runtime union of the message kinds)
        StreamMessage, SnapshotMessage, StateMessage, ReconnectMessage
    ]
