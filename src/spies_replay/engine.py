"""Games on top of the store: create one, load its head, turn a command or a seat change
into one append, and read a state or a view at any step.

A command goes down once: :func:`prepare_command` takes the game's head (its state,
version, head hash and secrets, as a caller keeps them cached), applies the pure step of
:mod:`spies_core.step`, adds ``seed_revealed`` when the game ends, and seals the rows; the
caller then hands the :class:`~spies_replay.store.records.Append` to the store, which checks
the version, the finished game and the idempotency key, and writes it. Nothing here or in the
store calls back into the caller. :func:`submit_command` and :func:`change_seat` are the same
path for tools and tests that hold no cache: they read the head first. So is
:func:`abort_game`, an operator's end of a game in progress (:func:`prepare_abort` is its
pure part: ``game_aborted``, the clocks stopped, ``seed_revealed``).

These functions are safe from several threads and processes (the store gives every thread
its own connection).

Randomness (:mod:`spies_core.rng`, algorithm ``hmac-sha256-fisher-yates/1``): a game's seed
is 32 bytes from ``secrets.token_bytes(32)``, or, when the client gives a seed string, its
UTF-8 bytes (``seed_source = "client"``: reproducible). ``start`` draws from
``FairRng(seed, nonce=0)``; each command from ``FairRng(seed, nonce=version)``, ``version``
being the game's version before the command (the seq of its last event). The seed is kept in
the ``seeds`` table, its sha256 is published in ``game_created`` (seq 1), and it is revealed
in ``seed_revealed``, appended in the same transaction as the command that ends the game.
"""

from __future__ import annotations

import base64
import dataclasses
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import msgspec
import structlog

from spies_core.clock import ClockState, OnTimeout, TimeControl, deadline_ms, expire, move
from spies_core.clock import resume as resume_clocks
from spies_core.clock import run as run_clocks
from spies_core.decider import AnySpec, Outcome, Seat
from spies_core.errors import GameNotStartedError, InvalidOptionsError, SpiesError
from spies_core.registry import get_game
from spies_core.rng import ALGORITHM, FairRng, seed_commitment
from spies_core.step import Step, setup, step
from spies_core.step import view_at as versioned_view
from spies_replay.clocks import (
    abandons,
    clock_view,
    clocks_event,
    from_ms,
    next_deadline,
    start_clocks,
    state_of,
    stopped_clocks,
    to_ms,
)
from spies_replay.codec import codec_for, deal_commitment, genesis_hash, seal, split_deal
from spies_replay.errors import (
    DeadlinePassedError,
    GameExistsError,
    GameFinishedError,
    IdempotencyKeyExistsError,
    ReplayError,
    SeqOutOfRangeError,
    VersionConflictError,
)
from spies_replay.meta import (
    META_TYPES,
    AbortReason,
    ClockExpired,
    ClocksResumed,
    ClocksUpdated,
    GameAborted,
    GameCreated,
    SeatClaimed,
    SeatEvent,
    SeatHandedToBot,
    SeatState,
    SeatType,
    SeedRevealed,
    SeedSource,
    aborted_outcome,
    apply_seat_event,
    check_abort_detail,
    is_meta,
)
from spies_replay.reading import StoredEvent, last_event, read_events
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import (
    Append,
    GameRecord,
    GameSecrets,
    GameStatus,
    NewGame,
    Reply,
    hash_token,
    utc_now,
)
from spies_replay.times import parse_utc

__all__ = [
    "ABORT_ATTEMPTS",
    "CommandResult",
    "CreatedGame",
    "Head",
    "IdempotencyRequest",
    "LoadedState",
    "PendingDeal",
    "PreparedCommand",
    "PreparedSeatChange",
    "TimeoutPlan",
    "SeatChange",
    "SeatChoice",
    "ViewAt",
    "abort_game",
    "change_seat",
    "check_batch",
    "create_game",
    "deferred_setup",
    "game_created",
    "load_head",
    "load_state",
    "new_game_id",
    "plan_timeout",
    "prepare_abort",
    "prepare_command",
    "prepare_seat_change",
    "redact_for",
    "seed_from_client",
    "stored_events",
    "submit_command",
    "view_at",
]

_log = structlog.get_logger("spies_replay.engine")
_CLOCKS_UPDATED: Final = str(ClocksUpdated.__struct_config__.tag)
_GAME_CREATED: Final = str(GameCreated.__struct_config__.tag)
_SEED_REVEALED: Final = str(SeedRevealed.__struct_config__.tag)
Games = Mapping[str, AnySpec]
"""The games a game id is looked up among (``None`` where one is asked: the registry)."""
_SEAT_CHANGE_ATTEMPTS: Final = 20
"""Seat changes read the seats, decide, then append at the version read; another writer in
between makes them read again, at most this many times."""
ABORT_ATTEMPTS: Final = 20
""":func:`abort_game` reads the head and appends at its version; a game that moved on
meanwhile is read again, at most this many times."""


SeatChoice = Callable[[list[SeatState], dict[int, str]], SeatEvent | None]
"""Decides a seat change from the seats and the held token hashes (see :func:`change_seat`)."""


@dataclass(frozen=True, slots=True)
class SeatChange:
    """What :func:`change_seat` did.

    Attributes:
        seats: the seats after it.
        event: the appended seat event, or ``None`` when nothing changed.
        version: the game's version after it.
        head_hash: the game's head hash after it.
        dealt: whether it took the last open seat of a game whose deal was deferred, and
            dealt the game in the same batch.
    """

    seats: list[SeatState]
    event: StoredEvent | None
    version: int
    head_hash: str
    dealt: bool = False


@dataclass(frozen=True, slots=True)
class CreatedGame:
    """What :func:`create_game` returns.

    Attributes:
        record: the game's record.
        tokens: the seat tokens in plain text, by seat (``None``: a seat with no token, open
            or a bot's); returned once, stored only hashed.
        state: the state after setup (the initial state while the deal is deferred).
        events: the stored events (``game_created`` and the setup events).
        seats: each seat's holder.
        secrets: the seed and the explicit deal (for a caller that keeps the head cached).
        clock: every seat's clock (stopped while the deal is deferred), or ``None``.
        deal_deferred: whether the game deals when its last open seat is taken.
        open_until: when its open seats expire (``None``: never).
    """

    record: GameRecord
    tokens: tuple[str | None, ...]
    state: Any
    events: list[StoredEvent]
    seats: tuple[SeatState, ...] = ()
    secrets: GameSecrets | None = None
    clock: ClockState | None = None
    deal_deferred: bool = False
    open_until: str | None = None

    @property
    def head(self) -> Head:
        """The new game's head."""
        assert self.secrets is not None
        return Head.of(
            self.record,
            self.state,
            self.secrets,
            self.seats,
            self.clock,
            deal_deferred=self.deal_deferred,
            open_until=self.open_until,
        )


