"""The command handler: one command of a seat, from its request to one append.

A command goes down once, and nothing below it calls back up:

1. the game's head comes from the cache (:class:`~spies_api.service.states.GameStates`),
   or is folded from the log on a worker thread;
2. the command is checked against its game's commands, a stale ``expected_version`` is
   weighed (accepted when the seat has not acted since and its legal commands did not
   change: see :func:`stale_version_accepted`), and the command is decided by the pure step
   (:func:`spies_api.game.commands.prepare_command`: the head's finished game and version
   refused early with the store's own typed errors, then ``decide``, ``evolve``,
   ``outcome``, the sealed rows);
3. the answer is built from the sealed events as the seat may see them, before anything is
   written, and kept with the batch under an ``Idempotency-Key``;
4. one append, through the store's recorder
   (:class:`~spies_replay.store.protocols.Recorder`: where it runs is the store's choice):
   the store is the only authority on the version, the finished game and the key, and
   refuses what another writer made stale;
5. the new head goes into the cache, the game's listeners (its streams, the bot runner) are
   woken, and one ``command_handled`` line is logged (``command_rejected`` with the code of
   a refusal).

A game's commands are applied one at a time (:class:`~spies_api.service.locks.GameLocks`),
on the event loop; only store calls leave it. An append refused because another process
wrote first drops the cached head and, without ``expected_game_version``, is decided again
on the new head (three attempts in all; an ``expected_version`` is checked again there).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field, replace
from typing import Any, Final

import msgspec
import structlog

from spies_api.game import Head, prepare_command
from spies_api.game.clocks import ServerAction, prepare_action
from spies_api.problems.errors import (
    IdempotencyKeyReusedError,
    InvalidParameterError,
    MalformedBodyError,
    UnauthorizedError,
    WrongGameCommandError,
)
from spies_api.problems.hints import command_types, explain_body
from spies_api.schemas import (
    COMMAND_TYPES_BY_GAME,
    CommandRequest,
    SubmittedCommand,
    command_decoder,
)
from spies_api.service.answers import command_answer
from spies_api.service.auth import Caller
from spies_api.service.effects import WriteEffects
from spies_api.service.keys import ReceiptKeys, signed  # receipts: each answer's
from spies_api.service.locks import GameLocks
from spies_api.service.placement import blocking
from spies_api.service.states import GameStates
from spies_core.errors import SpiesError
from spies_core.registry import GAMES
from spies_replay.errors import (
    DeadlinePassedError,
    IdempotencyKeyExistsError,
    VersionConflictError,
    is_transient,
)
from spies_replay.reading import load_state
from spies_replay.store.protocols import EventStore, Recorder, ReplyLedger
from spies_replay.store.records import Append, Appended, Clock, IdempotencyRecord, Reply, utc_now

__all__ = [
    "CommandReply",
    "Commands",
    "LegalCommandsChangedError",
    "SeatActedError",
    "stale_version_accepted",
]

_fingerprint_encoder: Final = msgspec.json.Encoder(order="deterministic")
_CONFLICT_RETRIES: Final = 3


class CommandReply(msgspec.Struct, frozen=True, kw_only=True):
    """The answer to a command.

    Attributes:
        body: the answer as JSON bytes (a :class:`~spies_api.schemas.CommandResponse`, or
            the stored bytes of an earlier answer to the same ``Idempotency-Key``).
        replayed: whether ``body`` is a stored answer.
    """

    body: bytes
    replayed: bool = False


@dataclass(eq=False)
class Commands:
    """Applies the commands of seats, one at a time per game.

    Args:
        replies: the store's answers under idempotency keys (read when a refused command
            may be the retry of an applied one).
        states: the cached heads of games.
        recorder: the store's appends for the event loop.
        locks: one lock per game, shared with the seat changes.
        effects: what an append changes in this process (the cached head, the listeners).
        key_max_length: the longest ``Idempotency-Key`` accepted (a setting, so checked here
            rather than by the parameter's schema).
        clock: where the time recorded with each command is read.
        receipts: signs the receipt each answer carries (none without it).
    """

    replies: ReplyLedger
    states: GameStates
    recorder: Recorder
    locks: GameLocks
    effects: WriteEffects
    key_max_length: int
    clock: Clock = utc_now
    receipts: ReceiptKeys | None = None  # receipts
    log: Any = field(init=False, repr=False)
    """Bound once, with the logging configuration in force when the app starts."""

    def __post_init__(self) -> None:
        self.log = structlog.get_logger("spies_api").bind()

    async def run(
        self, caller: Caller, request: CommandRequest, idempotency_key: str | None = None
    ) -> CommandReply:
        """Decode a request's command with its game's commands and apply it as the caller's.

        Raises:
            InvalidParameterError: an ``Idempotency-Key`` longer than the setting allows (400).
            UnauthorizedError: the caller has no seat.
            GameNotFoundError: no such game.
            MalformedBodyError: not a command of any game, or a malformed one (400).
            Anything :meth:`submit` raises.
        """
        limit = self.key_max_length
        if idempotency_key is not None and len(idempotency_key) > limit:
            raise InvalidParameterError(
                f"header parameter Idempotency-Key: {len(idempotency_key)} characters;"
                f" expected 1 to {limit}"
            )
        if caller.seat is None:
            raise UnauthorizedError("a command needs a seat token: Authorization: Bearer <token>")
        head = await self._head(caller.game_id)
        submitted = decode(head.game, request)
        return await self.submit(caller.game_id, caller.seat, submitted, idempotency_key)

    async def submit(
        self,
        game_id: str,
        seat: int,
        request: SubmittedCommand,
        idempotency_key: str | None = None,
        *,
        bot: str | None = None,
    ) -> CommandReply:
        """Apply a command of ``seat`` and answer with its events as ``seat`` may see them.

        With an ``idempotency_key``, the answer is kept with the append; the same key with
        the same request (and seat) gets it again, appending nothing. ``bot`` names the bot
        that chose the command (recorded with it); a bot's command stopped by a transient
        store failure is not logged (the scheduler tries it again and counts it).

        Raises:
            GameNotFoundError: no such game.
            WrongGameCommandError: a command of another game.
            GameFinishedError: the game is over (``game-over``).
            VersionConflictError: ``expected_game_version`` is not the game's version, or
                ``expected_version`` is not and the seat acted since
                (:class:`SeatActedError`) or its legal commands changed since
                (:class:`LegalCommandsChangedError`).
            IdempotencyKeyReusedError: the key was used for another request.
            RuleError: the rules refuse the command. Nothing is appended.
            StoreBusyError, StoreUnavailableError, StoreFullError: the store failed
                (:func:`~spies_replay.errors.is_transient`); a lost connection may have
                hidden the commit, so the cached head is dropped and the game's listeners
                woken.
        """
        started = time.perf_counter()
        tag = request.command.__struct_config__.tag
        fields: dict[str, Any] = {"game_id": game_id, "seat": seat, "command": tag}
        if bot is not None:
            fields["bot"] = bot
        try:
            async with self.locks.hold(game_id):
                reply = await self._submit(game_id, seat, request, idempotency_key, fields, bot)
        except SpiesError as exc:
            if bot is not None and is_transient(exc):
                raise  # the scheduler tries the bot's move again, and counts it, unlogged
            self.log.info(
                "command_rejected",
                **fields,
                outcome="rejected",
                code=exc.code,
                duration_ms=round((time.perf_counter() - started) * 1000, 3),
            )
            raise
        self.log.info(
            "command_handled",
            **fields,
            outcome="replayed" if reply.replayed else "accepted",
            code="ok",
            duration_ms=round((time.perf_counter() - started) * 1000, 3),
        )
        return reply

    async def record(
        self, game_id: str, action: ServerAction, *, version: int, event: str, **fields: Any
    ) -> Head:
        """Append what the server decided by itself at ``version`` (a timeout, clocks
        resumed, an abandoned game: plain data, see :func:`spies_api.game.clocks.prepare_action`),
        on the game's lock like a command; log one ``event`` line.

        Returns:
            The new head.

        Raises:
            VersionConflictError: the game is not at ``version`` any more (a command, a join
                or another process wrote first; the cached head is dropped when the store
                says so).
        """
        async with self.locks.hold(game_id):
            head = await self._head(game_id)
            if head.version != version:
                # an early refusal, the store's own (VersionConflictError): a batch decided
                # at ``version`` cannot be sealed after another head
                raise VersionConflictError(game_id, version, head.version)
            spec = GAMES[head.game]
            prepared = prepare_action(spec, head, action, recorded_at=self.clock())
            await self._append(game_id, prepared.append)
            self.effects.command(prepared.head)
        self.log.info(
            event, game_id=game_id, game=head.game, version=prepared.head.version, **fields
        )
        return prepared.head

    async def _append(self, game_id: str, batch: Append) -> None:
        """Append ``batch``; a refusal or failure that leaves the cached head in doubt drops it.

        Raises:
            VersionConflictError: another writer appended first.
            Anything :meth:`Recorder.append` raises.
        """
        try:
            await self.recorder.append(batch)
        except VersionConflictError:
            self.states.discard(game_id)
            raise
        except SpiesError as exc:
            if is_transient(exc):
                # a lost connection may hide a commit: as after another process's append,
                # the cached head is dropped and the game's listeners (its streams, the
                # scheduler) look at the log again
                self.effects.remote(Appended(game_id=game_id))  # what: not known
            raise

    async def _head(self, game_id: str) -> Head:
        # cached, else folded: on the loop when short and the store reads there (SQLite)
        return await self.states.fetch(game_id)

    async def _submit(
        self,
        game_id: str,
        seat: int,
        request: SubmittedCommand,
        key: str | None,
        fields: dict[str, Any],
        bot: str | None,
    ) -> CommandReply:
        fingerprint = "" if key is None else _fingerprint(seat, request)
        head = await self._head(game_id)
        strict = request.expected_game_version
        expected = request.expected_version
        stale = [v for v in (strict, expected) if v is not None and v != head.version]
        if stale and not head.finished:
            # The cache may lag behind another process sharing the log: ask the log.
            head = await self.states.refresh(game_id)
        for attempt in range(_CONFLICT_RETRIES):
            fields["game"], fields["version"] = head.game, head.version
            try:
                accepted = await self._accepted_version(head, seat, expected)
                batch, head_after, body = self._prepare(
                    head, seat, request, key, fingerprint, bot, self.clock(), accepted
                )
            except DeadlinePassedError:
                self.effects.listeners(game_id)  # the scheduler records the timeout now
                raise
            except SpiesError:
                replayed = await self._replayed(game_id, key, fingerprint)
                if replayed is None:
                    raise
                fields["version"] = replayed.version
                return replayed.reply
            try:
                await self._append(game_id, batch)
            except IdempotencyKeyExistsError as exc:  # the same key, by another process
                return _stored_reply(exc.record, fingerprint)
            except VersionConflictError as exc:  # another process appended meanwhile
                fields["version"] = exc.current_version
                if strict is not None or attempt == _CONFLICT_RETRIES - 1:
                    raise
                head = await self.states.refresh(game_id)
                continue
            self.effects.command(head_after)
            fields["version"] = head_after.version
            fields["events"] = len(batch.rows)
            return CommandReply(body=body)
        raise AssertionError("unreachable")  # pragma: no cover

    async def _accepted_version(self, head: Head, seat: int, expected: int | None) -> int | None:
        """``expected`` when it is the head's version or acceptable though stale (the seat
        has not acted since, and its legal commands then and now are the same, read from
        the log on a worker thread); else ``None``."""
        if expected is None or expected == head.version:
            return expected
        if head.finished or not 0 <= expected < head.version:
            return None
        if head.acted_since(seat, expected):  # the head knows: no read of the log
            return None
        store = self.states.store
        accepted = await blocking(stale_version_accepted, store, head, seat, expected)
        return expected if accepted else None

    def _prepare(
        self,
        head: Head,
        seat: int,
        request: SubmittedCommand,
        key: str | None,
        fingerprint: str,
        bot: str | None,
        now: str,
        accepted: int | None = None,
    ) -> tuple[Append, Head, bytes]:
        """The checks against the head, the pure step and the answer: no I/O.

        ``accepted`` is ``request.expected_version`` when :func:`stale_version_accepted`
        found it acceptable (or it is the head's version)."""
        command = request.command
        if type(command) not in COMMAND_TYPES_BY_GAME.get(head.game, frozenset()):
            raise WrongGameCommandError(
                f"{command.__struct_config__.tag!r} is not a command of {head.game}; its"
                f" command types are {', '.join(command_types(head.game))};"
                f" see GET /games/{head.id}/legal"
            )
        spec = GAMES[head.game]
        prepared = prepare_command(
            spec,
            head,
            seat,
            command,
            bot=bot,
            recorded_at=now,
            expected_version=request.expected_game_version,
            stale=_stale(head, seat, request.expected_version, accepted),
        )
        body = command_answer(spec, seat, prepared, signed(self.receipts, prepared.head))
        batch = prepared.append
        if key is not None:
            batch = replace(batch, reply=Reply(key, fingerprint, body))
        return batch, prepared.head, body

    async def _replayed(self, game_id: str, key: str | None, fingerprint: str) -> _Replayed | None:
        """The stored answer when a refused command is the retry of one that was applied."""
        if key is None:
            return None
        stored = await blocking(self.replies.get_idempotency, game_id, key)
        if stored is None:
            return None
        reply = _stored_reply(stored, fingerprint)
        version = msgspec.json.decode(stored.result).get("version")
        return _Replayed(reply=reply, version=version)


def _stale(
    head: Head, seat: int, expected: int | None, accepted: int | None
) -> VersionConflictError | None:
    """The refusal of a stale ``expected_version`` not accepted (see
    :func:`stale_version_accepted`): why, as a :class:`VersionConflictError`; else ``None``."""
    if expected is None or accepted == expected:
        return None
    if 0 <= expected < head.version and head.acted_since(seat, expected):
        return SeatActedError(head.id, seat, expected, head.version, head.acted[seat])
    if 0 <= expected < head.version:
        return LegalCommandsChangedError(head.id, seat, expected, head.version)
    return VersionConflictError(head.id, expected, head.version)  # a version to come


@dataclass(frozen=True, slots=True)
class _Replayed:
    reply: CommandReply
    version: Any


class LegalCommandsChangedError(VersionConflictError):
    """A stale ``expected_version`` since which the seat's legal commands changed (409
    ``version-conflict``, like any stale version)."""

    def __init__(self, game_id: str, seat: int, expected_version: int, current_version: int):
        super().__init__(game_id, expected_version, current_version)
        self.message = (
            f"game {game_id!r} is at version {current_version}, not {expected_version}:"
            f" another command was recorded first, and seat {seat}'s legal commands are not"
            f" those of version {expected_version} any more; GET /games/{game_id}/legal and"
            " decide again"
        )
        self.args = (self.message,)


class SeatActedError(VersionConflictError):
    """A stale ``expected_version`` since which the seat itself acted (409
    ``version-conflict``, like any stale version): a request decided at that version, sent
    again, is never applied twice."""

    def __init__(
        self, game_id: str, seat: int, expected_version: int, current_version: int, acted_at: int
    ):
        super().__init__(game_id, expected_version, current_version)
        self.message = (
            f"game {game_id!r} is at version {current_version}, not {expected_version}:"
            f" seat {seat} has acted since version {expected_version} (its command at seq"
            f" {acted_at}), so a command decided at that version is not applied again;"
            f" GET /games/{game_id}/legal and decide again"
        )
        self.args = (self.message,)


def stale_version_accepted(store: EventStore, head: Head, seat: int, expected: int) -> bool:
    """Whether a command decided at version ``expected`` may be applied at ``head``.

    It may not when a command of the seat was recorded since (its holder's, its bot's, or
    a forced move after its clock ran out: :meth:`~spies_api.game.loading.Head.acted_since`,
    which the head carries), so a request sent again is never applied twice. Otherwise it
    may when the seat's legal commands after event ``expected`` are exactly its legal
    commands now: whatever was recorded since (another seat's move in a phase where several
    seats act at once, a join, a hand-over, a clock update) did not change what the seat
    could do. The command itself is then checked by the rules against the head, as always.
    Reads the state at ``expected`` from the log (its nearest snapshot) when the seat has
    not acted since: call it off the event loop, and only for a stale version.
    """
    if head.acted_since(seat, expected):
        return False
    spec = GAMES[head.game]
    then = load_state(store, head.id, at=expected).state
    return _legal_set(spec, then, seat) == _legal_set(spec, head.state, seat)


def _legal_set(spec: Any, state: Any, seat: int) -> list[bytes]:
    encode = _fingerprint_encoder.encode
    return sorted(encode(command) for command in spec.legal_commands(state, seat))


def decode(game: str, request: CommandRequest) -> SubmittedCommand:
    """The request's command decoded with ``game``'s commands.

    A command of another game whose tag ``game`` does not use decodes too, to be refused
    as ``wrong-game-command``.

    Raises:
        MalformedBodyError: an unknown command type, a missing, unknown or mistyped field.
    """
    body = b'{"command":' + bytes(request.command) + b"}"
    try:
        command = command_decoder(game)(body)
    except msgspec.DecodeError as exc:  # a ValidationError, as the body is valid JSON
        hint = explain_body(CommandRequest, body, str(exc), lambda: game)
        raise MalformedBodyError(f"invalid request body: {hint}") from exc
    return SubmittedCommand(
        command=command,
        expected_version=request.expected_version,
        expected_game_version=request.expected_game_version,
    )


def _fingerprint(seat: int, request: SubmittedCommand) -> str:
    digest = hashlib.sha256(f"seat:{seat}\n".encode())
    # the bytes of the request before expected_game_version existed, so that a retry under
    # a key stored by an earlier server still matches
    legacy = {"command": request.command, "expected_version": request.expected_version}
    digest.update(_fingerprint_encoder.encode(legacy))
    if request.expected_game_version is not None:
        digest.update(f"\nexpected_game_version:{request.expected_game_version}".encode())
    return digest.hexdigest()


def _stored_reply(record: IdempotencyRecord, fingerprint: str) -> CommandReply:
    if record.request_fingerprint != fingerprint:
        raise IdempotencyKeyReusedError(
            f"Idempotency-Key {record.key!r} was already used for another request"
            " (another body or another seat)"
        )
    return CommandReply(body=record.result, replayed=True)
