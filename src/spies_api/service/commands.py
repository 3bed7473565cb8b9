"""The command pipeline: decode a command, authenticate a seat, decide, append, answer.

A command's body is decoded with its game's own commands (tags are unique within a game
only), once the game of the path is known: from the cached state, or from the log.

A command decides against the cached state (:class:`~spies_api.states.GameStates`), and
:func:`spies_replay.submit_command` then reads the game row and the seed and appends, so a
command's cost does not grow with the game's length. Every append checks the version
(several processes may share one file), and a conflict drops the cached state.

Each step that could wait (the game's lock, the write turn, folding a state, looking a token
up) raises :class:`~spies_api.placement.Deferred` when run ``inline`` on the event loop,
having changed nothing; :mod:`spies_api.service.placement` then runs the command on a worker thread.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import Any, Final

import msgspec
import structlog

from spies_api.problems.errors import (
    IdempotencyKeyReusedError,
    MalformedBodyError,
    UnauthorizedError,
    WrongGameCommandError,
)
from spies_api.problems.hints import command_types, explain_body
from spies_api.schemas import (
    COMMAND_TYPES_BY_GAME,
    CommandRequest,
    CommandResponse,
    SubmittedCommand,
    command_decoder,
)
from spies_api.service.auth import SeatAuthenticator
from spies_api.service.cache import CachedGame, KeyedLocks
from spies_api.service.placement import Deferred, Turn
from spies_api.service.queries import outgoing
from spies_api.service.states import GameStates
from spies_core.decider import AnySpec
from spies_core.errors import SpiesError
from spies_replay.engine import CommandResult, IdempotencyRequest, submit_command
from spies_replay.errors import (
    GameFinishedError,
    IdempotencyKeyExistsError,
    StoreBusyError,
    VersionConflictError,
)
from spies_replay.store import EventStore, GameStatus, IdempotencyRecord

__all__ = ["CommandPipeline", "CommandReply"]

_fingerprint_encoder: Final = msgspec.json.Encoder(order="deterministic")
_CONFLICT_RETRIES: Final = 3


class CommandReply(msgspec.Struct, frozen=True, kw_only=True):
    """What :meth:`CommandPipeline.submit` returns.

    Attributes:
        body: the response (a :class:`CommandResponse`, or the stored JSON of an earlier
            response to the same ``Idempotency-Key``).
        replayed: whether ``body`` is a stored response.
    """

    body: Any
    replayed: bool = False


class CommandPipeline:
    """Applies commands of seats, one at a time per game.

    Args:
        store: the replay log (worker threads).
        inline_store: the same file with no busy timeout (the event loop), or ``None``.
        states: the cached folded states.
        locks: one lock per game.
        auth: the seat authenticator.
        turn: this process's write turn (:func:`spies_api.placement.write_turn`).
        appended: called with the game id after every append.
    """

    def __init__(
        self,
        store: EventStore,
        inline_store: EventStore | None,
        states: GameStates,
        locks: KeyedLocks,
        auth: SeatAuthenticator,
        turn: Turn,
        appended: Callable[[str], None],
    ) -> None:
        self.store = store
        self.inline_store = inline_store
        self.states = states
        self.cache = states.cache
        self.locks = locks
        self.auth = auth
        self.turn = turn
        self.appended = appended
        self.log = structlog.get_logger("spies_api").bind()
        """Bound once, with the logging configuration in force when the service opens."""

    def command(
        self,
        game_id: str,
        authorization: str | None,
        request: CommandRequest,
        idempotency_key: str | None = None,
        *,
        inline: bool = False,
    ) -> CommandReply:
        """Decode the command, authenticate the caller as a seat and apply it (:meth:`submit`).

        Raises:
            Deferred: ``inline`` and the game is not cached, or the token was not verified
                before.
            GameNotFoundError: no such game.
            MalformedBodyError: not a command of any game, or a malformed one (400).
            UnauthorizedError: no seat token, or a bad one.
            ForbiddenError: a token of another game.
            Anything :meth:`submit` raises.
        """
        submitted = self.decode(self._game_of(game_id, inline), request)
        if inline:
            seat = self.auth.remembered(game_id, authorization)
            if seat is None:  # a database lookup (or a 401/404) is for the worker thread
                raise Deferred
        else:
            seat = self.auth.seat(
                game_id, authorization, known_game=self.cache.get(game_id) is not None
            )
        if seat is None:
            raise UnauthorizedError("a command needs a seat token: Authorization: Bearer <token>")
        return self.submit(game_id, seat, submitted, idempotency_key, inline=inline)

    def _game_of(self, game_id: str, inline: bool) -> str:
        entry = self.cache.get(game_id)
        if entry is not None:
            return entry.game
        if inline:  # a database read: not on the event loop
            raise Deferred
        return self.store.get_game(game_id).game

    @staticmethod
    def decode(game: str, request: CommandRequest) -> SubmittedCommand:
        """The request's command decoded with ``game``'s commands.

        A command of another game whose tag ``game`` does not use decodes too, to be refused
        by :meth:`submit` as ``wrong-game-command``.

        Raises:
            MalformedBodyError: an unknown command type, a missing, unknown or mistyped field.
        """
        body = b'{"command":' + bytes(request.command) + b"}"
        try:
            command = command_decoder(game)(body)
        except msgspec.DecodeError as exc:  # a ValidationError, as the body is valid JSON
            hint = explain_body(CommandRequest, body, str(exc), lambda: game)
            raise MalformedBodyError(f"invalid request body: {hint}") from exc
        return SubmittedCommand(command=command, expected_version=request.expected_version)

    def submit(
        self,
        game_id: str,
        seat: int,
        request: SubmittedCommand,
        idempotency_key: str | None = None,
        *,
        inline: bool = False,
        bot: str | None = None,
    ) -> CommandReply:
        """Apply a command of ``seat`` and return its events as ``seat`` may see them.

        With an ``idempotency_key``, the response is stored in the append's transaction; the
        same key with the same request (and seat) returns it again without appending. With
        ``inline``, anything that would wait (the game's lock, the write lock, folding a
        state) raises :class:`Deferred` instead, having changed nothing. ``bot`` names the
        bot that chose the command (recorded with it).

        Raises:
            GameNotFoundError: no such game.
            WrongGameCommandError: a command of another game.
            GameFinishedError: the game is over (``game-over``).
            VersionConflictError: ``expected_version`` is not the game's version.
            IdempotencyKeyReusedError: the key was used for another request.
            RuleError: the rules refuse the command. Nothing is appended.
        """
        started = time.perf_counter()
        tag = request.command.__struct_config__.tag
        fields: dict[str, Any] = {"game_id": game_id, "seat": seat, "command": tag}
        if bot is not None:
            fields["bot"] = bot
        if not self.locks.acquire(game_id, blocking=not inline):
            raise Deferred
        try:
            try:
                reply = self._submit_locked(
                    game_id, seat, request, idempotency_key, fields, inline, bot
                )
            except VersionConflictError:
                # The same key may have been used meanwhile (by another process): a retry
                # racing its first attempt gets that attempt's answer, not a conflict.
                stored = None
                if idempotency_key is not None:
                    store = self.inline_store if inline and self.inline_store else self.store
                    stored = store.get_idempotency(game_id, idempotency_key)
                if stored is None:
                    raise
                reply = self._stored_reply(stored, self._fingerprint(seat, request))
        except SpiesError as exc:
            self.log.info(
                "command_rejected",
                **fields,
                outcome="rejected",
                code=exc.code,
                duration_ms=round((time.perf_counter() - started) * 1000, 3),
            )
            raise
        finally:
            self.locks.release(game_id)
        if not reply.replayed:
            self.appended(game_id)
        self.log.info(
            "command_handled",
            **fields,
            outcome="replayed" if reply.replayed else "accepted",
            code="ok",
            duration_ms=round((time.perf_counter() - started) * 1000, 3),
        )
        return reply

    def _fingerprint(self, seat: int, request: SubmittedCommand) -> str:
        digest = hashlib.sha256(f"seat:{seat}\n".encode())
        digest.update(_fingerprint_encoder.encode(request))
        return digest.hexdigest()

    @staticmethod
    def _stored_reply(record: IdempotencyRecord, fingerprint: str) -> CommandReply:
        if record.request_fingerprint != fingerprint:
            raise IdempotencyKeyReusedError(
                f"Idempotency-Key {record.key!r} was already used for another request"
                " (another body or another seat)"
            )
        return CommandReply(body=record.response, replayed=True)

    def _entry_for_command(self, game_id: str, inline: bool) -> CachedGame:
        entry = self.cache.get(game_id)
        if entry is None:
            if inline:  # folding the log may take milliseconds: not on the event loop
                raise Deferred
            entry = self.states.load(game_id)[1]
        return entry

    def _submit_locked(
        self,
        game_id: str,
        seat: int,
        request: SubmittedCommand,
        key: str | None,
        fields: dict[str, Any],
        inline: bool,
        bot: str | None,
    ) -> CommandReply:
        store = self.inline_store if inline and self.inline_store is not None else self.store
        fingerprint = "" if key is None else self._fingerprint(seat, request)
        if key is not None and (stored := store.get_idempotency(game_id, key)) is not None:
            fields["version"] = stored.response.get("version")
            return self._stored_reply(stored, fingerprint)
        entry = self._entry_for_command(game_id, inline)
        fields["game"] = entry.game
        fields["version"] = entry.version
        command = request.command
        if type(command) not in COMMAND_TYPES_BY_GAME.get(entry.game, frozenset()):
            raise WrongGameCommandError(
                f"{fields['command']!r} is not a command of {entry.game}; its command types are"
                f" {', '.join(command_types(entry.game))}; see GET /games/{game_id}/legal"
            )
        expected = request.expected_version
        differs = not entry.finished and expected is not None and expected != entry.version
        # The cache may lag behind another process sharing the file: ask the log.
        if differs and store.get_game(game_id).version != entry.version:
            self.cache.discard(game_id)
            entry = self._entry_for_command(game_id, inline)
            fields["version"] = entry.version
        if entry.finished:
            raise GameFinishedError(f"game {game_id!r} has finished; no command is accepted")
        if expected is not None and expected != entry.version:
            raise VersionConflictError(game_id, expected, entry.version)
        spec = store.spec(entry.game)
        built: list[CommandResponse] = []

        def respond(result: CommandResult) -> CommandResponse:
            built.append(command_response(spec, seat, result))
            return built[-1]

        idempotency = None if key is None else IdempotencyRequest(key, fingerprint, respond)
        for attempt in range(_CONFLICT_RETRIES):
            if not self.turn.acquire(blocking=not inline):
                raise Deferred
            try:
                result = submit_command(
                    store,
                    game_id,
                    seat,
                    command,
                    state=entry.state,
                    version=entry.version,
                    idempotency=idempotency,
                    bot=bot,
                )
                break
            except VersionConflictError as exc:  # another process appended meanwhile
                self.cache.discard(game_id)
                fields["version"] = exc.current_version
                if expected is not None or attempt == _CONFLICT_RETRIES - 1:
                    raise
                entry = self._entry_for_command(game_id, inline)
            except IdempotencyKeyExistsError as exc:  # another process, same key, meanwhile
                return self._stored_reply(exc.record, fingerprint)
            except StoreBusyError as exc:  # another writer held the database: nothing written
                if inline:
                    raise Deferred from exc
                raise
            finally:
                self.turn.release()
        finished = result.outcome is not None
        self.cache.put(game_id, CachedGame(entry.game, result.version, result.state, finished))
        fields["version"] = result.version
        fields["events"] = len(result.events)
        body = built[-1] if built else command_response(spec, seat, result)
        return CommandReply(body=body)


def command_response(spec: AnySpec, seat: int, result: CommandResult) -> CommandResponse:
    """The answer to an applied command: its events as ``seat`` may see them."""
    finished = result.outcome is not None
    return CommandResponse(
        version=result.version,
        status=GameStatus.FINISHED if finished else GameStatus.ACTIVE,
        events=outgoing(spec, seat, result.events, finished=finished),
        outcome=result.outcome,
    )
