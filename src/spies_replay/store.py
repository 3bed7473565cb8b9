"""The append-only SQLite event store: one file, WAL mode, sqlite-utils.

:class:`EventStore` is the persistence half of the replay log; :mod:`spies_replay.engine`
puts the rules on top of it (create a game, submit a command, load a state). The store knows
games only through their :class:`~spies_core.decider.GameSpec` (to decode events, commands
and snapshots); it never names one.

Concurrency: the unique ``(game_id, seq)`` key is the optimistic-concurrency guard. Writers
take SQLite's write lock up front (``BEGIN IMMEDIATE``), compare ``games.version`` with the
caller's ``expected_version`` and raise :class:`~spies_replay.errors.VersionConflictError`
when another writer got there first. Every write of one command (its events, the game row,
an idempotency record, a snapshot) is one transaction. Each thread gets its own connection;
several processes can share the file (WAL, ``busy_timeout``).

Schema: :mod:`spies_replay.schema`. Hash chain: :mod:`spies_replay.codec`.
"""

from __future__ import annotations

import hashlib
import hmac
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, Final

import msgspec
import structlog
from sqlite_utils import Database

from spies_core.decider import GameSpec, Outcome
from spies_core.errors import UnknownGameError
from spies_core.registry import GAMES
from spies_replay.codec import (
    GameCodec,
    canonical_bytes,
    chain_hash,
    codec_for,
    encode,
    event_tag,
)
from spies_replay.errors import (
    GameExistsError,
    GameFinishedError,
    GameNotFoundError,
    IdempotencyKeyExistsError,
    RematchExistsError,
    ReplayError,
    SeatTakenError,
    VersionConflictError,
)
from spies_replay.meta import (
    META_TYPES,
    SeatEvent,
    SeatState,
    SeatType,
    SeedRevealed,
    SeedSource,
    apply_seat_event,
)
from spies_replay.schema import MIGRATION_NAMES, SCHEMA_VERSION, migrations

__all__ = [
    "EventRow",
    "EventStore",
    "GamePage",
    "GameRecord",
    "GameStatus",
    "IdempotencyRecord",
    "PendingIdempotency",
    "SeatChange",
    "SeatChoice",
    "StoredEvent",
    "hash_token",
    "seal",
    "utc_now",
]

AnySpec = GameSpec[Any, Any, Any, Any, Any]

_log = structlog.get_logger("spies_replay.store")
_decode_plain: Final = msgspec.json.Decoder().decode
_decode_outcome: Final = msgspec.json.Decoder(Outcome).decode

_GAME_COLUMNS: Final = (
    "id, game, players, options, status, version, head_hash, seed_commitment, seed_source,"
    " rng, outcome, created_at, updated_at"
)
_EVENT_COLUMNS: Final = "seq, type, payload, recorded_at, actor, command, hash, bot"
_META_SQL: Final = ", ".join(f"'{tag}'" for tag in sorted(META_TYPES))


class GameStatus(StrEnum):
    """Where a game stands."""

    ACTIVE = "active"
    """Commands are accepted; the seed is secret."""
    FINISHED = "finished"
    """``outcome(state)`` is set and the seed is revealed in the final event."""


class GameRecord(msgspec.Struct, frozen=True, kw_only=True):
    """A game's row: its public summary (the seed is never part of it)."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    status: GameStatus
    version: int
    """The seq of the last event (0 for none)."""
    head_hash: str
    """The hash of the last event: the whole log's fingerprint."""
    seed_commitment: str
    seed_source: SeedSource
    rng: str
    outcome: Outcome | None
    created_at: str
    updated_at: str


class EventRow(msgspec.Struct, frozen=True, kw_only=True):
    """One row of ``events`` as stored: the JSON texts undecoded (verify, export)."""

    seq: int
    type: str
    payload: str
    recorded_at: str
    actor: int | None
    command: str | None
    """The command that produced this row's batch, on the batch's first row only."""
    hash: str
    bot: str | None = None
    """The bot that chose that command, on the batch's first row only (``None``: a person)."""


class StoredEvent(msgspec.Struct, frozen=True, kw_only=True):
    """A decoded event with its place in the log."""

    seq: int
    type: str
    event: Any
    """A game event Struct, or a :class:`~spies_replay.meta.MetaEvent`."""
    actor: int | None
    recorded_at: str
    hash: str
    bot: str | None = None
    """The bot that chose the command of this batch (first row only), or ``None``."""


