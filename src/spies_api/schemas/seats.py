"""Seats over HTTP: the seats of a new game, a join, a hand-over to a bot, a seat as anyone
sees it, and a rematch's seat."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Final, Union

import msgspec

from spies_replay.meta import SeatType
from spies_replay.receipts import Receipt  # receipts

__all__ = [
    "ChangedSeat",
    "NAME_MAX",
    "AnySeatRequest",
    "BotRequest",
    "BotSeatRequest",
    "CreatorSeatRequest",
    "JoinRequest",
    "JoinedSeat",
    "OpenSeatRequest",
    "PublicSeat",
    "RematchResponse",
    "SeatToken",
    "TICKETS_PER_SEAT",
    "TICKET_SECONDS",
    "StreamTicket",
]

NAME_MAX: Final = 40
"""The longest display name, in characters."""

TICKET_SECONDS: Final = 30.0
"""How long a stream ticket opens its seat's stream, in seconds."""

TICKETS_PER_SEAT: Final = 8
"""Unused stream tickets one seat of one game may hold; a new one drops its oldest."""

_NAME_LENGTH: Final = msgspec.Meta(extra_json_schema={"minLength": 1, "maxLength": NAME_MAX})
"""A display name's length, for the document: the server checks names itself (422
``invalid-name``, printable characters and not blank too)."""


class CreatorSeatRequest(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="creator"
):
    """A seat of the creator (the default): the create answer carries its token."""

    name: Annotated[str | None, _NAME_LENGTH] = None
    """A display name of printable characters, public; ``null``: no name."""


class OpenSeatRequest(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="open"
):
    """An open seat: anyone may join it with a name (``POST /games/{id}/seats/{seat}/join``)."""


class BotSeatRequest(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="bot"
):
    """A seat the server plays with a registered bot (``GET /bots``)."""

    bot: str
    """A bot's name, e.g. ``random``; it must play this game (``GET /bots`` lists them)."""


if TYPE_CHECKING:
    AnySeatRequest = Any
else:
    AnySeatRequest = Union[CreatorSeatRequest, OpenSeatRequest, BotSeatRequest]  # noqa: UP007


class JoinRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Body of ``POST /games/{id}/join`` and ``POST /games/{id}/seats/{seat}/join``."""

    name: Annotated[str, _NAME_LENGTH]
    """A display name of printable characters, public (never a secret)."""
    entropy: str | None = None
    """The joiner's contribution to the seed: 16 to 64 bytes as hex, in a game created with
    a commitment (``seed_source`` ``mixed``; any other game refuses it: 422
    ``entropy-not-accepted``). It goes into the deal, which comes at the last join."""


class BotRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Body of ``POST /games/{id}/seats/{seat}/bot``."""

    bot: str
    """A registered bot's name that plays this game (``GET /bots``)."""


class SeatToken(msgspec.Struct, frozen=True, kw_only=True):
    """A seat and, for a creator seat, its secret bearer token (returned once, at creation)."""

    seat: int
    """The seat number, 0 to ``players`` - 1."""
    type: SeatType = SeatType.CREATOR
    """Who holds the seat: ``creator``, ``open`` or ``bot``."""
    name: str | None = None
    """The display name given for the seat; ``null``: none."""
    bot: str | None = None
    """The bot that plays the seat; ``null`` unless ``type`` is ``bot``."""
    token: str | msgspec.UnsetType = msgspec.UNSET
    """Only for a creator seat: the seat's secret bearer token. Send it as
    ``Authorization: Bearer <token>``; it is shown only in this answer."""


class PublicSeat(msgspec.Struct, frozen=True, kw_only=True):
    """A seat of a game, as anyone may see it: who holds it, and whether a bot plays it."""

    seat: int
    """The seat number, 0 to ``players`` - 1."""
    type: SeatType = SeatType.CREATOR
    """``creator``, ``open`` (anyone may join it), ``joined`` or ``bot``."""
    name: str | None = None
    """The holder's display name; ``null``: none given (or an open seat)."""
    bot: str | None = None
    """The bot that plays the seat now (a ``bot`` seat, or a seat handed to a bot);
    ``null``: a person plays it."""


class ChangedSeat(PublicSeat, frozen=True, kw_only=True):
    """Answer to a hand-over or a take-back: the seat as it is now, and a receipt."""

    receipt: Receipt | None = None
    """The server's signed receipt of the game's log at this version (``docs/protocol.md``,
    receipts): keep it, and ``spies-replay verify --receipt`` shows whether a later export
    holds this head at this seq. Set on every answer of this server that appends."""


class JoinedSeat(msgspec.Struct, frozen=True, kw_only=True):
    """Answer to a join: the seat taken and its secret bearer token (once)."""

    seat: int
    """The seat taken."""
    token: str
    """The seat's secret bearer token: send it as ``Authorization: Bearer <token>``."""
    receipt: Receipt | None = None
    """The server's signed receipt of the game's log after the join (``docs/protocol.md``,
    receipts): keep it, and ``spies-replay verify --receipt`` shows whether a later export
    holds this head at this seq. Set on every answer of this server that appends."""


class RematchResponse(msgspec.Struct, frozen=True, kw_only=True):
    """Answer to ``POST /games/{id}/rematch``: the caller's seat in the next game."""

    id: str
    """The next game's id."""
    seat: int
    """The caller's seat in the next game (the same seat number as in the finished one)."""
    token: str
    """The bearer token of that seat (the same on every call by the same seat)."""
    receipt: Receipt | None = None
    """The server's signed receipt of the next game's log once the seat is claimed
    (``docs/protocol.md``, receipts): keep it, and ``spies-replay verify --receipt`` shows
    whether a later export holds this head at this seq. Set on every answer of this server
    that appends."""


class StreamTicket(msgspec.Struct, frozen=True, kw_only=True):
    """Answer to ``POST /games/{id}/seats/{seat}/stream-ticket``: a secret that opens the
    seat's event stream once, for a client that cannot send ``Authorization`` (a browser's
    ``EventSource``): ``GET /games/{id}/events/stream?ticket=<ticket>``."""

    ticket: str
    """The secret: it opens one stream of this seat, once, before ``expires_at``, on the
    server process that issued it; never the seat's token."""
    expires_at: str
    """When the ticket stops opening the stream (RFC 3339, UTC)."""