@dataclass(frozen=True, slots=True)
class Head:
    """Everything a command needs of a game, at its last event: what a caller caches.

    Attributes:
        id: the game's id.
        game: the registered game id.
        version: the seq of the last event.
        head_hash: the hash of the last event (the next row chains from it).
        state: the folded state at ``version``.
        finished: whether the game is over.
        secrets: the seed (every command's chance is drawn from it) and the explicit deal
            (revealed with the seed).
        seats: each seat's holder (which seats a bot plays).
        clock: every seat's clock, for a game with a time control; else ``None``.
        deal_deferred: the game was created with an open seat and deals when its last
            open seat is taken (``game_created.deal_deferred``).
        open_until: when its open seats expire (``game_created.open_until``; ``None``:
            never): a game still waiting then is abandoned.
        acted: each seat's last command, by seat: the seq of its first row (``0``: none
            yet; a seat beyond the tuple has not acted either). Every command recorded as
            the seat's counts, whoever chose it: its holder's, its bot's, a forced move
            after its clock ran out.
    """

    id: str
    game: str
    version: int
    head_hash: str
    state: Any
    finished: bool
    secrets: GameSecrets
    seats: tuple[SeatState, ...] = ()
    clock: ClockState | None = None
    acted: tuple[int, ...] = ()
    deal_deferred: bool = False
    open_until: str | None = None

    @classmethod
    def of(
        cls,
        record: GameRecord,
        state: Any,
        secrets: GameSecrets,
        seats: Sequence[SeatState] = (),
        clock: ClockState | None = None,
        acted: Mapping[int, int] | None = None,
        *,
        deal_deferred: bool = False,
        open_until: str | None = None,
    ) -> Head:
        """The head of a game whose record and state are at the same version; ``acted``
        maps each seat that has acted to the seq of its last command."""
        last = {} if acted is None else acted
        return cls(
            id=record.id,
            game=record.game,
            version=record.version,
            head_hash=record.head_hash,
            state=state,
            finished=record.status == GameStatus.FINISHED,
            secrets=secrets,
            seats=tuple(seats),
            clock=clock,
            acted=tuple(last.get(seat, 0) for seat in range(record.players)),
            deal_deferred=deal_deferred,
            open_until=open_until,
        )

    @property
    def waiting(self) -> bool:
        """Whether the game waits for players: its deal is deferred and a seat is still
        open, so nothing is dealt and no seat may act."""
        return self.deal_deferred and _any_open(self.seats)

    def expired(self, now: str) -> bool:
        """Whether the game still waits for players at ``now``, its open seats expired."""
        return (
            not self.finished
            and self.waiting
            and self.open_until is not None
            and to_ms(self.open_until) <= to_ms(now)
        )

    def acted_since(self, seat: Seat, version: int) -> bool:
        """Whether a command of ``seat`` was recorded after event ``version``."""
        return 0 <= seat < len(self.acted) and self.acted[seat] > version

    def due_at(self, spec: AnySpec, now: str) -> str | None:
        """When the server has work to do on the game at this head: ``now`` when a seat a
        bot plays is to act, else the earliest deadline of a running clock, else ``None``
        (the game waits on people with no clock, or is over); for a game waiting for
        players, when its open seats expire (``None``: never)."""
        if self.finished:
            return None
        if self.waiting:
            return self.open_until
        bots = {seat.seat for seat in self.seats if seat.bot is not None}
        if bots & spec.to_act(self.state):
            return now
        deadline = None if self.clock is None else next_deadline(self.clock)
        return None if deadline is None else from_ms(deadline)

    def after(
        self,
        batch: Append,
        state: Any = None,
        *,
        finished: bool = False,
        clock: ClockState | None = None,
        seats: Sequence[SeatState] | None = None,
    ) -> Head:
        """The head after ``batch`` was appended (with what the batch changed)."""
        acted = self.acted
        for row in batch.rows:
            if row.actor is not None and 0 <= row.actor < len(acted):
                acted = (*acted[: row.actor], row.seq, *acted[row.actor + 1 :])
        return dataclasses.replace(
            self,
            version=batch.new_version,
            head_hash=batch.new_head_hash,
            state=self.state if state is None else state,
            finished=self.finished or finished,
            clock=self.clock if clock is None else clock,
            seats=self.seats if seats is None else tuple(seats),
            acted=acted,
        )


@dataclass(frozen=True, slots=True)
class PreparedCommand:
    """A command decided and sealed, ready to append (see :func:`prepare_command`).

    Attributes:
        step: what the pure step did: the command's events, the state, the outcome.
        events: every row of the batch as stored (``seed_revealed`` last when the game
            ends), with seqs, times and hashes: what an answer to the command is built from.
        append: the batch to hand to the store (add a ``reply`` to keep an answer).
        head: the game's head once the batch is appended.
    """

    step: Step[Any, Any]
    events: list[StoredEvent]
    append: Append
    head: Head

    @property
    def outcome(self) -> Outcome | None:
        """The outcome when the command ended the game, else ``None``."""
        return self.step.outcome


@dataclass(frozen=True, slots=True)
class CommandResult:
    """What :func:`submit_command` returns.

    Attributes:
        events: the appended events with seq and hash (``seed_revealed`` last when the game
            just finished). Empty when the command caused no event.
        state: the state after them.
        version: the game's version after them.
        outcome: the outcome when the game just finished, else ``None``.
    """

    events: list[StoredEvent]
    state: Any
    version: int
    outcome: Outcome | None


@dataclass(frozen=True, slots=True)
class IdempotencyRequest:
    """Ask :func:`submit_command` to keep an answer under an idempotency key.

    Attributes:
        key: the client's ``Idempotency-Key``.
        fingerprint: a digest of the request, to tell a retry from a reuse of the key.
        response: builds the JSON value to keep from the result, before the append (the
            record is written in the append's transaction, so it exists exactly when the
            events do).
    """

    key: str
    fingerprint: str
    response: Callable[[CommandResult], object]