class GamePage(msgspec.Struct, frozen=True, kw_only=True):
    """One page of :meth:`EventStore.list_games`."""

    games: list[GameRecord]
    total: int
    """How many games match the filters, over all pages."""
    limit: int
    offset: int


class IdempotencyRecord(msgspec.Struct, frozen=True, kw_only=True):
    """A stored response to a command sent with an idempotency key."""

    game_id: str
    key: str
    request_fingerprint: str
    response: Any
    """The JSON value the caller stored (decoded)."""
    created_at: str


@dataclass(frozen=True, slots=True)
class PendingIdempotency:
    """An idempotency record to write in the same transaction as an append.

    Attributes:
        key: the client's key.
        fingerprint: the caller's digest of the request (to tell a retry from a reuse).
        response: called inside the transaction with the stored events; returns the JSON
            value to keep (the response the caller is about to send).
    """

    key: str
    fingerprint: str
    response: Callable[[list[StoredEvent]], object]


def utc_now() -> str:
    """The current time as ISO 8601 UTC with microseconds, e.g. ``2026-11-29T17:00:00.000000Z``."""
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def hash_token(token: str) -> str:
    """How a seat token is stored: its sha256, hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def seal(
    previous_hash: str,
    first_seq: int,
    events: Sequence[msgspec.Struct],
    *,
    recorded_at: str,
    actor: int | None = None,
    command: msgspec.Struct | None = None,
    bot: str | None = None,
) -> list[EventRow]:
    """Turn one batch of events into rows, chaining their hashes from ``previous_hash``.

    ``actor``, ``command`` and ``bot`` go on the batch's first row only (NULL on the
    others), which is how a reader finds where one command's events begin. For a new game,
    ``previous_hash`` is :func:`~spies_replay.codec.genesis_hash` of its id.
    """
    rows: list[EventRow] = []
    command_text = None if command is None else encode(command)
    previous = previous_hash
    for index, event in enumerate(events):
        seq = first_seq + index
        kind = event_tag(event)
        payload = encode(event)
        row_actor = actor if index == 0 else None
        row_command = command_text if index == 0 else None
        row_bot = bot if index == 0 else None
        digest = chain_hash(
            previous,
            canonical_bytes(
                seq=seq,
                type=kind,
                actor=row_actor,
                command=row_command,
                payload=payload,
                recorded_at=recorded_at,
                bot=row_bot,
            ),
        )
        rows.append(
            EventRow(
                seq=seq,
                type=kind,
                payload=payload,
                recorded_at=recorded_at,
                actor=row_actor,
                command=row_command,
                hash=digest,
                bot=row_bot,
            )
        )
        previous = digest
    return rows


class EventStore:
    """The replay log in one SQLite file.

    Args:
        path: the database file (created, and migrated, when needed).
        games: the games this store can decode, by id; default the registry
            (:data:`spies_core.registry.GAMES`). Tests pass their own.
        snapshot_every: a snapshot of the folded state is kept whenever an append crosses a
            multiple of this many events, so loading any seq folds at most about that many.
        busy_timeout: seconds a writer waits for another process's write lock.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        games: Mapping[str, AnySpec] | None = None,
        snapshot_every: int = 128,
        busy_timeout: float = 10.0,
    ) -> None:
        if snapshot_every < 1:
            raise ValueError(f"snapshot_every must be at least 1, not {snapshot_every}")
        self.path = Path(path)
        self.games: Mapping[str, AnySpec] = GAMES if games is None else games
        self.snapshot_every = snapshot_every
        self.busy_timeout = busy_timeout
        self._local = threading.local()
        self._lock = threading.Lock()
        self._connections: list[Database] = []
        self.db  # noqa: B018  (open, set WAL and migrate now, so errors surface here)

    # -- connections and transactions -------------------------------------------------

    @property
    def db(self) -> Database:
        """This thread's sqlite-utils :class:`~sqlite_utils.Database` (opened on first use)."""
        db: Database | None = getattr(self._local, "db", None)
        if db is None:
            db = self._open()
            self._local.db = db
            with self._lock:
                self._connections.append(db)
        return db

    def _open(self) -> Database:
        conn = sqlite3.connect(self.path, timeout=self.busy_timeout, check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
        db = Database(conn, execute_plugins=False)
        try:
            db.enable_wal()
            conn.execute("PRAGMA synchronous = NORMAL")
            self._migrate(db)
        except BaseException:
            conn.close()
            raise
        return db

    @staticmethod
    def _migrate(db: Database) -> None:
        applied = {migration.name for migration in migrations.applied(db)}
        unknown = applied - MIGRATION_NAMES
        if unknown:
            raise ReplayError(
                f"the database has migrations this spies_replay does not know"
                f" ({', '.join(sorted(unknown))}); upgrade spies-engine",
                code="schema-too-new",
            )
        if len(applied) == SCHEMA_VERSION:
            return
        conn = db.conn
        conn.execute("BEGIN IMMEDIATE")  # one process migrates; the others wait, then see it
        try:
            migrations.apply(db)
        except BaseException:
            conn.rollback()
            raise
        conn.execute("COMMIT")

    def close(self) -> None:
        """Close every connection this store opened (in any thread)."""
        with self._lock:
            for db in self._connections:
                db.close()
            self._connections.clear()
            self._local = threading.local()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        conn = self.db.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            if conn.in_transaction:
                conn.rollback()
            raise
        conn.execute("COMMIT")

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """A read transaction: every query inside sees one consistent snapshot of the file."""
        conn = self.db.conn
        if conn.in_transaction:
            yield conn
            return
        conn.execute("BEGIN")
        try:
            yield conn
        finally:
            if conn.in_transaction:
                conn.rollback()

    # -- games --------------------------------------------------------------------------

    def spec(self, game: str) -> AnySpec:
        """The spec of a game id this store knows.

        Raises:
            UnknownGameError: not among :attr:`games`.
        """
        try:
            return self.games[game]
        except KeyError:
            known = ", ".join(self.games) or "none"
            raise UnknownGameError(f"unknown game {game!r}; known games: {known}") from None

    def codec(self, game: str) -> GameCodec:
        """The decoders of a game id (see :meth:`spec`)."""
        return codec_for(self.spec(game))

    def insert_game(
        self,
        record: GameRecord,
        *,
        seed: bytes,
        token_hashes: Sequence[str | None],
        rows: Sequence[EventRow],
        snapshots: Sequence[tuple[int, object]] = (),
        deal: object = None,
        seats: Sequence[SeatState] = (),
        rematch_of: str | None = None,
    ) -> None:
        """Write a new game: its row, seed, secret deal, seat token hashes and holders, first
        events, and its link from the game it is a rematch of, atomically.

        ``record.version`` and ``record.head_hash`` must describe ``rows`` (made with
        :func:`seal`). Used by :func:`spies_replay.engine.create_game` and by import.
        ``token_hashes[seat]`` is ``None`` for a seat nobody holds a token of (open, bot).

        Raises:
            GameExistsError: the id is taken.
            RematchExistsError: ``rematch_of`` already has a rematch (nothing is written).
        """
        with self._write() as conn:
            try:
                conn.execute(
                    f"INSERT INTO games ({_GAME_COLUMNS}) VALUES"
                    " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    _record_values(record),
                )
            except sqlite3.IntegrityError as exc:
                raise GameExistsError(record.id) from exc
            # A cache for an id that was stored before (and removed by hand) must not leak in.
            conn.execute("DELETE FROM snapshots WHERE game_id = ?", (record.id,))
            conn.execute("DELETE FROM seeds WHERE game_id = ?", (record.id,))
            conn.execute(
                "INSERT INTO seeds (game_id, seed, deal) VALUES (?, ?, ?)",
                (record.id, seed.hex(), None if deal is None else encode(deal)),
            )
            conn.executemany(
                "INSERT INTO seats (game_id, seat, token_hash) VALUES (?, ?, ?)",
                [
                    (record.id, seat, digest)
                    for seat, digest in enumerate(token_hashes)
                    if digest is not None
                ],
            )
            conn.execute("DELETE FROM seat_states WHERE game_id = ?", (record.id,))
            conn.executemany(
                "INSERT INTO seat_states (game_id, seat, type, name, bot) VALUES (?, ?, ?, ?, ?)",
                [(record.id, s.seat, str(s.type), s.name, s.bot) for s in seats],
            )
            if rematch_of is not None:
                try:
                    conn.execute(
                        "INSERT INTO rematches (game_id, next_id) VALUES (?, ?)",
                        (rematch_of, record.id),
                    )
                except sqlite3.IntegrityError as exc:
                    found = conn.execute(
                        "SELECT next_id FROM rematches WHERE game_id = ?", (rematch_of,)
                    ).fetchone()
                    raise RematchExistsError(rematch_of, found[0] if found else "?") from exc
            self._insert_rows(conn, record.id, rows)
            self._insert_snapshots(conn, record.id, snapshots)

    @staticmethod
    def _insert_rows(conn: sqlite3.Connection, game_id: str, rows: Sequence[EventRow]) -> None:
        conn.executemany(
            f"INSERT INTO events (game_id, {_EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    game_id,
                    r.seq,
                    r.type,
                    r.payload,
                    r.recorded_at,
                    r.actor,
                    r.command,
                    r.hash,
                    r.bot,
                )
                for r in rows
            ],
        )

    @staticmethod
    def _insert_snapshots(
        conn: sqlite3.Connection, game_id: str, snapshots: Sequence[tuple[int, object]]
    ) -> None:
        conn.executemany(
            "INSERT OR REPLACE INTO snapshots (game_id, seq, state) VALUES (?, ?, ?)",
            [(game_id, seq, encode(state)) for seq, state in snapshots],
        )

    def append(
        self,
        game_id: str,
        expected_version: int,
        events: Sequence[msgspec.Struct],
        *,
        actor: int | None = None,
        command: msgspec.Struct | None = None,
        outcome: Outcome | None = None,
        state: object = None,
        idempotency: PendingIdempotency | None = None,
        bot: str | None = None,
    ) -> list[StoredEvent]:
        """Append one command's events after ``expected_version``, all or none.

        The events get seqs ``expected_version + 1 …``; ``actor`` and ``command`` are stored
        on the first. With ``outcome`` the game becomes finished, and the last event must be
        :class:`~spies_replay.meta.SeedRevealed`. ``state`` (the folded state after these
        events) is kept as a snapshot when the append crosses a multiple of
        :attr:`snapshot_every`. ``idempotency`` is stored in the same transaction. An empty
        ``events`` appends nothing but still checks the version and stores ``idempotency``.

        Returns:
            The stored events with their seqs and hashes.

        Raises:
            GameNotFoundError: no such game.
            VersionConflictError: the game is not at ``expected_version``.
            GameFinishedError: the game has finished; its log is closed.
            IdempotencyKeyExistsError: the key was used before (nothing is written); checked
                first, inside the write transaction, so a retry racing its own first
                attempt gets that attempt's answer rather than a conflict.
        """
        _check_batch(events, outcome)
        recorded_at = utc_now()
        with self._write() as conn:
            found = conn.execute(
                "SELECT version, head_hash, status FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if found is None:
                raise GameNotFoundError(game_id)
            version, head_hash, status = found
            if idempotency is not None:
                # A concurrent writer (another process) may have used the key since the
                # caller looked: its answer, not a version conflict, is the right reply.
                row = conn.execute(
                    "SELECT request_fingerprint, response, created_at FROM idempotency"
                    " WHERE game_id = ? AND key = ?",
                    (game_id, idempotency.key),
                ).fetchone()
                if row is not None:
                    raise IdempotencyKeyExistsError(_idempotency(game_id, idempotency.key, row))
            if version != expected_version:
                raise VersionConflictError(game_id, expected_version, version)
            if status == GameStatus.FINISHED and events:
                raise GameFinishedError(f"game {game_id!r} has finished; no event can follow")
            rows = seal(
                head_hash,
                version + 1,
                events,
                recorded_at=recorded_at,
                actor=actor,
                command=command,
                bot=bot,
            )
            try:
                self._insert_rows(conn, game_id, rows)
            except sqlite3.IntegrityError as exc:  # a writer that ignored the lock protocol
                raise VersionConflictError(game_id, expected_version, version + 1) from exc
            stored = [
                StoredEvent(
                    seq=row.seq,
                    type=row.type,
                    event=event,
                    actor=row.actor,
                    recorded_at=row.recorded_at,
                    hash=row.hash,
                    bot=row.bot,
                )
                for row, event in zip(rows, events, strict=True)
            ]
            if idempotency is not None:
                self._insert_idempotency(conn, game_id, idempotency, stored, recorded_at)
            if rows:
                new_version = rows[-1].seq
                conn.execute(
                    "UPDATE games SET version = ?, head_hash = ?, updated_at = ?, status = ?,"
                    " outcome = ? WHERE id = ?",
                    (
                        new_version,
                        rows[-1].hash,
                        recorded_at,
                        GameStatus.FINISHED if outcome is not None else GameStatus.ACTIVE,
                        None if outcome is None else encode(outcome),
                        game_id,
                    ),
                )
                every = self.snapshot_every
                if state is not None and version // every != new_version // every:
                    self._insert_snapshots(conn, game_id, [(new_version, state)])
        return stored

    @staticmethod
    def _insert_idempotency(
        conn: sqlite3.Connection,
        game_id: str,
        pending: PendingIdempotency,
        stored: list[StoredEvent],
        created_at: str,
    ) -> None:
        response = encode(pending.response(stored))
        try:
            conn.execute(
                "INSERT INTO idempotency (game_id, key, request_fingerprint, response,"
                " created_at) VALUES (?, ?, ?, ?, ?)",
                (game_id, pending.key, pending.fingerprint, response, created_at),
            )
        except sqlite3.IntegrityError as exc:
            row = conn.execute(
                "SELECT request_fingerprint, response, created_at FROM idempotency"
                " WHERE game_id = ? AND key = ?",
                (game_id, pending.key),
            ).fetchone()
            raise IdempotencyKeyExistsError(_idempotency(game_id, pending.key, row)) from exc

    def save_snapshots(self, game_id: str, snapshots: Sequence[tuple[int, object]]) -> None:
        """Keep folded states as snapshots (a cache: failures to write are logged, not raised)."""
        if not snapshots:
            return
        try:
            with self._write() as conn:
                self._insert_snapshots(conn, game_id, snapshots)
        except sqlite3.Error as exc:  # a read-only file, a busy database: the cache can wait
            _log.warning("snapshot_not_saved", game_id=game_id, error=str(exc))

    def drop_snapshots(self, game_id: str) -> None:
        """Forget a game's snapshots (a cache; failures are logged, not raised)."""
        try:
            with self._write() as conn:
                conn.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))
        except sqlite3.Error as exc:
            _log.warning("snapshots_not_dropped", game_id=game_id, error=str(exc))

    # -- reads ---------------------------------------------------------------------------

    def get_game(self, game_id: str) -> GameRecord:
        """A game's record.

        Raises:
            GameNotFoundError: no such game.
        """
        row = self.db.conn.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise GameNotFoundError(game_id)
        return _record(row)

    def game_ids(self) -> list[str]:
        """Every stored game id, in creation order."""
        rows = self.db.conn.execute("SELECT id FROM games ORDER BY created_at, id").fetchall()
        return [row[0] for row in rows]

    def list_games(
        self,
        *,
        game: str | None = None,
        status: GameStatus | str | None = None,
        limit: int = 50,
        offset: int = 0,
        open_seats: bool | None = None,
    ) -> GamePage:
        """A page of game records, oldest first, filtered by game id, status, and whether
        the game is in progress with an open seat (``open_seats``: the lobby)."""
        where: list[str] = []
        params: list[object] = []
        if open_seats is not None:
            where.append(
                ("" if open_seats else "NOT ")
                + "(status = 'active' AND EXISTS (SELECT 1 FROM seat_states s"
                " WHERE s.game_id = games.id AND s.type = 'open'))"
            )
        if game is not None:
            where.append("game = ?")
            params.append(game)
        if status is not None:
            where.append("status = ?")
            params.append(str(status))
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        with self.reading() as conn:
            total = conn.execute(f"SELECT count(*) FROM games{clause}", params).fetchone()[0]
            rows = conn.execute(
                f"SELECT {_GAME_COLUMNS} FROM games{clause}"
                " ORDER BY created_at, id LIMIT ? OFFSET ?",
                [*params, limit, offset],
            ).fetchall()
        return GamePage(games=[_record(r) for r in rows], total=total, limit=limit, offset=offset)

    def read_rows(self, game_id: str, *, after: int = 0, upto: int | None = None) -> list[EventRow]:
        """Raw rows of a game with ``after < seq <= upto``, in seq order (no existence check)."""
        sql = f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq > ?"
        params: list[object] = [game_id, after]
        if upto is not None:
            sql += " AND seq <= ?"
            params.append(upto)
        rows = self.db.conn.execute(sql + " ORDER BY seq", params).fetchall()
        return [
            EventRow(
                seq=r[0],
                type=r[1],
                payload=r[2],
                recorded_at=r[3],
                actor=r[4],
                command=r[5],
                hash=r[6],
                bot=r[7],
            )
            for r in rows
        ]

    def read_game(self, game_id: str) -> tuple[GameRecord, list[EventRow], bytes | None]:
        """A game's record, every row and its seed, read in one consistent snapshot.

        For verification and export; the seed is for operator use only.

        Raises:
            GameNotFoundError: no such game.
        """
        with self.reading():
            record = self.get_game(game_id)
            rows = self.read_rows(game_id)
            seed = self.get_seed(game_id)
        return record, rows, seed

    def read_events(
        self, game_id: str, *, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        """Decoded events with ``seq > after``, in order, at most ``limit``.

        Events are returned whole; the caller redacts them for its viewer
        (:func:`spies_replay.engine.redact_for`).

        Raises:
            GameNotFoundError: no such game.
        """
        with self.reading() as conn:
            record = self.get_game(game_id)
            sql = f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq > ? ORDER BY seq"
            params: list[object] = [game_id, after]
            if limit is not None:
                sql += " LIMIT ?"
                params.append(limit)
            rows = conn.execute(sql, params).fetchall()
        decode = self.codec(record.game).event.decode
        return [
            StoredEvent(
                seq=r[0],
                type=r[1],
                event=decode(r[2]),
                actor=r[4],
                recorded_at=r[3],
                hash=r[6],
                bot=r[7],
            )
            for r in rows
        ]

    def read_game_payloads(self, game_id: str, *, after: int, upto: int) -> list[tuple[int, str]]:
        """``(seq, payload)`` of the game events (meta left out) with ``after < seq <= upto``."""
        return self.db.conn.execute(
            "SELECT seq, payload FROM events WHERE game_id = ? AND seq > ? AND seq <= ?"
            f" AND type NOT IN ({_META_SQL}) ORDER BY seq",
            (game_id, after, upto),
        ).fetchall()

    def latest_snapshot(self, game_id: str, at: int) -> tuple[int, str] | None:
        """The snapshot with the greatest ``seq <= at``, as ``(seq, state JSON)``."""
        row = self.db.conn.execute(
            "SELECT seq, state FROM snapshots WHERE game_id = ? AND seq <= ?"
            " ORDER BY seq DESC LIMIT 1",
            (game_id, at),
        ).fetchone()
        return None if row is None else (row[0], row[1])

    def snapshots(self, game_id: str) -> list[tuple[int, str]]:
        """Every snapshot of a game, as ``(seq, state JSON)`` in seq order."""
        rows = self.db.conn.execute(
            "SELECT seq, state FROM snapshots WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        return [(row[0], row[1]) for row in rows]

    def get_seed(self, game_id: str) -> bytes | None:
        """The game's secret seed (server-side use only: deciding, auditing), or ``None``."""
        row = self.db.conn.execute(
            "SELECT seed FROM seeds WHERE game_id = ?", (game_id,)
        ).fetchone()
        return None if row is None else bytes.fromhex(row[0])

    def get_deal(self, game_id: str) -> Any:
        """The game's secret ``options.deal`` (server-side use only), or ``None``."""
        row = self.db.conn.execute(
            "SELECT deal FROM seeds WHERE game_id = ?", (game_id,)
        ).fetchone()
        return None if row is None or row[0] is None else msgspec.json.decode(row[0])

    def check_token(self, game_id: str, token: str) -> int | None:
        """The seat a token belongs to, or ``None``; compares sha256 hashes in constant time."""
        digest = hash_token(token)
        rows = self.db.conn.execute(
            "SELECT seat, token_hash FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        ).fetchall()
        found: int | None = None
        for seat, stored in rows:
            if hmac.compare_digest(stored, digest):  # no early exit: same time for every seat
                found = seat
        return found

    def find_token(self, token: str) -> tuple[str, int] | None:
        """The game and seat a token belongs to, in any game, or ``None``.

        For telling a token of another game (HTTP 403) from an unknown one (401). The lookup
        is by the token's sha256, never by the token, so its timing says nothing about the
        token. There is no index on ``seats.token_hash``: this scans the seats, and is meant
        for the rare path where :meth:`check_token` already failed.
        """
        row = self.db.conn.execute(
            "SELECT game_id, seat FROM seats WHERE token_hash = ? LIMIT 1", (hash_token(token),)
        ).fetchone()
        return None if row is None else (row[0], row[1])

    def get_idempotency(self, game_id: str, key: str) -> IdempotencyRecord | None:
        """The record stored under an idempotency key, if any."""
        row = self.db.conn.execute(
            "SELECT request_fingerprint, response, created_at FROM idempotency"
            " WHERE game_id = ? AND key = ?",
            (game_id, key),
        ).fetchone()
        return None if row is None else _idempotency(game_id, key, row)

    # -- seats -----------------------------------------------------------------------------

    def seat_states(self, game_id: str, players: int | None = None) -> list[SeatState]:
        """Each seat's holder, by seat (a game stored without holders: the creator's)."""
        return _seat_states(self.db.conn, game_id, players)

    def seat_states_of(self, game_ids: Sequence[str]) -> dict[str, list[SeatState]]:
        """The holders of several games at once (a page of summaries), by game id."""
        found: dict[str, list[SeatState]] = {}
        for start in range(0, len(game_ids), 500):
            chunk = list(game_ids[start : start + 500])
            marks = ", ".join("?" * len(chunk))
            rows = self.db.conn.execute(
                f"SELECT game_id, seat, type, name, bot FROM seat_states WHERE game_id IN ({marks})"
                " ORDER BY game_id, seat",
                chunk,
            ).fetchall()
            for row in rows:
                found.setdefault(row[0], []).append(_seat_state(row[1:]))
        return found

    def change_seat(
        self, game_id: str, choose: SeatChoice, *, token_hash: str | None = None
    ) -> SeatChange:
        """Decide and record one seat change in one write transaction.

        ``choose(seats, token_hashes)`` is called inside the transaction with the seats as
        they are now (and the hashes of the seat tokens held, by seat); it returns the seat
        event to append (:data:`spies_replay.meta.SEAT_EVENTS`), or ``None`` to change
        nothing, or raises to refuse. The event is appended to the log (hash-chained, the
        version goes up), ``seat_states`` follows it, and with ``token_hash`` the event's
        seat gets that token. Racing changes are decided one after the other, across
        processes: exactly one of two joins of a seat finds it open.

        Raises:
            GameNotFoundError: no such game.
            GameFinishedError: the game is over.
            SeatTakenError: the seat already has a token (a writer that skipped ``choose``).
            Whatever ``choose`` raises. Nothing is written.
        """
        with self._write() as conn:
            found = conn.execute(
                "SELECT version, head_hash, status, players FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if found is None:
                raise GameNotFoundError(game_id)
            version, head_hash, status, players = found
            if status == GameStatus.FINISHED:
                raise GameFinishedError(f"game {game_id!r} has finished; its seats are final")
            seats = _seat_states(conn, game_id, players)
            tokens = dict(
                conn.execute(
                    "SELECT seat, token_hash FROM seats WHERE game_id = ?", (game_id,)
                ).fetchall()
            )
            event = choose(seats, tokens)
            if event is None:
                return SeatChange(seats=seats, event=None, version=version)
            changed = apply_seat_event(seats, event)
            seat = changed[event.seat]
            if token_hash is not None:
                try:
                    conn.execute(
                        "INSERT INTO seats (game_id, seat, token_hash) VALUES (?, ?, ?)",
                        (game_id, seat.seat, token_hash),
                    )
                except sqlite3.IntegrityError as exc:
                    raise SeatTakenError(f"seat {seat.seat} of game {game_id!r} is taken") from exc
            conn.execute(
                "INSERT OR REPLACE INTO seat_states (game_id, seat, type, name, bot)"
                " VALUES (?, ?, ?, ?, ?)",
                (game_id, seat.seat, str(seat.type), seat.name, seat.bot),
            )
            recorded_at = utc_now()
            rows = seal(head_hash, version + 1, [event], recorded_at=recorded_at)
            self._insert_rows(conn, game_id, rows)
            conn.execute(
                "UPDATE games SET version = ?, head_hash = ?, updated_at = ? WHERE id = ?",
                (rows[-1].seq, rows[-1].hash, recorded_at, game_id),
            )
        stored = StoredEvent(
            seq=rows[0].seq,
            type=rows[0].type,
            event=event,
            actor=None,
            recorded_at=recorded_at,
            hash=rows[0].hash,
        )
        return SeatChange(seats=changed, event=stored, version=rows[-1].seq)

    def rematch_of(self, game_id: str) -> str | None:
        """The id of a finished game's rematch, if it has one."""
        row = self.db.conn.execute(
            "SELECT next_id FROM rematches WHERE game_id = ?", (game_id,)
        ).fetchone()
        return None if row is None else str(row[0])

    def rematch_links(self, game_id: str) -> tuple[str | None, str | None]:
        """``(rematch_of, rematch)``: the game this one is the rematch of, and its own
        rematch, each ``None`` when there is none."""
        with self.reading() as conn:
            before = conn.execute(
                "SELECT game_id FROM rematches WHERE next_id = ?", (game_id,)
            ).fetchone()
            after = conn.execute(
                "SELECT next_id FROM rematches WHERE game_id = ?", (game_id,)
            ).fetchone()
        return (None if before is None else before[0], None if after is None else after[0])

    def games_with_bots(self) -> list[str]:
        """The ids of the games in progress that a bot plays a seat of."""
        rows = self.db.conn.execute(
            "SELECT DISTINCT g.id FROM games g JOIN seat_states s ON s.game_id = g.id"
            " WHERE g.status = 'active' AND s.bot IS NOT NULL ORDER BY g.id"
        ).fetchall()
        return [row[0] for row in rows]

    def orphan_game_ids(self) -> list[str]:
        """Game ids that have events but no ``games`` row (a sign of tampering)."""
        rows = self.db.conn.execute(
            "SELECT DISTINCT game_id FROM events WHERE game_id NOT IN (SELECT id FROM games)"
            " ORDER BY game_id"
        ).fetchall()
        return [row[0] for row in rows]


SeatChoice = Callable[[list[SeatState], dict[int, str]], SeatEvent | None]
"""Decides a seat change from the seats and the held token hashes (see ``change_seat``)."""


@dataclass(frozen=True, slots=True)
class SeatChange:
    """What :meth:`EventStore.change_seat` did.

    Attributes:
        seats: the seats after it.
        event: the appended seat event, or ``None`` when nothing changed.
        version: the game's version after it.
    """

    seats: list[SeatState]
    event: StoredEvent | None
    version: int


def _seat_state(row: Sequence[Any]) -> SeatState:
    return SeatState(seat=row[0], type=SeatType(row[1]), name=row[2], bot=row[3])


def _seat_states(conn: sqlite3.Connection, game_id: str, players: int | None) -> list[SeatState]:
    rows = conn.execute(
        "SELECT seat, type, name, bot FROM seat_states WHERE game_id = ? ORDER BY seat",
        (game_id,),
    ).fetchall()
    if rows:
        return [_seat_state(row) for row in rows]
    if players is None:
        found = conn.execute("SELECT players FROM games WHERE id = ?", (game_id,)).fetchone()
        players = 0 if found is None else found[0]
    return [SeatState(seat=seat) for seat in range(players)]


def _check_batch(events: Sequence[msgspec.Struct], outcome: Outcome | None) -> None:
    for index, event in enumerate(events):
        tag = event_tag(event)
        last = index == len(events) - 1
        if tag == "game_created" or (tag == "seed_revealed" and not last):
            raise ValueError(f"{tag} cannot be appended at position {index} of a batch")
    finishing = bool(events) and isinstance(events[-1], SeedRevealed)
    if finishing != (outcome is not None):
        raise ValueError("a batch ends with seed_revealed exactly when it carries the outcome")


def _record_values(record: GameRecord) -> tuple[object, ...]:
    return (
        record.id,
        record.game,
        record.players,
        encode(record.options),
        str(record.status),
        record.version,
        record.head_hash,
        record.seed_commitment,
        str(record.seed_source),
        record.rng,
        None if record.outcome is None else encode(record.outcome),
        record.created_at,
        record.updated_at,
    )


def _record(row: Sequence[Any]) -> GameRecord:
    return GameRecord(
        id=row[0],
        game=row[1],
        players=row[2],
        options=_decode_plain(row[3]),
        status=GameStatus(row[4]),
        version=row[5],
        head_hash=row[6],
        seed_commitment=row[7],
        seed_source=SeedSource(row[8]),
        rng=row[9],
        outcome=None if row[10] is None else _decode_outcome(row[10]),
        created_at=row[11],
        updated_at=row[12],
    )


def _idempotency(game_id: str, key: str, row: Sequence[Any]) -> IdempotencyRecord:
    return IdempotencyRecord(
        game_id=game_id,
        key=key,
        request_fingerprint=row[0],
        response=_decode_plain(row[1]),
        created_at=row[2],
    )
