"""The errors of the replay log, each a :class:`spies_core.errors.SpiesError` with a stable code.

- :class:`GameNotFoundError` ``game-not-found``: no game with that id in the store.
- :class:`GameExistsError` ``game-exists``: creating or importing an id already stored.
- :class:`VersionConflictError` ``version-conflict``: another writer appended first
  (optimistic concurrency); carries the current version.
- :class:`IdempotencyKeyExistsError` ``idempotency-key-exists``: the key was already used
  for this game; the stored record is attached.
- :class:`GameFinishedError` ``game-over``: appending to a game whose seed was revealed.
- :class:`SeqOutOfRangeError` ``seq-out-of-range``: a state or view asked for at a seq the
  game never had.
- :class:`GameNotFinishedError` ``game-not-finished``: export of a game in progress (its
  seed and hidden cards are secret).
- :class:`InvalidExportError` ``invalid-export``: an import file that is not a
  spies-replay export (``unknown-field``: a line with a field the format does not have).
- :class:`TamperedLogError` ``tampered-log``: a log that fails verification (names the first
  bad seq and the problem code).
- :class:`StoreUnavailableError` ``store-unavailable``: a database location that cannot be
  opened (no such directory, a directory, not a database, unreadable, an unreachable server,
  a refused login), or a server lost while running (its connection dropped, no connection to
  be had); one line, no driver text.
- :class:`StoreFullError` ``storage-full``: the database's disk (or its size limit) is full;
  the write was rolled back whole, nothing of it is stored.
- :class:`StoreBusyError` ``database-busy``: another writer held the database longer than the
  store waits; nothing was written, retry.
- :class:`StoreClosedError` ``store-closed``: a store used after its
  :meth:`~spies_replay.store.protocols.EventStore.close`.
- :class:`SeatNotFoundError` ``seat-not-found``, :class:`SeatTakenError` ``seat-taken``,
  :class:`NoOpenSeatError` ``no-open-seat``, :class:`SeatNotHeldError` ``seat-not-handed``:
  seat changes that do not fit the seats as the store's transaction found them.
- :class:`RematchExistsError` ``rematch-exists``: a finished game already has its rematch.
- :class:`ReplayError` with ``code="invalid-seat"``, ``"seed-missing"`` or
  ``"schema-too-new"`` for the rarer cases.

Which failures pass is decided here, once: an error class whose ``transient`` is true
(``database-busy``, ``store-unavailable``, ``storage-full``) means that nothing was decided
against the call, and the same call, made again a little later, may succeed; every other
error is an answer. :func:`is_transient` reads that marker (on any exception: a caller's own
transient failures, such as a bot worker lost, carry it too), so no caller matches text.

The API maps ``game-not-found`` to 404, ``version-conflict`` to 409 (with
:attr:`VersionConflictError.current_version`) and ``game-over`` to 422 like the core's
:class:`spies_core.errors.GameOverError`, of which :class:`GameFinishedError` is a subclass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from spies_core.errors import GameOverError, SpiesError

if TYPE_CHECKING:  # records imports nothing of this package's stores: no cycle
    from spies_replay.store.records import IdempotencyRecord

__all__ = [
    "DeadlinePassedError",
    "EntropyNotAcceptedError",
    "GameExistsError",
    "GameFinishedError",
    "GameNotFinishedError",
    "GameNotFoundError",
    "IdempotencyKeyExistsError",
    "InvalidExportError",
    "NoOpenSeatError",
    "RematchExistsError",
    "ReplayError",
    "SeatNotFoundError",
    "SeatNotHeldError",
    "SeatTakenError",
    "SeqOutOfRangeError",
    "StoreBusyError",
    "StoreClosedError",
    "StoreFullError",
    "StoreUnavailableError",
    "TamperedLogError",
    "VersionConflictError",
    "is_transient",
]


class ReplayError(SpiesError):
    """Base class of the errors raised by the replay log itself."""

    default_code = "replay-error"
    transient: ClassVar[bool] = False
    """Whether the failure passes: the store could not do the call now (busy, unreachable,
    full) and decided nothing, so the same call, made again later, may succeed. An append
    made again is safe even when a lost connection hid its commit: its version check
    refuses a second copy."""


def is_transient(exc: BaseException) -> bool:
    """Whether ``exc`` is a failure that passes (its class says ``transient = True``): the
    work it stopped is to be done again later, not given up."""
    return getattr(exc, "transient", False) is True


class GameNotFoundError(ReplayError, LookupError):
    """No game with that id is stored.

    Attributes:
        game_id: the id that was asked for.
    """

    default_code = "game-not-found"

    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game with id {game_id!r} in this store")
        self.game_id = game_id


class GameExistsError(ReplayError):
    """A game with that id is already stored (explicit id at creation, or an import)."""

    default_code = "game-exists"

    def __init__(self, game_id: str) -> None:
        super().__init__(f"a game with id {game_id!r} is already stored")
        self.game_id = game_id


class VersionConflictError(ReplayError):
    """Another writer appended to the game first; reload and decide again.

    Attributes:
        game_id: the game.
        expected_version: the version the caller decided against.
        current_version: the game's version now.
    """

    default_code = "version-conflict"

    def __init__(self, game_id: str, expected_version: int, current_version: int) -> None:
        super().__init__(
            f"game {game_id!r} is at version {current_version}, not {expected_version}:"
            " another command was recorded first"
        )
        self.game_id = game_id
        self.expected_version = expected_version
        self.current_version = current_version


class IdempotencyKeyExistsError(ReplayError):
    """The idempotency key was already used for this game.

    The caller compares :attr:`record`'s ``request_fingerprint`` with its own and returns the
    stored ``response`` (same request) or refuses (a different request under the same key).

    Attributes:
        record: the stored :class:`spies_replay.store.records.IdempotencyRecord`.
    """

    default_code = "idempotency-key-exists"

    def __init__(self, record: IdempotencyRecord) -> None:
        super().__init__(
            f"idempotency key {record.key!r} was already used for game {record.game_id!r}"
        )
        self.record = record


class GameFinishedError(GameOverError, ReplayError):
    """An append to a game that has finished (its seed is revealed; the log is closed)."""

    default_code = "game-over"


class DeadlinePassedError(ReplayError):
    """A seat's move arrived at or after its clock's deadline: its timeout is due first.

    Attributes:
        game_id: the game.
        seat: the late seat.
        deadline: when its clock ran out, RFC 3339 UTC.
        current_version: the game's version when the move arrived.
    """

    default_code = "deadline-passed"

    def __init__(self, game_id: str, seat: int, deadline: str, current_version: int) -> None:
        super().__init__(
            f"seat {seat}'s clock in game {game_id!r} ran out at {deadline}: the move came too"
            f" late, and the seat's timeout is being recorded; see GET /games/{game_id} for the"
            " game after it"
        )
        self.game_id = game_id
        self.seat = seat
        self.deadline = deadline
        self.current_version = current_version


class SeqOutOfRangeError(ReplayError, ValueError):
    """A seq outside ``0 .. version`` of the game."""

    default_code = "seq-out-of-range"

    def __init__(self, game_id: str, seq: int, version: int) -> None:
        super().__init__(
            f"game {game_id!r} has steps 0 (before the first event) to {version};"
            f" there is no step {seq}"
        )
        self.game_id = game_id
        self.seq = seq
        self.version = version


class GameNotFinishedError(ReplayError):
    """Export of a game in progress, whose seed and hidden cards are still secret."""

    default_code = "game-not-finished"

    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id!r} is still in progress; only finished games are exported")
        self.game_id = game_id


class InvalidExportError(ReplayError, ValueError):
    """An import file that cannot be read as a spies-replay export.

    Attributes:
        line: the 1-based line of the file at fault, when known.
        seq: the ``seq`` of the event line at fault, when the line has one.
    """

    default_code = "invalid-export"

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        code: str | None = None,
        seq: int | None = None,
    ) -> None:
        super().__init__(message if line is None else f"line {line}: {message}", code=code)
        self.line = line
        self.seq = seq


class TamperedLogError(ReplayError):
    """A log that fails verification; nothing was written.

    Attributes:
        game_id: the game.
        seq: the first bad seq (``None`` when the problem is not tied to one event).
        reason: the problem code of :mod:`spies_replay.verify` (``hash-mismatch``, ...).
    """

    default_code = "tampered-log"

    def __init__(self, game_id: str, seq: int | None, reason: str, message: str) -> None:
        where = f"seq {seq}" if seq is not None else "the log"
        super().__init__(f"game {game_id!r} fails verification at {where}: {reason}: {message}")
        self.game_id = game_id
        self.seq = seq
        self.reason = reason


class SeatNotFoundError(ReplayError, LookupError):
    """The game has no seat of that number."""

    default_code = "seat-not-found"


class SeatTakenError(ReplayError):
    """The seat is not open (or no longer: another join got there first)."""

    default_code = "seat-taken"


class NoOpenSeatError(ReplayError):
    """The game has no open seat left."""

    default_code = "no-open-seat"


class EntropyNotAcceptedError(ReplayError):
    """Entropy where no mixed seed takes it: a join's to a game not created with a
    commitment (its seed is not ``mixed``), or a creator's with a client seed or a deal."""

    default_code = "entropy-not-accepted"


