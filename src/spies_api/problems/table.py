"""The one table from exceptions to RFC 9457 problem details.

Every error response is ``application/problem+json``::

    {"type": "urn:spies:problem:not-your-turn", "title": "Command refused by the rules",
     "status": 422, "detail": "seat 1 may not act now ...", "code": "not-your-turn"}

``code`` is stable and is what clients branch on; ``detail`` is for people and says what to
send instead (:mod:`spies_api.problems.hints`); every code is listed in
:mod:`spies_api.problems.codes`. A few problems carry more fields: ``current_version`` (409
``version-conflict``) and ``errors`` (400 with the offending parameters). The table below is
the only place where an exception becomes a status code; the core and the replay log know
nothing about HTTP. A database that another process keeps locked beyond the busy timeout is
503 ``database-busy`` (with ``Retry-After``); a database that went away (a server killed or
restarting, a connection lost, a disk error) is 503 ``store-unavailable`` and a disk that is
full 507 ``storage-full``, both with ``Retry-After`` and nothing written (each logged as a
warning). Anything else is a bug: it is logged with its traceback and answered with 500
``internal-error``, never with the exception's text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import structlog
from litestar.exceptions import HTTPException, ValidationException
from litestar.plugins.problem_details import ProblemDetailsException

from spies_api.problems.errors import (
    CommitmentExpiredError,
    CommitmentUsedError,
    ForbiddenError,
    IdempotencyKeyReusedError,
    InvalidClockError,
    InvalidEntropyError,
    InvalidNameError,
    InvalidParameterError,
    InvalidSeatsError,
    MalformedBodyError,
    NotReadyError,
    RematchTooEarlyError,
    ReplaySeatHiddenError,
    RetryLaterError,
    ServerBotGamesFullError,
    TakeBackTooEarlyError,
    TooManyBotGamesError,
    TooManyClientStreamsError,
    TooManyCommitmentsError,
    TooManyGamesError,
    TooManyPlayersError,
    TooManyStreamsError,
    UnauthorizedError,
    UnknownCommitmentError,
)
from spies_api.problems.hints import EMPTY_BODY, NO_METHOD, NO_PATH, explain_parameters
from spies_bots import UnknownBotError
from spies_core.errors import (
    GameOverError,
    InvalidOptionsError,
    RuleError,
    SpiesError,
    UnknownGameError,
)
from spies_replay.errors import (
    DeadlinePassedError,
    EntropyNotAcceptedError,
    GameNotFinishedError,
    GameNotFoundError,
    NoOpenSeatError,
    SeatNotFoundError,
    SeatNotHeldError,
    SeatTakenError,
    SeqOutOfRangeError,
    StoreBusyError,
    StoreFullError,
    StoreUnavailableError,
    VersionConflictError,
)

__all__ = [
    "PROBLEM_MEDIA_TYPE",
    "STORE_FULL_RETRY_AFTER_SECONDS",
    "STORE_RETRY_AFTER_SECONDS",
    "problem_document",
    "problem_for",
    "to_problem",
]

PROBLEM_MEDIA_TYPE: Final = "application/problem+json"
PROBLEM_TYPE_PREFIX: Final = "urn:spies:problem:"

STORE_RETRY_AFTER_SECONDS: Final = 2
"""The ``Retry-After`` of 503 ``store-unavailable``: about the store's reconnect interval."""
STORE_FULL_RETRY_AFTER_SECONDS: Final = 30
"""The ``Retry-After`` of 507 ``storage-full``: freeing space takes an operator."""

_log = structlog.get_logger("spies_api")


@dataclass(frozen=True, slots=True)
class _Rule:
    status: int
    title: str