@dataclass(frozen=True, slots=True)
class LoadedState:
    """A folded state and where it stands.

    Attributes:
        record: the game's record (at the time of loading).
        seq: the seq of the last event folded in (the version, for the head).
        state: the state after that event.
    """

    record: GameRecord
    seq: int
    state: Any


@dataclass(frozen=True, slots=True)
class ViewAt:
    """A viewer's view of a game after event ``seq``.

    Attributes:
        record: the game's record.
        seq: the step shown.
        seat: the viewer (``None``: a spectator).
        state: the state (for the caller's own use; never sent to a client).
        view: ``spec.view(state, seat)`` with its ``version`` set to ``seq``.
    """

    record: GameRecord
    seq: int
    seat: int | None
    state: Any
    view: Any


def new_game_id() -> str:
    """A random, url-safe game id: 16 characters of ``[a-z2-7]`` (80 bits)."""
    return base64.b32encode(secrets.token_bytes(10)).decode().lower()


def seed_from_client(seed: str) -> bytes:
    """The seed bytes of a client-given seed string: its UTF-8 encoding.

    Raises:
        InvalidOptionsError: an empty seed (code ``invalid-seed``).
    """
    if not seed:
        raise InvalidOptionsError("the seed must not be empty", code="invalid-seed")
    return seed.encode()


def redact_for(spec: AnySpec, event: Any, seat: int | None) -> Any:
    """An event as ``seat`` (``None``: a spectator) may see it; meta events are public."""
    return event if is_meta(event) else spec.redact(event, seat)


def check_batch(batch: Append) -> None:
    """Refuse a batch that breaks the log's rules on its own events (a caller's bug, not a
    conflict: ``ValueError``): ``game_created`` only at creation, ``seed_revealed`` only
    last, and a batch ends with ``seed_revealed`` exactly when it carries the outcome that
    finishes the game. (The store checks the seqs; it names no event type.)"""
    rows = batch.rows
    for index, row in enumerate(rows):
        last = index == len(rows) - 1
        if row.type == _GAME_CREATED or (row.type == _SEED_REVEALED and not last):
            raise ValueError(f"{row.type} cannot be appended at position {index} of a batch")
    finishing = bool(rows) and rows[-1].type == _SEED_REVEALED
    if finishing != (batch.outcome is not None):
        raise ValueError("a batch ends with seed_revealed exactly when it carries the outcome")


def stored_events(append: Append, events: Sequence[Any]) -> list[StoredEvent]:
    """The rows of ``append`` with their decoded ``events``, as a reader of the log gets them."""
    return [
        StoredEvent(
            seq=row.seq,
            type=row.type,
            event=event,
            actor=row.actor,
            recorded_at=row.recorded_at,
            hash=row.hash,
            bot=row.bot,
        )
        for row, event in zip(append.rows, events, strict=True)
    ]


def create_game(
    store: EventStore,
    game: str,
    players: int | None = None,
    options: object = None,
    seed: str | None = None,
    *,
    game_id: str | None = None,
    seats: Sequence[SeatState] | None = None,
    tokens: Mapping[int, str] | None = None,
    rematch_of: str | None = None,
    clock: TimeControl | None = None,
    created_at: str | None = None,
    open_seat_ttl: float | None = None,
    games: Games | None = None,
) -> CreatedGame:
    """Create a game: validate, run ``start``, and store it with its seat tokens.

    Args:
        store: the store.
        game: a registered game id, e.g. ``deck-of-spies``.
        players: the number of seats (default: the game's minimum).
        options: the raw options (a JSON object, or ``None`` for defaults).
        seed: a client-given seed string (UTF-8 bytes; recorded ``seed_source="client"``);
            ``None`` draws a secret one. With an explicit ``options.deal`` the game's
            ``seed_source`` is ``"deal"``, whoever chose the seed.
        game_id: an explicit id (tests, tools); default a random one.
        seats: each seat's holder, in seat order (default: every seat the creator's).
        tokens: the seats that get a token and those tokens (default: a new random token
            for each creator seat).
        rematch_of: the finished game this one is the rematch of: the link is written with
            the game, and each seat given a token is recorded as claimed (``seat_claimed``).
        clock: the game's time control (checked by the caller), or ``None``: the clocks of
            the seats to act start at creation (``clocks_updated``).
        created_at: the time to record (the server's clock); default now.
        open_seat_ttl: for a game with an open seat, how many seconds its open seats stay
            open (``game_created.open_until``); ``None``: for ever.
        games: the games ``game`` is looked up among (default: the registry).

    Returns:
        The record, the plain-text seat tokens (once), the state after setup, the events.

    Raises:
        UnknownGameError: ``game`` is not registered. Nothing is written.
        InvalidOptionsError: from :func:`spies_core.start_game`. Nothing is written.
        GameExistsError: an explicit ``game_id`` is taken.
        RematchExistsError: ``rematch_of`` already has its rematch. Nothing is written.
    """
    spec = get_game(game, games)
    if seed is None:
        seed_bytes, source = secrets.token_bytes(32), SeedSource.SERVER
    else:
        seed_bytes, source = seed_from_client(seed), SeedSource.CLIENT
    raw_options = {} if options is None else options
    started = setup(spec, players, raw_options, FairRng(seed_bytes, 0))
    if not isinstance(raw_options, dict):
        raise InvalidOptionsError(f"options must be a JSON object, not {raw_options!r}")
    public_options, deal = split_deal(msgspec.to_builtins(raw_options))
    if deal is not None:  # the creator chose the cards, whoever chose the seed
        source = SeedSource.DEAL
    count = spec.min_players if players is None else players
    holders = [SeatState(seat=seat) for seat in range(count)] if seats is None else list(seats)
    if len(holders) != count or any(s.seat != i for i, s in enumerate(holders)):
        raise ValueError(f"seats must list seats 0 to {count - 1} in order, one each")
    # A table with an open seat deals when its last open seat is taken: until then nobody,
    # its creator included, sees a hand (and could create games until one it likes).
    deferred = _any_open(holders)
    created_at = utc_now() if created_at is None else created_at
    open_until = None
    if deferred and open_seat_ttl is not None:
        open_until = from_ms(to_ms(created_at) + round(open_seat_ttl * 1000))
    created = GameCreated(
        game=spec.name,
        players=count,
        options=public_options,
        seed_commitment=seed_commitment(seed_bytes),
        seed_source=source,
        rng=ALGORITHM,
        created_at=created_at,
        deal_commitment=None if deal is None else deal_commitment(seed_bytes, deal),
        seats=None if seats is None else holders,
        rematch_of=rematch_of,
        clock=clock,
        deal_deferred=deferred,
        open_until=open_until,
    )
    if tokens is None:
        tokens = {s.seat: secrets.token_urlsafe(32) for s in holders if s.type == SeatType.CREATOR}
    claims = [SeatClaimed(seat=seat) for seat in sorted(tokens)] if rematch_of is not None else []
    game_secrets = GameSecrets(seed=seed_bytes, deal=deal)
    events: list[msgspec.Struct] = [created]
    if deferred:
        state, outcome = spec.initial_state(), None
        clocks = None if clock is None else stopped_clocks(clock, count)
        events += claims
    else:
        state, outcome = started.state, started.outcome
        dealt, clocks = _deal(spec, created, game_secrets, started, created_at, claims=claims)
        events += dealt
    plain = tuple(tokens.get(seat) for seat in range(count))
    for attempt in range(5):
        new_id = game_id or new_game_id()
        rows = seal(genesis_hash(new_id), 1, events, recorded_at=created_at)
        record = GameRecord(
            id=new_id,
            game=spec.name,
            players=count,
            options=public_options,
            status=GameStatus.FINISHED if outcome is not None else GameStatus.ACTIVE,
            version=rows[-1].seq,
            head_hash=rows[-1].hash,
            seed_commitment=seed_commitment(seed_bytes),
            seed_source=source,
            rng=ALGORITHM,
            outcome=outcome,
            created_at=created_at,
            updated_at=created_at,
        )
        snapshots = [(rows[-1].seq, state)] if len(rows) >= store.snapshot_every else []
        try:
            store.insert_game(
                NewGame(
                    record=record,
                    secrets=game_secrets,
                    rows=rows,
                    token_hashes=[None if token is None else hash_token(token) for token in plain],
                    seats=holders,
                    snapshots=snapshots,
                    rematch_of=rematch_of,
                    due_at=Head.of(
                        record,
                        state,
                        game_secrets,
                        holders,
                        clocks,
                        deal_deferred=deferred,
                        open_until=open_until,
                    ).due_at(spec, created_at),
                )
            )
        except GameExistsError:
            if game_id is not None or attempt == 4:
                raise
            continue
        stored = [
            StoredEvent(
                seq=row.seq,
                type=row.type,
                event=event,
                actor=None,
                recorded_at=row.recorded_at,
                hash=row.hash,
            )
            for row, event in zip(rows, events, strict=True)
        ]
        return CreatedGame(
            record=record,
            tokens=plain,
            state=state,
            events=stored,
            seats=tuple(holders),
            secrets=game_secrets,
            clock=clocks,
            deal_deferred=deferred,
            open_until=open_until,
        )
    raise AssertionError("unreachable")  # pragma: no cover


