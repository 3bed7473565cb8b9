"""The errors the API layer itself raises: bad requests, authentication, seats, streams.

The one table from these and every other exception to a problem document is
:mod:`spies_api.problems.table`.
"""

from __future__ import annotations

from spies_core.errors import GameOverError, RuleError, SpiesError

__all__ = [
    "ApiError",
    "CommitmentExpiredError",
    "CommitmentUsedError",
    "InvalidEntropyError",
    "TooManyCommitmentsError",
    "UnknownCommitmentError",
    "ForbiddenError",
    "IdempotencyKeyReusedError",
    "InvalidClockError",
    "InvalidNameError",
    "InvalidParameterError",
    "InvalidSeatsError",
    "MalformedBodyError",
    "NotReadyError",
    "RematchTooEarlyError",
    "ReplaySeatHiddenError",
    "RetryLaterError",
    "SeatsClosedError",
    "ServerBotGamesFullError",
    "TakeBackTooEarlyError",
    "TooManyBotGamesError",
    "TooManyClientStreamsError",
    "TooManyGamesError",
    "TooManyPlayersError",
    "TooManyStreamsError",
    "UnauthorizedError",
    "WrongGameCommandError",
]


class ApiError(SpiesError):
    """Base of the errors the HTTP layer itself raises (bad requests, authentication)."""

    default_code = "bad-request"


class MalformedBodyError(ApiError):
    """The body is not JSON, has a wrong type or an unknown field (400)."""

    default_code = "malformed-body"


class InvalidParameterError(ApiError):
    """A header or query parameter that cannot be used (400)."""

    default_code = "invalid-parameter"


class UnauthorizedError(ApiError):
    """No usable bearer token where one is needed, or a token of no seat at all (401)."""

    default_code = "unauthorized"


class ForbiddenError(ApiError):
    """A valid seat token, but of another game (403)."""

    default_code = "forbidden"


class IdempotencyKeyReusedError(ApiError):
    """An ``Idempotency-Key`` sent again with another body or by another seat (422)."""

    default_code = "idempotency-key-reused"


class ReplaySeatHiddenError(ApiError):
    """A replay ``as`` a seat of a game in progress, without that seat's token (403)."""

    default_code = "replay-seat-hidden"


class WrongGameCommandError(RuleError):
    """A well-formed command of another registered game (422)."""

    default_code = "wrong-game-command"


class RetryLaterError(ApiError):
    """Base of the refusals a client may try again later (with ``Retry-After``).

    Attributes:
        retry_after: seconds after which asking again may succeed.
    """

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class TooManyStreamsError(RetryLaterError):
    """The game already has as many open event streams as the server allows, or the server
    as many as it holds (503)."""

    default_code = "too-many-streams"


class TooManyClientStreamsError(TooManyStreamsError):
    """The client (by address) already has as many open event streams as the server allows
    one client (429)."""

    default_code = "too-many-client-streams"


class TooManyBotGamesError(RetryLaterError):
    """The client already has as many active bot games (with a bot seat, or a clock whose
    timeouts a bot plays) as the server allows (429)."""

    default_code = "too-many-bot-games"


class TooManyGamesError(RetryLaterError):
    """The client already has as many active games it created as the server allows (429);
    one of them may have filled, ended or gone idle after ``retry_after`` seconds."""

    default_code = "too-many-games"


class TooManyPlayersError(RetryLaterError):
    """The client (by address) created as many players as the server allows it in a while
    (429); its bucket refills after ``retry_after`` seconds."""

    default_code = "too-many-players"


class ServerBotGamesFullError(TooManyBotGamesError):
    """The server already runs as many active games with bot seats as it allows, all
    clients together (429)."""

    default_code = "server-bot-games-full"


class InvalidSeatsError(ApiError):
    """A create request's ``seats`` that is not one entry per seat (422)."""

    default_code = "invalid-seats"


class UnknownCommitmentError(ApiError):
    """A ``commitment_id`` this server never gave (422)."""

    default_code = "unknown-commitment"


class CommitmentUsedError(ApiError):
    """A ``commitment_id`` a game already used: each commitment deals one game (409)."""

    default_code = "commitment-used"


class CommitmentExpiredError(ApiError):
    """A ``commitment_id`` past its ``expires_at`` (409)."""

    default_code = "commitment-expired"


class InvalidEntropyError(ApiError):
    """``entropy`` that is not 16 to 64 bytes of hex, or ``entropy`` and ``commitment_id``
    not given together at creation (422)."""

    default_code = "invalid-entropy"


class TooManyCommitmentsError(RetryLaterError):
    """The client, or the server in all, already holds as many unused commitments as
    allowed (429)."""

    default_code = "too-many-commitments"


class UnfairDealError(InvalidSeatsError):
    """A client ``seed`` or ``options.deal`` in a game with an open seat (422): the creator
    would know what a joiner is dealt."""

    default_code = "fixed-deal-with-open-seat"


class InvalidClockError(ApiError):
    """A ``clock`` that is not a time control the game can run (422)."""

    default_code = "invalid-clock"


class InvalidNameError(ApiError):
    """A display name that is not 1 to 40 printable characters (422)."""

    default_code = "invalid-name"


class RematchTooEarlyError(ApiError):
    """A rematch of a game in progress (409 ``game-not-finished``)."""

    default_code = "game-not-finished"


class SeatsClosedError(GameOverError, ApiError):
    """A seat change (a join, a hand-over, a take-back) in a finished game (422
    ``game-over``).

    A :class:`~spies_core.errors.GameOverError`, so it answers what a command in a finished
    game answers: one code, one status.
    """

    default_code = "game-over"


class TakeBackTooEarlyError(ApiError):
    """Taking a seat back from its bot before the seat has moved since its hand-over (409
    ``handed-seat-not-moved``): every hand-over is paid for by a move, so handing a seat over
    and back never holds a game up."""

    default_code = "handed-seat-not-moved"


class NotReadyError(ApiError):
    """``GET /readyz``: this process should not be sent traffic now (503).

    Attributes:
        reason: why, one of :data:`NOT_READY_REASONS`.
    """

    default_code = "not-ready"

    def __init__(self, message: str, *, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


NOT_READY_REASONS = ("draining", "store-unavailable", "database-busy", "migrations-pending")
"""The ``reason`` of a ``not-ready`` answer: shutting down, the database gone, another
process holding it, or a schema older than this code (another process migrates it)."""
