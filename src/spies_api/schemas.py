"""Request and response bodies: msgspec Structs, built once, generic over the registry.

The command, event and view unions are assembled from :data:`spies_core.registry.GAMES`, so
a newly registered game appears in the API and its OpenAPI document with no change here:

- :data:`GameCommand`: a command of the game named by the path. Command tags are unique
  within a game only, so the API decodes a command with its game's own union
  (:func:`command_decoder`); the document shows it as ``anyOf`` the games' command unions.
- :data:`AnyEvent`: every game event and the log events (``game_created``, the seat events,
  ``seed_revealed``) as sent to clients: the event's own fields plus ``seq`` and
  ``recorded_at``, tagged by ``type``. Each is a subclass of the core's event Struct built by
  :func:`_event_out_type`, so the published schema is exactly what is encoded.
- :data:`AnyView`: every game's view Struct, tagged by ``game``.

Inbound Structs forbid unknown fields and are decoded strictly (no "5" for 5); see
:mod:`spies_api.http.body`. The attribute docstring under each field is its description in the
OpenAPI document (:mod:`spies_api.openapi.plugins`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal, TypeVar, Union

import msgspec

from spies_core.clock import CLOCK_LIMITS, ClockView, TimeControl
from spies_core.decider import GameSpec, Outcome, seat_counts_text
from spies_core.registry import GAMES
from spies_replay.meta import META_EVENTS, SeatType
from spies_replay.store.records import GameRecord, GameStatus

__all__ = [
    "COMMAND_TYPES_BY_GAME",
    "NAME_MAX",
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
    "LegalCommands",
    "OpenSeatRequest",
    "PerGame",
    "Problem",
    "PublicSeat",
    "RematchResponse",
    "SeatToken",
    "SubmittedCommand",
    "StreamMessage",
    "command_decoder",
    "command_union",
    "event_out",
    "from_record",
]


def _union(types: Iterable[Any]) -> Any:
    members = tuple(types)
    return members[0] if len(members) == 1 else Union[members]  # noqa: UP007


def _members(union: Any) -> tuple[type[msgspec.Struct], ...]:
    return tuple(getattr(union, "__args__", (union,)))


def _tag(cls: type[msgspec.Struct]) -> str:
    return str(cls.__struct_config__.tag)


COMMAND_TYPES_BY_GAME: Final[dict[str, frozenset[type[msgspec.Struct]]]] = {
    name: frozenset(_members(spec.command_type)) for name, spec in GAMES.items()
}
"""The command classes of each registered game (to refuse another game's command)."""


@dataclass(frozen=True)
class PerGame:
    """Marks a value whose type is chosen by the game (``Annotated[Any, PerGame(...)]``).

    The value is whatever the game's type is; the OpenAPI document shows it as ``anyOf``
    one schema per game, named ``<Game><suffix>`` (e.g. ``BlackSpyCommand``).

    Attributes:
        suffix: the end of each game's schema name.
        type_of: the game's type (a Struct, or a union of tagged Structs).
        description: each game's schema's description; ``{game}`` is the game id.
    """

    suffix: str
    type_of: Callable[[GameSpec[Any, Any, Any, Any, Any]], Any]
    description: str


GameCommand = Annotated[
    Any,
    PerGame(
        "Command",
        lambda spec: spec.command_type,
        "A command of `{game}`, tagged by `type`. Send it as `command` to"
        " `POST /games/{{id}}/commands` of a `{game}` game; `GET /games/{{id}}/legal` lists"
        " the ones the caller may send now.",
    ),
]
"""A command of one game: that game's command Struct."""


def command_union(game: str, games: Mapping[str, GameSpec[Any, Any, Any, Any, Any]] = GAMES) -> Any:
    """The commands a body sent to a game of ``game`` decodes to: the game's own, then the
    other games' commands whose tags it does not use (so that another game's command
    decodes, to be refused as ``wrong-game-command`` rather than as an unknown type)."""
    seen: dict[str, type[msgspec.Struct]] = {}
    for name in (game, *(other for other in games if other != game)):
        for cls in _members(games[name].command_type):
            seen.setdefault(_tag(cls), cls)
    return _union(seen.values())


_COMMAND_DECODERS: Final[dict[str, msgspec.json.Decoder[Any]]] = {
    game: msgspec.json.Decoder(
        msgspec.defstruct(
            "CommandOf",
            [("command", command_union(game))],
            frozen=True,
            forbid_unknown_fields=True,
            module=__name__,
        )
    )
    for game in GAMES
}


def command_decoder(game: str) -> Callable[[bytes], Any]:
    """Decode ``{"command": {...}}`` with ``game``'s commands; returns the command.

    Raises:
        msgspec.ValidationError: not a command (paths name ``$.command``).
        KeyError: not a registered game.
    """
    decoder = _COMMAND_DECODERS[game]

    def decode(body: bytes) -> Any:
        return decoder.decode(body).command

    return decode


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
    *(event for spec in GAMES.values() for event in _members(spec.event_type)),
    *META_EVENTS[1:],
)
_EVENT_OUT: Final[dict[type[msgspec.Struct], type[msgspec.Struct]]] = {
    event: _event_out_type(event) for event in _EVENT_TYPES
}