def _any_open(seats: Sequence[SeatState]) -> bool:
    return any(seat.type == SeatType.OPEN for seat in seats)


def _deal(
    spec: AnySpec,
    created: GameCreated,
    secrets: GameSecrets,
    started: Step[Any, Any],
    at: str,
    *,
    claims: Sequence[SeatClaimed] = (),
) -> tuple[list[Any], ClockState | None]:
    """The events that deal a game at ``at`` (its setup, drawn by ``started``): the setup
    events, a rematch's ``claims``, then the clocks starting (``clocks_updated``), or
    ``seed_revealed`` when the setup already ends the game; and the clocks."""
    events: list[Any] = [*started.events, *claims]
    clocks = None
    if started.outcome is not None:
        events.append(SeedRevealed(seed=secrets.seed.hex(), deal=secrets.deal))
    elif created.clock is not None:
        clocks = start_clocks(created.clock, created.players, at, spec.to_act(started.state))
        events.append(clocks_event(clocks))
    return events, clocks


def deferred_setup(spec: AnySpec, created: GameCreated, secrets: GameSecrets) -> Step[Any, Any]:
    """The setup of a game whose deal was deferred, drawn exactly as at its creation:
    ``start`` with ``FairRng(seed, 0)`` on the logged options (and the explicit deal).

    Raises:
        InvalidOptionsError: the logged options no longer start a game (a log this build
            cannot deal).
    """
    options = dict(created.options)
    if secrets.deal is not None:
        options["deal"] = secrets.deal
    return setup(spec, created.players, options, FairRng(secrets.seed, 0))


def prepare_command(
    spec: AnySpec,
    head: Head,
    seat: Seat,
    command: Any,
    *,
    bot: str | None = None,
    recorded_at: str | None = None,
    forced: bool = False,
) -> PreparedCommand:
    """Decide ``command`` of ``seat`` on the game's head and seal its batch.

    The command is decided with ``FairRng(seed, nonce=version)``; when its events end the
    game, ``seed_revealed`` (the seed and the explicit deal) closes the batch. In a game with
    a clock, the seat's clock stops (the time it took charged to its budget, the increment
    added), the clocks of the seats to act after it run, and ``clocks_updated`` records them.
    Nothing is written: hand ``append`` to the store.

    Args:
        spec: the game's spec.
        head: the game's head (its state at ``head.version``).
        seat: the acting seat.
        command: a decoded command Struct of the game's ``command_type``.
        bot: the bot that chose the command (recorded with it), or ``None``: a person.
        recorded_at: the time to record (the server's clock, read by the caller); default
            now.
        forced: the move a bot plays for a seat whose clock ran out (its timeouts in a row
            are kept).

    Raises:
        GameFinishedError: the head is finished (a :class:`~spies_core.errors.GameOverError`).
        GameNotStartedError: the game is waiting for players (nothing is dealt yet).
        DeadlinePassedError: the seat's clock ran out before ``recorded_at``.
        RuleError: whatever the game's ``decide`` raises.
    """
    if head.finished:
        raise GameFinishedError(f"game {head.id!r} has finished; no command is accepted")
    if head.waiting:
        raise GameNotStartedError(
            f"game {head.id!r} is waiting for players: nothing is dealt until its last open"
            " seat is taken, and no seat may act before"
        )
    now = utc_now() if recorded_at is None else recorded_at
    clocks = head.clock
    if clocks is not None and not forced:
        deadline = deadline_ms(clocks, seat)
        if deadline is not None and to_ms(now) >= deadline:
            raise DeadlinePassedError(head.id, seat, from_ms(deadline), head.version)
    moved = step(spec, head.state, seat, command, FairRng(head.secrets.seed, head.version))
    batch: list[Any] = list(moved.events)
    if clocks is not None:
        clocks, used = move(clocks, seat, to_ms(now), forced=forced)
        if not moved.finished:
            clocks = run_clocks(clocks, to_ms(now), spec.to_act(moved.state))
        batch.append(clocks_event(clocks, moved=seat, used_ms=used))
    return _sealed(
        spec, head, batch, moved, now, actor=seat, command=command, bot=bot, clock=clocks
    )


