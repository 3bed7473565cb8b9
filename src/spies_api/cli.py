"""``spies-api``: serve the API with uvicorn.

Usage::

    spies-api [--db PATH] [--host HOST] [--port PORT] [--access-log]

Defaults: ``spies.db`` (created and migrated on first start), ``127.0.0.1``, ``8000``.
Log lines are JSON on stderr (coloured text on a terminal).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import uvicorn

from spies_api.app import create_app
from spies_api.settings import Settings

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="spies-api", description="Serve the spies engine API.")
    parser.add_argument("--db", default="spies.db", metavar="PATH", help="database (spies.db)")
    parser.add_argument("--host", default="127.0.0.1", help="interface to bind (127.0.0.1)")
    parser.add_argument("--port", default=8000, type=int, help="port to bind (8000)")
    parser.add_argument(
        "--access-log", action="store_true", help="also log every request line (uvicorn)"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the server until interrupted; return the exit status."""
    args = _parser().parse_args(argv)
    app = create_app(Settings(db_path=args.db))
    uvicorn.run(app, host=args.host, port=args.port, access_log=args.access_log)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
