"""Log-level ("meta") events: the first and the last event of every game's log, and who
holds its seats.

They are tagged like game events (``tag_field="type"``) and live in the same ``events`` table
and hash chain, but they belong to the log, not to a game: every viewer may see them, and the
fold skips them. Their tags (:data:`META_TYPES`) are reserved; no game may use them. None
carries a token or a hidden card.

- seq 1 is always :class:`GameCreated`: what was created and the commitment to the secret
  seed. The game's setup events (from ``start``) follow at seq 2 and on, or, in a game
  created with an open seat (``deal_deferred``), after the ``seat_joined`` that takes its
  last open seat.
- :class:`SeedRevealed` is the final event of a finished game, appended in the same
  transaction as the command whose events made ``outcome(state)`` non-``None``.
- :class:`GameAborted` ends a game in progress that no rule ended (an operator's abort, an
  abandoned lobby game): nobody wins, the outcome's ``reason`` is the event's, and only the
  clocks (stopped) and ``seed_revealed`` follow it, in the same batch.
- Seats: ``game_created`` lists each seat's holder (:class:`SeatState`; ``null`` in logs
  written before seats had holders: every seat is the creator's). :class:`SeatJoined` (an
  open seat claimed by a person), :class:`SeatClaimed` (a rematch seat taken by the holder
  of that seat in the previous game), :class:`SeatHandedToBot` and :class:`SeatTakenBack`
  record every change, each in the transaction that makes it; :func:`seat_table` folds them.
- :class:`EntropyAdded`: a player's contribution to a ``mixed`` game's seed (the creator's
  right after ``game_created``, a joiner's right after its ``seat_joined``); the game draws
  from :func:`mixed_seed` of the committed seed and every contribution.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Final

import msgspec

from spies_core.clock import SeatTime, TimeControl
from spies_core.decider import Outcome
from spies_core.rng import ENTROPY_MAX_BYTES, ENTROPY_MIN_BYTES, mix_seed

__all__ = [
    "ABORT_DETAIL_MAX",
    "META_EVENTS",
    "META_TYPES",
    "AbortReason",
    "ClockExpired",
    "ClocksResumed",
    "ClocksUpdated",
    "EntropyAdded",
    "GameAborted",
    "GameCreated",
    "MetaEvent",
    "SeatClaimed",
    "SeatEvent",
    "SeatHandedToBot",
    "SeatJoined",
    "SeatState",
    "SeatTakenBack",
    "SeatType",
    "SeedRevealed",
    "SeedSource",
    "describe_meta",
    "is_meta",
    "aborted_outcome",
    "apply_seat_event",
    "check_abort_detail",
    "check_entropy",
    "mixed_seed",
    "initial_seats",
    "seat_table",
]


class SeedSource(StrEnum):
    """Who chose a game's seed."""

    SERVER = "server"
    """Drawn with ``secrets.token_bytes(32)``: nobody knew it before the game ended."""
    CLIENT = "client"
    """Given by the client at creation, which makes the game reproducible (puzzles, tests)."""
    DEAL = "deal"
    """The game was created with an explicit deal (``options.deal``): its hidden cards were
    laid out by its creator, whatever the seed. Logs written before this label say
    ``server`` or ``client`` for such a game."""
    MIXED = "mixed"
    """The server's seed, committed before any player's entropy was known, mixed with the
    players' contributions (:class:`EntropyAdded`, ``spies-entropy/1``): nobody alone chose
    the deal. The committed and revealed seed is the server's (32 random bytes)."""


class SeatType(StrEnum):
    """Who holds a seat."""

    CREATOR = "creator"
    """The game's creator (the create answer carried its token)."""
    OPEN = "open"
    """Nobody yet: anyone may join it with a name."""
    JOINED = "joined"
    """A person who joined an open seat."""
    BOT = "bot"
    """A bot from the start: the server plays it, and nobody holds a token."""