# The table: the most specific class in an exception's MRO wins.
_TABLE: Final[dict[type[BaseException], _Rule]] = {
    MalformedBodyError: _Rule(400, "Malformed request body"),
    InvalidParameterError: _Rule(400, "Invalid parameter"),
    UnauthorizedError: _Rule(401, "Unauthorized"),
    ForbiddenError: _Rule(403, "Forbidden"),
    ReplaySeatHiddenError: _Rule(403, "Seat's view hidden"),
    GameNotFoundError: _Rule(404, "Game not found"),
    SeqOutOfRangeError: _Rule(404, "No such step"),
    VersionConflictError: _Rule(409, "Version conflict"),
    DeadlinePassedError: _Rule(409, "Deadline passed"),
    GameNotFinishedError: _Rule(409, "Game not finished"),
    RuleError: _Rule(422, "Command refused by the rules"),
    GameOverError: _Rule(422, "Game over"),  # a command or a seat change: one title
    InvalidOptionsError: _Rule(422, "Invalid game options"),
    UnknownGameError: _Rule(422, "Unknown game"),
    IdempotencyKeyReusedError: _Rule(422, "Idempotency key reused"),
    TooManyStreamsError: _Rule(503, "Too many event streams"),
    TooManyClientStreamsError: _Rule(429, "Too many event streams from this client"),
    TooManyBotGamesError: _Rule(429, "Too many games with bots"),
    ServerBotGamesFullError: _Rule(429, "Too many games with bots on the server"),
    TooManyGamesError: _Rule(429, "Too many games"),
    TooManyPlayersError: _Rule(429, "Too many players"),
    NotReadyError: _Rule(503, "Not ready"),
    SeatNotFoundError: _Rule(404, "No such seat"),
    SeatTakenError: _Rule(409, "Seat taken"),
    NoOpenSeatError: _Rule(409, "No open seat"),
    SeatNotHeldError: _Rule(409, "Seat not handed to a bot"),
    RematchTooEarlyError: _Rule(409, "Game not finished"),
    TakeBackTooEarlyError: _Rule(409, "Handed seat not moved"),
    InvalidSeatsError: _Rule(422, "Invalid seats"),
    InvalidClockError: _Rule(422, "Invalid clock"),
    InvalidNameError: _Rule(422, "Invalid name"),
    UnknownBotError: _Rule(422, "Unknown bot"),
    UnknownCommitmentError: _Rule(422, "Unknown commitment"),
    CommitmentUsedError: _Rule(409, "Commitment used"),
    CommitmentExpiredError: _Rule(409, "Commitment expired"),
    InvalidEntropyError: _Rule(422, "Invalid entropy"),
    EntropyNotAcceptedError: _Rule(422, "Entropy not accepted"),
    TooManyCommitmentsError: _Rule(429, "Too many commitments"),
}

_HTTP_CODES: Final[dict[int, tuple[str, str]]] = {
    400: ("bad-request", "Bad request"),
    401: ("unauthorized", "Unauthorized"),
    403: ("forbidden", "Forbidden"),
    404: ("not-found", "Not found"),
    405: ("method-not-allowed", "Method not allowed"),
    406: ("not-acceptable", "Not acceptable"),
    413: ("body-too-large", "Request body too large"),
    414: ("uri-too-long", "Request line too long"),
    415: ("unsupported-media-type", "Unsupported media type"),
    429: ("too-many-requests", "Too many requests"),
    431: ("headers-too-large", "Request headers too large"),
    500: ("internal-error", "Internal server error"),
    503: ("unavailable", "Service unavailable"),
}


def _rule_for(exc: BaseException) -> _Rule | None:
    for cls in type(exc).__mro__:
        rule = _TABLE.get(cls)
        if rule is not None:
            return rule
    return None