def _sealed(
    spec: AnySpec,
    head: Head,
    batch: list[Any],
    moved: Step[Any, Any],
    now: str,
    *,
    actor: Seat | None = None,
    command: Any = None,
    bot: str | None = None,
    clock: ClockState | None = None,
    before: Sequence[Any] = (),
    seat: SeatState | None = None,
    seats: Sequence[SeatState] | None = None,
) -> PreparedCommand:
    """Seal ``before`` (meta events ahead of the command), then ``batch`` with ``actor``,
    ``command`` and ``bot`` on its first row, and ``seed_revealed`` when the game ends."""
    outcome = moved.outcome
    if outcome is not None:
        batch = [*batch, SeedRevealed(seed=head.secrets.seed.hex(), deal=head.secrets.deal)]
    rows = seal(head.head_hash, head.version + 1, before, recorded_at=now)
    rows += seal(
        rows[-1].hash if rows else head.head_hash,
        head.version + 1 + len(rows),
        batch,
        recorded_at=now,
        actor=actor,
        command=command,
        bot=bot,
    )
    append = Append(
        game_id=head.id,
        version=head.version,
        head_hash=head.head_hash,
        rows=rows,
        outcome=outcome,
        state=moved.state,
        seat=seat,
    )
    check_batch(append)
    after = head.after(append, moved.state, finished=moved.finished, clock=clock, seats=seats)
    append = dataclasses.replace(append, due_at=after.due_at(spec, now))
    return PreparedCommand(
        step=moved,
        events=stored_events(append, [*before, *batch]),
        append=append,
        head=after,
    )


@dataclass(frozen=True, slots=True)
class TimeoutPlan:
    """What a seat's timeout records at a head (:func:`plan_timeout`).

    Attributes:
        seat: the seat whose clock ran out.
        timeouts: its timeouts in a row, this one included.
        forfeit: the seat loses the game (``on_timeout`` ``forfeit``).
        handed: the hand-over that comes before the forced move (``abandon_after`` reached
            by a seat a person holds and plays), or ``None``.
        forced_at: the version the forced move is decided at (the seat's view, the bot's
            generator and the move's chance all follow it): the head's, plus the meta events
            before the move; ``None`` for a forfeit.
    """

    seat: int
    timeouts: int
    forfeit: bool
    handed: SeatHandedToBot | None
    forced_at: int | None


def plan_timeout(head: Head, seat: Seat) -> TimeoutPlan:
    """What ``seat``'s timeout at ``head`` records: ``clock_expired``, then the forfeit, or
    the forced move, after the seat's hand-over when the timeout abandons it
    (:func:`spies_replay.clocks.abandons`).

    Raises:
        ValueError: the game has no clock.
    """
    clocks = head.clock
    if clocks is None:
        raise ValueError(f"game {head.id!r} has no clock")
    control = clocks.control
    timeouts = clocks.seats[seat].timeouts + 1
    if control.on_timeout is OnTimeout.FORFEIT:
        return TimeoutPlan(seat, timeouts, forfeit=True, handed=None, forced_at=None)
    holder = head.seats[seat] if seat < len(head.seats) else SeatState(seat=seat)
    handed = (
        SeatHandedToBot(seat=seat, bot=control.timeout_bot)
        if abandons(control, timeouts, holder)
        else None
    )
    before = 1 if handed is None else 2  # clock_expired, and the hand-over
    return TimeoutPlan(seat, timeouts, False, handed, forced_at=head.version + before)


def prepare_timeout(
    spec: AnySpec,
    head: Head,
    seat: Seat,
    *,
    forced: Any = None,
    bot: str | None = None,
    recorded_at: str | None = None,
) -> PreparedCommand:
    """A seat's clock ran out: ``clock_expired``, then what its time control says
    (:func:`plan_timeout`), all in one batch.

    - ``forfeit``: the seat loses (``spec.forfeit``): the game ends in the same batch;
    - ``bot``: ``forced`` (the move the time control's bot chose for the seat, at the plan's
      ``forced_at``) is played as the seat's, marked with ``bot``. When the timeout abandons
      the seat (``abandon_after`` timeouts in a row of a seat a person holds and plays), the
      seat is first handed to that bot for the rest of the game (``seat_handed_to_bot``, as a
      hand-over; its holder can take it back once the seat has moved): every timeout moves
      the game on.

    Raises:
        ValueError: the game has no clock, the seat's clock has not run out by
            ``recorded_at``, or a forced move is needed and none was given.
        RuleError: the forced move is refused by the rules (a bug in the bot).
    """
    clocks = head.clock
    deadline = None if clocks is None else deadline_ms(clocks, seat)
    now = utc_now() if recorded_at is None else recorded_at
    if clocks is None or deadline is None or to_ms(now) < deadline:
        raise ValueError(f"seat {seat}'s clock in game {head.id!r} has not run out")
    plan = plan_timeout(head, seat)
    clocks = expire(clocks, seat)
    expired = ClockExpired(
        seat=seat, deadline=from_ms(deadline), timeouts=plan.timeouts, forfeit=plan.forfeit
    )
    at_ms = to_ms(now)
    if plan.forfeit:
        if spec.forfeit is None:
            raise ValueError(f"{spec.name} cannot be forfeited")
        outcome = spec.forfeit(head.state, seat)
        over: Step[Any, Any] = Step((), head.state, outcome)
        return _sealed(
            spec, head, [clocks_event(clocks)], over, now, before=[expired], clock=clocks
        )
    if forced is None or plan.forced_at is None:
        raise ValueError("a timeout played by a bot needs the bot's move")
    before: list[Any] = [expired]
    seats: list[SeatState] | None = None
    if plan.handed is not None:
        before.append(plan.handed)
        seats = apply_seat_event(list(head.seats), plan.handed)
    moved = step(spec, head.state, seat, forced, FairRng(head.secrets.seed, plan.forced_at))
    clocks, used = move(clocks, seat, at_ms, forced=True)
    if not moved.finished:
        clocks = run_clocks(clocks, at_ms, spec.to_act(moved.state))
    batch = [*moved.events, clocks_event(clocks, moved=seat, used_ms=used)]
    return _sealed(
        spec,
        head,
        batch,
        moved,
        now,
        actor=seat,
        command=forced,
        bot=bot,
        clock=clocks,
        before=before,
        seat=None if seats is None else seats[seat],
        seats=seats,
    )


