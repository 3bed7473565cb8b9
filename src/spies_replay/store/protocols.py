"""What the layers above need of a store: small protocols, one per role.

As the eventsourcing library splits its recorders (aggregates, applications, processes),
a store here is several narrow roles, and each caller asks for the role it uses, so that
what a piece of code may do to the log is written in its signature:

- :class:`EventLog`: a game's log: create it, append to it, read its rows back.
- :class:`GameIndex`: the games' records: look one up, list them, find the links between
  them, the index of due work.
- :class:`SeatLedger`: who holds each seat, and the hashes of the seat tokens.
- :class:`SecretKeeper`: the seeds and explicit deals, kept apart from the log.
- :class:`ReplyLedger`: the results kept under idempotency keys.
- :class:`SnapshotCache`: folded states kept so that loading a game folds few events, and
  the compact heads kept so that it folds none.
- :class:`Recorder`: appends awaited on an event loop (what the API writes through), and
  :class:`LoopReads`: a cache miss's reads awaited there.
- :class:`EventStore`: all of them, and the store's life cycle: what
  :func:`~spies_replay.store.backends.open_store` returns.

The store is the one authority on three rules, decided once per backend inside the
append's transaction: the game's version and head hash (else
:class:`~spies_replay.errors.VersionConflictError` with the current version), a finished
game (:class:`~spies_replay.errors.GameFinishedError`) and an idempotency key used before
(:class:`~spies_replay.errors.IdempotencyKeyExistsError` with the kept record). Nothing
else is decided in it: it keeps bytes, sequence numbers, hashes and the indexes its
callers give it (a row's type, ``due_at``, a seat's holder), knows no game and matches no
event type of its own, and none of its methods calls back into its caller.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from spies_replay.meta import SeatState
from spies_replay.store import records

__all__ = [
    "EventLog",
    "EventStore",
    "GameIndex",
    "LoopReads",
    "LoopWatch",
    "Recorder",
    "ReplyLedger",
    "SeatLedger",
    "SecretKeeper",
    "SnapshotCache",
]


class EventLog(Protocol):
    """A game's append-only, hash-chained log, as rows."""

    def insert_game(self, game: records.NewGame) -> None: ...
    def append(self, batch: records.Append) -> None: ...
    def read_rows(
        self,
        game_id: str,
        *,
        after: int = 0,
        upto: int | None = None,
        limit: int | None = None,
    ) -> list[records.EventRow]: ...
    def read_payloads(
        self, game_id: str, *, after: int, upto: int, skip: Collection[str] = ()
    ) -> list[tuple[int, str]]: ...
    def last_row(
        self, game_id: str, types: Sequence[str], *, upto: int | None = None
    ) -> records.EventRow | None: ...
    def last_commands(self, game_id: str) -> dict[int, int]: ...
    def read_game(
        self, game_id: str
    ) -> tuple[records.GameRecord, list[records.EventRow], records.GameSecrets | None]: ...


class GameIndex(Protocol):
    """The games' records and the links between them."""

    def get_game(self, game_id: str) -> records.GameRecord: ...
    def game_ids(self) -> list[str]: ...
    def list_games(
        self,
        *,
        game: str | None = None,
        status: records.GameStatus | str | None = None,
        limit: int = 50,
        offset: int = 0,
        open_seats: bool | None = None,
        before: str | None = None,
    ) -> records.GamePage: ...
    def rematch_links(self, game_id: str) -> tuple[str | None, str | None]: ...
    def due_games(self, *, limit: int = 1000) -> list[tuple[str, str]]: ...
    def due_at(self, game_id: str) -> str | None: ...
    def set_due(self, game_id: str, version: int, due_at: str | None) -> bool: ...
    def orphan_game_ids(self) -> list[str]: ...


class SeatLedger(Protocol):
    """Each seat's holder, and the sha256 of each seat token held (never a token)."""

    def seat_states(self, game_id: str, players: int | None = None) -> list[SeatState]: ...
    def seat_states_of(self, game_ids: Sequence[str]) -> dict[str, list[SeatState]]: ...
    def check_token(self, game_id: str, token: str) -> int | None: ...
    def find_token(self, token: str) -> tuple[str, int] | None: ...
    def token_hashes(self, game_id: str) -> dict[int, str]: ...


class SecretKeeper(Protocol):
    """The seeds and explicit deals, apart from the log until the final event."""

    def secrets(self, game_id: str) -> records.GameSecrets | None: ...


