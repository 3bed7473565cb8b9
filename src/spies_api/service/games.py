"""The game service: what every endpoint does, between HTTP and the replay log.

It wires the parts, each in its own module, over one :class:`EventStore`:

- :mod:`spies_api.service.states`: the folded states of recently used games, cached;
- :mod:`spies_api.service.queries`: reads (summaries, views, legal commands, the log, exports);
- :mod:`spies_api.service.commands`: the command pipeline (authenticate, decide, append, answer);
- :mod:`spies_api.table.seats`: seat holders, joins, hand-overs to bots, rematches;
- :mod:`spies_api.service.placement`: the policy that runs a command on the event loop or on a
  worker thread.

Hidden information: a game in progress leaves only through ``spec.view`` and
:func:`spies_replay.redact_for` (see :mod:`spies_api.service.queries`). No function here returns a
state.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import msgspec
import structlog

from spies_api.schemas import (
    CommandRequest,
    CreateGameRequest,
    EventsPage,
    GameCreatedResponse,
    GameList,
    GameSummary,
    LegalCommands,
    SeatToken,
    SubmittedCommand,
)
from spies_api.service.auth import SeatAuthenticator
from spies_api.service.cache import KeyedLocks, StateCache
from spies_api.service.commands import CommandPipeline, CommandReply
from spies_api.service.notify import EventNotifier, StreamSlots
from spies_api.service.placement import Placement, write_turn
from spies_api.service.queries import DEAL_HIDDEN, GameQueries
from spies_api.service.states import GameStates
from spies_api.settings import Settings
from spies_api.table.seats import SeatService
from spies_replay.engine import create_game
from spies_replay.store import EventStore, GameRecord, GameStatus
from spies_replay.store.backends import SyncMode, open_store
from spies_replay.store.locations import is_postgres_url

__all__ = ["DEAL_HIDDEN", "CommandReply", "GameService"]


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
        self.write_turn = write_turn(inline_store is not None)
        self.states = GameStates(store, self.cache)
        self.queries = GameQueries(store, self.states)
        self.pipeline = CommandPipeline(
            store, inline_store, self.states, self.locks, self.auth, self.write_turn, self.appended
        )
        self.placement = Placement(inline_store is not None)
        self.seats = SeatService(
            store, self.cache, self.locks, self.auth, self.write_turn, self.appended
        )
        self.append_listeners: list[Callable[[str], None]] = []
        """Called with the game id after every append (the bot runner listens here)."""
        self._unwatch = store.watch(self.notifier.notify)
        """Stops the wake-ups of this process's streams by other processes' appends."""

    @classmethod
    def open(cls, settings: Settings) -> GameService:
        """Open (create and migrate, if needed) the database of ``settings``.

        Raises:
            StoreUnavailableError: the database cannot be used (its directory is missing,
                it is a directory or not a database, ...); the message is one line.
        """
        sync: SyncMode = "full" if settings.sync == "full" else "normal"
        store = open_store(settings.db_path, snapshot_every=settings.snapshot_every, sync=sync)
        inline = None
        # On the event loop only with an in-process database: a server round trip would
        # hold up every other request of this process.
        if settings.inline_commands and not is_postgres_url(settings.db_path):
            inline = open_store(
                settings.db_path,
                snapshot_every=settings.snapshot_every,
                busy_timeout=0.0,
                sync=sync,
            )
        return cls(store, settings, inline_store=inline)

    def close(self) -> None:
        """Close the database connections."""
        self._unwatch()
        self.store.close()
        if self.inline_store is not None:
            self.inline_store.close()

    def appended(self, game_id: str) -> None:
        """Called after every append to ``game_id``: wakes its streams and the listeners."""
        self.notifier.notify(game_id)
        for listener in self.append_listeners:
            listener(game_id)

    # -- who is calling --------------------------------------------------------------------

    def caller(self, game_id: str, authorization: str | None) -> int | None:
        """The caller's seat in the game (``None``: a spectator); see :mod:`spies_api.service.auth`.

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

    # -- creation --------------------------------------------------------------------------

    def create(self, request: CreateGameRequest) -> GameCreatedResponse:
        """Create a game and return its seat tokens (once).

        Raises:
            UnknownGameError: not a registered game.
            InvalidOptionsError: bad ``players``, ``options`` or ``seed``.
        """
        holders = self.seats.holders(request.game, request.players, request.seats)
        with self.write_turn:
            created = create_game(
                self.store,
                request.game,
                request.players,
                request.options,
                request.seed,
                seats=holders,
            )
        record = created.record
        self.seats.created(created)
        self.log.info("game_created", game_id=record.id, game=record.game, players=record.players)
        return GameCreatedResponse(
            id=record.id,
            game=record.game,
            players=record.players,
            status=record.status,
            version=record.version,
            head_hash=record.head_hash,
            created_at=record.created_at,
            seats=[
                SeatToken(
                    seat=held.seat,
                    type=held.type,
                    name=held.name,
                    bot=held.bot,
                    token=msgspec.UNSET if token is None else token,
                )
                for held, token in zip(created.seats, created.tokens, strict=True)
            ],
        )

    # -- reads (spies_api.service.queries) ---------------------------------------------------------

    def summary(self, game_id: str) -> GameSummary:
        """The public summary of a game (see :meth:`GameQueries.summary`)."""
        return self.queries.summary(game_id)

    def list_games(
        self,
        *,
        game: str | None,
        status: GameStatus | None,
        limit: int,
        offset: int,
        open_seats: bool | None = None,
    ) -> GameList:
        """A page of public summaries (see :meth:`GameQueries.list_games`)."""
        return self.queries.list_games(
            game=game, status=status, limit=limit, offset=offset, open_seats=open_seats
        )

    def view(self, game_id: str, seat: int | None) -> Any:
        """The caller's view now (see :meth:`GameQueries.view`)."""
        return self.queries.view(game_id, seat)

    def legal(self, game_id: str, seat: int | None) -> LegalCommands:
        """The caller's legal commands now (see :meth:`GameQueries.legal`)."""
        return self.queries.legal(game_id, seat)

    def replay(
        self, game_id: str, seat: int | None, seq: int, *, as_seat: int | None = None
    ) -> Any:
        """A seat's view after event ``seq`` (see :meth:`GameQueries.replay`)."""
        return self.queries.replay(game_id, seat, seq, as_seat=as_seat)

    def events(self, game_id: str, seat: int | None, *, after: int, limit: int) -> EventsPage:
        """A page of the log as ``seat`` may see it (see :meth:`GameQueries.events`)."""
        return self.queries.events(game_id, seat, after=after, limit=limit)

    def export(self, game_id: str) -> bytes:
        """A finished game's export (see :meth:`GameQueries.export`)."""
        return self.queries.export(game_id)

    # -- commands (spies_api.service.commands, placed by spies_api.service.placement) ---

    async def run_command(
        self,
        game_id: str,
        authorization: str | None,
        request: CommandRequest,
        idempotency_key: str | None = None,
    ) -> CommandReply:
        """Authenticate the caller and apply its command, on the loop or a worker thread."""
        work = partial(self.pipeline.command, game_id, authorization, request, idempotency_key)
        return await self.placement.run(lambda inline: work(inline=inline))

    def command(
        self,
        game_id: str,
        authorization: str | None,
        request: CommandRequest,
        idempotency_key: str | None = None,
    ) -> CommandReply:
        """Authenticate the caller and apply its command here (see :class:`CommandPipeline`)."""
        return self.pipeline.command(game_id, authorization, request, idempotency_key)

    def submit(
        self,
        game_id: str,
        seat: int,
        request: SubmittedCommand,
        idempotency_key: str | None = None,
    ) -> CommandReply:
        """Apply a command of ``seat`` (see :meth:`CommandPipeline.submit`)."""
        return self.pipeline.submit(game_id, seat, request, idempotency_key)