def prepare_abort(
    spec: AnySpec,
    head: Head,
    *,
    reason: str,
    detail: str,
    recorded_at: str | None = None,
) -> PreparedCommand:
    """End a game in progress that no rule ended: ``game_aborted``, the clocks stopped
    (``clocks_updated``, in a game with a clock: the time each running clock ran is
    charged), then ``seed_revealed``; the outcome is ``{"winners": [], "reason": reason}``.
    Nothing is written: hand ``append`` to the store, whose version check refuses it when
    the game moved on meanwhile.

    Args:
        spec: the game's spec.
        head: the game's head.
        reason: a machine code of :class:`~spies_replay.meta.AbortReason`: ``aborted`` (an
            operator), ``abandoned`` (the server: open seats that expired).
        detail: why, in words: 1 to :data:`~spies_replay.meta.ABORT_DETAIL_MAX`
            printable characters.
        recorded_at: the time to record (the caller's clock); default now.

    Raises:
        GameFinishedError: the game is over already.
        ValueError: an unknown ``reason``, or a ``detail`` that is empty, too long or holds
            a character that is not printable.
    """
    if head.finished:
        raise GameFinishedError(f"game {head.id!r} has finished already; nothing to abort")
    try:
        code = AbortReason(reason)
    except ValueError:
        known = ", ".join(str(known) for known in AbortReason)
        raise ValueError(f"unknown abort reason {reason!r}; one of {known}") from None
    check_abort_detail(detail)
    now = utc_now() if recorded_at is None else recorded_at
    aborted = GameAborted(reason=code, detail=detail)
    clocks = None if head.clock is None else run_clocks(head.clock, to_ms(now), ())
    ended: Step[Any, Any] = Step((), head.state, aborted_outcome(aborted))
    batch = [] if clocks is None else [clocks_event(clocks)]
    return _sealed(spec, head, batch, ended, now, before=[aborted], clock=clocks)


def prepare_resume(spec: AnySpec, head: Head, recorded_at: str | None = None) -> PreparedCommand:
    """Clocks that ran out while no server was running start again from what they had:
    ``clocks_resumed``, then the clocks.

    Raises:
        ValueError: the game has no clock.
    """
    if head.clock is None:
        raise ValueError(f"game {head.id!r} has no clock")
    now = utc_now() if recorded_at is None else recorded_at
    started = [clock.since_ms for clock in head.clock.seats if clock.since_ms is not None]
    since = from_ms(max(started)) if started else now
    clocks = resume_clocks(head.clock, to_ms(now))
    resumed = ClocksResumed(since=since)
    return _sealed(
        spec, head, [resumed, clocks_event(clocks)], Step((), head.state, None), now, clock=clocks
    )


@dataclass(frozen=True, slots=True)
class PendingDeal:
    """What a waiting game deals from when its last open seat is taken.

    Attributes:
        spec: the game.
        created: its ``game_created`` (seats, options, time control, ``deal_deferred``).
        secrets: its seed (and explicit deal, if any).
    """

    spec: AnySpec
    created: GameCreated
    secrets: GameSecrets


@dataclass(frozen=True, slots=True)
class PreparedSeatChange:
    """A seat event sealed, ready to append (see :func:`prepare_seat_change`).

    Attributes:
        append: the batch to hand to the store.
        seats: the seats after it.
        events: its events: the seat event, then, when it took a waiting game's last open
            seat, the deal (the setup events and the clocks starting).
        dealt: whether it dealt the game.
        state: the game's state after it when it dealt (else the state did not change).
        clock: the clocks after it when it dealt a game with a time control.
    """

    append: Append
    seats: list[SeatState]
    events: list[Any]
    dealt: bool = False
    state: Any = None
    clock: ClockState | None = None


def prepare_seat_change(
    record: GameRecord,
    seats: list[SeatState],
    event: SeatEvent,
    *,
    token_hash: str | None = None,
    recorded_at: str | None = None,
    deal: PendingDeal | None = None,
) -> PreparedSeatChange:
    """Seal one seat event after the game's last event (``record``'s version and head hash).

    When the event takes the last open seat of a game whose deal is deferred (``deal``, read
    from its log), the deal follows in the same batch: the setup events drawn exactly as at
    creation (:func:`deferred_setup`), then the clocks starting (or ``seed_revealed`` when
    the setup ends the game).

    Raises:
        GameFinishedError: the game is over (its seats are final).
    """
    if record.status == GameStatus.FINISHED:
        raise GameFinishedError(f"game {record.id!r} has finished; its seats are final")
    changed = apply_seat_event(seats, event)
    now = utc_now() if recorded_at is None else recorded_at
    events: list[Any] = [event]
    started: Step[Any, Any] | None = None
    clocks = None
    if (
        deal is not None
        and deal.created.deal_deferred
        and _any_open(seats)
        and not _any_open(changed)
    ):
        started = deferred_setup(deal.spec, deal.created, deal.secrets)
        dealt, clocks = _deal(deal.spec, deal.created, deal.secrets, started, now)
        events += dealt
    rows = seal(record.head_hash, record.version + 1, events, recorded_at=now)
    append = Append(
        game_id=record.id,
        version=record.version,
        head_hash=record.head_hash,
        rows=rows,
        outcome=None if started is None else started.outcome,
        state=None if started is None else started.state,
        seat=changed[event.seat],
        token_hash=token_hash,
        # the scheduler looks at the game again: a bot may now be the one to act, or no more
        due_at=now,
    )
    check_batch(append)
    return PreparedSeatChange(
        append=append,
        seats=changed,
        events=events,
        dealt=started is not None,
        state=None if started is None else started.state,
        clock=clocks,
    )


