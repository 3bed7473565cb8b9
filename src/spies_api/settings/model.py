"""The API's settings as one frozen value, :class:`Settings`, with the checks every value
must pass, and :data:`DEFAULTS`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from spies_api.settings.formats import (
    DEFAULT_FREE_PATHS_RATE_LIMIT,
    DEFAULT_PLAYER_RATE_LIMIT,
    DEFAULT_RATE_LIMIT,
    KIB,
    MAX_HEAD_BYTES,
    MAX_IPV4_PREFIX,
    MAX_IPV6_PREFIX,
    MAX_PORT,
    MIN_HEAD_BYTES,
    MIN_IPV4_PREFIX,
    MIN_IPV6_PREFIX,
    default_max_bot_games,
    parse_networks,
    parse_origins,
    parse_rate,
)
from spies_replay.store.backends import SyncMode
from spies_replay.store.records import SNAPSHOT_EVERY

__all__ = ["DEFAULTS", "Settings"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """How the API runs.

    Attributes:
        db_path: the replay log: a SQLite file, created and migrated on first start (its
            directory must exist), or a ``postgresql://`` URL of an existing database
            (its tables are created and migrated on first start).
        sync: SQLite's durability, ``normal`` (a committed command survives a crash of the
            process; the last ones may be lost on power failure) or ``full`` (they survive
            that too, at the cost of a sync per commit). PostgreSQL keeps
            ``synchronous_commit`` on whatever this says.
        host: the interface ``spies-api`` binds.
        port: the port ``spies-api`` binds, 1 to 65535.
        access_log: ``spies-api`` also logs every request line (uvicorn's access log).
        max_body_bytes: request bodies above this size get 413 ``body-too-large``.
        cache_size: how many games' folded states are kept in memory (least recently used
            ones are packed, see ``cache_bytes``, or dropped and read again from the store
            when needed: the head kept with the game, else a fold of its log).
        cache_bytes: the memory, in bytes, of the games beyond ``cache_size`` kept packed
            (their heads as the store keeps them, about 1 to 2 KiB each: unpacking one
            costs less than reading it; least recently used dropped beyond it), and of as
            many more games' verified seat tokens as it has KiB (a fraction of a KiB each);
            ``0``: none.
        snapshot_every: the replay log keeps a snapshot of a game's state every this many
            events, so a cache miss folds at most about that many events.
        sse_keepalive_seconds: an idle event stream sends a ``: keep-alive`` comment at
            least this often.
        sse_poll_seconds: the safety poll of event streams: this often, one thread of the
            process reads the version of each game that has open streams and wakes those of
            its streams that are behind (a wake-up lost, e.g. while PostgreSQL's LISTEN
            connection reconnects). Streams are otherwise woken by appends, never polled.
        events_page_default: events returned by ``GET /games/{id}/events`` without ``limit``
            (more than any registered game's ``max_events``: one page holds a whole game).
        events_page_max: the largest ``limit`` accepted there.
        games_page_default: games returned by ``GET /games`` without ``limit``.
        games_page_max: the largest ``limit`` accepted there.
        idempotency_key_max_length: the longest ``Idempotency-Key`` accepted, in
            characters; a longer one gets 400 ``invalid-parameter``.
        max_streams_per_game: open spectator event streams allowed on one game at once (in
            this process); one more is refused with 503 ``too-many-streams`` and
            ``Retry-After``. A seat's own streams (with its token) are not counted here.
        max_streams_per_seat: open event streams allowed to one seat of a game; its next
            stream ends its oldest rather than being refused.
        max_streams: open event streams allowed in this process, seats' and spectators';
            spectators may take all but a tenth (rounded up), which is kept for seats.
            Beyond that: 503 ``too-many-streams`` with ``Retry-After``. Lowered, with a
            warning at startup, to three quarters of the process's open-file limit.
        stream_retry_after_seconds: the ``Retry-After`` of that refusal.
        rate_limit: a per-client request rate, ``N/second``, ``N/minute``, ``N/hour`` or
            ``N/day``: a token bucket per client (``ipv4_prefix``, ``ipv6_prefix``) that holds
            ``N`` requests and refills at ``N`` per unit; beyond it requests get 429
            ``too-many-requests`` with ``Retry-After``. Static files, the web client's
            pages, the docs, ``/healthz``, ``/readyz`` and ``/metrics`` are not counted
            here: they have a bucket of their own, ``free_paths_rate_limit``.
            ``None`` (``--rate-limit off``): no limit (tests, benches). The default,
            ``50/second``, is above what a person reaches through the web client (one
            request per action; holding a key on the replay slider repeats about 30 times a
            second) and far below what a script in a loop sends (thousands a second).
        trusted_proxies: the addresses and CIDR networks of the reverse proxies in front of
            the server. Only a request whose direct peer is one of them has its
            ``X-Forwarded-For`` read: its client is the rightmost address there that is not
            itself a trusted proxy. None by default, loopback included: a server behind a
            proxy on the same host is told ``127.0.0.1`` (or ``::1``). The client address
            keys the rate limit and is logged as ``client``.
        cors_origins: the web origins (``https://play.example.org``) whose pages may call
            the API from a browser (CORS): their requests' answers carry
            ``Access-Control-Allow-Origin`` and expose the headers a client reads (``ETag``,
            ``Retry-After``, ``Location``...), and their preflights are answered. ``("*",)``:
            any origin. None by default: a browser lets only the server's own pages (the web
            client it serves) read its answers.
        ipv4_prefix: the IPv4 network the rate limits and the bot-game quota count as one
            client: ``32``, each address (the default); ``24``, each ``/24`` (for clients
            that rotate through the addresses of a network they hold). An IPv4-mapped
            IPv6 peer (``::ffff:1.2.3.4``, every IPv4 client of a dual-stack ``--host ::``)
            counts as its IPv4 address.
        ipv6_prefix: the same for IPv6; ``64`` by default, as one host usually holds a whole
            ``/64`` and could otherwise rotate through billions of addresses.
        free_paths_rate_limit: the bucket per client of the paths ``rate_limit`` does not
            count (static files, pages, docs, ``/healthz``, ``/readyz``, ``/metrics``), in
            the same form; ``None``: no limit. The default, ``100/second``, is far above a
            browser loading pages or a probe polling, so that a flood of them from one
            address is refused while other clients are served.
        player_rate_limit: how many players (``POST /players``) one client (as the rate
            limit counts them) may create, in the same form: a bucket of ``N`` refilled at
            ``N`` per unit; one more is 429 ``too-many-players`` with ``Retry-After``.
            ``None``: no limit. The default, ``20/hour``, is more than the browsers of a
            household behind one address make (one each, once); a script that creates
            players in a loop meets it at once.
        max_head_bytes: the longest request head (the request line and the headers) read,
            in bytes; a longer one is refused before the rest of it is read: 414
            ``uri-too-long`` while its request line is still being read, else 431
            ``headers-too-large``.
        max_bot_games_per_client: how many active bot games one client (as the rate limit
            counts them) may have at once, counting the games it created with a bot seat or
            with a clock whose timeouts a bot plays (``on_timeout`` ``bot``), their
            rematches, and the games it handed a seat of to a bot; one more is 429
            ``too-many-bot-games`` with ``Retry-After``. A game stops counting when it ends
            or after ``bot_game_idle_seconds`` with no append, and counts again for its
            owner at its next append (even above the limit). ``None``: no limit. The
            default, 4, lets a person play a few tables against bots at once; a script that
            floods the server with bot games waits for its own to end.
        bot_game_idle_seconds: see ``max_bot_games_per_client``.
        bot_games_retry_after_seconds: the ``Retry-After`` of ``too-many-bot-games`` and
            ``server-bot-games-full``.
        max_games_per_client: how many active games one client address (per ``/64`` for
            IPv6) may have created and have going at once; one more ``POST /games`` is 429
            ``too-many-games`` with ``Retry-After``. A game waiting for players counts until
            it is dealt, ends or its open seats expire (so one address cannot fill the
            lobby); any other game until it ends or has had no append for five minutes.
            Rematches are not counted. ``None``: no limit. The default, 20, is more tables
            than a person keeps going; a script that creates games in a loop meets it within
            a second.
        open_seat_ttl: how many seconds the open seats of a new game stay open (recorded in
            its log as ``game_created.open_until``); a game still waiting for players then
            is abandoned: ``game_aborted`` with reason ``abandoned``, the seed revealed, the
            game over with no winner. ``None`` (``--open-seat-ttl off`` or ``0``): open seats
            never expire. The default is an hour.
        commitment_ttl: how many seconds a seed commitment (``POST /commitments``) stays
            usable; a game created with it after that is 409 ``commitment-expired``.
        max_commitments_per_client: how many unused, unexpired commitments one client
            address may hold; one more ``POST /commitments`` is 429
            ``too-many-commitments``.
        max_commitments: how many unused, unexpired commitments the database holds, all
            clients together; one more is 429 ``too-many-commitments``.
        max_bot_games: how many active games with bot seats the server (this process)
            admits, all clients together, counted as ``max_bot_games_per_client`` counts
            them; one more is 429 ``server-bot-games-full`` with ``Retry-After``. ``None``:
            no limit. The default,
            :data:`~spies_api.settings.formats.BOT_GAMES_PER_CORE` per core of the machine,
            keeps the bots' share of the machine enough for every game's moves to come in
            time.
        max_streams_per_client: open event streams one client address (per ``/64`` for
            IPv6) may hold at once, its seats' and its spectators' together; one more is 429
            ``too-many-client-streams`` with ``Retry-After`` (a seat's next stream that ends
            the same client's oldest of that seat adds none). Lowered, with a warning at
            startup, below the share of ``max_streams`` kept for seats, so that no one client
            can take that share. ``None``: no cap per client (a bench whose one client
            plays every seat).
        bot_workers: how many bots may think at once, each in a worker process of its own
            (``None``: one less than the machine's cores, at least one); ``0`` lets one bot
            think at a time in a thread of the server (tests that register a bot of their
            own).
        bot_timeout_seconds: how long a bot may think about one move before it is asked
            again, then replaced for that move by the ``random`` bot.
        scheduler_poll_seconds: how often the index of due work is read for work marked by
            another process (the server's own appends wake the scheduler at once).
        inline_commands: run a command on the event loop when nothing can make it wait
            (its seat known, its game cached, the game and the database free), else on a
            worker thread; ``False``: always on a worker thread. With PostgreSQL an
            append is one statement awaited on the loop (psycopg's async connections);
            ``False`` runs it on a worker thread instead.
        metrics: serve ``GET /metrics`` (Prometheus's text format: requests by route and
            status, command latency, commands by outcome and code, appends, conflicts, open
            streams, bot decisions, deadlines fired, store errors). Off by default.
        metrics_port: serve the metrics on this port of ``host`` instead of the API's
            (``None``: on the API's port); implies ``metrics``.
        drain_seconds: on SIGTERM, how long the process goes on serving while ``/readyz``
            says ``draining`` and every answer closes its connection, so that a proxy or
            load balancer moves its traffic elsewhere before the process stops listening
            (``0``: stop listening at once).
        shutdown_timeout_seconds: the bound on a shutdown after SIGTERM: the drain, then
            the requests in flight (commands finish; event streams are ended at once with
            a ``reconnect`` event), then the bots and the scheduler; whatever is still
            running then is cut and the process exits.
        compress_min_bytes: answers of at least this many bytes are gzipped (brotli when
            the ``brotli`` package is installed) for a client whose ``Accept-Encoding``
            takes it; ``None``: none is. Never the event stream (it would hold messages
            back); the docs, pages and static files are gzipped once and kept.
        log_json: ``True`` for JSON log lines, ``False`` for coloured console lines,
            ``None`` to choose by whether stderr is a terminal.
        configure_logging: whether :func:`~spies_api.create_app` configures structlog (an
            embedding application that configures it itself passes ``False``).
    """

    db_path: Path | str = Path("spies.db")
    sync: SyncMode = "normal"
    host: str = "127.0.0.1"
    port: int = 8000
    access_log: bool = False
    max_body_bytes: int = 64 * KIB
    cache_size: int = 1024
    cache_bytes: int = 64 * KIB * KIB
    snapshot_every: int = SNAPSHOT_EVERY
    sse_keepalive_seconds: float = 15.0
    sse_poll_seconds: float = 5.0
    events_page_default: int = 5000
    events_page_max: int = 10_000
    games_page_default: int = 50
    games_page_max: int = 200
    idempotency_key_max_length: int = 255
    max_streams_per_game: int = 64
    max_streams_per_seat: int = 4
    max_streams: int = 10_000
    stream_retry_after_seconds: int = 5
    rate_limit: str | None = DEFAULT_RATE_LIMIT
    max_bot_games_per_client: int | None = 4
    bot_game_idle_seconds: float = 300.0
    bot_games_retry_after_seconds: int = 5
    max_games_per_client: int | None = 20
    open_seat_ttl: float | None = 3600.0
    commitment_ttl: float = 600.0
    max_commitments_per_client: int = 20
    max_commitments: int = 10_000
    # -- shares: the bots' work in all, and one client's part of the streams
    max_bot_games: int | None = field(default_factory=default_max_bot_games)
    max_streams_per_client: int | None = 64
    # --
    trusted_proxies: tuple[str, ...] = ()
    cors_origins: tuple[str, ...] = ()
    ipv4_prefix: int = 32
    ipv6_prefix: int = 64
    free_paths_rate_limit: str | None = DEFAULT_FREE_PATHS_RATE_LIMIT
    player_rate_limit: str | None = DEFAULT_PLAYER_RATE_LIMIT
    max_head_bytes: int = 32 * KIB
    bot_workers: int | None = None
    bot_timeout_seconds: float = 10.0
    scheduler_poll_seconds: float = 2.0
    inline_commands: bool = True
    metrics: bool = False
    metrics_port: int | None = None
    drain_seconds: float = 1.0
    shutdown_timeout_seconds: float = 10.0
    compress_min_bytes: int | None = 512
    log_json: bool | None = None
    configure_logging: bool = True

    def __post_init__(self) -> None:
        if not str(self.db_path) or not self.host:
            raise ValueError("db_path and host must not be empty")
        if self.sync not in ("normal", "full"):
            raise ValueError(f"sync must be normal or full, not {self.sync!r}")
        if not 1 <= self.port <= MAX_PORT:
            raise ValueError(f"port must be 1 to {MAX_PORT}, not {self.port}")
        not_positive = [name for name in _POSITIVE if getattr(self, name) <= 0]
        not_positive += [name for name in _POSITIVE_OR_NONE if _below_one(getattr(self, name))]
        if not_positive:
            raise ValueError(f"{', '.join(not_positive)} must be positive")
        if self.cache_bytes < 0:
            raise ValueError("cache_bytes must not be negative")
        if not 0 < self.sse_keepalive_seconds <= 15:
            raise ValueError("sse_keepalive_seconds must be in (0, 15]")
        if not 1 <= self.events_page_default <= self.events_page_max:
            raise ValueError("need 1 <= events_page_default <= events_page_max")
        if not 1 <= self.games_page_default <= self.games_page_max:
            raise ValueError("need 1 <= games_page_default <= games_page_max")
        for network in self.trusted_proxies:
            parse_networks(network)
        if parse_origins(",".join(self.cors_origins)) != self.cors_origins:
            raise ValueError("cors_origins must be distinct lower-case origins, or ('*',)")
        _check_edge(self)
        if self.bot_workers is not None and self.bot_workers < 0:
            raise ValueError("bot_workers must be 0 or more")
        if self.metrics_port is not None and not 1 <= self.metrics_port <= MAX_PORT:
            raise ValueError(f"metrics_port must be 1 to {MAX_PORT}, not {self.metrics_port}")
        if not 0 <= self.drain_seconds < self.shutdown_timeout_seconds:
            raise ValueError("need 0 <= drain_seconds < shutdown_timeout_seconds")

    @property
    def metrics_on(self) -> bool:
        """Whether the metrics are served (``metrics``, or a ``metrics_port``)."""
        return self.metrics or self.metrics_port is not None


_POSITIVE: Final = (
    "commitment_ttl",
    "max_commitments_per_client",
    "max_commitments",
    "max_body_bytes",
    "cache_size",
    "snapshot_every",
    "sse_poll_seconds",
    "max_streams_per_game",
    "stream_retry_after_seconds",
    "max_streams_per_seat",
    "max_streams",
    "idempotency_key_max_length",
    "bot_timeout_seconds",
    "scheduler_poll_seconds",
    "bot_game_idle_seconds",
    "bot_games_retry_after_seconds",
    "shutdown_timeout_seconds",
)
"""The settings that must be more than 0."""

_POSITIVE_OR_NONE: Final = (
    "max_bot_games_per_client",
    "max_bot_games",
    "max_streams_per_client",
    "max_games_per_client",
    "open_seat_ttl",
    "compress_min_bytes",
)
"""The settings that must be more than 0, or ``None`` (no limit)."""


def _below_one(value: float | None) -> bool:
    return value is not None and value < 1


_RANGES: Final = {
    "ipv4_prefix": (MIN_IPV4_PREFIX, MAX_IPV4_PREFIX),
    "ipv6_prefix": (MIN_IPV6_PREFIX, MAX_IPV6_PREFIX),
    "max_head_bytes": (MIN_HEAD_BYTES, MAX_HEAD_BYTES),
}
"""The settings that must lie within bounds, with their bounds."""


def _check_edge(settings: Settings) -> None:
    """Refuse rates that do not parse and groupings or bounds out of their ranges."""
    for rate in (settings.rate_limit, settings.free_paths_rate_limit, settings.player_rate_limit):
        if rate is not None:
            parse_rate(rate)
    for name, (low, high) in _RANGES.items():
        if not low <= getattr(settings, name) <= high:
            raise ValueError(f"{name} must be {low} to {high}")


DEFAULTS: Final = Settings()
"""The settings of a server started with no option: the limits the API's document states."""
