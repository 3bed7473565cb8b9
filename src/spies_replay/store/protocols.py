"""What the layers above need of a store: small protocols, one per role.

As the eventsourcing library splits its recorders (aggregates, applications, processes),
a store here is several narrow roles, and each caller asks for the role it uses, so that
what a piece of code may do to the log is written in its signature:

- :class:`EventLog`: a game's log: create it, append to it, read it back.
- :class:`GameIndex`: the games' records: look one up, list them, find the links between
  them.
- :class:`SeatLedger`: who holds each seat, and the hashes of the seat tokens.
- :class:`SecretKeeper`: the seeds and explicit deals, kept apart from the log.
- :class:`ReplyLedger`: the answers stored under idempotency keys.
- :class:`SnapshotCache`: folded states kept so that loading a game folds few events.
- :class:`EventStore`: all of them, and the store's life cycle: what
  :func:`~spies_replay.store.backends.open_store` returns.

Every backend implements them all with one class (:class:`~spies_replay.store.sql.SqlEventStore`
and its subclasses), and every method is described there. None of them calls back into its
caller: the store checks the version, the finished game and the idempotency key, and writes
what it is given.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from spies_core.decider import AnySpec
from spies_replay.codec import GameCodec
from spies_replay.meta import SeatState
from spies_replay.store import records

__all__ = [
    "EventLog",
    "EventStore",
    "GameIndex",
    "ReplyLedger",
    "SeatLedger",
    "SecretKeeper",
    "SnapshotCache",
]


class EventLog(Protocol):
    """A game's append-only, hash-chained log."""

    def insert_game(self, game: records.NewGame) -> None: ...
    def append(self, batch: records.Append) -> None: ...
    def read_rows(
        self, game_id: str, *, after: int = 0, upto: int | None = None
    ) -> list[records.EventRow]: ...
    def read_events(
        self, game_id: str, *, after: int = 0, limit: int | None = None
    ) -> list[records.StoredEvent]: ...
    def last_event(
        self, game_id: str, types: Sequence[str], *, upto: int | None = None
    ) -> records.StoredEvent | None: ...
    def last_commands(self, game_id: str) -> dict[int, int]: ...
    def read_game_payloads(
        self, game_id: str, *, after: int, upto: int
    ) -> list[tuple[int, str]]: ...
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
    """The answers stored under idempotency keys, each written with its append."""

    def get_idempotency(self, game_id: str, key: str) -> records.IdempotencyRecord | None: ...
    def idempotency_records(self, game_id: str) -> list[records.IdempotencyRecord]: ...


class SnapshotCache(Protocol):
    """Folded states of games: a cache, so writing one may fail without harm."""

    snapshot_every: int

    def latest_snapshot(self, game_id: str, at: int) -> tuple[int, str] | None: ...
    def snapshots(self, game_id: str) -> list[tuple[int, str]]: ...
    def save_snapshots(self, game_id: str, snapshots: Sequence[tuple[int, object]]) -> None: ...
    def drop_snapshots(self, game_id: str) -> None: ...


class EventStore(
    EventLog, GameIndex, SeatLedger, SecretKeeper, ReplyLedger, SnapshotCache, Protocol
):
    """Every role, and the store's life cycle: what ``open_store`` returns."""

    location: str
    """Where the store is: a file path, or a URL without its password."""
    games: Mapping[str, AnySpec]

    def spec(self, game: str) -> AnySpec: ...
    def codec(self, game: str) -> GameCodec: ...
    def reading(self) -> AbstractContextManager[Any]: ...
    def watch(self, on_append: Callable[[str], None]) -> Callable[[], None]: ...
    def pending_migrations(self) -> list[str]: ...
    def close(self) -> None: ...
    def __enter__(self) -> EventStore: ...
    def __exit__(self, *exc: object) -> None: ...