def load_head(store: EventStore, game_id: str, *, games: Games | None = None) -> Head:
    """The game's head, folded from its nearest snapshot, with its secrets (the game looked
    up among ``games``, default the registry).

    Raises:
        GameNotFoundError: no such game.
        ReplayError: the game has no stored seed (code ``seed-missing``).
    """
    with store.reading():
        loaded = load_state(store, game_id, games=games)
        found = store.secrets(game_id)
        seats = store.seat_states(game_id, loaded.record.players)
        created = game_created(store, game_id, games=games)
        clock = clock_at(store, game_id, games=games)
        acted = store.last_commands(game_id)
    if found is None:
        raise ReplayError(f"game {game_id!r} has no stored seed", code="seed-missing")
    return Head.of(
        loaded.record,
        loaded.state,
        found,
        seats,
        clock,
        acted,
        deal_deferred=created is not None and created.deal_deferred,
        open_until=None if created is None else created.open_until,
    )


def game_created(
    store: EventStore, game_id: str, *, games: Games | None = None
) -> GameCreated | None:
    """The game's first event, ``game_created`` (``None`` in a log that lacks it).

    Raises:
        GameNotFoundError: no such game.
    """
    first = read_events(store, game_id, after=0, limit=1, games=games)
    created = first[0].event if first else None
    return created if isinstance(created, GameCreated) else None


def _pending_deal(store: EventStore, record: GameRecord, games: Games | None) -> PendingDeal | None:
    """What the game deals from at its last join, when its deal is deferred."""
    created = game_created(store, record.id, games=games)
    found = store.secrets(record.id)
    if created is None or not created.deal_deferred or found is None:
        return None
    return PendingDeal(spec=get_game(record.game, games), created=created, secrets=found)


def time_control(
    store: EventStore, game_id: str, *, games: Games | None = None
) -> TimeControl | None:
    """The game's time control (``game_created.clock``), or ``None``.

    Raises:
        GameNotFoundError: no such game.
    """
    created = game_created(store, game_id, games=games)
    return None if created is None else created.clock


def clock_at(
    store: EventStore, game_id: str, at: int | None = None, *, games: Games | None = None
) -> ClockState | None:
    """Every seat's clock after event ``at`` (default: the head), or ``None`` without a clock:
    the last ``clocks_updated`` up to there; before the first one (a game not dealt yet),
    every seat's full time, none running."""
    created = game_created(store, game_id, games=games)
    control = None if created is None else created.clock
    if created is None or control is None:
        return None
    last = last_event(store, game_id, [_CLOCKS_UPDATED], upto=at, games=games)
    if last is None or not isinstance(last.event, ClocksUpdated):
        return stopped_clocks(control, created.players)
    return state_of(control, last.event)


def submit_command(
    store: EventStore,
    game_id: str,
    seat: int,
    command: Any,
    *,
    state: Any = None,
    version: int | None = None,
    idempotency: IdempotencyRequest | None = None,
    bot: str | None = None,
    games: Games | None = None,
) -> CommandResult:
    """Decide a command on the game's head and append its events atomically (for tools and
    tests; the API keeps heads cached and calls :func:`prepare_command` itself).

    Args:
        store: the store.
        game_id: the game.
        seat: the acting seat.
        command: a decoded command Struct of the game's ``command_type``.
        state: the caller's state at ``version`` (it must be the log's state there);
            ``None`` folds the head state.
        version: the version the caller expects (its ``expected_version``); ``None`` takes
            whatever the head is.
        idempotency: an answer to keep under a key, in the same transaction.
        bot: the bot that chose the command (recorded with it), or ``None``: a person.
        games: the games the game's id is looked up among (default: the registry).

    Returns:
        The stored events, the new state and version, and the outcome if the game ended.

    Raises:
        GameNotFoundError: no such game.
        VersionConflictError: the game is not at ``version`` (with the current version).
        IdempotencyKeyExistsError: the key was used before (its record attached).
        GameFinishedError: the game has finished (a :class:`~spies_core.errors.GameOverError`).
        RuleError: whatever the game's ``decide`` raises. Nothing is written.
    """
    if state is not None and version is None:
        raise ValueError("pass the cached state together with its version, or neither")
    head = load_head(store, game_id, games=games)
    spec = get_game(head.game, games)
    try:
        if version is not None and version != head.version:
            raise VersionConflictError(game_id, version, head.version)
        if state is not None:
            head = dataclasses.replace(head, state=state)
        prepared = prepare_command(spec, head, seat, command, bot=bot)
    except SpiesError:
        if idempotency is not None:  # a retry of a command that was applied: its answer
            found = store.get_idempotency(game_id, idempotency.key)
            if found is not None:
                raise IdempotencyKeyExistsError(found) from None
        raise
    result = CommandResult(
        events=prepared.events,
        state=prepared.step.state,
        version=prepared.head.version,
        outcome=prepared.outcome,
    )
    append = prepared.append
    if idempotency is not None:
        response = msgspec.json.encode(idempotency.response(result))
        append = dataclasses.replace(
            append, reply=Reply(idempotency.key, idempotency.fingerprint, result=response)
        )
    store.append(append)
    return result


