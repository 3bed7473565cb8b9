"""structlog for the API: configured once, at the edge; the core never logs.

The chain starts with ``merge_contextvars`` and ends with JSON lines (``dict_tracebacks`` +
``JSONRenderer``) off a terminal, or ``ConsoleRenderer`` on one. Tracebacks never show local
variables: a frame's locals may hold a seat token, a seed or a hand of cards.

The service writes one line per command (``command_handled`` / ``command_rejected``) with the
game id, game, seat, command type, resulting version, outcome, code and duration. Nothing
logs a token, a seed, an ``Authorization`` header or a command body.
"""

from __future__ import annotations

import logging
import sys
from typing import Any, TextIO

import msgspec
import structlog
from structlog.tracebacks import ExceptionDictTransformer

__all__ = ["configure_logging"]

_encoder = msgspec.json.Encoder(enc_hook=repr)


def _json(value: Any, **_: Any) -> str:
    """``json.dumps`` for structlog, by msgspec (anything unusual is written as its repr)."""
    return _encoder.encode(value).decode()


def configure_logging(
    *, json: bool | None = None, level: int = logging.INFO, stream: TextIO | None = None
) -> None:
    """Configure structlog for the process.

    Args:
        json: JSON lines (``True``), console lines (``False``), or by whether ``stream`` is a
            terminal (``None``).
        level: the lowest level written.
        stream: where lines go (default ``sys.stderr``).
    """
    out = stream if stream is not None else sys.stderr
    as_json = not out.isatty() if json is None else json
    renderer: list[Any]
    if as_json:
        renderer = [
            structlog.processors.ExceptionRenderer(ExceptionDictTransformer(show_locals=False)),
            structlog.processors.JSONRenderer(serializer=_json),
        ]
    else:
        renderer = [
            structlog.dev.ConsoleRenderer(exception_formatter=structlog.dev.plain_traceback)
        ]
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            *renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(file=out),
        cache_logger_on_first_use=False,
    )
