"""``create_app(settings)``: the Litestar application of the spies engine.

This is where the parts meet. :class:`Runtime` opens the store and builds each part once
(the cached heads, the authenticator, the queries, the command handler, the game creator,
the seats, the stream wake-ups); :func:`create_app` opens one (or takes the one its caller
opened) and provides each part to the routes as a dependency of its own name and type
(Litestar's ``Provide``, named in each handler's signature), and the caller of a route about
one game (``caller``, :func:`spies_api.http.dependencies.caller_provider`). The lifespan runs
the scheduler of the server's own work (:mod:`spies_api.table.scheduler`) as a background
task, and at shutdown stops it, then closes the runtime. The app also carries the one error
table (problem details for every exception), the OpenAPI document and its interactive docs,
the web client (:mod:`spies_api.http.webapp`), the body-size limit, CORS
(:mod:`spies_api.http.cors`), the edge (:mod:`spies_api.http.edge`: client addresses, the
per-client rate limit, security headers), structlog, health and readiness and the drain's
``Connection: close`` (:mod:`spies_api.http.health`), and, when switched on, the metrics
(:mod:`spies_api.http.metrics`).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from litestar import Litestar
from litestar.di import Provide
from litestar.plugins.problem_details import (
    ProblemDetailsConfig,
    ProblemDetailsException,
    ProblemDetailsPlugin,
)

from spies_api.game import CreatedGame, Head, SeatChange
from spies_api.http import ROUTE_HANDLERS
from spies_api.http.cached import CachedAnswers, KeptAnswers
from spies_api.http.compression import compression_config
from spies_api.http.cors import (
    cors_config,
    unlisted_origins_unmarked,
    vary_kept,
    vary_merged,
)
from spies_api.http.dependencies import Provided, caller_provider
from spies_api.http.edge import Edge, RateLimiter
from spies_api.http.health import DrainMiddleware, HealthController, Lifecycle, ReadinessProbe
from spies_api.http.metrics import (
    CommandMetrics,
    MetricsController,
    bot_decided,
    deadline_fired,
    due_retried,
    problem_answered,
    prometheus_config,
    track_streams,
    written,
)
from spies_api.http.players import PlayerDoor
from spies_api.http.webapp import DOCS_ASSETS, WEB_ROUTE_HANDLERS
from spies_api.logging import configure_logging
from spies_api.openapi.config import openapi_config
from spies_api.openapi.plugins import DocumentedSchemaPlugin, TaggedUnionSchemaPlugin
from spies_api.problems.table import to_problem
from spies_api.service.auth import Caller, SeatAuthenticator
from spies_api.service.commands import Commands
from spies_api.service.commitments import SeedCommitments
from spies_api.service.creation import GameCreator
from spies_api.service.effects import WriteEffects
from spies_api.service.keys import ReceiptKeys
from spies_api.service.locks import GameLocks
from spies_api.service.notify import AppendListeners, EventNotifier, store_versions
from spies_api.service.players import PlayerService
from spies_api.service.queries import GameQueries
from spies_api.service.slots import StreamSlots
from spies_api.service.states import GameStates
from spies_api.service.stream_state import StreamStates
from spies_api.service.tickets import StreamTickets
from spies_api.service.warming import warm_caches
from spies_api.settings import RATE_SECONDS, Settings, parse_rate
from spies_api.table.bots import BotPool, default_workers
from spies_api.table.quota import BotGameQuota, GameQuota
from spies_api.table.scheduler import Scheduler
from spies_api.table.seats import SeatService
from spies_replay.store.backends import open_store
from spies_replay.store.protocols import EventStore, LoopWatch, Recorder
from spies_replay.store.records import Clock, utc_now

__all__ = ["Runtime", "create_app"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Runtime:
    """The running parts of one app over one store; each is provided to the routes.

    Attributes:
        settings: how the app runs.
        store: the replay log (worker threads).
        recorder: the store's appends for the event loop (on the loop when the store can,
            unless ``Settings.inline_commands`` is off); closed on the loop at shutdown.
        states: the cached heads of games.
        auth: who is calling.
        notifier: wakes the event streams after appends.
        streams: the open event streams, capped per game, per seat and in all.
        tickets: the unused stream tickets of this process.
        stream_states: the states the streams push, once per game version and reader.
        appends: what is called after every append of this process.
        clock: where the time is read.
        queries: the reads.
        commands: the command handler.
        creator: creates games.
        seats: joins, hand-overs and rematches.
        bot_quota: active games with bot seats per client and in all, and their owners.
        game_quota: active games created per client.
        receipts: the receipt signing key, and the list of keys (``GET /keys``).
        players: players and the seats they own.
        unwatch: stops the store's watch of other processes' appends from a thread.
        listener: the store's watch on the event loop instead (PostgreSQL, unless
            ``Settings.inline_commands`` is off), started by the app while it serves (not
            by a runtime used without it); ``None``: the thread's watch is used.
        warmed: set when the app's read-ahead of the games in use has ended
            (:func:`~spies_api.service.warming.warm_caches`: done, full or failed).
    """

    settings: Settings
    store: EventStore
    recorder: Recorder
    states: GameStates
    auth: SeatAuthenticator
    notifier: EventNotifier
    streams: StreamSlots
    tickets: StreamTickets
    stream_states: StreamStates
    appends: AppendListeners
    queries: GameQueries
    commands: Commands
    creator: GameCreator
    seats: SeatService
    bot_quota: BotGameQuota
    game_quota: GameQuota
    receipts: ReceiptKeys
    players: PlayerService
    unwatch: Callable[[], None]
    listener: LoopWatch | None

    clock: Clock
    warmed: threading.Event = field(default_factory=threading.Event)

    @classmethod
    def open(cls, settings: Settings, clock: Clock = utc_now) -> Runtime:
        """Open (create and migrate, if needed) the database of ``settings`` and build the
        parts over it, reading the time from ``clock``; first configure structlog for the
        process, unless ``settings.configure_logging`` is off.

        Raises:
            StoreUnavailableError: the database cannot be used (its directory is missing,
                it is a directory or not a database, ...); the message is one line.
        """
        if settings.configure_logging:  # first: the parts bind their loggers as they are built
            configure_logging(json=settings.log_json)
        sync = settings.sync
        store = open_store(settings.db_path, snapshot_every=settings.snapshot_every, sync=sync)
        recorder = store.recorder(on_loop=settings.inline_commands)
        reader = store.loop_reader() if settings.inline_commands else None  # a miss's reads
        reads = store.loop_reads(recorder)  # PostgreSQL's: awaited on the loop
        states = GameStates(
            store,
            settings.cache_size,
            reader=reader,
            reads=reads,
            packed_bytes=settings.cache_bytes,
        )
        remembered = settings.cache_size + settings.cache_bytes // 1024  # a game per KiB
        auth = SeatAuthenticator(store, remembered, reader=reader, reads=reads)
        notifier = EventNotifier(store_versions(store), recheck_seconds=settings.sse_poll_seconds)
        appends = AppendListeners()
        appends.add(notifier.notify)
        queries = GameQueries(store, states, clock)
        locks = GameLocks()
        effects = (_CountedEffects if settings.metrics_on else WriteEffects)(states, auth, appends)
        watching = (effects.remote, effects.unheard)
        listener = store.loop_watch(*watching) if settings.inline_commands else None
        receipts = ReceiptKeys.open(store)  # receipts: the database's signing key
        commitments = SeedCommitments.open(store, settings, clock)  # players' entropy
        creator = GameCreator(
            store,
            effects,
            clock=clock,
            open_seat_ttl=settings.open_seat_ttl,
            receipts=receipts,
            commitments=commitments,
        )
        bot_quota = BotGameQuota(
            settings.max_bot_games_per_client,
            states,
            total=settings.max_bot_games,
            idle_seconds=settings.bot_game_idle_seconds,
            retry_after=settings.bot_games_retry_after_seconds,
        )
        appends.add(bot_quota.appended, bot_quota.heard)
        game_quota = GameQuota(settings.max_games_per_client, states)
        appends.add(game_quota.appended, game_quota.heard)
        return cls(
            settings=settings,
            store=store,
            recorder=recorder,
            states=states,
            auth=auth,
            notifier=notifier,
            streams=StreamSlots.of(settings),
            # a ticket opens a stream: no more of them than streams the process may hold
            tickets=StreamTickets(settings.max_streams),
            appends=appends,
            queries=queries,
            # a few readers (spectators, each seat) of each game in the cache, at its version
            stream_states=StreamStates(queries, 8 * settings.cache_size),
            commands=Commands(
                store,
                states,
                recorder,
                locks,
                effects,
                key_max_length=settings.idempotency_key_max_length,
                clock=clock,
                receipts=receipts,
            ),
            creator=creator,
            seats=SeatService(store, locks, creator, effects),
            bot_quota=bot_quota,
            game_quota=game_quota,
            receipts=receipts,
            players=PlayerService.open(store, queries, clock),
            # appends by other processes (PostgreSQL's LISTEN, SQLite's commit counter) wake
            # this process's streams and its scheduler, and make its cached head stale
            unwatch=store.watch(*watching) if listener is None else (lambda: None),
            listener=listener,
            clock=clock,
        )

    def close(self) -> None:
        """Close the database connections (the recorder's too; an async recorder's pool
        closes on the loop first: see :func:`create_app`)."""
        self.unwatch()
        self.store.close()


class _CountedEffects(WriteEffects):
    """The write effects, each write also counted in the metrics (``spies_appends``)."""

    __slots__ = ()

    def command(self, head: Head) -> None:
        super().command(head)
        written(head.game, "command")

    def seat_changed(self, game_id: str, change: SeatChange) -> None:
        super().seat_changed(game_id, change)
        head = self.states.cached(game_id)
        written(head.game if head is not None else None, "seat")

    def created(self, created: CreatedGame) -> None:
        super().created(created)
        written(created.record.game, "created")


def _providers(runtime: Runtime) -> dict[str, Provide]:
    """The runtime's parts that routes take as dependencies, each by its own typed provider
    (a handler names what it takes in its signature; nothing is looked up by string)."""
    parts = (*_reading_parts(runtime), *_serving_parts(runtime))
    return {part.__name__: Provide(part, sync_to_thread=False) for part in parts}


def _reading_parts(runtime: Runtime) -> tuple[Callable[..., Any], ...]:
    """The providers of what holds and reads games: the store, the cached heads, the seat
    authenticator, the wake-ups, the streams and the queries."""

    def store() -> EventStore:
        return runtime.store

    def states() -> GameStates:
        return runtime.states

    def auth() -> SeatAuthenticator:
        return runtime.auth

    def notifier() -> EventNotifier:
        return runtime.notifier

    def streams() -> StreamSlots:
        return runtime.streams

    def tickets() -> StreamTickets:
        return runtime.tickets

    def stream_states() -> StreamStates:
        return runtime.stream_states

    def queries() -> GameQueries:
        return runtime.queries

    return (store, states, auth, notifier, streams, tickets, stream_states, queries)


def _serving_parts(runtime: Runtime) -> tuple[Callable[..., Any], ...]:
    """The providers of what changes games: commands, creation, seats, quotas, receipts."""

    # The one route that takes the commands also takes the caller: providing them after the
    # caller puts each in a batch of its own, which Litestar resolves without a task group
    # (two tasks spawned per command otherwise).
    def commands(caller: Provided[Caller]) -> Commands:
        del caller
        return runtime.commands

    def creator() -> GameCreator:
        return runtime.creator

    def seats() -> SeatService:
        return runtime.seats

    def bot_quota() -> BotGameQuota:
        return runtime.bot_quota

    def game_quota() -> GameQuota:
        return runtime.game_quota

    def receipts() -> ReceiptKeys:
        return runtime.receipts

    def players() -> PlayerService:
        return runtime.players

    return (commands, creator, seats, bot_quota, game_quota, receipts, players)


def create_app(
    settings: Settings | None = None, *, clock: Clock = utc_now, runtime: Runtime | None = None
) -> Litestar:
    """Build the app over its parts.

    Args:
        settings: how to run (default: ``spies.db`` in the working directory, 64 KiB bodies,
            15 s keep-alives); see :class:`~spies_api.settings.Settings`. Ignored when
            ``runtime`` is given (its own settings are used).
        clock: where the server reads the time (tests pass their own, to drive deadlines).
            Ignored when ``runtime`` is given (its own clock is used).
        runtime: the parts to serve (a caller that needs them too, such as the command line
            or a test, opens them with :meth:`Runtime.open` and hands them over); by default
            the app opens its own over ``settings``. Either way the app closes them at
            shutdown.

    Returns:
        The Litestar app; serve it with any ASGI server (``spies-api`` uses uvicorn).

    Raises:
        StoreUnavailableError: the database of ``settings`` cannot be used (when the app
            opens its own runtime).
    """
    if runtime is not None:
        settings, clock = runtime.settings, runtime.clock
    settings = settings if settings is not None else Settings()
    parts = runtime if runtime is not None else Runtime.open(settings, clock)
    limiter = _limiter(settings.rate_limit)
    player_door = PlayerDoor(_limiter(settings.player_rate_limit))
    lifecycle = Lifecycle()
    readiness = ReadinessProbe()
    middleware: list[Any] = [lambda app: DrainMiddleware(app, lifecycle)]
    cors = cors_config(settings)
    if cors is not None:
        middleware.insert(0, vary_kept)

    async def close_runtime(_: Litestar) -> None:
        await parts.recorder.close()  # the loop's connections close on the loop
        parts.close()

    background: list[asyncio.Task[Any]] = []

    def start_bots(_: Litestar) -> None:
        pool = BotPool(
            settings.bot_workers if settings.bot_workers is not None else default_workers(),
            timeout_seconds=settings.bot_timeout_seconds,
            observe=bot_decided if settings.metrics_on else None,
            owner=parts.bot_quota.owner,
        )
        scheduler = Scheduler(
            parts.store,
            parts.states,
            parts.commands,
            parts.appends,
            pool,
            poll_seconds=settings.scheduler_poll_seconds,
            clock=parts.clock,
            fired=deadline_fired if settings.metrics_on else None,
            retried=due_retried if settings.metrics_on else None,
        )
        background.append(asyncio.get_running_loop().create_task(scheduler.run()))

    def start_warming(_: Litestar) -> None:
        loop, listener = asyncio.get_running_loop(), parts.listener
        if listener is not None:  # other processes' appends, heard on this loop
            background.append(listener.start())
        # the games in use, read ahead once the app answers (spies_api.service.warming)
        heard = listener.ready if listener is not None else None
        warm = warm_caches(parts.store, parts.states, parts.auth, heard=heard, done=parts.warmed)
        background.append(loop.create_task(warm))

    async def stop_bots(_: Litestar) -> None:
        while background:
            task = background.pop()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    handlers: list[Any] = [*ROUTE_HANDLERS, HealthController, *WEB_ROUTE_HANDLERS]
    problem = to_problem
    if settings.metrics_on:
        # request metrics by route template, then the commands' own; /metrics on the API's
        # port unless it has a port of its own (spies_api.cli serves that one)
        middleware.append(prometheus_config().middleware)
        middleware.append(
            lambda app: CommandMetrics(app, lambda game_id: _cached_game(parts, game_id))
        )
        if settings.metrics_port is None:
            handlers.append(MetricsController)
        track_streams(parts.streams.total)

        def problem(exc: Exception) -> ProblemDetailsException:
            answer = to_problem(exc)
            code = (answer.extra or {}).get("code") if isinstance(answer.extra, dict) else None
            if isinstance(code, str):
                problem_answered(code)
            return answer

    # innermost, so that the drain's Connection: close and the request metrics apply to the
    # answers it keeps
    kept = KeptAnswers(lambda path: _openapi_document(app) if path.startswith("/schema") else None)
    middleware.append(lambda app: CachedAnswers(app, kept))
    app = Litestar(
        route_handlers=handlers,
        dependencies={
            "lifecycle": Provide(lambda: lifecycle, sync_to_thread=False, use_cache=True),
            "readiness": Provide(lambda: readiness, sync_to_thread=False, use_cache=True),
            **_providers(parts),
            "settings": Provide(lambda: settings, sync_to_thread=False, use_cache=True),
            "player_door": Provide(lambda: player_door, sync_to_thread=False, use_cache=True),
            "caller": Provide(caller_provider(parts.auth, parts.states)),
        },
        on_startup=[start_bots, start_warming],
        on_shutdown=[stop_bots, close_runtime],  # in this order: the bots stop first
        plugins=[
            ProblemDetailsPlugin(
                ProblemDetailsConfig(exception_to_problem_detail_map={Exception: problem})
            ),
            DocumentedSchemaPlugin(),
            TaggedUnionSchemaPlugin(),
        ],
        openapi_config=openapi_config(DOCS_ASSETS),
        request_max_body_size=settings.max_body_bytes,
        cors_config=cors,
        compression_config=compression_config(settings.compress_min_bytes),
        middleware=middleware,
        logging_config=None,
        debug=False,
    )
    # every request meets the edge first (its client address), the router's 404s included
    app.asgi_handler = Edge(
        app.asgi_handler
        if cors is None
        else unlisted_origins_unmarked(vary_merged(app.asgi_handler), cors),
        trusted_proxies=settings.trusted_proxies,
        limiter=limiter,
        free_limiter=_limiter(settings.free_paths_rate_limit),
        ipv4_prefix=settings.ipv4_prefix,
        ipv6_prefix=settings.ipv6_prefix,
    )
    app.state.lifecycle, app.state.warmed = lifecycle, parts.warmed  # what tests wait on
    return app


def _openapi_document(app: Litestar) -> object:
    """The app's OpenAPI document, built (once: Litestar keeps it) where this is called."""
    return app.openapi_schema


def _limiter(rate: str | None) -> RateLimiter | None:
    """A bucket per client for a rate such as ``50/second`` (``None``: no limit)."""
    if rate is None:
        return None
    unit, count = parse_rate(rate)
    return RateLimiter(count / RATE_SECONDS[unit], count)


def _cached_game(runtime: Runtime, game_id: str) -> str | None:
    """The registered game id of a cached game, else ``None`` (no database read)."""
    head = runtime.states.cached(game_id)
    return head.game if head is not None else None
