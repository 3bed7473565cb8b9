"""``spies-api``: serve the API with uvicorn.

Usage::

    spies-api [--db PATH] [--sync MODE] [--host HOST] [--port PORT] [--[no-]access-log]
              [--rate-limit RATE|off] [--max-bot-games-per-client N|off]
              [--max-bot-games N|off] [--max-streams-per-client N|off]
              [--trusted-proxies LIST] [--ipv4-prefix BITS] [--ipv6-prefix BITS]
              [--free-paths-rate-limit RATE|off] [--max-head-bytes BYTES]
              [--max-streams-per-game N] [--max-streams-per-seat N]
              [--max-streams N] [--idempotency-key-max-length N]
              [--[no-]metrics] [--metrics-port PORT] [--drain-seconds SECONDS]
              [--shutdown-timeout SECONDS]

Every option can also be set in the environment: ``SPIES_DB``, ``SPIES_HOST``,
``SPIES_PORT``, ``SPIES_ACCESS_LOG``, ``SPIES_RATE_LIMIT``, ``SPIES_MAX_BOT_GAMES_PER_CLIENT``,
``SPIES_TRUSTED_PROXIES``, ``SPIES_IPV4_PREFIX``, ``SPIES_MAX_HEAD_BYTES``,
``SPIES_MAX_STREAMS_PER_GAME``, ``SPIES_IDEMPOTENCY_KEY_MAX_LENGTH``, ``SPIES_METRICS``,
``SPIES_METRICS_PORT``, ``SPIES_DRAIN_SECONDS``, ``SPIES_SHUTDOWN_TIMEOUT``, ...; the
command line wins. Defaults: ``spies.db`` (created and migrated on first start; its
directory must exist), ``127.0.0.1``, ``8000``, 50 requests a second per client
(``--rate-limit 50/second``; ``off`` for none) and 100 a second of pages, docs, static files
and the operators' paths (``--free-paths-rate-limit``), a client being an IPv4 address or an
IPv6 ``/64`` (``--ipv4-prefix 32``, ``--ipv6-prefix 64``), 4 active bot games per client and
16 per core in all, 64 open event streams per client, no trusted proxy, request heads of 32
KiB (``--max-head-bytes``), 64 open spectator event streams per game, 255 characters in an
``Idempotency-Key``, no metrics, a drain of 1 s and a shutdown bounded by 10 s.

Before serving, the settings are checked, the database is opened and the port is bound; a
problem with any of them is one line on stderr (``spies-api: error: ...``) and exit status 2.
The first log line (``api_starting``) names the database in use and the addresses to open
(``open``: the web client; ``docs``: the API's interactive docs). Log lines are JSON on stderr
(coloured text on a terminal). On SIGTERM or Ctrl+C the process drains: ``/readyz`` says
``draining``, open event streams end at once with a ``reconnect`` message, every answer
closes its connection, new requests are still served for ``--drain-seconds`` (default 1);
then it stops listening (the connections the kernel already accepted for it are taken and
answered, not reset), the requests in flight finish, the bots and the scheduler stop,
and it exits (status 0), within ``--shutdown-timeout`` (default 10 s) of the signal, or is
ended then (status 3). ``--metrics`` serves ``GET /metrics``; ``--metrics-port`` on a port
of its own. ``kill -USR1 PID`` writes every thread's stack to stderr and the process goes on
(:mod:`faulthandler`): for a process that seems stuck, it shows where.
"""

from __future__ import annotations

import argparse
import asyncio
import faulthandler
import math
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import FrameType

import prometheus_client
import structlog
import uvicorn
from litestar import Litestar

from spies_api.app import Runtime, create_app
from spies_api.http.protocols import protocol_class
from spies_api.service.notify import EventNotifier
from spies_api.settings import OPTIONS, Settings, SettingsError, settings_from
from spies_core.errors import SpiesError
from spies_replay.store.backends import open_store
from spies_replay.store.locations import is_postgres_url, redact

__all__ = ["EXIT_SHUTDOWN_TIMEOUT", "EXIT_USAGE", "LIFESPAN_SECONDS", "main", "server_config"]

LIFESPAN_SECONDS = 2.0
"""Of the shutdown's bound, what is kept for the bots, the scheduler and the store to stop."""
EXIT_USAGE = 2
EXIT_SHUTDOWN_TIMEOUT = 3
"""The exit status of a process the shutdown's watchdog ended."""


