"""The game service: what every endpoint does, between HTTP and the replay log.

State: the folded state of recently used games is kept in a bounded LRU cache
(:class:`StateCache`). A command decides against the cached state, and
:func:`spies_replay.submit_command` then reads the game row and the seed and appends, so a
command's cost does not grow with the game's length. After a restart, or for a game the
cache dropped, the state is folded from the log's nearest snapshot. The log stays the
authority: every append checks the version (several processes may share one file), and a
conflict drops the cached state.

Where commands run: commands on one game are applied one at a time (a per-game lock,
:class:`KeyedLocks`), and this process's appends take turns on :attr:`GameService.write_turn`
rather than in SQLite's busy handler. A command runs on the event loop when nothing can
make it wait: its seat's token was verified before, its game's state is cached, and the
game and the write lock are free (the inline store has no busy timeout, so a database locked
by another process raises at once, having written nothing). Anything else (a first token,
a cache miss, a busy game or database) runs it on a worker thread, which waits as long as
it must. On the loop a command needs no thread hop and no hand-over of the GIL at each
SQLite call; bench/api.py measured about twice the commands per second that way. Games
never wait for one another except for the append itself, which SQLite serialises anyway.

Hidden information: a game in progress leaves only through ``spec.view`` and
:func:`spies_replay.redact_for`; once it is over, its log is public (it can be exported with
the revealed seed), so events are sent whole. No function here returns a state.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
import time
from collections.abc import Iterable
from functools import partial
from typing import Any, Final, Protocol

import anyio
import msgspec
import structlog

from spies_api.auth import SeatAuthenticator
from spies_api.cache import CachedGame, KeyedLocks, StateCache
from spies_api.errors import (
    IdempotencyKeyReusedError,
    UnauthorizedError,
    WrongGameCommandError,
)
from spies_api.hints import SPECTATOR_LEGAL_NOTE, command_types
from spies_api.notify import EventNotifier, StreamSlots
from spies_api.schemas import (
    COMMAND_TYPES_BY_GAME,
    CommandRequest,
    CommandResponse,
    CreateGameRequest,
    EventsPage,
    GameCreatedResponse,
    GameList,
    GameSummary,
    LegalCommands,
    PublicSeat,
    SeatToken,
    event_out,
)
from spies_api.settings import Settings
from spies_core.decider import GameSpec
from spies_core.errors import SpiesError
from spies_replay.backends import open_store
from spies_replay.engine import (
    CommandResult,
    IdempotencyRequest,
    create_game,
    load_state,
    redact_for,
    submit_command,
    view_at,
)
from spies_replay.errors import (
    GameFinishedError,
    IdempotencyKeyExistsError,
    VersionConflictError,
)
from spies_replay.meta import GameCreated
from spies_replay.store import EventStore, GameRecord, GameStatus, IdempotencyRecord, StoredEvent
from spies_replay.transfer import export_lines

__all__ = ["DEAL_HIDDEN", "CommandReply", "GameService"]

AnySpec = GameSpec[Any, Any, Any, Any, Any]

DEAL_HIDDEN: Final = "hidden until the game ends"
"""What ``options.deal`` reads as while a game is in progress."""

_fingerprint_encoder: Final = msgspec.json.Encoder(order="deterministic")
_CONFLICT_RETRIES: Final = 3


class CommandReply(msgspec.Struct, frozen=True, kw_only=True):
    """What :meth:`GameService.submit` returns.

    Attributes:
        body: the response (a :class:`CommandResponse`, or the stored JSON of an earlier
            response to the same ``Idempotency-Key``).
        replayed: whether ``body`` is a stored response.
    """

    body: Any
    replayed: bool = False


def _public_options(options: dict[str, Any], finished: bool) -> dict[str, Any]:
    """Creation options as anyone may see them: an explicit deal only once the game is over.

    The replay log keeps ``deal`` out of the public record since its migration 2; this
    guards games stored before that.
    """
    if finished or "deal" not in options:
        return options
    return {**options, "deal": DEAL_HIDDEN}


class GameService:
    """Creates games, applies commands and answers reads, over one :class:`EventStore`.

    Args:
        store: the replay log.
        settings: the API settings (cache size, page limits, ...).
        notifier: wakes live event streams after appends.
        inline_store: the same file opened for commands run on the event loop, with no
            busy timeout (a locked database sends the command to a worker thread rather
            than block the loop); ``None`` runs every command on a worker thread.
    """

    def __init__(
        self,
        store: EventStore,
        settings: Settings,
        notifier: EventNotifier | None = None,
        inline_store: EventStore | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.notifier = notifier if notifier is not None else EventNotifier()
        self.streams = StreamSlots(
            settings.max_streams_per_game, settings.stream_retry_after_seconds
        )
        """The open event streams of each game, capped (``Settings.max_streams_per_game``)."""
        self.cache = StateCache(settings.cache_size)
        self.locks = KeyedLocks()
        self.auth = SeatAuthenticator(store, settings.cache_size)
        self.inline_store = inline_store
        self.log = structlog.get_logger("spies_api").bind()
        """Bound once, with the logging configuration in force when the service opens."""
        self.write_turn: _Turn = threading.Lock() if inline_store is not None else _NoTurn()
        """With commands on the event loop, this process's writers take turns here rather
        than in SQLite's busy handler (which sleeps a millisecond or more between tries), so
        the loop rarely finds the database locked. Without them, there is no turn to take:
        worker threads that queued on one lock would hand the GIL back and forth."""

    @classmethod
    def open(cls, settings: Settings) -> GameService:
        """Open (create and migrate, if needed) the database of ``settings``.

        Raises:
            StoreUnavailableError: the database cannot be used (its directory is missing,
                it is a directory or not a database, ...); the message is one line.
        """
        store = open_store(settings.db_path, snapshot_every=settings.snapshot_every)
        inline = None
        if settings.inline_commands:
            inline = open_store(
                settings.db_path, snapshot_every=settings.snapshot_every, busy_timeout=0.0
            )
        return cls(store, settings, inline_store=inline)

    def close(self) -> None:
        """Close the database connections."""
        self.store.close()
        if self.inline_store is not None:
            self.inline_store.close()

    # -- states ----------------------------------------------------------------------------

    def _load(self, game_id: str, *, keep: bool = True) -> tuple[GameRecord, CachedGame]:
        loaded = load_state(self.store, game_id)
        record = loaded.record
        entry = CachedGame(
            game=record.game,
            version=loaded.seq,
            state=loaded.state,
            finished=record.status == GameStatus.FINISHED,
        )
        if keep:
            self.cache.put(game_id, entry)
        return record, entry

    def _current(self, game_id: str, *, keep: bool = True) -> tuple[GameRecord, CachedGame]:
        """The game's record and its state at the same version (cached when possible).

        Raises:
            GameNotFoundError: no such game.
        """
        record = self.store.get_game(game_id)
        return record, self._state_of(record, keep=keep)

    def _state_of(self, record: GameRecord, *, keep: bool = True) -> CachedGame:
        entry = self.cache.get(record.id)
        if entry is not None and entry.version == record.version:
            return entry
        return self._load(record.id, keep=keep)[1]

    def caller(self, game_id: str, authorization: str | None) -> int | None:
        """The caller's seat in the game (``None``: a spectator); see :mod:`spies_api.auth`.

        Raises:
            GameNotFoundError: no such game (checked first: an unknown game is 404).
            UnauthorizedError: a malformed header or a token of no seat.
            ForbiddenError: a token of another game.
        """
        known = self.cache.get(game_id) is not None  # a cached game exists
        return self.auth.seat(game_id, authorization, known_game=known)

    def record(self, game_id: str) -> GameRecord:
        """A game's record.

        Raises:
            GameNotFoundError: no such game.
        """
        return self.store.get_game(game_id)

    # -- creation and summaries ------------------------------------------------------------

    def create(self, request: CreateGameRequest) -> GameCreatedResponse:
        """Create a game and return its seat tokens (once).

        Raises:
            UnknownGameError: not a registered game.
            InvalidOptionsError: bad ``players``, ``options`` or ``seed``.
        """
        with self.write_turn:
            created = create_game(
                self.store, request.game, request.players, request.options, request.seed
            )
        record = created.record
        for seat, token in enumerate(created.tokens):
            self.auth.remember(record.id, seat, token)
        finished = record.status == GameStatus.FINISHED
        self.cache.put(record.id, CachedGame(record.game, record.version, created.state, finished))
        self.log.info("game_created", game_id=record.id, game=record.game, players=record.players)
        return GameCreatedResponse(
            id=record.id,
            game=record.game,
            players=record.players,
            status=record.status,
            version=record.version,
            head_hash=record.head_hash,
            created_at=record.created_at,
            seats=[SeatToken(seat=seat, token=token) for seat, token in enumerate(created.tokens)],
        )

    def _summary(self, record: GameRecord, *, keep: bool) -> GameSummary:
        finished = record.status == GameStatus.FINISHED
        to_act: list[int] = []
        if not finished:
            entry = self._state_of(record, keep=keep)
            if entry.version != record.version:  # a command landed meanwhile: use the newer pair
                record = self.store.get_game(record.id)
                finished = record.status == GameStatus.FINISHED
                if entry.version != record.version:
                    record, entry = self._load(record.id, keep=keep)
                    finished = entry.finished
            if not finished:
                to_act = sorted(self.store.spec(record.game).to_act(entry.state))
        return GameSummary(
            id=record.id,
            game=record.game,
            players=record.players,
            status=record.status,
            version=record.version,
            head_hash=record.head_hash,
            seats=[PublicSeat(seat=seat) for seat in range(record.players)],
            to_act=to_act,
            outcome=record.outcome,
            options=_public_options(record.options, finished),
            seed_commitment=record.seed_commitment,
            seed_source=str(record.seed_source),
            rng=record.rng,
            created_at=record.created_at,
            updated_at=record.updated_at,
        )

    def summary(self, game_id: str) -> GameSummary:
        """The public summary of a game.

        Raises:
            GameNotFoundError: no such game.
        """
        return self._summary(self.store.get_game(game_id), keep=True)

    def list_games(
        self, *, game: str | None, status: GameStatus | None, limit: int, offset: int
    ) -> GameList:
        """A page of public summaries, oldest first (listing does not fill the cache)."""
        page = self.store.list_games(game=game, status=status, limit=limit, offset=offset)
        return GameList(
            games=[self._summary(record, keep=False) for record in page.games],
            total=page.total,
            limit=page.limit,
            offset=page.offset,
        )

    # -- what a viewer sees ----------------------------------------------------------------

    def view(self, game_id: str, seat: int | None) -> Any:
        """The caller's view now, with ``version`` filled in.

        Raises:
            GameNotFoundError: no such game.
        """
        record, entry = self._current(game_id)
        view = self.store.spec(record.game).view(entry.state, seat)
        return msgspec.structs.replace(view, version=entry.version)

    def legal(self, game_id: str, seat: int | None) -> LegalCommands:
        """The commands ``seat`` may send now (none for a spectator or a seat not to act).

        Raises:
            GameNotFoundError: no such game.
        """
        record, entry = self._current(game_id)
        spec = self.store.spec(record.game)
        commands: list[Any] = []
        if seat is not None and not entry.finished:
            commands = list(spec.legal_commands(entry.state, seat))
        note = None
        if entry.finished:
            note = "the game is over"
        elif seat is None:
            note = SPECTATOR_LEGAL_NOTE
        elif not commands:
            to_act = ", ".join(map(str, sorted(spec.to_act(entry.state)))) or "none"
            note = f"seat {seat} may not act now; seats to act: {to_act}"
        return LegalCommands(version=entry.version, seat=seat, commands=commands, note=note)

    def replay(self, game_id: str, seat: int | None, seq: int) -> Any:
        """The caller's view as it was after event ``seq``.

        Raises:
            GameNotFoundError: no such game.
            SeqOutOfRangeError: ``seq`` is not in ``0 .. version``.
        """
        return view_at(self.store, game_id, at=seq, seat=seat).view

    def _outgoing(
        self, spec: AnySpec, seat: int | None, events: Iterable[StoredEvent], *, finished: bool
    ) -> list[Any]:
        """Stored events as sent to ``seat``: redacted while the game is in progress."""
        sent: list[Any] = []
        for stored in events:
            event = stored.event
            if not finished:
                event = redact_for(spec, event, seat)
                if event is None:
                    continue
                if isinstance(event, GameCreated) and "deal" in event.options:
                    options = _public_options(event.options, finished=False)
                    event = msgspec.structs.replace(event, options=options)
            sent.append(event_out(event, stored.seq, stored.recorded_at))
        return sent

    def events(self, game_id: str, seat: int | None, *, after: int, limit: int) -> EventsPage:
        """Up to ``limit`` events with ``seq > after``, as ``seat`` may see them.

        Raises:
            GameNotFoundError: no such game.
        """
        with self.store.reading():  # the status and the rows from one snapshot of the file
            record = self.store.get_game(game_id)
            stored = self.store.read_events(game_id, after=after, limit=limit)
        finished = record.status == GameStatus.FINISHED
        spec = self.store.spec(record.game)
        return EventsPage(
            events=self._outgoing(spec, seat, stored, finished=finished),
            next_after=stored[-1].seq if stored else after,
            version=record.version,
            status=record.status,
        )

    def export(self, game_id: str) -> bytes:
        """A finished game's log as ``spies-replay/1`` JSON Lines (what ``import`` reads).

        Raises:
            GameNotFoundError: no such game.
            GameNotFinishedError: the game is in progress.
        """
        return b"".join(export_lines(self.store, game_id))

    # -- commands --------------------------------------------------------------------------

    async def run_command(
        self,
        game_id: str,
        authorization: str | None,
        request: CommandRequest,
        idempotency_key: str | None = None,
    ) -> CommandReply:
        """Authenticate the caller and apply its command; see :meth:`command`.

        The command runs on the event loop when that cannot block (the common case: the
        seat's token was seen before, the game's state is cached, nobody else holds the
        game or the database's write lock); otherwise on a worker thread. A command is a
        few hundred microseconds of work; on the loop it needs no thread hop and no GIL
        hand-over at each SQLite call, which doubles the commands per second.
        """
        if self.inline_store is not None:
            try:
                return self.command(game_id, authorization, request, idempotency_key, inline=True)
            except _Deferred:
                pass
        run = partial(self.command, game_id, authorization, request, idempotency_key)
        return await anyio.to_thread.run_sync(run)

    def command(
        self,
        game_id: str,
        authorization: str | None,
        request: CommandRequest,
        idempotency_key: str | None = None,
        *,
        inline: bool = False,
    ) -> CommandReply:
        """Authenticate the caller as a seat and apply its command (:meth:`submit`).

        Raises:
            UnauthorizedError: no seat token, or a bad one.
            ForbiddenError: a token of another game.
            Anything :meth:`submit` raises.
        """
        if inline:
            seat = self.auth.remembered(game_id, authorization)
            if seat is None:  # a database lookup (or a 401/404) is for the worker thread
                raise _Deferred
        else:
            seat = self.caller(game_id, authorization)
        if seat is None:
            raise UnauthorizedError("a command needs a seat token: Authorization: Bearer <token>")
        return self.submit(game_id, seat, request, idempotency_key, inline=inline)

    def submit(
        self,
        game_id: str,
        seat: int,
        request: CommandRequest,
        idempotency_key: str | None = None,
        *,
        inline: bool = False,
    ) -> CommandReply:
        """Apply a command of ``seat`` and return its events as ``seat`` may see them.

        With an ``idempotency_key``, the response is stored in the append's transaction; the
        same key with the same request (and seat) returns it again without appending. With
        ``inline``, anything that would wait (the game's lock, the write lock, folding a
        state) raises :class:`_Deferred` instead, having changed nothing.

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
        if not self.locks.acquire(game_id, blocking=not inline):
            raise _Deferred
        try:
            try:
                reply = self._submit_locked(game_id, seat, request, idempotency_key, fields, inline)
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
            self.notifier.notify(game_id)
        self.log.info(
            "command_handled",
            **fields,
            outcome="replayed" if reply.replayed else "accepted",
            code="ok",
            duration_ms=round((time.perf_counter() - started) * 1000, 3),
        )
        return reply

    def _fingerprint(self, seat: int, request: CommandRequest) -> str:
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
                raise _Deferred
            entry = self._load(game_id)[1]
        return entry

    def _submit_locked(
        self,
        game_id: str,
        seat: int,
        request: CommandRequest,
        key: str | None,
        fields: dict[str, Any],
        inline: bool,
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
            built.append(self._command_response(spec, seat, result))
            return built[-1]

        idempotency = None if key is None else IdempotencyRequest(key, fingerprint, respond)
        for attempt in range(_CONFLICT_RETRIES):
            if not self.write_turn.acquire(blocking=not inline):
                raise _Deferred
            try:
                result = submit_command(
                    store,
                    game_id,
                    seat,
                    command,
                    state=entry.state,
                    version=entry.version,
                    idempotency=idempotency,
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
            except sqlite3.OperationalError as exc:  # "database is locked": nothing written
                if inline:
                    raise _Deferred from exc
                raise
            finally:
                self.write_turn.release()
        finished = result.outcome is not None
        self.cache.put(game_id, CachedGame(entry.game, result.version, result.state, finished))
        fields["version"] = result.version
        fields["events"] = len(result.events)
        body = built[-1] if built else self._command_response(spec, seat, result)
        return CommandReply(body=body)

    def _command_response(self, spec: AnySpec, seat: int, result: CommandResult) -> CommandResponse:
        finished = result.outcome is not None
        return CommandResponse(
            version=result.version,
            status=GameStatus.FINISHED if finished else GameStatus.ACTIVE,
            events=self._outgoing(spec, seat, result.events, finished=finished),
            outcome=result.outcome,
        )


class _Turn(Protocol):
    def acquire(self, blocking: bool = ...) -> bool: ...
    def release(self) -> None: ...
    def __enter__(self) -> bool: ...
    def __exit__(self, *exc: Any) -> None: ...


class _NoTurn:
    """A lock that is always free."""

    def acquire(self, blocking: bool = True) -> bool:
        return True

    def release(self) -> None:
        return None

    def __enter__(self) -> bool:
        return True

    def __exit__(self, *exc: object) -> None:
        return None


class _Deferred(Exception):  # noqa: N818  (a signal, not an error)
    """The command would wait on the event loop; run it on a worker thread instead."""
