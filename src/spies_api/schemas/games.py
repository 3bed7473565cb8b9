"""Games over HTTP: the creation request (documented per game), its answer, a game's public
summary and a page of them."""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal, TypeVar, Union

import msgspec

from spies_api.schemas.commands import LEGAL_BY_GAME, CommandResponse, LegalCommands
from spies_api.schemas.events import EventsPage, events_of_game
from spies_api.schemas.per_game import one_games, union_of
from spies_api.schemas.seats import AnySeatRequest, PublicSeat, SeatToken
from spies_core.bot_names import TIMEOUT_BOT
from spies_core.clock import CLOCK_LIMITS, ClockView, TimeControl
from spies_core.decider import GameSpec, Outcome, seat_counts_text
from spies_core.registry import GAMES
from spies_replay.receipts import Receipt  # receipts
from spies_replay.store.records import GameRecord, GameStatus

__all__ = [
    "DEAL_HIDDEN",
    "DOCUMENTED_AS",
    "CreateGameRequest",
    "GameCreatedResponse",
    "GameList",
    "GameSummary",
    "from_record",
]

R = TypeVar("R", bound=msgspec.Struct)

DEAL_HIDDEN: Final = "hidden until the game ends"
"""What ``options.deal`` reads as while a game is in progress."""


def from_record(answer: type[R], record: GameRecord, **fields: Any) -> R:
    """An answer about a game: the fields it shares with the game's record, taken from the
    record, and ``fields`` for the rest (or to show a record's field otherwise)."""
    shared = {
        name: getattr(record, name)
        for name in answer.__struct_fields__
        if name not in fields and name in GameRecord.__struct_fields__
    }
    return answer(**shared, **fields)


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
    commitment_id: str | None = None
    """A seed commitment from ``POST /commitments`` (used once): the game deals from that
    server seed mixed with ``entropy`` (``seed_source`` ``mixed``). Only with ``entropy``,
    and not with ``seed`` or ``options.deal``."""
    entropy: str | None = None
    """The creator's contribution to the seed: 16 to 64 bytes as hex (32 to 128 hex
    digits), chosen by the creator (e.g. random). Only with ``commitment_id``."""


_CLOCK_DOC: Final = Annotated[
    Union[TimeControl, None],  # noqa: UP007
    msgspec.Meta(
        description="A time control: `turn_seconds` (a per-move timer), `budget_seconds` with"
        " `increment_seconds` (a chess clock per seat), or both; seconds are numbers, fractions"
        f" allowed, from {CLOCK_LIMITS.min_turn_seconds:g} for `turn_seconds` and"
        f" {CLOCK_LIMITS.min_budget_seconds:g} for `budget_seconds` (the shortest a person"
        f" and a bot can play to), from 0 for `increment_seconds`, up to"
        f" {CLOCK_LIMITS.max_seconds:g} (a week). `on_timeout` `bot` plays a timed-out seat's"
        f" move with `timeout_bot` (default `{TIMEOUT_BOT}`), in the batch that records the"
        " timeout;"
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
    return one_games(
        CreateGameRequest,
        {"options": options, "clock": _CLOCK_DOC, "players": players},
        f"{spec.options_type.__name__.removesuffix('Options')}CreateGameRequest",
        doc=f"Body of ``POST /games`` for a game of {spec.title} (``{name}``).",
        module=__name__,
        drop="game",
        tag_field="game",
        tag=name,
        forbid_unknown_fields=True,
    )


class CommitmentResponse(msgspec.Struct, frozen=True, kw_only=True):
    """Answer to ``POST /commitments``: a server seed committed to, unused."""

    commitment_id: str
    """Send it with ``entropy`` in ``POST /games``: that game deals from this seed mixed
    with the entropy. Used once."""
    seed_commitment: str
    """sha256 of the committed server seed (hex): the game's ``seed_commitment`` will be
    this, and its ``seed_revealed`` the seed."""
    expires_at: str
    """When it can no longer be used (RFC 3339 UTC)."""


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
    receipt: Receipt | None = None
    """The server's signed receipt of the game's log at this version (``docs/protocol.md``,
    receipts): keep it, and ``spies-replay verify --receipt`` shows whether a later export
    holds this head at this seq. Set on every answer of this server that appends."""


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
    seed given at creation, so the game is reproducible), ``deal`` (the creator laid the
    cards out with ``options.deal``) or ``mixed`` (a server seed committed before the
    players' entropy, mixed with it: nobody alone chose the cards; ``docs/protocol.md``,
    entropy). Only a game whose every person seat its creator holds
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


def _summary_options_of(spec: GameSpec[Any, Any, Any, Any, Any]) -> Any:
    """A game's options as its summary shows them: the ones its creator gave (the others are
    absent), an explicit ``deal`` as :data:`DEAL_HIDDEN` until the game is over. A subclass
    of the game's options, so each field keeps its description."""
    fields = [
        (
            item.name,
            Union[item.type, Literal[DEAL_HIDDEN]] if item.name == "deal" else item.type,  # noqa: UP007
            msgspec.UNSET,  # absent unless given (the struct only documents the answer)
        )
        for item in msgspec.structs.fields(spec.options_type)
    ]
    shown = msgspec.defstruct(
        f"{spec.options_type.__name__.removesuffix('Options')}SummaryOptions",
        fields,
        bases=(spec.options_type,),
        frozen=True,
        kw_only=True,
        module=__name__,
    )
    shown.__doc__ = (
        f"The options a game of {spec.title} was created with, as given (an option left out"
        " is absent: it has its default), but for an explicit `deal`, which the server keeps"
        " apart (`seed_revealed` discloses it at the end). Only a log whose creation options"
        f" held its deal shows it here, as `{DEAL_HIDDEN}` until the game is over."
    )
    return shown


def _summary_of(name: str, spec: GameSpec[Any, Any, Any, Any, Any]) -> Any:
    return one_games(
        GameSummary,
        {"options": _summary_options_of(spec)},
        f"{spec.options_type.__name__.removesuffix('Options')}Summary",
        doc=f"The public summary of a game of {spec.title} (``{name}``).",
        module=__name__,
        drop="game",
        tag_field="game",
        tag=name,
    )


DOCUMENTED_AS: Final[dict[type[msgspec.Struct], Any]] = {
    CreateGameRequest: union_of(_create_request_of(name, spec) for name, spec in GAMES.items()),
    GameSummary: union_of(_summary_of(name, spec) for name, spec in GAMES.items()),
    LegalCommands: LEGAL_BY_GAME,
    EventsPage: events_of_game(EventsPage),
    CommandResponse: events_of_game(CommandResponse),
}
"""Values decoded or sent loosely but documented per game: the schema published for each
type (its members' fields are described by the type's attribute docstrings).

``POST /games`` decodes ``options`` as any object, so that the game (not the body decoder)
refuses a bad option with its own error; the document shows each game's options. A summary
is one type for every game; the document shows each game's, with its own ``options``, and
each game's legal commands, with its own ``commands`` (``anyOf``: the answer does not name
its game)."""
