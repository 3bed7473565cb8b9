"""``spies-api``: serve the API with uvicorn.

Usage::

    spies-api [--db PATH] [--host HOST] [--port PORT] [--access-log]

Defaults: ``spies.db`` (created and migrated on first start), ``127.0.0.1``, ``8000``.
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
from spies_api.settings import Settings

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
    return parser


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
    app = create_app(Settings(db_path=args.db))
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
