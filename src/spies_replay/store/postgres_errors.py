"""PostgreSQL's errors as the store's: the one place the PostgreSQL backend reads the
driver's errors (psycopg's and its pool's).

:func:`store_error` is called wherever a call of
:class:`~spies_replay.store.postgres.PostgresEventStore` or its
:class:`~spies_replay.store.postgres_append.AsyncRecorder` meets one (on
:class:`~spies_replay.store.postgres_server.Server`), and reads only the
error's class and its SQLSTATE, never its text. A failed connection has no SQLSTATE
(libpq says why in words only): :func:`reason` then names the failure by its class and
quotes the driver's one-line message, unread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import psycopg
from psycopg import errors as pg_errors
from psycopg_pool import PoolTimeout

from spies_replay.errors import (
    SeatTakenError,
    StoreBusyError,
    StoreClosedError,
    StoreUnavailableError,
    VersionConflictError,
)
from spies_replay.store.postgres_schema import MALFORMED, SEAT_TAKEN
from spies_replay.store.postgres_server import Server
from spies_replay.store.records import Append

__all__ = ["UNREACHABLE", "malformed", "reason", "seat_taken", "store_error"]

UNREACHABLE: Final = "the server cannot be reached (lost; retrying)"
"""The reason given while the server does not answer."""

_SQLSTATE_REASONS: Final[dict[str, str]] = {
    "28P01": "the password was refused",
    "28000": "the login was refused (check the user name and the server's pg_hba.conf)",
    "3D000": "the database does not exist (create it first)",
    "42501": "permission denied",
    "53300": "the server has too many connections",
    "57P03": "the server is starting up or shutting down",
}


def store_error(
    server: Server,
    exc: BaseException,
    *,
    batch: Append | None = None,
    answers: Callable[[], bool] | None = None,
) -> BaseException | None:
    """The store's error for a driver's error met talking to ``server``, or ``None`` for
    anything else (let it through). A connection lost, or none to be had from a server that
    does not answer, marks the server down (:attr:`Server.down`).

    - while appending ``batch``: a taken seq (a writer that ignored the row lock) is
      :class:`VersionConflictError`; a seat whose token is held,
      :class:`SeatTakenError`; rows that do not follow the version, ``ValueError``;
    - no connection from the pool in time: :class:`StoreUnavailableError` when the server
      is down or ``answers()`` says it does not answer, else
      :class:`StoreBusyError` (a pool exhausted by a live server);
    - a lock not had in time, a deadlock or a serialization failure:
      :class:`StoreBusyError` (retry);
    - a connection lost or refused: :class:`StoreClosedError` after
      :meth:`~spies_replay.store.postgres.PostgresEventStore.close`, else
      :class:`StoreUnavailableError` with :func:`reason`.
    """
    state = getattr(exc, "sqlstate", None)
    location = server.location
    if batch is not None:
        if isinstance(exc, pg_errors.UniqueViolation):
            return VersionConflictError(batch.game_id, batch.version, batch.version + 1)
        if state == SEAT_TAKEN:
            return seat_taken(batch)
        if state == MALFORMED:
            return malformed(batch)
    if isinstance(exc, PoolTimeout):
        if server.down or (answers is not None and not answers()):
            server.down = True
            return StoreUnavailableError(location, UNREACHABLE)
        return StoreBusyError(location)
    if isinstance(exc, pg_errors.LockNotAvailable | pg_errors.TransactionRollback):
        return StoreBusyError(location)
    if isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError):
        if server.closed:
            return StoreClosedError(location)
        server.down = True
        return StoreUnavailableError(location, reason(exc))
    return None


def seat_taken(batch: Append) -> SeatTakenError:
    """The refusal of a batch whose seat has a token already."""
    seat = "?" if batch.seat is None else batch.seat.seat
    return SeatTakenError(f"seat {seat} of game {batch.game_id!r} is taken")


def malformed(batch: Append) -> ValueError:
    """The refusal of a batch whose rows do not follow its version (a caller's bug)."""
    return ValueError(
        f"the rows of a batch of game {batch.game_id!r} must follow version"
        f" {batch.version} one by one"
    )


def reason(exc: psycopg.Error) -> str:
    """A one-line reason for a failed connection: from its SQLSTATE when it has one, its
    class for a timeout, else the driver's own message (one line; it never holds the
    password)."""
    state = getattr(exc, "sqlstate", None)
    if state in _SQLSTATE_REASONS:
        return _SQLSTATE_REASONS[state]
    if isinstance(exc, pg_errors.ConnectionTimeout):
        return "the server did not answer in time"
    said = " ".join(str(exc).split())
    return f"the server cannot be reached or refused the connection ({said})"
