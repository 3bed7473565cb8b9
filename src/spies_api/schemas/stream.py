"""The state a live stream pushes: the data of its ``snapshot`` and ``state`` messages."""

from __future__ import annotations

import msgspec

from spies_api.schemas.commands import GameCommand
from spies_api.schemas.per_game import AnyView
from spies_replay.store.records import GameStatus

__all__ = ["StreamState"]


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