if TYPE_CHECKING:
    AnyEvent = Any
    AnyView = Any
else:
    AnyEvent = _union(_EVENT_OUT.values())
    AnyView = _union(spec.view_type for spec in GAMES.values())


R = TypeVar("R", bound=msgspec.Struct)


def from_record(answer: type[R], record: GameRecord, **fields: Any) -> R:
    """An answer about a game: the fields it shares with the game's record, taken from the
    record, and ``fields`` for the rest (or to show a record's field otherwise)."""
    shared = {
        name: getattr(record, name)
        for name in answer.__struct_fields__
        if name not in fields and name in GameRecord.__struct_fields__
    }
    return answer(**shared, **fields)


def event_out(event: msgspec.Struct, seq: int, recorded_at: str) -> msgspec.Struct:
    """The Struct sent for an (already redacted) event at ``seq``."""
    out_type = _EVENT_OUT[type(event)]
    return out_type(**msgspec.structs.asdict(event), seq=seq, recorded_at=recorded_at)


# -- requests --------------------------------------------------------------------------------

NAME_MAX: Final = 40
"""The longest display name, in characters."""

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


class CreateGameRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Body of ``POST /games``: the game, chosen by ``game``, and its options."""

    game: str
    """A registered game id: ``deck-of-spies``, ``black-spy``, ``spies-and-lies``."""
    players: int | None = None
    """The number of seats, one that the game is played by; ``null`` or omitted: the
    fewest."""
    options: dict[str, Any] | None = None
    """The game's options (validated by the game; an unknown option is 422)."""
    seed: str | None = None
    """A seed string, to make the game reproducible (puzzles, bug reports, tests); ``null``
    or omitted: the server draws a secret random seed, revealed when the game ends."""
    seats: list[AnySeatRequest] | None = None
    """One entry per seat, tagged by ``type``: ``creator`` (the default), ``open`` or
    ``bot``; ``null`` or omitted: every seat is the creator's."""
    clock: Any = None
    """A time control (checked by the server, whatever its JSON: a bad value is 422
    `invalid-clock`); ``null`` or omitted: no clock."""


_CLOCK_DOC: Final = Annotated[
    Union[TimeControl, None],  # noqa: UP007
    msgspec.Meta(
        description="A time control: `turn_seconds` (a per-move timer), `budget_seconds` with"
        " `increment_seconds` (a chess clock per seat), or both; seconds are numbers, fractions"
        f" allowed, from {CLOCK_LIMITS.min_turn_seconds:g} for `turn_seconds` and"
        f" {CLOCK_LIMITS.min_budget_seconds:g} for `budget_seconds` (the shortest a person"
        f" and a bot can play to), from 0 for `increment_seconds`, up to"
        f" {CLOCK_LIMITS.max_seconds:g} (a week). `on_timeout` `bot` plays a timed-out seat's"
        " move with `timeout_bot` (default `greedy`), in the batch that records the timeout;"
        " `forfeit` makes the seat lose (not in Black Spy). `abandon_after` timeouts in a row"
        " hand a seat that a person holds to the bot, with its move. A bad value is 422"
        " `invalid-clock`, naming the limit; ``null`` or omitted: no clock."
    ),
]