def change_seat(
    store: EventStore,
    game_id: str,
    choose: SeatChoice,
    *,
    token_hash: str | None = None,
    clock: Callable[[], str] = utc_now,
    games: Games | None = None,
) -> SeatChange:
    """Decide and record one seat change: read the seats, ``choose``, append at that version.

    ``choose(seats, token_hashes)`` gets the seats as they stand (and the hashes of the seat
    tokens held, by seat) and returns the seat event to append, or ``None`` to change
    nothing, or raises to refuse. The event is appended at the version the seats were read
    at, so two racing changes are decided one after the other, across processes: exactly
    one of two joins of a seat finds it open, and the other reads the seats again and is
    refused. With ``token_hash`` the event's seat gets that token; ``clock`` is where the
    event's time is read (the server's clock). A join that takes the last open seat of a
    game whose deal is deferred deals it in the same batch (:func:`prepare_seat_change`).

    Raises:
        GameNotFoundError: no such game.
        GameFinishedError: the game is over.
        SeatTakenError: the seat already has a token (a writer that skipped ``choose``).
        StoreBusyError: other writers kept moving the game on meanwhile.
        Whatever ``choose`` raises. Nothing is written.
    """
    for _attempt in range(_SEAT_CHANGE_ATTEMPTS):
        deal = None
        with store.reading():
            record = store.get_game(game_id)
            seats = store.seat_states(game_id, record.players)
            tokens = store.token_hashes(game_id)
            if _any_open(seats):  # a join may take the last open seat of a waiting game
                deal = _pending_deal(store, record, games)
        if record.status == GameStatus.FINISHED:
            raise GameFinishedError(f"game {game_id!r} has finished; its seats are final")
        event = choose(seats, tokens)
        if event is None:
            return SeatChange(
                seats=seats, event=None, version=record.version, head_hash=record.head_hash
            )
        prepared = prepare_seat_change(
            record, seats, event, token_hash=token_hash, recorded_at=clock(), deal=deal
        )
        append = prepared.append
        try:
            store.append(append)
        except VersionConflictError:
            continue
        return SeatChange(
            seats=prepared.seats,
            event=stored_events(append, prepared.events)[0],
            version=append.new_version,
            head_hash=append.new_head_hash,
            dealt=prepared.dealt,
        )
    raise VersionConflictError(game_id, record.version, store.get_game(game_id).version)


def abort_game(
    store: EventStore,
    game_id: str,
    *,
    reason: str = AbortReason.ABORTED,
    detail: str,
    clock: Callable[[], str] = utc_now,
    games: Games | None = None,
) -> PreparedCommand:
    """End a game in progress for an operator (:func:`prepare_abort`), through the store's
    append: the head is read, the abort sealed after it and appended at its version; a
    game that moved on meanwhile (a server still playing it) is read again and the abort
    sealed anew, at most :data:`ABORT_ATTEMPTS` times. A server that shares the store
    learns of the end as of any other writer's append (its watch, or the version check of
    its next append). The abort is recorded at ``clock()``, or at the game's last event's
    time when that is later (a server whose clock runs ahead of this machine's): the
    log's times never run backwards.

    Returns:
        What was appended (its rows, the game's new head and outcome).

    Raises:
        GameNotFoundError: no such game.
        GameFinishedError: the game is over already (a :class:`~spies_core.errors.GameOverError`).
        ValueError: a bad ``reason`` or ``detail`` (see :func:`prepare_abort`). Nothing is
            written.
        VersionConflictError: the game kept moving on through every attempt.
    """
    for _attempt in range(ABORT_ATTEMPTS):
        head = load_head(store, game_id, games=games)
        now = clock()
        last = store.read_rows(game_id, after=head.version - 1, upto=head.version)
        if last and (parse_utc(last[0].recorded_at) or ()) > (parse_utc(now) or ()):
            now = last[0].recorded_at
        prepared = prepare_abort(
            get_game(head.game, games), head, reason=reason, detail=detail, recorded_at=now
        )
        try:
            store.append(prepared.append)
        except VersionConflictError:
            continue
        return prepared
    raise VersionConflictError(game_id, head.version, store.get_game(game_id).version)


def load_state(
    store: EventStore, game_id: str, *, at: int | None = None, games: Games | None = None
) -> LoadedState:
    """The folded state after event ``at`` (default: the head), from the nearest snapshot.

    Meta events are skipped by the fold; the state "after" one is the state before it. A
    snapshot that no longer decodes (the state type changed) is dropped and the state is
    refolded from the start; long refolds leave new snapshots behind.

    Raises:
        GameNotFoundError: no such game.
        SeqOutOfRangeError: ``at`` is not in ``0 .. version``.
    """
    with store.reading():
        record = store.get_game(game_id)
        target = record.version if at is None else at
        if not 0 <= target <= record.version:
            raise SeqOutOfRangeError(game_id, target, record.version)
        codec = codec_for(get_game(record.game, games))
        spec = codec.spec
        start, state = 0, None
        snapshot = store.latest_snapshot(game_id, target) if target else None
        if snapshot is not None:
            try:
                state = codec.state.decode(snapshot[1])
                start = snapshot[0]
            except (msgspec.DecodeError, msgspec.ValidationError) as exc:
                _log.warning("snapshot_ignored", game_id=game_id, seq=snapshot[0], error=str(exc))
        rows = store.read_payloads(game_id, after=start, upto=target, skip=META_TYPES)
    if state is None:
        if snapshot is not None:  # undecodable: the state type changed; rebuild the cache
            store.drop_snapshots(game_id)
        state, start = spec.initial_state(), 0
    events = codec.decode_game_events([row[1] for row in rows])
    every = store.snapshot_every
    evolve = spec.evolve
    new_snapshots: list[tuple[int, Any]] = []
    last = start
    for (seq, _payload), event in zip(rows, events, strict=True):
        state = evolve(state, event)
        if seq - last >= every:
            new_snapshots.append((seq, state))
            last = seq
    if new_snapshots:
        store.save_snapshots(game_id, new_snapshots)
    return LoadedState(record=record, seq=target, state=state)


def view_at(
    store: EventStore,
    game_id: str,
    *,
    at: int | None = None,
    seat: int | None = None,
    games: Games | None = None,
) -> ViewAt:
    """The view of ``seat`` (``None``: a spectator) after event ``at`` (default: the head).

    Raises:
        GameNotFoundError: no such game.
        SeqOutOfRangeError: ``at`` is not in ``0 .. version``.
        ReplayError: ``seat`` is not a seat of the game (code ``invalid-seat``).
    """
    loaded = load_state(store, game_id, at=at, games=games)
    record = loaded.record
    if seat is not None and not 0 <= seat < record.players:
        seats = "only seat 0" if record.players == 1 else f"seats 0 to {record.players - 1}"
        raise ReplayError(
            f"game {game_id!r} has {seats}; there is no seat {seat}",
            code="invalid-seat",
        )
    clocks = clock_at(store, game_id, loaded.seq, games=games)
    when = (
        None if clocks is None else store.read_rows(game_id, after=loaded.seq - 1, upto=loaded.seq)
    )
    now = to_ms(when[0].recorded_at) if when else 0
    view = versioned_view(
        get_game(record.game, games), loaded.state, seat, loaded.seq, clock_view(clocks, now)
    )
    return ViewAt(record=record, seq=loaded.seq, seat=seat, state=loaded.state, view=view)