class ReplyLedger(Protocol):
    """The results kept under idempotency keys, each written with its append."""

    def get_idempotency(self, game_id: str, key: str) -> records.IdempotencyRecord | None: ...
    def idempotency_records(self, game_id: str) -> list[records.IdempotencyRecord]: ...


class SnapshotCache(Protocol):
    """Folded states of games, and each game's compact head read with its row: caches, so
    writing one may fail without harm."""

    snapshot_every: int

    def latest_snapshot(self, game_id: str, at: int) -> tuple[int, str] | None: ...
    def snapshots(self, game_id: str) -> list[tuple[int, str]]: ...
    def save_snapshots(self, game_id: str, snapshots: Sequence[tuple[int, object]]) -> None: ...
    def drop_snapshots(self, game_id: str) -> None: ...
    def head_row(self, game_id: str) -> records.HeadRow: ...
    def kept_heads(self, limit: int, after: tuple[str, str] | None = None) -> records.KeptHeads: ...
    def save_head(self, game_id: str, version: int, head: str) -> None: ...


class Recorder(Protocol):
    """Appends awaited on an event loop: the one way the API writes a batch.

    Which backend, which connection, a worker thread or not: the store that handed it out
    (:meth:`EventStore.recorder`) decides; the rules and errors are those of
    :meth:`EventLog.append`.
    """

    async def append(self, batch: records.Append) -> None: ...
    async def close(self) -> None: ...


class LoopReads(Protocol):
    """A cache miss's reads awaited on an event loop, where the backend's reads are round
    trips a worker thread would wait for (PostgreSQL): the same answers and errors as the
    store's blocking reads of the same names."""

    async def head_row(self, game_id: str) -> records.HeadRow: ...
    async def check_token(self, game_id: str, token: str) -> int | None: ...
    async def seat_and_head(self, game_id: str, token: str) -> tuple[int | None, records.HeadRow]:
        """``check_token`` and ``head_row`` of one game in one round trip (a command on a
        game the process does not hold)."""
        ...


class LoopWatch(Protocol):
    """The store's watch (:meth:`EventStore.watch`) read on an event loop instead of a
    thread: what :meth:`EventStore.loop_watch` gives."""

    ready: asyncio.Event
    """Set once the first attempt to listen since :meth:`start` has ended (listening, or
    failed and retrying): what must not start before another process's append can be
    heard waits on it."""

    def start(self) -> asyncio.Task[None]:
        """Listen on the running loop until the task this returns is cancelled
        (reconnecting after failures); :attr:`ready` is a new event each time."""
        ...


class EventStore(
    EventLog, GameIndex, SeatLedger, SecretKeeper, ReplyLedger, SnapshotCache, Protocol
):
    """Every role, and the store's life cycle: what ``open_store`` returns."""

    location: str
    """Where the store is: a file path, or a URL without its password."""
    backend: records.BackendName
    """The kind of database: ``sqlite`` or ``postgresql``."""

    def reading(self) -> AbstractContextManager[Any]: ...
    def recorder(self, *, on_loop: bool = True) -> Recorder: ...
    def loop_reader(self) -> EventStore | None:
        """The same log read from the event loop itself, by a store whose reads never wait
        (SQLite: a twin with no busy timeout; a read in WAL mode does not wait for writers,
        and the rare one that would raises ``StoreBusyError`` at once), or ``None``: this
        backend reads on worker threads."""
        ...

    def loop_reads(self, recorder: Recorder) -> LoopReads | None:
        """A cache miss's reads awaited on the loop over ``recorder``'s connections (one
        :meth:`recorder` gave), or ``None``: this backend reads on the loop from
        :meth:`loop_reader`, or on worker threads."""
        ...

    def watch(
        self, on_append: records.Heard, on_gap: records.Unheard | None = None
    ) -> Callable[[], None]: ...
    def loop_watch(
        self, on_append: records.Heard, on_gap: records.Unheard | None = None
    ) -> LoopWatch | None:
        """:meth:`watch` read on the event loop that runs the answer's ``start`` (no thread
        woken for each append), or ``None``: this backend watches from a thread alone."""
        ...

    def pending_migrations(self) -> list[str]: ...
    def close(self) -> None: ...
    def __enter__(self) -> EventStore: ...
    def __exit__(self, *exc: object) -> None: ...