def _create_request_of(name: str, spec: GameSpec[Any, Any, Any, Any, Any]) -> Any:
    options: Any = Annotated[
        Union[spec.options_type, None],  # noqa: UP007
        msgspec.Meta(
            description=f"The options of {spec.title}; ``null`` or omitted: every default. An"
            " unknown option is 422 `unknown-option`, a bad value 422 `invalid-options`."
        ),
    ]
    players: Any = Annotated[
        Union[int, None],  # noqa: UP007
        msgspec.Meta(
            description=f"The number of seats: {spec.title} is played by"
            f" {seat_counts_text(spec.seat_counts)}; ``null`` or omitted: {spec.min_players}.",
            extra_json_schema={"enum": sorted(spec.seat_counts)},
        ),
    ]
    fields = [
        (item.name, item.type, item.default)
        for item in msgspec.structs.fields(CreateGameRequest)
        if item.name != "game"
    ]
    request = msgspec.defstruct(
        f"{spec.options_type.__name__.removesuffix('Options')}CreateGameRequest",
        [
            (
                name,
                {"options": options, "clock": _CLOCK_DOC, "players": players}.get(name, kind),
                default,
            )
            for name, kind, default in fields
        ],
        tag_field="game",
        tag=name,
        frozen=True,
        kw_only=True,
        forbid_unknown_fields=True,
        module=__name__,
    )
    request.__doc__ = f"Body of ``POST /games`` for a game of {spec.title} (``{name}``)."
    return request


DOCUMENTED_AS: Final[dict[type[msgspec.Struct], Any]] = {
    CreateGameRequest: _union(_create_request_of(name, spec) for name, spec in GAMES.items()),
}
"""Bodies decoded loosely but documented per game: the schema published for each type (its
members' fields are described by the type's attribute docstrings).

``POST /games`` decodes ``options`` as any object, so that the game (not the body decoder)
refuses a bad option with its own error; the document shows each game's options."""


class JoinRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Body of ``POST /games/{id}/join`` and ``POST /games/{id}/seats/{seat}/join``."""

    name: Annotated[str, _NAME_LENGTH]
    """A display name of printable characters, public (never a secret)."""


class BotRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Body of ``POST /games/{id}/seats/{seat}/bot``."""

    bot: str
    """A registered bot's name that plays this game (``GET /bots``)."""


class CommandRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Body of ``POST /games/{id}/commands``."""

    command: Annotated[msgspec.Raw, GameCommand.__metadata__[0]]
    """One command of the game named by the path, tagged by ``type``: any item of
    ``GET /games/{id}/legal`` works. Each game has its own commands (``DeckOfSpiesCommand``,
    ``BlackSpyCommand``, ...); the same ``type`` may mean different commands in two games."""
    expected_version: int | None = None
    """The ``version`` of ``GET /games/{id}/legal`` the command was chosen from. The command
    is applied if the game is still at this version, or if it moved on but the seat has not
    acted since and its legal commands are still exactly those of this version (another
    seat acted in a phase where several act at once, someone joined, a seat was handed to a
    bot); otherwise 409 ``version-conflict`` with ``current_version``, so a request sent
    again is never applied twice. ``null`` or omitted: apply it to whatever the current
    version is."""
    expected_game_version: int | None = None
    """The strict check: refuse with 409 ``version-conflict`` unless the game is at exactly
    this version, whatever was recorded since (any seat's command, a join, a hand-over).
    May be sent with ``expected_version`` (both are checked)."""


class SubmittedCommand(msgspec.Struct, frozen=True, kw_only=True):
    """A command request decoded with its game's commands (what the pipeline applies).

    Encoded, it is the canonical form of the request (the ``Idempotency-Key`` fingerprint).
    """

    command: Any
    """One of the game's command Structs."""
    expected_version: int | None = None
    """The version the command was decided against, if the sender said (accepted while the
    seat has not acted since and its legal commands are unchanged)."""
    expected_game_version: int | None = None
    """The version the game must be at, exactly, if the sender said."""


# -- responses -------------------------------------------------------------------------------


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


class JoinedSeat(msgspec.Struct, frozen=True, kw_only=True):
    """Answer to a join: the seat taken and its secret bearer token (once)."""

    seat: int
    """The seat taken."""
    token: str
    """The seat's secret bearer token: send it as ``Authorization: Bearer <token>``."""


class RematchResponse(msgspec.Struct, frozen=True, kw_only=True):
    """Answer to ``POST /games/{id}/rematch``: the caller's seat in the next game."""

    id: str
    """The next game's id."""
    seat: int
    """The caller's seat in the next game (the same seat number as in the finished one)."""
    token: str
    """The bearer token of that seat (the same on every call by the same seat)."""


class BotInfo(msgspec.Struct, frozen=True, kw_only=True):
    """A registered bot."""

    name: str
    """The bot's name, as given in a ``bot`` seat or ``POST /games/{id}/seats/{seat}/bot``."""
    games: list[str]
    """The game ids it plays."""
    description: str
    """How it plays, in a sentence."""


class Health(msgspec.Struct, frozen=True, kw_only=True):
    """Answer to ``GET /healthz``: the process is alive and its event loop answers (the
    database is not asked)."""

    status: Literal["ok"] = "ok"
    """Always ``ok``."""


class Readiness(msgspec.Struct, frozen=True, kw_only=True):
    """Answer to ``GET /readyz`` when this process may be sent traffic: its database
    answers and its schema is current."""

    status: Literal["ready"] = "ready"
    """Always ``ready`` (a process that is not ready answers 503 ``not-ready``)."""
    backend: Literal["sqlite", "postgresql"]
    """The kind of database the process uses."""


class BotList(msgspec.Struct, frozen=True, kw_only=True):
    """Answer to ``GET /bots``."""

    bots: list[BotInfo]
    """Every registered bot, by name."""


class GameCreatedResponse(msgspec.Struct, frozen=True, kw_only=True):
    """Answer to ``POST /games``: the game and one secret token per seat."""

    id: str
    """The new game's id, used in every ``/games/{id}`` path."""
    game: str
    """The game id, e.g. ``deck-of-spies``."""
    players: int
    """The number of seats."""
    status: GameStatus
    """``active`` while the game goes on, ``finished`` once it is over."""
    version: int
    """The number of events in the log (the setup's events already)."""
    head_hash: str
    """The hash of the last event (sha256, hex): the fingerprint of the whole log."""
    created_at: str
    """When the game was created: an ISO 8601 UTC timestamp."""
    seats: list[SeatToken]
    """One entry per seat, in seat order; creator seats carry their token."""


class GameSummary(msgspec.Struct, frozen=True, kw_only=True):
    """The public summary of a game (no token, no seed, no hidden card)."""

    id: str
    """The game's id."""
    game: str
    """The game id, e.g. ``black-spy``."""
    players: int
    """The number of seats."""
    status: GameStatus
    """``active`` while the game goes on, ``finished`` once it is over."""
    version: int
    """The seq of the last event: the number of events in the log."""
    head_hash: str
    """The hash of the last event (sha256, hex): the fingerprint of the whole log
    (``docs/protocol.md``, the hash chain); ``spies-replay verify --head`` checks an export
    against it."""
    seats: list[PublicSeat]
    """Every seat, in seat order: who holds it and whether a bot plays it."""
    to_act: list[int]
    """The seats that may send a command now (several in simultaneous phases; empty once
    the game is over)."""
    outcome: Outcome | None
    """How the game ended; ``null`` while it goes on."""
    options: dict[str, Any]
    """The creation options as given; an explicit ``deal`` stays secret until the game is
    over (shown as ``"hidden until the game ends"`` until then)."""
    seed_commitment: str
    """sha256 of the secret seed (hex); ``seed_revealed`` discloses the seed at the end
    (``docs/protocol.md``, the seed commitment)."""
    seed_source: str
    """Who chose the cards, from the log: ``server`` (a secret random seed), ``client`` (a
    seed given at creation, so the game is reproducible) or ``deal`` (the creator laid the
    cards out with ``options.deal``). Only a game whose every person seat its creator holds
    can be ``client`` or ``deal``."""
    rng: str
    """The versioned algorithm that derives every shuffle from the seed,
    ``hmac-sha256-fisher-yates/1`` (``docs/protocol.md``, the random stream)."""
    created_at: str
    """When the game was created: an ISO 8601 UTC timestamp."""
    updated_at: str
    """When the last event was appended: an ISO 8601 UTC timestamp."""
    rematch: str | None = None
    """Once the game is over: the id of its rematch; ``null`` until one is asked for."""
    rematch_of: str | None = None
    """The finished game this one is the rematch of; ``null`` for a new game."""
    clock: ClockView | None = None
    """The game's clock now: the time control and each seat's time left and deadline (while
    its clock runs); ``null`` for a game without a clock."""
    open_until: str | None = None
    """While the game waits for players (nothing is dealt until its last open seat is
    taken): when its open seats expire, RFC 3339 UTC; a game still waiting then is abandoned
    (finished, no winner, outcome reason ``abandoned``). ``null`` otherwise, or when they
    never expire."""


class GameList(msgspec.Struct, frozen=True, kw_only=True):
    """A page of game summaries, newest first."""

    games: list[GameSummary]
    """This page's games, newest first."""
    total: int
    """How many games match the filters, over all pages."""
    limit: int
    """The page size used (the request's ``limit``, lowered to the server's maximum)."""
    offset: int
    """How many matching games (after ``before``, when given) this page skipped."""
    next_before: str | None = None
    """Pass it as ``before`` for the next page: the games older than this page's last,
    whatever was created meanwhile (an ``offset`` moves when new games arrive); ``null`` on
    the last page."""


class LegalCommands(msgspec.Struct, frozen=True, kw_only=True):
    """The commands the caller may send now; each can be posted back as ``command``."""

    version: int
    """The game's version these commands apply to. Send it back as ``expected_version``:
    the command is still accepted after other seats' moves that left these commands as
    they are, until the seat itself acts (or as ``expected_game_version`` to require
    exactly this version)."""
    seat: int | None
    """The caller's seat; ``null`` for a spectator (no token)."""
    commands: list[GameCommand]
    """Exactly the commands the rules accept from the caller now, in the game's own command
    schema (``DeckOfSpiesCommand``, ...)."""
    note: str | None = None
    """Why ``commands`` is empty (a spectator, a seat not to act, a finished game); ``null``
    when there are commands."""


class CommandResponse(msgspec.Struct, frozen=True, kw_only=True):
    """Answer to an accepted command: the new version and the caller's view of its events."""

    version: int
    """The game's version after the command: the seq of its last event."""
    status: GameStatus
    """``active`` while the game goes on, ``finished`` once this command ended it."""
    events: list[AnyEvent]
    """The events the command caused, in order, as the caller may see them (hidden cards
    of other seats are ``null``)."""
    outcome: Outcome | None = None
    """How the game ended, when this command ended it; ``null`` otherwise."""


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


class StreamMessage(msgspec.Struct, frozen=True, kw_only=True):
    """One message of ``GET /games/{id}/events/stream`` (``text/event-stream``), as an
    ``EventSource`` hands it over; keep-alive comments carry no message."""

    id: str
    """The event's seq: send it back as ``Last-Event-ID`` to resume after it."""
    data: str
    """One event as JSON, exactly as an item of ``events`` in ``GET /games/{id}/events``."""


class Problem(msgspec.Struct, frozen=True, kw_only=True):
    """An RFC 9457 problem document; branch on ``code``."""

    type: str
    """A URI naming the kind of problem: ``urn:spies:problem:`` and the ``code``."""
    title: str
    """A short, fixed title of the kind of problem, e.g. ``Command refused by the rules``."""
    status: int
    """The HTTP status code, repeated."""
    detail: str
    """One line for a person: what is wrong and what to send instead."""
    code: str
    """Stable, kebab-case: ``not-your-turn``, ``version-conflict``, ``malformed-body``, ..."""
    current_version: int | None = None
    """409 ``version-conflict``: the game's version now; ``null`` otherwise."""
    expected_version: int | None = None
    """409 ``version-conflict``: the version the request expected; ``null`` otherwise."""
    errors: list[dict[str, Any]] | None = None
    """400 for a bad parameter: the offending parameters, each with ``key``, ``source`` and
    ``message``; ``null`` otherwise."""