def problem_for(exc: BaseException) -> tuple[int, dict[str, Any], dict[str, str]]:
    """The status, the problem document and the extra headers for an exception.

    Returns:
        ``(status, problem, headers)`` where ``problem`` has ``type``, ``title``, ``status``,
        ``detail``, ``code`` and any extra fields.
    """
    headers: dict[str, str] = {}
    extra: dict[str, Any] = {}
    if isinstance(exc, SpiesError) and (rule := _rule_for(exc)) is not None:
        status, title, code, detail = rule.status, rule.title, exc.code, exc.message
        _add_fields(exc, extra, headers)
    elif isinstance(exc, StoreUnavailableError):
        # The database went away (a server killed or restarting, a disk error): nothing was
        # written by this request; the store reconnects by itself.
        status, title, code = 503, "Database unavailable", "store-unavailable"
        detail = "the database cannot be reached for now; retry after the Retry-After seconds"
        headers["Retry-After"] = str(STORE_RETRY_AFTER_SECONDS)
    elif isinstance(exc, StoreFullError):
        status, title, code = 507, "Database full", "storage-full"
        detail = (
            "the database is out of space: nothing of this request was written; reads still"
            " work, writes again once the operator frees space"
        )
        headers["Retry-After"] = str(STORE_FULL_RETRY_AFTER_SECONDS)
    elif isinstance(exc, StoreBusyError):
        # Another process held the database's write lock for longer than the busy timeout.
        status, title, code = 503, "Database busy", "database-busy"
        detail = "the database is busy with another writer; retry shortly"
        headers["Retry-After"] = "1"
    elif isinstance(exc, HTTPException) and exc.status_code < 500:
        status = exc.status_code
        code, title = _HTTP_CODES.get(status, (f"http-{status}", "Client error"))
        detail = exc.detail or title
        headers.update(exc.headers or {})
        if status == 429:  # Litestar's rate limit sends RateLimit-Reset; clients also know this
            reset = headers.get("RateLimit-Reset", "1")
            headers["Retry-After"] = str(max(1, int(reset))) if reset.isdigit() else "1"
            detail = "too many requests from this client; retry after the Retry-After seconds"
        if isinstance(exc, ValidationException):
            errors = exc.extra if isinstance(exc.extra, list) else []
            from_body = any(
                isinstance(error, dict) and error.get("source") == "body" for error in errors
            )
            code = "malformed-body" if from_body else "invalid-parameter"
            title = "Malformed request body" if from_body else "Invalid parameter"
            if from_body:  # a bad body is a MalformedBodyError: this one is missing
                detail = EMPTY_BODY
            else:
                detail = explain_parameters(errors) or detail
                extra["errors"] = errors
        elif status in (404, 405):
            detail = NO_PATH if status == 404 else NO_METHOD
    else:
        status = 500
        code, title = _HTTP_CODES[500]
        detail = "the server met an unexpected condition; it has been logged"
        _log.error(
            "request_failed",
            error_type=type(exc).__name__,
            error_code=getattr(exc, "code", None),
            exc_info=exc,
        )
    return status, problem_document(status, code, title, detail, extra), headers


def _add_fields(exc: SpiesError, extra: dict[str, Any], headers: dict[str, str]) -> None:
    """The fields and headers some problems carry besides the usual ones."""
    if isinstance(exc, VersionConflictError):
        extra["current_version"] = exc.current_version
        extra["expected_version"] = exc.expected_version
    if isinstance(exc, DeadlinePassedError):
        extra["current_version"] = exc.current_version
    if isinstance(exc, UnauthorizedError):
        headers["WWW-Authenticate"] = 'Bearer realm="spies"'
    if isinstance(exc, RetryLaterError):
        headers["Retry-After"] = str(exc.retry_after)
    if isinstance(exc, NotReadyError):
        extra["reason"] = exc.reason
        headers["Retry-After"] = str(STORE_RETRY_AFTER_SECONDS)


def problem_document(
    status: int, code: str, title: str, detail: str, extra: dict[str, Any] | None = None
) -> dict[str, Any]:
    """An RFC 9457 problem document: ``type`` (from ``code``), ``title``, ``status``,
    ``detail``, ``code`` and the ``extra`` fields."""
    return {
        "type": PROBLEM_TYPE_PREFIX + code,
        "title": title,
        "status": status,
        "detail": detail,
        "code": code,
        **(extra or {}),
    }


def to_problem(exc: Exception) -> ProblemDetailsException:
    """Convert any exception into Litestar's :class:`ProblemDetailsException`.

    Registered for ``Exception`` with Litestar's ``ProblemDetailsPlugin``, so every error the
    app raises, its own and the framework's, leaves as problem details.
    """
    status, problem, headers = problem_for(exc)
    if isinstance(exc, StoreUnavailableError | StoreFullError):
        _log.warning("store_failed", error_code=problem["code"], reason=exc.message)
    extra = {key: value for key, value in problem.items() if key not in {"type", "title", "detail"}}
    extra.pop("status")
    return ProblemDetailsException(
        status_code=status,
        type_=problem["type"],
        title=problem["title"],
        detail=problem["detail"],
        extra=extra,
        headers=headers or None,
    )
