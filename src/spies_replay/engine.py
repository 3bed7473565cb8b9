"""Games on top of the store: create one, submit a command, load a state or a view.

These functions are what the API calls; each is safe from several threads and processes
(the :class:`~spies_replay.store.EventStore` gives every thread its own connection).

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
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
import structlog

from spies_core.decider import AnySpec, Outcome, start_game
from spies_core.errors import InvalidOptionsError
from spies_core.rng import ALGORITHM, FairRng, seed_commitment
from spies_replay.codec import deal_commitment, genesis_hash, split_deal
from spies_replay.errors import (
    GameExistsError,
    GameFinishedError,
    IdempotencyKeyExistsError,
    ReplayError,
    SeqOutOfRangeError,
    VersionConflictError,
)
from spies_replay.meta import (
    GameCreated,
    SeatClaimed,
    SeatState,
    SeatType,
    SeedRevealed,
    SeedSource,
    is_meta,
)
from spies_replay.store import (
    EventStore,
    GameRecord,
    GameStatus,
    PendingIdempotency,
    StoredEvent,
    hash_token,
    seal,
    utc_now,
)

__all__ = [
    "CommandResult",
    "CreatedGame",
    "IdempotencyRequest",
    "LoadedState",
    "ViewAt",
    "create_game",
    "load_state",
    "new_game_id",
    "redact_for",
    "seed_from_client",
    "submit_command",
    "view_at",
]

_log = structlog.get_logger("spies_replay.engine")


@dataclass(frozen=True, slots=True)
class CreatedGame:
    """What :func:`create_game` returns.

    Attributes:
        record: the game's record.
        tokens: the seat tokens in plain text, by seat (``None``: a seat with no token, open
            or a bot's); returned once, stored only hashed.
        state: the state after setup.
        events: the stored events (``game_created`` and the setup events).
        seats: each seat's holder.
    """

    record: GameRecord
    tokens: tuple[str | None, ...]
    state: Any
    events: list[StoredEvent]
    seats: tuple[SeatState, ...] = ()


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
    """Ask :func:`submit_command` to store a response under an idempotency key.

    Attributes:
        key: the client's ``Idempotency-Key``.
        fingerprint: a digest of the request, to tell a retry from a reuse of the key.
        response: builds the JSON value to store from the result; called inside the append's
            transaction, so the record exists exactly when the events do.
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
) -> CreatedGame:
    """Create a game: validate, run ``start``, and store it with its seat tokens.

    Args:
        store: the store.
        game: a registered game id, e.g. ``deck-of-spies``.
        players: the number of seats (default: the game's minimum).
        options: the raw options (a JSON object, or ``None`` for defaults).
        seed: a client-given seed string (UTF-8 bytes; recorded ``seed_source="client"``);
            ``None`` draws a secret one.
        game_id: an explicit id (tests, tools); default a random one.
        seats: each seat's holder, in seat order (default: every seat the creator's).
        tokens: the seats that get a token and those tokens (default: a new random token
            for each creator seat).
        rematch_of: the finished game this one is the rematch of: the link is written with
            the game, and each seat given a token is recorded as claimed (``seat_claimed``).

    Returns:
        The record, the plain-text seat tokens (once), the state after setup, the events.

    Raises:
        UnknownGameError: ``game`` is not registered. Nothing is written.
        InvalidOptionsError: from :func:`spies_core.start_game`. Nothing is written.
        GameExistsError: an explicit ``game_id`` is taken.
        RematchExistsError: ``rematch_of`` already has its rematch. Nothing is written.
    """
    spec = store.spec(game)
    if seed is None:
        seed_bytes, source = secrets.token_bytes(32), SeedSource.SERVER
    else:
        seed_bytes, source = seed_from_client(seed), SeedSource.CLIENT
    raw_options = {} if options is None else options
    setup = start_game(spec, players, raw_options, FairRng(seed_bytes, 0))
    if not isinstance(raw_options, dict):
        raise InvalidOptionsError(f"options must be a JSON object, not {raw_options!r}")
    public_options, deal = split_deal(msgspec.to_builtins(raw_options))
    count = spec.min_players if players is None else players
    holders = [SeatState(seat=seat) for seat in range(count)] if seats is None else list(seats)
    if len(holders) != count or any(s.seat != i for i, s in enumerate(holders)):
        raise ValueError(f"seats must list seats 0 to {count - 1} in order, one each")
    state = spec.initial_state()
    for event in setup:
        state = spec.evolve(state, event)
    outcome = spec.outcome(state)
    created_at = utc_now()
    events: list[msgspec.Struct] = [
        GameCreated(
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
        ),
        *setup,
    ]
    if tokens is None:
        tokens = {s.seat: secrets.token_urlsafe(32) for s in holders if s.type == SeatType.CREATOR}
    if rematch_of is not None:
        events.extend(SeatClaimed(seat=seat) for seat in sorted(tokens))
    if outcome is not None:
        events.append(SeedRevealed(seed=seed_bytes.hex(), deal=deal))
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
                record,
                seed=seed_bytes,
                token_hashes=[None if token is None else hash_token(token) for token in plain],
                rows=rows,
                snapshots=snapshots,
                deal=deal,
                seats=holders,
                rematch_of=rematch_of,
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
            record=record, tokens=plain, state=state, events=stored, seats=tuple(holders)
        )
    raise AssertionError("unreachable")  # pragma: no cover


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
) -> CommandResult:
    """Decide a command and append its events atomically.

    Pass the caller's cached ``state`` and its ``version`` (a command then reads one row and
    appends a few); without them the head state is loaded. The command is decided with
    ``FairRng(seed, nonce=version)``. When the events end the game, ``seed_revealed`` is
    appended in the same transaction. A command that causes no event appends nothing.

    Args:
        store: the store.
        game_id: the game.
        seat: the acting seat.
        command: a decoded command Struct of the game's ``command_type``.
        state: the caller's cached state at ``version``; ``None`` loads the head state.
        version: the version the caller expects (its ``expected_version``); ``None`` takes
            whatever the head is.
        idempotency: a response to store under a key, in the same transaction.
        bot: the bot that chose the command (recorded with it), or ``None``: a person.

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
    record = store.get_game(game_id)
    if idempotency is not None:
        existing = store.get_idempotency(game_id, idempotency.key)
        if existing is not None:
            raise IdempotencyKeyExistsError(existing)
    if record.status == GameStatus.FINISHED:
        raise GameFinishedError(f"game {game_id!r} has finished; no command is accepted")
    if version is not None and version != record.version:
        raise VersionConflictError(game_id, version, record.version)
    spec = store.spec(record.game)
    if state is None:
        loaded = load_state(store, game_id)
        if version is not None and loaded.seq != version:
            raise VersionConflictError(game_id, version, loaded.seq)
        state, version = loaded.state, loaded.seq
    assert version is not None
    seed = store.get_seed(game_id)
    if seed is None:
        raise ReplayError(f"game {game_id!r} has no stored seed", code="seed-missing")
    events = spec.decide(state, seat, command, FairRng(seed, version))
    new_state = state
    for event in events:
        new_state = spec.evolve(new_state, event)
    outcome = spec.outcome(new_state)
    batch: list[msgspec.Struct] = list(events)
    if outcome is not None:
        batch.append(SeedRevealed(seed=seed.hex(), deal=store.get_deal(game_id)))
    pending = None
    if idempotency is not None:
        respond = idempotency.response

        def _response(stored: list[StoredEvent]) -> object:
            version_after = stored[-1].seq if stored else version
            return respond(CommandResult(stored, new_state, version_after, outcome))

        pending = PendingIdempotency(idempotency.key, idempotency.fingerprint, _response)
    stored = store.append(
        game_id,
        version,
        batch,
        actor=seat,
        command=command,
        outcome=outcome,
        state=new_state,
        idempotency=pending,
        bot=bot,
    )
    new_version = stored[-1].seq if stored else version
    return CommandResult(events=stored, state=new_state, version=new_version, outcome=outcome)


def load_state(store: EventStore, game_id: str, *, at: int | None = None) -> LoadedState:
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
        codec = store.codec(record.game)
        spec = codec.spec
        start, state = 0, None
        snapshot = store.latest_snapshot(game_id, target) if target else None
        if snapshot is not None:
            try:
                state = codec.state.decode(snapshot[1])
                start = snapshot[0]
            except (msgspec.DecodeError, msgspec.ValidationError) as exc:
                _log.warning("snapshot_ignored", game_id=game_id, seq=snapshot[0], error=str(exc))
        rows = store.read_game_payloads(game_id, after=start, upto=target)
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
    store: EventStore, game_id: str, *, at: int | None = None, seat: int | None = None
) -> ViewAt:
    """The view of ``seat`` (``None``: a spectator) after event ``at`` (default: the head).

    Raises:
        GameNotFoundError: no such game.
        SeqOutOfRangeError: ``at`` is not in ``0 .. version``.
        ReplayError: ``seat`` is not a seat of the game (code ``invalid-seat``).
    """
    loaded = load_state(store, game_id, at=at)
    record = loaded.record
    if seat is not None and not 0 <= seat < record.players:
        seats = "only seat 0" if record.players == 1 else f"seats 0 to {record.players - 1}"
        raise ReplayError(
            f"game {game_id!r} has {seats}; there is no seat {seat}",
            code="invalid-seat",
        )
    spec = store.spec(record.game)
    view = spec.view(loaded.state, seat)
    if isinstance(view, msgspec.Struct) and "version" in view.__struct_fields__:
        view = msgspec.structs.replace(view, version=loaded.seq)
    return ViewAt(record=record, seq=loaded.seq, seat=seat, state=loaded.state, view=view)
