"""``spies-api``: serve the API with uvicorn.

Usage::

    spies-api [--db PATH] [--host HOST] [--port PORT] [--access-log]
              [--rate-limit RATE] [--max-streams-per-game N]

Defaults: ``spies.db`` (created and migrated on first start), ``127.0.0.1``, ``8000``, no
rate limit (``--rate-limit 6000/minute``: each client address may send that many requests
per minute, then gets 429 with ``Retry-After``), 64 open event streams per game.
Log lines are JSON on stderr (coloured text on a terminal). On SIGTERM or Ctrl+C, open
event streams end at once and other requests get a few seconds to finish.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from types import FrameType

import uvicorn
from litestar import Litestar

from spies_api.app import create_app, service_of
from spies_api.settings import Settings, parse_rate

__all__ = ["SHUTDOWN_GRACE_SECONDS", "main"]

SHUTDOWN_GRACE_SECONDS = 3


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="spies-api", description="Serve the spies engine API.")
    parser.add_argument("--db", default="spies.db", metavar="PATH", help="database (spies.db)")
    parser.add_argument("--host", default="127.0.0.1", help="interface to bind (127.0.0.1)")
    parser.add_argument("--port", default=8000, type=int, help="port to bind (8000)")
    parser.add_argument(
        "--access-log", action="store_true", help="also log every request line (uvicorn)"
    )
    parser.add_argument(
        "--rate-limit",
        type=_rate,
        default=None,
        metavar="RATE",
        help="per-client request rate, N/second, N/minute, N/hour or N/day, e.g. 6000/minute;"
        " beyond it: 429 with Retry-After (default: no limit)",
    )
    parser.add_argument(
        "--max-streams-per-game",
        type=int,
        default=Settings().max_streams_per_game,
        metavar="N",
        help="open event streams allowed on one game; one more is 503 (default: %(default)s)",
    )
    return parser


def _rate(text: str) -> str:
    try:
        parse_rate(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


class _Server(uvicorn.Server):
    """uvicorn, ending the app's event streams as soon as a shutdown is asked for.

    Streams of games in progress never end by themselves, and uvicorn waits for open
    connections before it stops; clients resume with ``Last-Event-ID``.
    """

    def __init__(self, config: uvicorn.Config, app: Litestar) -> None:
        super().__init__(config)
        self._app = app

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        service_of(self._app).notifier.close()
        super().handle_exit(sig, frame)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the server until interrupted; return the exit status."""
    args = _parser().parse_args(argv)
    if args.max_streams_per_game < 1:
        _parser().error("--max-streams-per-game must be at least 1")
    settings = Settings(
        db_path=args.db,
        rate_limit=args.rate_limit,
        max_streams_per_game=args.max_streams_per_game,
    )
    app = create_app(settings)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        access_log=args.access_log,
        timeout_graceful_shutdown=SHUTDOWN_GRACE_SECONDS,  # a backstop for slow clients
    )
    _Server(config, app).run()
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
