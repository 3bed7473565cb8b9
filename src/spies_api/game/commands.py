"""A command goes down once: :func:`prepare_command` takes the game's head (its state,
version, head hash and secrets, as a caller keeps them cached), applies the pure step of
:mod:`spies_core.step`, adds ``seed_revealed`` when the game ends, and seals the rows; the
caller then hands the :class:`~spies_replay.store.records.Append` to the store, which checks
the version, the finished game and the idempotency key, and writes it. Nothing here or in the
store calls back into the caller. :func:`submit_command` is the same path for tools and
tests that hold no cache: it reads the head first.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import msgspec

from spies_api.game.loading import Head, load_head, stored_events
from spies_core.clock import ClockState, deadline_ms, move
from spies_core.clock import run as run_clocks
from spies_core.decider import AnySpec, Outcome, Seat
from spies_core.errors import GameNotStartedError, SpiesError
from spies_core.registry import get_game
from spies_core.rng import FairRng
from spies_core.step import Step, step
from spies_replay.clocks import (
    clocks_event,
    from_ms,
    to_ms,
)
from spies_replay.codec import seal
from spies_replay.errors import (
    DeadlinePassedError,
    GameFinishedError,
    IdempotencyKeyExistsError,
    VersionConflictError,
)
from spies_replay.meta import (
    GameCreated,
    SeatState,
    SeedRevealed,
)
from spies_replay.reading import Games, StoredEvent
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import Append, Reply, utc_now

__all__ = [
    "CommandResult",
    "IdempotencyRequest",
    "RecordedResult",
    "PreparedCommand",
    "check_batch",
    "prepare_command",
    "result_bytes",
    "sealed",
    "submit_command",
]

_GAME_CREATED: Final = str(GameCreated.__struct_config__.tag)
_SEED_REVEALED: Final = str(SeedRevealed.__struct_config__.tag)


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
    """Ask :func:`submit_command` to keep the command's result under an idempotency key (the
    record is written in the append's transaction, so it exists exactly when the events
    do); its bytes are :func:`result_bytes`.

    Attributes:
        key: the client's ``Idempotency-Key``.
        fingerprint: a digest of the request, to tell a retry from a reuse of the key.
    """

    key: str
    fingerprint: str


class RecordedResult(msgspec.Struct, frozen=True, kw_only=True):
    """What :func:`submit_command` keeps under an idempotency key: the command's result.

    Attributes:
        version: the game's version after the command.
        seqs: the seqs of the events it appended.
    """

    version: int
    seqs: list[int]


def result_bytes(result: CommandResult) -> bytes:
    """The bytes :func:`submit_command` keeps under an idempotency key (a
    :class:`RecordedResult`: the store keeps them as they are)."""
    recorded = RecordedResult(version=result.version, seqs=[e.seq for e in result.events])
    return msgspec.json.encode(recorded)


def prepare_command(
    spec: AnySpec,
    head: Head,
    seat: Seat,
    command: Any,
    *,
    bot: str | None = None,
    recorded_at: str | None = None,
    forced: bool = False,
    expected_version: int | None = None,
    stale: VersionConflictError | None = None,
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
        expected_version: the version the caller decided at (``None``: the head's, whatever
            it is).
        stale: the caller's own refusal of a stale version, raised in the same place (the
            API's ``expected_version``, which it may accept though stale: see
            :func:`spies_api.service.commands.stale_version_accepted`).

    The store's append is the authority on the finished game and the version (its
    :class:`GameFinishedError` and :class:`VersionConflictError`); the head's are tested
    here first, in this order, only so that nothing is decided on a closed log or a stale
    head, and each refusal is the store's own typed error.

    Raises:
        GameFinishedError: the head is finished (a :class:`~spies_core.errors.GameOverError`).
        VersionConflictError: the head is not at ``expected_version``, or ``stale``.
        GameNotStartedError: the game is waiting for players (nothing is dealt yet).
        DeadlinePassedError: the seat's clock ran out before ``recorded_at``.
        RuleError: whatever the game's ``decide`` raises.
    """
    if head.finished:
        raise GameFinishedError(f"game {head.id!r} has finished; no command is accepted")
    if expected_version is not None and expected_version != head.version:
        raise VersionConflictError(head.id, expected_version, head.version)
    if stale is not None:
        raise stale
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
    moved = step(spec, head.state, seat, command, FairRng(head.secrets.play_seed, head.version))
    batch: list[Any] = list(moved.events)
    if clocks is not None:
        clocks, used = move(clocks, seat, to_ms(now), forced=forced)
        if not moved.finished:
            clocks = run_clocks(clocks, to_ms(now), spec.to_act(moved.state))
        batch.append(clocks_event(clocks, moved=seat, used_ms=used))
    return sealed(spec, head, batch, moved, now, actor=seat, command=command, bot=bot, clock=clocks)


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


def sealed(
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
    rows = seal(head.head_hash, head.version + 1, before, recorded_at=now, log=head.log)
    rows += seal(
        rows[-1].hash if rows else head.head_hash,
        head.version + 1 + len(rows),
        batch,
        recorded_at=now,
        log=head.log,
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
    append = dataclasses.replace(append, due_at=after.due_at(spec, now), head=after.packed())
    return PreparedCommand(
        step=moved,
        events=stored_events(append, [*before, *batch]),
        append=append,
        head=after,
    )


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
        idempotency: a key to keep the result under (:func:`result_bytes`), in the same
            transaction.
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
        if state is not None:
            head = dataclasses.replace(head, state=state)
        prepared = prepare_command(spec, head, seat, command, bot=bot, expected_version=version)
    except SpiesError:
        # A command refused before its append cannot reach the store's key check: it may be
        # the retry of one that was applied (the game moved on, or ended, since), so its
        # recorded result is looked up.
        if idempotency is not None:
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
        response = result_bytes(result)
        append = dataclasses.replace(
            append, reply=Reply(idempotency.key, idempotency.fingerprint, result=response)
        )
    store.append(append)
    return result
