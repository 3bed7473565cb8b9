"""Request and response bodies: msgspec Structs, built once, generic over the registry.

The command, event and view unions are assembled from :data:`spies_core.registry.GAMES`, so
a newly registered game appears in the API and its OpenAPI document with no change here:

- :data:`AnyCommand`: every registered game's commands, one union tagged by ``type`` (the
  tags are unique across games; a core test checks).
- :data:`AnyEvent`: every game event and the log events (``game_created``, the seat events,
  ``seed_revealed``) as sent to clients: the event's own fields plus ``seq`` and
  ``recorded_at``, tagged by ``type``. Each is a subclass of the core's event Struct built by
  :func:`_event_out_type`, so the published schema is exactly what is encoded.
- :data:`AnyView`: every game's view Struct, tagged by ``game``.

Inbound Structs forbid unknown fields and are decoded strictly (no "5" for 5); see
:mod:`spies_api.body`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final, Union

import msgspec

from spies_core.decider import Outcome
from spies_core.registry import GAMES
from spies_replay.meta import META_EVENTS, SeatType
from spies_replay.store import GameStatus

__all__ = [
    "COMMAND_TYPES_BY_GAME",
    "AnyCommand",
    "AnyEvent",
    "AnyView",
    "AnySeatRequest",
    "BotInfo",
    "BotList",
    "BotRequest",
    "BotSeatRequest",
    "CommandRequest",
    "CreatorSeatRequest",
    "CommandResponse",
    "CreateGameRequest",
    "EventsPage",
    "GameCreatedResponse",
    "GameList",
    "GameSummary",
    "JoinRequest",
    "JoinedSeat",
    "LegalCommands",
    "OpenSeatRequest",
    "Problem",
    "PublicSeat",
    "RematchResponse",
    "SeatToken",
    "StreamMessage",
    "event_out",
]


def _union(types: Iterable[Any]) -> Any:
    members = tuple(types)
    return members[0] if len(members) == 1 else Union[members]  # noqa: UP007


def _members(union: Any) -> tuple[type[msgspec.Struct], ...]:
    return tuple(getattr(union, "__args__", (union,)))


COMMAND_TYPES_BY_GAME: Final[dict[str, frozenset[type[msgspec.Struct]]]] = {
    name: frozenset(_members(spec.command_type)) for name, spec in GAMES.items()
}
"""The command classes of each registered game (to refuse another game's command)."""


def _event_out_type(event_type: type[msgspec.Struct]) -> type[msgspec.Struct]:
    """The event as sent: its fields, then ``seq`` and ``recorded_at``; same tag."""
    out = msgspec.defstruct(
        event_type.__name__,
        [("seq", int), ("recorded_at", str)],
        bases=(event_type,),
        tag=event_type.__struct_config__.tag,
        frozen=True,
        kw_only=True,
        module=__name__,
    )
    out.__doc__ = (event_type.__doc__ or event_type.__name__).strip()
    return out


_EVENT_TYPES: Final[tuple[type[msgspec.Struct], ...]] = (
    META_EVENTS[0],
    *(event for spec in GAMES.values() for event in _members(spec.event_type)),
    *META_EVENTS[1:],
)
_EVENT_OUT: Final[dict[type[msgspec.Struct], type[msgspec.Struct]]] = {
    event: _event_out_type(event) for event in _EVENT_TYPES
}

if TYPE_CHECKING:
    AnyCommand = Any
    AnyEvent = Any
    AnyView = Any
else:
    AnyCommand = _union(cls for spec in GAMES.values() for cls in _members(spec.command_type))
    AnyEvent = _union(_EVENT_OUT.values())
    AnyView = _union(spec.view_type for spec in GAMES.values())


def event_out(event: msgspec.Struct, seq: int, recorded_at: str) -> msgspec.Struct:
    """The Struct sent for an (already redacted) event at ``seq``."""
    out_type = _EVENT_OUT[type(event)]
    return out_type(**msgspec.structs.asdict(event), seq=seq, recorded_at=recorded_at)


# -- requests --------------------------------------------------------------------------------


class CreatorSeatRequest(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="creator"
):
    """A seat of the creator (the default): the create answer carries its token."""

    name: str | None = None
    """A display name (1 to 40 printable characters), public."""


class OpenSeatRequest(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="open"
):
    """An open seat: anyone may join it with a name (``POST /games/{id}/seats/{seat}/join``)."""


class BotSeatRequest(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="bot"
):
    """A seat the server plays with a registered bot (``GET /bots``)."""

    bot: str
    """A bot's name, e.g. ``random``; it must play this game."""


if TYPE_CHECKING:
    AnySeatRequest = Any
else:
    AnySeatRequest = Union[CreatorSeatRequest, OpenSeatRequest, BotSeatRequest]  # noqa: UP007


class CreateGameRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Body of ``POST /games``."""

    game: str
    """A registered game id: ``deck-of-spies``, ``black-spy``, ``spies-and-lies``."""
    players: int | None = None
    """The number of seats; the game's minimum when omitted."""
    options: dict[str, Any] | None = None
    """The game's options (validated by the game; an unknown option is 422)."""
    seed: str | None = None
    """A seed string, to make the game reproducible; omitted: a secret random seed."""
    seats: list[AnySeatRequest] | None = None
    """One entry per seat, tagged by ``type``: ``creator`` (the default), ``open`` or
    ``bot``; omitted: every seat the creator's."""


class JoinRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Body of ``POST /games/{id}/join`` and ``POST /games/{id}/seats/{seat}/join``."""

    name: str
    """A display name: 1 to 40 printable characters, public (never a secret)."""


class BotRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Body of ``POST /games/{id}/seats/{seat}/bot``."""

    bot: str
    """A registered bot's name that plays this game (``GET /bots``)."""


class CommandRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Body of ``POST /games/{id}/commands``."""

    command: AnyCommand
    """One command, tagged by ``type``; any item of ``GET /games/{id}/legal`` works."""
    expected_version: int | None = None
    """Refuse with 409 unless the game is at this version; omitted: the current version."""


# -- responses -------------------------------------------------------------------------------


class SeatToken(msgspec.Struct, frozen=True, kw_only=True):
    """A seat and, for a creator seat, its secret bearer token (returned once, at creation)."""

    seat: int
    type: SeatType = SeatType.CREATOR
    name: str | None = None
    bot: str | None = None
    token: str | msgspec.UnsetType = msgspec.UNSET
    """Only for a creator seat: the bearer token of the seat."""


class PublicSeat(msgspec.Struct, frozen=True, kw_only=True):
    """A seat of a game, as anyone may see it: who holds it, and whether a bot plays it."""

    seat: int
    type: SeatType = SeatType.CREATOR
    """``creator``, ``open`` (anyone may join it), ``joined`` or ``bot``."""
    name: str | None = None
    """The holder's display name, if any."""
    bot: str | None = None
    """The bot that plays the seat now (a ``bot`` seat, or a seat handed to a bot)."""


class JoinedSeat(msgspec.Struct, frozen=True, kw_only=True):
    """Answer to a join: the seat taken and its secret bearer token (once)."""

    seat: int
    token: str


class RematchResponse(msgspec.Struct, frozen=True, kw_only=True):
    """Answer to ``POST /games/{id}/rematch``: the caller's seat in the next game."""

    id: str
    """The next game's id."""
    seat: int
    token: str
    """The bearer token of that seat (the same on every call by the same seat)."""


class BotInfo(msgspec.Struct, frozen=True, kw_only=True):
    """A registered bot."""

    name: str
    games: list[str]
    """The game ids it plays."""
    description: str


class BotList(msgspec.Struct, frozen=True, kw_only=True):
    """Answer to ``GET /bots``."""

    bots: list[BotInfo]


class GameCreatedResponse(msgspec.Struct, frozen=True, kw_only=True):
    """Answer to ``POST /games``: the game and one secret token per seat."""

    id: str
    game: str
    players: int
    status: GameStatus
    version: int
    head_hash: str
    created_at: str
    seats: list[SeatToken]


class GameSummary(msgspec.Struct, frozen=True, kw_only=True):
    """The public summary of a game (no token, no seed, no hidden card)."""

    id: str
    game: str
    players: int
    status: GameStatus
    version: int
    """The seq of the last event."""
    head_hash: str
    """The hash of the last event: the fingerprint of the whole log."""
    seats: list[PublicSeat]
    to_act: list[int]
    """The seats that may send a command now (empty once the game is over)."""
    outcome: Outcome | None
    options: dict[str, Any]
    """The creation options; an explicit ``deal`` stays secret until the game is over."""
    seed_commitment: str
    """sha256 of the secret seed; ``seed_revealed`` discloses the seed at the end."""
    seed_source: str
    rng: str
    created_at: str
    updated_at: str
    rematch: str | None = None
    """Once the game is over: the id of its rematch, when one was asked for."""
    rematch_of: str | None = None
    """The finished game this one is the rematch of, if any."""


class GameList(msgspec.Struct, frozen=True, kw_only=True):
    """A page of game summaries, oldest first."""

    games: list[GameSummary]
    total: int
    """How many games match the filters, over all pages."""
    limit: int
    offset: int


class LegalCommands(msgspec.Struct, frozen=True, kw_only=True):
    """The commands the caller may send now; each can be posted back as ``command``."""

    version: int
    seat: int | None
    commands: list[AnyCommand]
    note: str | None = None
    """Why ``commands`` is empty (a spectator, a seat not to act, a finished game)."""


class CommandResponse(msgspec.Struct, frozen=True, kw_only=True):
    """Answer to an accepted command: the new version and the caller's view of its events."""

    version: int
    status: GameStatus
    events: list[AnyEvent]
    outcome: Outcome | None = None


class EventsPage(msgspec.Struct, frozen=True, kw_only=True):
    """A page of the log as the caller may see it."""

    events: list[AnyEvent]
    next_after: int
    """Pass as ``after`` for the next page: the last seq looked at (``after`` when none)."""
    version: int
    """The game's version when the page was read."""
    status: GameStatus


class StreamMessage(msgspec.Struct, frozen=True, kw_only=True):
    """One message of ``GET /games/{id}/events/stream`` (``text/event-stream``), as an
    ``EventSource`` hands it over; keep-alive comments carry no message."""

    id: str
    """The event's seq: send it back as ``Last-Event-ID`` to resume after it."""
    data: str
    """One event as JSON, exactly as in ``GET /games/{id}/events`` (see ``AnyEvent``)."""


class Problem(msgspec.Struct, frozen=True, kw_only=True):
    """An RFC 9457 problem document; branch on ``code``."""

    type: str
    title: str
    status: int
    detail: str
    code: str
    """Stable, kebab-case: ``not-your-turn``, ``version-conflict``, ``malformed-body``, ..."""
    current_version: int | None = None
    """409 ``version-conflict``: the game's version now."""
    expected_version: int | None = None
    """409 ``version-conflict``: the version the request expected."""
    errors: list[dict[str, Any]] | None = None
    """400: the offending parameters."""