def _parser() -> argparse.ArgumentParser:
    defaults = Settings()
    parser = argparse.ArgumentParser(
        prog="spies-api",
        description="Serve the spies engine API.",
        epilog="Each option can also be set in the environment variable named after it"
        " (SPIES_DB, SPIES_PORT, ...); the command line wins. A bad value, a database that"
        " cannot be opened or a port that cannot be bound: one line on stderr, exit status 2.",
    )
    for option in OPTIONS:
        default = getattr(defaults, option.field)
        shown: object = default
        if default is None:
            shown = option.unset
        elif default == ():
            shown = "none"
        elif isinstance(default, bool):
            shown = "on" if default else "off"
        text = f"{option.help} (env {option.env}; default {shown})"
        if option.is_switch:
            parser.add_argument(
                option.flag,
                dest=option.field,
                action=argparse.BooleanOptionalAction,
                default=None,
                help=text,
            )
        else:
            parser.add_argument(
                option.flag, dest=option.field, metavar=option.metavar, default=None, help=text
            )
    return parser


class _Server(uvicorn.Server):
    """uvicorn, draining before it stops, and bounded.

    The first SIGTERM (or Ctrl+C) starts the drain: ``/readyz`` says ``draining``, every
    answer closes its connection, and the event streams end at once with their
    ``reconnect`` message (streams of games in progress never end by themselves, and
    uvicorn waits for open connections; clients resume with ``Last-Event-ID`` elsewhere).
    New requests are still served for ``drain_seconds``, while a proxy or load balancer
    moves its traffic away; then uvicorn stops listening (the connections waiting in the
    listening socket's backlog are taken first, and answered: closing it with them inside
    would reset them), lets the requests in flight (the commands) finish, and the lifespan
    stops the bots and the scheduler and closes the store. A watchdog ends the process if
    all that takes more than ``shutdown_timeout_seconds`` from the signal. A second signal
    stops at once.
    """

    def __init__(
        self, config: uvicorn.Config, app: Litestar, settings: Settings, notifier: EventNotifier
    ) -> None:
        super().__init__(config)
        self._app = app
        self._settings = settings
        self._notifier = notifier
        self._drain_until: float | None = None

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self._drain_until is not None or self.should_exit:
            super().handle_exit(sig, frame)  # a second signal: stop now
            return
        self._app.state.lifecycle.draining = True
        self._drain_until = time.monotonic() + self._settings.drain_seconds
        _watchdog(self._settings.shutdown_timeout_seconds)
        structlog.get_logger("spies_api").info(
            "api_draining",
            signal=signal.Signals(sig).name,
            drain_seconds=self._settings.drain_seconds,
            shutdown_timeout_seconds=self._settings.shutdown_timeout_seconds,
        )
        self._notifier.close()
        if self._settings.drain_seconds <= 0:
            self.should_exit = True  # stop listening now

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """Stop listening without resetting the connections the kernel has already accepted
        for us (its backlog): they are taken and served like the others, then uvicorn's own
        shutdown lets the requests in flight finish."""
        if sockets:
            await self._take_backlog(sockets)
        await super().shutdown(sockets)

    async def _take_backlog(self, sockets: list[socket.socket]) -> None:
        # A duplicate of each listening socket keeps it listening while the event loop stops
        # accepting on it; what waits in its backlog is then accepted here, and the socket
        # closed in the same step (closing it with connections waiting would reset them).
        held = [sock.dup() for sock in sockets]
        for server in self.servers:
            server.close()
        waiting: list[socket.socket] = []
        for sock in held:
            sock.setblocking(False)
            with sock:
                while True:
                    try:
                        connection, _ = sock.accept()
                    except OSError:  # BlockingIOError: the backlog is empty
                        break
                    waiting.append(connection)
        loop = asyncio.get_running_loop()
        for connection in waiting:
            connection.setblocking(False)
            await loop.connect_accepted_socket(self._protocol, connection)

    def _protocol(self) -> asyncio.Protocol:
        """A connection's protocol, as uvicorn makes it for the connections it accepts."""
        return self.config.http_protocol_class(  # type: ignore[call-arg]
            config=self.config, server_state=self.server_state, app_state=self.lifespan.state
        )

    async def on_tick(self, counter: int) -> bool:
        if (
            self._drain_until is not None
            and not self.should_exit
            and time.monotonic() >= self._drain_until
        ):
            structlog.get_logger("spies_api").info("api_stopping")
            self.should_exit = True  # stop listening; the requests in flight finish
        return await super().on_tick(counter)


def _watchdog(seconds: float) -> None:
    """End the process ``seconds`` from now if it has not exited by itself (a stuck bot, a
    store call that does not return): the bound on a shutdown."""

    def expire() -> None:
        structlog.get_logger("spies_api").error("api_shutdown_timed_out", seconds=seconds)
        os._exit(EXIT_SHUTDOWN_TIMEOUT)

    timer = threading.Timer(seconds, expire)
    timer.daemon = True
    timer.start()