class AbortReason(StrEnum):
    """Why a game ended without its rules ending it: the outcome's ``reason``."""

    ABORTED = "aborted"
    """An operator ended it (``spies-replay abort``)."""
    ABANDONED = "abandoned"
    """The server ended it: its open seats expired before the table was full."""


ABORT_DETAIL_MAX: Final = 500
"""The most characters of a :class:`GameAborted`'s ``detail``."""


class SeatState(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's holder: public, never a secret."""

    seat: int
    """The seat number, 0 to ``players`` - 1."""
    type: SeatType = SeatType.CREATOR
    """Who holds the seat: ``creator``, ``open``, ``joined`` or ``bot``."""
    name: str | None = None
    """The display name its holder gave (1 to 40 printable characters), if any."""
    bot: str | None = None
    """The bot that plays the seat now (a registered bot name), or ``None``: a person."""


class MetaEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of the log-level events."""


class GameCreated(MetaEvent, frozen=True, kw_only=True, tag="game_created"):
    """Seq 1 of every game: what was created, and the public commitment to its seed."""

    game: str
    """The registered game id, e.g. ``deck-of-spies``."""
    players: int
    """The number of seats (the game's minimum when the client gave none)."""
    options: dict[str, Any]
    """The options as the client gave them (``{}`` for none), except ``deal``: an explicit
    deal lays out hidden cards, so it is kept secret like the seed (see ``deal_commitment``)."""
    seed_commitment: str
    """``sha256(seed)`` as lower-case hex; :class:`SeedRevealed` later discloses the seed."""
    seed_source: SeedSource
    """``server`` (secret, random), ``client`` (given, reproducible), ``deal`` (laid out by
    the creator) or ``mixed`` (a server seed mixed with the players' entropy)."""
    rng: str
    """The versioned algorithm that derives every shuffle from the seed:
    ``hmac-sha256-fisher-yates/1`` (defined in ``docs/protocol.md``)."""
    created_at: str | None = None
    """When the game was created, ISO 8601 UTC."""
    deal_commitment: str | None = None
    """With ``options.deal``: ``sha256(seed || canonical JSON of the deal)`` as hex. The
    deal itself is revealed with the seed in :class:`SeedRevealed`."""
    seats: list[SeatState] | None = None
    """Each seat's holder at creation; ``None``: every seat is the creator's."""
    rematch_of: str | None = None
    """The finished game this one is the rematch of, if any."""
    clock: TimeControl | None = None
    """The game's time control; ``None``: no clock."""
    deal_deferred: bool = False
    """``true`` for a game created with an open seat: nothing is dealt at creation. Its setup
    events, drawn from ``FairRng(seed, 0)`` exactly as at creation, follow the
    ``seat_joined`` that takes its last open seat, in that batch, and then its clocks start;
    until then every seat sees it waiting for players. ``false`` (and in logs written before
    this field): the setup events follow ``game_created``."""
    open_until: str | None = None
    """When the open seats expire, RFC 3339 UTC: a game still waiting for players then is
    abandoned (``game_aborted`` with reason ``abandoned``). ``None``: they never expire (no
    open seat, a server that lets them wait for ever, or a log written before expiry)."""
    log: str | msgspec.UnsetType = msgspec.UNSET
    """The log's format, ``spies-replay/3`` (RFC 8785 canonical JSON, its own genesis) in
    every game created since format 3. Unset, and so absent from the JSON (never ``null``),
    in the games of formats 1 and 2: re-encoding one gives the very bytes it was hashed as."""


class SeatEvent(MetaEvent, frozen=True, kw_only=True):
    """Base of the events that change one seat's holder."""

    seat: int
    """The seat whose holder changed."""


class SeatJoined(SeatEvent, frozen=True, kw_only=True, tag="seat_joined"):
    """A person joined an open seat (it is ``joined`` from now on)."""

    name: str
    """The display name the person gave (1 to 40 printable characters)."""


class SeatClaimed(SeatEvent, frozen=True, kw_only=True, tag="seat_claimed"):
    """The holder of this seat in the previous game took it in this rematch."""


class SeatHandedToBot(SeatEvent, frozen=True, kw_only=True, tag="seat_handed_to_bot"):
    """The seat's holder handed it to a bot: the server plays it until it is taken back."""

    bot: str
    """The registered bot that plays the seat from now on."""


class SeatTakenBack(SeatEvent, frozen=True, kw_only=True, tag="seat_taken_back"):
    """The seat's holder took it back from its bot."""


class ClocksUpdated(MetaEvent, frozen=True, kw_only=True, tag="clocks_updated"):
    """Every seat's clock after a batch of a game with a clock: the last one in the log is
    the clocks now. Ends every batch that moved a clock (before ``seed_revealed``)."""

    seats: tuple[SeatTime, ...]
    """Each seat's clock: what is left of its budget, since when it runs, its timeouts in a
    row."""
    moved: int | None = None
    """The seat whose move (or forced move) the batch recorded, if any."""
    used_ms: int | None = None
    """How long that move took, from the moment the seat's clock started to the move's
    ``recorded_at``."""


class ClockExpired(MetaEvent, frozen=True, kw_only=True, tag="clock_expired"):
    """A seat's clock ran out: the server recorded it at or after the seat's deadline. Its
    forced move (marked with the time control's bot) or, for a forfeit, the end of the game
    follows in the same batch."""

    seat: int
    """The seat whose clock ran out."""
    deadline: str
    """The deadline it ran out at, RFC 3339 UTC (the event's ``recorded_at`` is when the
    server saw it pass)."""
    timeouts: int
    """The seat's timeouts in a row, this one included."""
    forfeit: bool = False
    """Whether the seat lost the game by it (a time control with ``on_timeout`` ``forfeit``)."""


class ClocksResumed(MetaEvent, frozen=True, kw_only=True, tag="clocks_resumed"):
    """The server found clocks that ran out while no server was running: every running clock
    starts again from what it had when it last started (the time no server saw is not
    counted against a seat)."""

    since: str
    """When the last event before the pause was recorded, RFC 3339 UTC."""


class GameAborted(MetaEvent, frozen=True, kw_only=True, tag="game_aborted"):
    """The game was ended without its rules ending it: nobody wins. The clocks (stopped)
    and ``seed_revealed`` follow in the same batch, and nothing else."""

    reason: AbortReason
    """Why: ``aborted`` (an operator) or ``abandoned`` (open seats that expired); the
    outcome's ``reason``."""
    detail: str
    """What the operator (or the server) said, in words: 1 to :data:`ABORT_DETAIL_MAX`
    printable characters."""


class EntropyAdded(MetaEvent, frozen=True, kw_only=True, tag="entropy_added"):
    """A player's contribution to a ``mixed`` game's seed (format 2): the creator's at seq 2,
    right after ``game_created``; a joiner's right after its ``seat_joined``, in that batch.
    The game draws from :func:`~spies_core.rng.mix_seed` of the committed server seed and
    every contribution (:func:`mixed_seed`)."""

    seat: int | None
    """The joiner's seat; ``None``: the creator's contribution, given at creation."""
    entropy: str
    """The contribution: 16 to 64 bytes as lower-case hex."""


class SeedRevealed(MetaEvent, frozen=True, kw_only=True, tag="seed_revealed"):
    """The final event of a finished game: the seed, so anyone can re-derive every shuffle."""

    seed: str
    """The seed's bytes as lower-case hex (a client-given seed: the hex of its UTF-8 bytes)."""
    deal: Any = None
    """The ``options.deal`` the game was created with, ``null`` when it had none."""


META_EVENTS: Final[tuple[type[MetaEvent], ...]] = (
    GameCreated,
    SeatJoined,
    SeatClaimed,
    SeatHandedToBot,
    SeatTakenBack,
    ClocksUpdated,
    ClockExpired,
    ClocksResumed,
    GameAborted,
    EntropyAdded,
    SeedRevealed,
)
"""Every meta event type."""

META_TYPES: Final[frozenset[str]] = frozenset(
    str(event.__struct_config__.tag) for event in META_EVENTS
)
"""The reserved tags of the meta events."""

SEAT_EVENTS: Final = (SeatJoined, SeatClaimed, SeatHandedToBot, SeatTakenBack)
"""The meta events that change a seat."""


def check_entropy(entropy: str) -> bytes:
    """The bytes of a contribution: lower-case hex of 16 to 64 bytes.

    Raises:
        ValueError: naming what is wrong.
    """
    low, high = ENTROPY_MIN_BYTES, ENTROPY_MAX_BYTES
    if not low * 2 <= len(entropy) <= high * 2 or len(entropy) % 2:
        raise ValueError(
            f"entropy is {len(entropy)} hex digits; it must be {low} to {high} bytes"
            f" ({low * 2} to {high * 2} hex digits, an even number)"
        )
    if any(char not in "0123456789abcdef" for char in entropy):
        raise ValueError("entropy must be lower-case hex digits (0-9, a-f)")
    return bytes.fromhex(entropy)


def mixed_seed(server_seed: bytes, added: list[EntropyAdded] | tuple[EntropyAdded, ...]) -> bytes:
    """The seed a ``mixed`` game draws from: :func:`~spies_core.rng.mix_seed` of the server's
    seed and the contributions, the creator's first, then each joiner's by seat.

    Raises:
        ValueError: a contribution that is not 16 to 64 bytes of lower-case hex.
    """
    ordered = sorted(added, key=lambda event: -1 if event.seat is None else event.seat)
    return mix_seed(server_seed, [check_entropy(event.entropy) for event in ordered])


def check_abort_detail(detail: str) -> None:
    """Refuse a :class:`GameAborted` ``detail`` that is not 1 to :data:`ABORT_DETAIL_MAX`
    printable characters (no control character: it is shown in terminals and pages).

    Raises:
        ValueError: naming what is wrong.
    """
    if not detail.strip():
        raise ValueError("the reason for an abort must not be empty")
    if len(detail) > ABORT_DETAIL_MAX:
        raise ValueError(
            f"the reason for an abort is {len(detail)} characters; at most {ABORT_DETAIL_MAX}"
        )
    if not detail.isprintable():
        bad = next(char for char in detail if not char.isprintable())
        raise ValueError(
            f"the reason for an abort holds the character U+{ord(bad):04X}, which is not"
            " printable: use plain text on one line"
        )


def aborted_outcome(event: GameAborted) -> Outcome:
    """The outcome of a game :class:`GameAborted` ended: nobody wins, for its reason."""
    return Outcome(winners=(), reason=str(event.reason))


def initial_seats(created: GameCreated) -> list[SeatState]:
    """The seats at creation: as listed, or every seat the creator's (older logs)."""
    if created.seats is not None:
        return list(created.seats)
    return [SeatState(seat=seat) for seat in range(created.players)]


def apply_seat_event(seats: list[SeatState], event: MetaEvent) -> list[SeatState]:
    """The seats after one seat event (other events change nothing).

    Raises:
        ValueError: the event names no seat of the game, or does not fit its holder (joining
            a seat that is not open, taking back a seat no bot plays).
    """
    if not isinstance(event, SeatEvent):
        return seats
    if not 0 <= event.seat < len(seats):
        raise ValueError(f"{event_type_name(event)} names seat {event.seat}: no such seat")
    current = seats[event.seat]
    match event:
        case SeatJoined(name=name):
            if current.type != SeatType.OPEN:
                raise ValueError(f"seat {event.seat} is {current.type}, not open: nobody joins it")
            changed = msgspec.structs.replace(current, type=SeatType.JOINED, name=name)
        case SeatClaimed():
            if current.type not in (SeatType.CREATOR, SeatType.JOINED):
                raise ValueError(f"seat {event.seat} is {current.type}: nobody claims it")
            changed = current
        case SeatHandedToBot(bot=bot):
            if current.type not in (SeatType.CREATOR, SeatType.JOINED):
                raise ValueError(f"seat {event.seat} is {current.type}: it has no holder")
            changed = msgspec.structs.replace(current, bot=bot)
        case SeatTakenBack():
            if current.bot is None or current.type == SeatType.BOT:
                raise ValueError(f"seat {event.seat} is not played by a bot its holder set")
            changed = msgspec.structs.replace(current, bot=None)
        case _:  # pragma: no cover  (SEAT_EVENTS is closed)
            raise AssertionError(event)
    return [*seats[: event.seat], changed, *seats[event.seat + 1 :]]


def seat_table(events: list[MetaEvent]) -> list[SeatState]:
    """The seats after a log's meta events (``game_created`` first).

    Raises:
        ValueError: the first event is not ``game_created``, or a seat event does not fit.
    """
    if not events or not isinstance(events[0], GameCreated):
        raise ValueError("a seat table starts from game_created")
    seats = initial_seats(events[0])
    for event in events[1:]:
        seats = apply_seat_event(seats, event)
    return seats


def event_type_name(event: MetaEvent) -> str:
    """The tag of a meta event."""
    return str(event.__struct_config__.tag)


def is_meta(event: object) -> bool:
    """Whether ``event`` is a log-level event (public to all, skipped by the fold)."""
    return isinstance(event, MetaEvent)


def describe_meta(event: MetaEvent) -> str:
    """One line of text for a person.

    >>> describe_meta(SeedRevealed(seed="00ff"))
    'seed revealed: 00ff'
    """
    if isinstance(event, GameCreated):
        seats = "1 player" if event.players == 1 else f"{event.players} players"
        options = msgspec.json.encode(event.options).decode() if event.options else "defaults"
        deferred = "; deals when its last open seat is taken" if event.deal_deferred else ""
        return (
            f"{event.game} created for {seats}, options {options};"
            f" seed commitment {event.seed_commitment[:16]}… ({event.seed_source} seed)"
            f"{deferred}"
        )
    if isinstance(event, SeedRevealed):
        return f"seed revealed: {event.seed}"
    if isinstance(event, EntropyAdded):
        who = "the creator" if event.seat is None else f"seat {event.seat}"
        return f"entropy added to the seed by {who}: {event.entropy}"
    if isinstance(event, SeatJoined):
        return f"seat {event.seat} joined by {event.name}"
    if isinstance(event, SeatClaimed):
        return f"seat {event.seat} claimed by its holder from the previous game"
    if isinstance(event, SeatHandedToBot):
        return f"seat {event.seat} handed to bot {event.bot}"
    if isinstance(event, ClocksUpdated):
        return "clocks: " + ", ".join(_seat_clock(clock) for clock in event.seats)
    if isinstance(event, ClockExpired):
        outcome = ", who loses the game" if event.forfeit else ""
        return f"seat {event.seat}'s clock ran out at {event.deadline}{outcome}"
    if isinstance(event, ClocksResumed):
        return f"clocks resumed: the time since {event.since} is not counted"
    if isinstance(event, SeatTakenBack):
        return f"seat {event.seat} taken back from its bot"
    if isinstance(event, GameAborted):
        who = "by the operator" if event.reason == AbortReason.ABORTED else f"({event.reason})"
        return f"game aborted {who}: {event.detail}"
    raise TypeError(f"not a meta event: {event!r}")


def _seat_clock(clock: SeatTime) -> str:
    left = "no budget" if clock.remaining_ms is None else f"{clock.remaining_ms / 1000:.1f}s left"
    return f"seat {clock.seat} {left}{' (running)' if clock.since_ms is not None else ''}"
