"""Request and response bodies: msgspec Structs, built once, generic over the registry.

One module per resource: :mod:`.games` (creation, summaries), :mod:`.seats` (seats, joins,
hand-overs, rematches), :mod:`.commands` (a command, legal commands, the answer),
:mod:`.events` (the log as clients see it, the stream), :mod:`.stream` (the state a
stream pushes) and :mod:`.server` (bots, health,
problems); :mod:`.per_game` holds what the games choose. Every name is importable from
this package.

The command, event and view unions are assembled from :data:`spies_core.registry.GAMES`, so
a newly registered game appears in the API and its OpenAPI document with no change here:

- :data:`GameCommand`: a command of the game named by the path. Command tags are unique
  within a game only, so the API decodes a command with its game's own union
  (:func:`command_decoder`); the document shows it as ``anyOf`` the games' command unions.
- :data:`AnyEvent`: every game event and the log events (``game_created``, the seat events,
  ``seed_revealed``) as sent to clients: the event's own fields plus ``seq`` and
  ``recorded_at``, tagged by ``type``. Each is a subclass of the core's event Struct, so the
  published schema is exactly what is encoded.
- :data:`AnyView`: every game's view Struct, tagged by ``game``.

Inbound Structs forbid unknown fields and are decoded strictly (no "5" for 5); see
:mod:`spies_api.http.body`. The attribute docstring under each field is its description in the
OpenAPI document (:mod:`spies_api.openapi.plugins`).

Who may import it: every part of the API; it imports :mod:`spies_core`, the log's meta events
and the store's records (:mod:`spies_replay.meta`, :mod:`spies_replay.store`), nothing else
of the API.
"""

from __future__ import annotations

from spies_api.schemas.commands import (
    COMMAND_TYPES_BY_GAME,
    CommandChoice,
    CommandRequest,
    CommandResponse,
    GameCommand,
    LegalCommands,
    LegalForm,
    SubmittedCommand,
    command_decoder,
    command_union,
)
from spies_api.schemas.events import AnyEvent, EventsPage, StreamMessage, event_out
from spies_api.schemas.games import (
    DEAL_HIDDEN,
    DOCUMENTED_AS,
    CommitmentResponse,
    CreateGameRequest,
    GameCreatedResponse,
    GameList,
    GameSummary,
    from_record,
)
from spies_api.schemas.per_game import AnyView, PerGame
from spies_api.schemas.players import (
    CreatePlayerRequest,
    PlayerCreated,
    PlayerGame,
    PlayerGames,
)
from spies_api.schemas.seats import (
    NAME_MAX,
    TICKET_SECONDS,
    TICKETS_PER_SEAT,
    AnySeatRequest,
    BotRequest,
    BotSeatRequest,
    ChangedSeat,
    CreatorSeatRequest,
    JoinedSeat,
    JoinRequest,
    OpenSeatRequest,
    PublicSeat,
    RematchResponse,
    SeatToken,
    StreamTicket,
)
from spies_api.schemas.server import BotInfo, BotList, Health, Problem, Readiness
from spies_api.schemas.stream import (
    AnyStreamMessage,
    ReconnectData,
    ReconnectMessage,
    SnapshotMessage,
    StateMessage,
    StreamState,
)
from spies_replay.receipts import KeyList, PublicKey, Receipt  # receipts

__all__ = [
    "CreatePlayerRequest",
    "PlayerCreated",
    "PlayerGame",
    "PlayerGames",
    "COMMAND_TYPES_BY_GAME",
    "NAME_MAX",
    "TICKETS_PER_SEAT",
    "TICKET_SECONDS",
    "DEAL_HIDDEN",
    "DOCUMENTED_AS",
    "AnyEvent",
    "Health",
    "Readiness",
    "AnyView",
    "AnySeatRequest",
    "BotInfo",
    "BotList",
    "BotRequest",
    "BotSeatRequest",
    "ChangedSeat",
    "CommitmentResponse",
    "KeyList",
    "PublicKey",
    "Receipt",
    "CommandRequest",
    "CreatorSeatRequest",
    "CommandResponse",
    "CreateGameRequest",
    "EventsPage",
    "GameCommand",
    "GameCreatedResponse",
    "GameList",
    "GameSummary",
    "JoinRequest",
    "JoinedSeat",
    "CommandChoice",
    "LegalCommands",
    "LegalForm",
    "OpenSeatRequest",
    "PerGame",
    "Problem",
    "PublicSeat",
    "RematchResponse",
    "SeatToken",
    "SubmittedCommand",
    "StreamMessage",
    "StreamState",
    "AnyStreamMessage",
    "ReconnectData",
    "ReconnectMessage",
    "SnapshotMessage",
    "StateMessage",
    "StreamTicket",
    "command_decoder",
    "command_union",
    "event_out",
    "from_record",
]