def _listen(host: str, port: int) -> socket.socket:
    """Bind the listening socket now, so a taken port is refused before anything starts.

    The socket is made with protocol ``IPPROTO_TCP``, as asyncio makes its own: connections
    accepted from it inherit the protocol number, and asyncio sets ``TCP_NODELAY`` only on
    sockets that carry it. Without it, a response written in two parts (its head, then its
    body) waits for the client's delayed acknowledgement on a kept-alive
    connection.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except BaseException:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def _fail(message: str) -> int:
    sys.stderr.write(f"spies-api: error: {message}\n")
    return EXIT_USAGE


def main(argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None) -> int:
    """Run the server until interrupted; return the exit status.

    Args:
        argv: the arguments (default ``sys.argv[1:]``).
        environ: the environment to read ``SPIES_*`` settings from (default ``os.environ``).
    """
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exit_:  # --help, or a usage error argparse has reported
        return int(exit_.code or 0)
    try:
        settings = settings_from(vars(args), os.environ if environ is None else environ)
    except SettingsError as exc:
        return _fail(str(exc))
    try:
        open_store(settings.db_path).close()  # refuse a bad database before anything starts
        sock = _listen(settings.host, settings.port)
    except SpiesError as exc:
        return _fail(str(exc))
    except OSError as exc:
        reason = (exc.strerror or str(exc)).lower()
        return _fail(
            f"cannot listen on {settings.host}:{settings.port}: {reason}"
            " (choose another --port or --host)"
        )
    try:
        runtime = Runtime.open(settings)  # open the database before anything is served
    except SpiesError as exc:
        sock.close()
        return _fail(str(exc))
    app = create_app(runtime=runtime)
    structlog.get_logger("spies_api").info(
        "api_starting",
        database=(
            redact(settings.db_path)
            if is_postgres_url(settings.db_path)
            else str(Path(settings.db_path).resolve())
        ),
        host=settings.host,
        port=settings.port,
        open=address_to_open(settings.host, settings.port),
        docs=address_to_open(settings.host, settings.port) + "schema",
        rate_limit=settings.rate_limit,
        free_paths_rate_limit=settings.free_paths_rate_limit,
        player_rate_limit=settings.player_rate_limit,
        client_prefixes=[settings.ipv4_prefix, settings.ipv6_prefix],
        max_head_bytes=settings.max_head_bytes,
        trusted_proxies=list(settings.trusted_proxies),
        max_streams_per_game=settings.max_streams_per_game,
    )
    if settings.metrics_port is not None:
        try:
            prometheus_client.start_http_server(settings.metrics_port, addr=settings.host)
        except OSError as exc:
            sock.close()
            return _fail(
                f"cannot serve metrics on {settings.host}:{settings.metrics_port}:"
                f" {(exc.strerror or str(exc)).lower()} (choose another --metrics-port)"
            )
    if hasattr(signal, "SIGUSR1"):  # not on Windows
        faulthandler.register(signal.SIGUSR1, all_threads=True)
    with sock:
        _Server(server_config(app, settings), app, settings, runtime.notifier).run(sockets=[sock])
    return 0


def address_to_open(host: str, port: int) -> str:
    """The web client's address for a person to open: a wildcard host is reached on loopback.

    >>> address_to_open("0.0.0.0", 8000)
    'http://127.0.0.1:8000/'
    >>> address_to_open("::1", 8080)
    'http://[::1]:8080/'
    """
    shown = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def server_config(app: Litestar, settings: Settings, *, http: str = "auto") -> uvicorn.Config:
    """uvicorn's configuration of the app: its HTTP protocol bounded
    (:mod:`spies_api.http.protocols`: httptools, or h11 when ``http`` says so or httptools
    is missing), no proxy headers of uvicorn's, the graceful shutdown's bound.
    """
    return uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        access_log=settings.access_log,
        http=protocol_class(http),
        # the bound on a request's head: h11 applies it itself, our httptools protocol too
        h11_max_incomplete_event_size=settings.max_head_bytes,
        # the app reads X-Forwarded-For itself, from Settings.trusted_proxies only
        # (uvicorn would trust any loopback peer's)
        proxy_headers=False,
        # the requests in flight get what the drain leaves of the bound, less a moment for
        # the bots, the scheduler and the store to stop
        timeout_graceful_shutdown=max(
            1,
            math.floor(
                settings.shutdown_timeout_seconds - settings.drain_seconds - LIFESPAN_SECONDS
            ),
        ),
    )


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