class SeatNotHeldError(ReplayError):
    """A seat change that does not fit its holder: taking back a seat no bot plays for it,
    or handing over a seat that is a bot's from the start."""

    default_code = "seat-not-handed"


class RematchExistsError(ReplayError):
    """The finished game already has a rematch (another caller created it first).

    Attributes:
        next_id: the id of that rematch.
    """

    default_code = "rematch-exists"

    def __init__(self, game_id: str, next_id: str) -> None:
        super().__init__(f"game {game_id!r} already has a rematch, {next_id!r}")
        self.next_id = next_id


class StoreUnavailableError(ReplayError):
    """A database location that cannot be opened as a store, or a server lost while running;
    the message is one line.

    Transient: a lost server comes back, and work stopped by it is done again then (a
    location that cannot be opened at all is met at start, where nothing retries).

    Attributes:
        location: the location as given (a file path, or a URL without its password).
    """

    default_code = "store-unavailable"
    transient = True

    def __init__(self, location: str, reason: str) -> None:
        super().__init__(f"cannot use the database {location}: {reason}")
        self.location = location


class StoreFullError(ReplayError):
    """A write refused because the database's disk, or its size limit, is full.

    The transaction was rolled back: nothing of the write is stored. Reads still work;
    writes work again once space is freed.

    Attributes:
        location: the store's location.
    """

    default_code = "storage-full"
    transient = True

    def __init__(self, location: str) -> None:
        super().__init__(
            f"the database {location} is out of space; nothing was written, retry once space"
            " is freed"
        )
        self.location = location


class StoreBusyError(ReplayError):
    """Another writer held the database longer than the store waits; nothing was written.

    Attributes:
        location: the store's location.
    """

    default_code = "database-busy"
    transient = True

    def __init__(self, location: str) -> None:
        super().__init__(f"the database {location} is busy with another writer; retry shortly")
        self.location = location


class StoreClosedError(ReplayError):
    """A store used after it was closed (a thread outliving the store's owner)."""

    default_code = "store-closed"

    def __init__(self, location: str) -> None:
        super().__init__(f"the store {location} is closed")
        self.location = location
