"""The event store's contract, and the SQL every backend shares.

:class:`EventStore` is the protocol the engine (:mod:`spies_replay.engine`), the API and the
replay tool use; they never name a backend nor see a driver's error. A store is opened by
:func:`spies_replay.store.backends.open_store` from a location: a SQLite file
(:mod:`spies_replay.store.sqlite`, the default) or a ``postgresql://`` URL
(:mod:`spies_replay.store.postgres`). The records it reads and writes are in
:mod:`spies_replay.store.records`.

:class:`SqlEventStore` is the behaviour both backends share, written once over a DB-API
connection with ``?`` placeholders; a backend supplies its connections, its transactions
and its migrations. The guarantees, on every backend:

- the ``(game_id, seq)`` primary key is the optimistic-concurrency guard: an append compares
  the game's version with the caller's ``expected_version`` inside a write transaction that
  holds the game's row (SQLite: the database's write lock; PostgreSQL: ``FOR UPDATE``), and
  raises :class:`~spies_replay.errors.VersionConflictError` when another writer got there
  first;
- every write of one command (its events, the game row, its idempotency record, a snapshot,
  a seat token) is one transaction: seat tokens and idempotency records live in the store
  because they guard appends and must commit or vanish with them;
- the database itself refuses to update or delete an event, or to insert one over a taken
  seq; the rows are sealed in one hash chain per game (:func:`seal`), whose last hash is the
  game's ``head_hash``;
- the seed and a secret deal are kept apart from the events (their own table) until the
  final event reveals them.

Schema: :mod:`spies_replay.store.schema` (SQLite) and :mod:`spies_replay.store.postgres`. Hash
chain: :mod:`spies_replay.codec`.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, ClassVar, Final, Protocol

import msgspec
import structlog

from spies_core.decider import AnySpec, Outcome
from spies_core.registry import GAMES, get_game
from spies_replay.codec import (
    GameCodec,
    codec_for,
    encode,
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
    SeatState,
    SeatType,
    SeedSource,
)
from spies_replay.store.records import (
    SNAPSHOT_EVERY,
    Append,
    EventRow,
    GamePage,
    GameRecord,
    GameSecrets,
    GameStatus,
    IdempotencyRecord,
    NewGame,
    Reply,
    StoredEvent,
    hash_token,
    utc_now,
)

__all__ = ["Cursor", "SqlEventStore", "Transaction", "check_batch"]

_log = structlog.get_logger("spies_replay.store")
_decode_plain: Final = msgspec.json.Decoder().decode
_decode_outcome: Final = msgspec.json.Decoder(Outcome).decode

_GAME_COLUMNS: Final = (
    "id, game, players, options, status, version, head_hash, seed_commitment, seed_source,"
    " rng, outcome, created_at, updated_at"
)
_EVENT_COLUMNS: Final = "seq, type, payload, recorded_at, actor, command, hash, bot"
_META_SQL: Final = ", ".join(f"'{tag}'" for tag in sorted(META_TYPES))


class Cursor(Protocol):
    """The part of a DB-API cursor the shared SQL uses."""

    @property
    def rowcount(self) -> int: ...
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...


class Transaction(Protocol):
    """A connection inside a transaction, taking ``?`` placeholders."""

    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Cursor: ...
    def executemany(self, sql: str, params: Sequence[Sequence[Any]], /) -> Any: ...


class SqlEventStore:
    """The store's behaviour over SQL, shared by every backend.

    A backend sets :attr:`location`, :attr:`games` and :attr:`snapshot_every`, and supplies
    :meth:`_write` (a write transaction), :meth:`reading` (a read transaction over one
    consistent snapshot; reentrant), :meth:`_connection` (the connection for one statement
    outside a transaction: the current transaction's when there is one), and :meth:`close`.
    Its SQL dialect differs in :attr:`lock_row` (what locks a selected game row for the
    rest of the transaction) and in the driver errors it names in :attr:`driver_errors`
    and :attr:`conflict_errors`.

    Args:
        games: the games this store can decode, by id; default the registry
            (:data:`spies_core.registry.GAMES`). Tests pass their own.
        snapshot_every: a snapshot of the folded state is kept whenever an append crosses a
            multiple of this many events, so loading any seq folds at most about that many.
    """

    lock_row: ClassVar[str] = ""
    """Appended to the SELECT of a game's row in a write transaction (``" FOR UPDATE"``)."""
    driver_errors: ClassVar[tuple[type[Exception], ...]] = ()
    """The driver's base error, caught where a failed write is only a missed cache."""
    conflict_errors: ClassVar[tuple[type[Exception], ...]] = ()
    """What the driver raises for an event inserted over a taken seq."""

    location: str

    def __init__(
        self, *, games: Mapping[str, AnySpec] | None = None, snapshot_every: int = SNAPSHOT_EVERY
    ) -> None:
        if snapshot_every < 1:
            raise ValueError(f"snapshot_every must be at least 1, not {snapshot_every}")
        self.games: Mapping[str, AnySpec] = GAMES if games is None else games
        self.snapshot_every = snapshot_every

    # -- what a backend supplies -----------------------------------------------------------

    def _write(self) -> AbstractContextManager[Transaction]:
        raise NotImplementedError

    def reading(self) -> AbstractContextManager[Any]:
        """A read transaction: every query inside sees one consistent snapshot."""
        raise NotImplementedError

    def _connection(self) -> AbstractContextManager[Transaction]:
        raise NotImplementedError

    def close(self) -> None:
        """Close the store's connections; using it afterwards raises a ``ReplayError``."""
        raise NotImplementedError

    def pending_migrations(self) -> list[str]:
        """The migrations this code knows that the database has not recorded, by name: empty
        when the schema is current. A query of the database, so it also tells whether the
        database answers (raises :class:`~spies_replay.errors.StoreUnavailableError` if
        not): what a readiness check asks."""
        raise NotImplementedError

    def watch(self, on_append: Callable[[str], None]) -> Callable[[], None]:
        """Call ``on_append(game_id)`` after appends by other processes, when the backend
        can tell (a wake-up only: the log stays the truth); returns the function that stops
        watching. This default tells nothing: readers poll."""
        del on_append
        return _nothing

    def __enter__(self) -> SqlEventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def _cache_errors(self) -> tuple[type[Exception], ...]:
        return (ReplayError, *self.driver_errors)

    def _appended(self, conn: Transaction, game_id: str) -> None:
        """Called inside the write transaction of an append or a seat change that added rows."""

    def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._connection() as conn:
            return conn.execute(sql, params).fetchall()

    def _one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        with self._connection() as conn:
            return conn.execute(sql, params).fetchone()

    # -- games --------------------------------------------------------------------------

    def spec(self, game: str) -> AnySpec:
        """The spec of a game id this store knows.

        Raises:
            UnknownGameError: not among :attr:`games`.
        """
        return get_game(game, self.games)

    def codec(self, game: str) -> GameCodec:
        """The decoders of a game id (see :meth:`spec`)."""
        return codec_for(self.spec(game))

    def insert_game(self, game: NewGame) -> None:
        """Write a new game: its row, seed, secret deal, seat token hashes and holders, first
        events, and its link from the game it is a rematch of, atomically.

        Used by :func:`spies_replay.engine.create_game`, by import and by copying.

        Raises:
            GameExistsError: the id is taken.
            RematchExistsError: ``rematch_of`` already has a rematch (nothing is written).
        """
        record, rows, seats, rematch_of = game.record, game.rows, game.seats, game.rematch_of
        seed, deal = game.secrets.seed, game.secrets.deal
        with self._write() as conn:
            inserted = conn.execute(
                f"INSERT INTO games ({_GAME_COLUMNS}) VALUES"
                " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                _record_values(record),
            )
            if inserted.rowcount != 1:
                raise GameExistsError(record.id)
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
                    for seat, digest in enumerate(game.token_hashes)
                    if digest is not None
                ],
            )
            conn.execute("DELETE FROM seat_states WHERE game_id = ?", (record.id,))
            conn.executemany(
                "INSERT INTO seat_states (game_id, seat, type, name, bot) VALUES (?, ?, ?, ?, ?)",
                [(record.id, s.seat, str(s.type), s.name, s.bot) for s in seats],
            )
            if rematch_of is not None:
                linked = conn.execute(
                    "INSERT INTO rematches (game_id, next_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                    (rematch_of, record.id),
                )
                if linked.rowcount != 1:
                    found = conn.execute(
                        "SELECT next_id FROM rematches WHERE game_id = ?", (rematch_of,)
                    ).fetchone()
                    raise RematchExistsError(rematch_of, found[0] if found else "?")
            self._insert_rows(conn, record.id, rows)
            if game.due_at is not None:
                conn.execute("UPDATE games SET due_at = ? WHERE id = ?", (game.due_at, record.id))
            self._insert_snapshots(conn, record.id, game.snapshots)
            conn.execute("DELETE FROM idempotency WHERE game_id = ?", (record.id,))
            conn.executemany(
                "INSERT INTO idempotency (game_id, key, request_fingerprint, response,"
                " created_at) VALUES (?, ?, ?, ?, ?)",
                [
                    (record.id, r.key, r.request_fingerprint, r.response.decode(), r.created_at)
                    for r in game.idempotency
                ],
            )

    @staticmethod
    def _insert_rows(conn: Transaction, game_id: str, rows: Sequence[EventRow]) -> None:
        if not rows:
            return
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
        conn: Transaction, game_id: str, snapshots: Sequence[tuple[int, object]]
    ) -> None:
        if not snapshots:
            return
        conn.executemany(
            "INSERT INTO snapshots (game_id, seq, state) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id, seq) DO UPDATE SET state = excluded.state",
            [(game_id, seq, encode(state)) for seq, state in snapshots],
        )

    def append(self, batch: Append) -> None:
        """Append one batch after ``batch.version``, with what goes with it, all or none.

        In one write transaction that holds the game's row: the idempotency record is
        checked first (so that a retry racing its own first attempt gets that attempt's
        answer, not a conflict), then the version and head hash, then that the game is in
        progress; the rows, the reply, a seat token and the seat's holder, the game row
        (version, head hash, status, outcome) and, every ``snapshot_every`` events, a
        snapshot are written. The store decides nothing else: every row was sealed and the
        reply built by the caller.

        Raises:
            GameNotFoundError: no such game.
            IdempotencyKeyExistsError: ``batch.reply``'s key was used before (its record
                attached); nothing is written.
            VersionConflictError: the game is not at ``batch.version`` (another writer got
                there first); nothing is written.
            GameFinishedError: the game has finished; its log is closed.
            SeatTakenError: ``batch.seat`` already has a token.
        """
        check_batch(batch)
        game_id, version, rows = batch.game_id, batch.version, batch.rows
        with self._write() as conn:
            found = conn.execute(
                "SELECT version, head_hash, status FROM games WHERE id = ?" + self.lock_row,
                (game_id,),
            ).fetchone()
            if found is None:
                raise GameNotFoundError(game_id)
            current, head_hash, status = found
            updated_at = rows[-1].recorded_at if rows else utc_now()
            if batch.reply is not None:
                self._insert_reply(conn, game_id, batch.reply, updated_at)
            if current != version or head_hash != batch.head_hash:
                raise VersionConflictError(game_id, version, current)
            if status == GameStatus.FINISHED and rows:
                raise GameFinishedError(f"game {game_id!r} has finished; no event can follow")
            if batch.seat is not None:
                self._update_seat(conn, game_id, batch.seat, batch.token_hash)
            if not rows:
                return
            try:
                self._insert_rows(conn, game_id, rows)
            except self.conflict_errors as exc:  # a writer that ignored the lock protocol
                raise VersionConflictError(game_id, version, version + 1) from exc
            self._appended(conn, game_id)
            new_version = batch.new_version
            finishing = batch.outcome is not None
            if finishing:
                conn.execute(
                    "UPDATE games SET version = ?, head_hash = ?, updated_at = ?, status = ?,"
                    " outcome = ?, due_at = NULL WHERE id = ?",
                    (
                        new_version,
                        batch.new_head_hash,
                        updated_at,
                        GameStatus.FINISHED,
                        None if batch.outcome is None else encode(batch.outcome),
                        game_id,
                    ),
                )
            else:
                conn.execute(
                    "UPDATE games SET version = ?, head_hash = ?, updated_at = ?, due_at = ?"
                    " WHERE id = ?",
                    (new_version, batch.new_head_hash, updated_at, batch.due_at, game_id),
                )
            every = self.snapshot_every
            if batch.state is not None and version // every != new_version // every:
                self._insert_snapshots(conn, game_id, [(new_version, batch.state)])

    @staticmethod
    def _insert_reply(conn: Transaction, game_id: str, reply: Reply, created_at: str) -> None:
        inserted = conn.execute(
            "INSERT INTO idempotency (game_id, key, request_fingerprint, response,"
            " created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (game_id, reply.key, reply.fingerprint, reply.response.decode(), created_at),
        )
        if inserted.rowcount != 1:
            row = conn.execute(
                "SELECT request_fingerprint, response, created_at FROM idempotency"
                " WHERE game_id = ? AND key = ?",
                (game_id, reply.key),
            ).fetchone()
            raise IdempotencyKeyExistsError(_idempotency(game_id, reply.key, row))

    @staticmethod
    def _update_seat(
        conn: Transaction, game_id: str, seat: SeatState, token_hash: str | None
    ) -> None:
        if token_hash is not None:
            held = conn.execute(
                "INSERT INTO seats (game_id, seat, token_hash) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (game_id, seat.seat, token_hash),
            )
            if held.rowcount != 1:
                raise SeatTakenError(f"seat {seat.seat} of game {game_id!r} is taken")
        conn.execute(
            "INSERT INTO seat_states (game_id, seat, type, name, bot) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (game_id, seat) DO UPDATE SET type = excluded.type,"
            " name = excluded.name, bot = excluded.bot",
            (game_id, seat.seat, str(seat.type), seat.name, seat.bot),
        )

    def save_snapshots(self, game_id: str, snapshots: Sequence[tuple[int, object]]) -> None:
        """Keep folded states as snapshots (a cache: failures to write are logged, not raised)."""
        if not snapshots:
            return
        try:
            with self._write() as conn:
                self._insert_snapshots(conn, game_id, snapshots)
        except self._cache_errors as exc:  # read-only, busy: the cache can wait
            _log.warning("snapshot_not_saved", game_id=game_id, error=str(exc))

    def drop_snapshots(self, game_id: str) -> None:
        """Forget a game's snapshots (a cache; failures are logged, not raised)."""
        try:
            with self._write() as conn:
                conn.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))
        except self._cache_errors as exc:
            _log.warning("snapshots_not_dropped", game_id=game_id, error=str(exc))

    # -- reads ---------------------------------------------------------------------------

    def get_game(self, game_id: str) -> GameRecord:
        """A game's record.

        Raises:
            GameNotFoundError: no such game.
        """
        row = self._one(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise GameNotFoundError(game_id)
        return _record(row)

    def game_ids(self) -> list[str]:
        """Every stored game id, in creation order."""
        rows = self._all("SELECT id FROM games ORDER BY created_at, id")
        return [row[0] for row in rows]

    def list_games(
        self,
        *,
        game: str | None = None,
        status: GameStatus | str | None = None,
        limit: int = 50,
        offset: int = 0,
        open_seats: bool | None = None,
        before: str | None = None,
    ) -> GamePage:
        """A page of game records, newest first, filtered by game id, status, and whether
        the game is in progress with an open seat (``open_seats``: the lobby).

        ``before`` (a game id, the ``next_before`` of the previous page) starts the page
        after that game in this order, so pages read that way neither skip nor repeat a
        game when new games arrive meanwhile; ``offset`` skips games from there on.

        Raises:
            GameNotFoundError: ``before`` is not a stored game.
        """
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
            page_where, page_params = list(where), list(params)
            if before is not None:
                cursor = conn.execute(
                    "SELECT created_at FROM games WHERE id = ?", (before,)
                ).fetchone()
                if cursor is None:
                    raise GameNotFoundError(before)
                page_where.append("(created_at < ? OR (created_at = ? AND id < ?))")
                page_params += [cursor[0], cursor[0], before]
            page_clause = f" WHERE {' AND '.join(page_where)}" if page_where else ""
            # one more row than the page, to tell whether another page follows
            rows = conn.execute(
                f"SELECT {_GAME_COLUMNS} FROM games{page_clause}"
                " ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
                [*page_params, limit + 1, offset],
            ).fetchall()
        games = [_record(r) for r in rows[:limit]]
        return GamePage(
            games=games,
            total=total,
            limit=limit,
            offset=offset,
            next_before=games[-1].id if len(rows) > limit else None,
        )

    def read_rows(self, game_id: str, *, after: int = 0, upto: int | None = None) -> list[EventRow]:
        """Raw rows of a game with ``after < seq <= upto``, in seq order (no existence check)."""
        sql = f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq > ?"
        params: list[object] = [game_id, after]
        if upto is not None:
            sql += " AND seq <= ?"
            params.append(upto)
        rows = self._all(sql + " ORDER BY seq", params)
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

    def read_game(self, game_id: str) -> tuple[GameRecord, list[EventRow], GameSecrets | None]:
        """A game's record, every row and its secrets, read in one consistent snapshot.

        For verification, export and copying; the secrets are for operator use only.

        Raises:
            GameNotFoundError: no such game.
        """
        with self.reading():
            record = self.get_game(game_id)
            rows = self.read_rows(game_id)
            secrets = self.secrets(game_id)
        return record, rows, secrets

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

    def last_event(
        self, game_id: str, types: Sequence[str], *, upto: int | None = None
    ) -> StoredEvent | None:
        """The last event of one of ``types`` with ``seq <= upto`` (default: the whole log),
        decoded, or ``None``: one indexed read (the clocks now are the last
        ``clocks_updated``)."""
        marks = ", ".join("?" * len(types))
        sql = f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = ? AND type IN ({marks})"
        params: list[object] = [game_id, *types]
        if upto is not None:
            sql += " AND seq <= ?"
            params.append(upto)
        with self.reading():
            row = self._one(sql + " ORDER BY seq DESC LIMIT 1", params)
            if row is None:
                return None
            game = self.get_game(game_id).game
        return StoredEvent(
            seq=row[0],
            type=row[1],
            event=self.codec(game).event.decode(row[2]),
            actor=row[4],
            recorded_at=row[3],
            hash=row[6],
            bot=row[7],
        )

    def last_commands(self, game_id: str) -> dict[int, int]:
        """Each seat's last command: the seq of its first row (the row that carries the
        seat as ``actor``), by seat; a seat that never acted is left out. One grouped read
        of the game's rows, made when a head is loaded, never per command."""
        rows = self._all(
            "SELECT actor, max(seq) FROM events WHERE game_id = ? AND actor IS NOT NULL"
            " GROUP BY actor",
            (game_id,),
        )
        return {int(actor): int(seq) for actor, seq in rows}

    def read_game_payloads(self, game_id: str, *, after: int, upto: int) -> list[tuple[int, str]]:
        """``(seq, payload)`` of the game events (meta left out) with ``after < seq <= upto``."""
        return self._all(
            "SELECT seq, payload FROM events WHERE game_id = ? AND seq > ? AND seq <= ?"
            f" AND type NOT IN ({_META_SQL}) ORDER BY seq",
            (game_id, after, upto),
        )

    def latest_snapshot(self, game_id: str, at: int) -> tuple[int, str] | None:
        """The snapshot with the greatest ``seq <= at``, as ``(seq, state JSON)``."""
        row = self._one(
            "SELECT seq, state FROM snapshots WHERE game_id = ? AND seq <= ?"
            " ORDER BY seq DESC LIMIT 1",
            (game_id, at),
        )
        return None if row is None else (row[0], row[1])

    def snapshots(self, game_id: str) -> list[tuple[int, str]]:
        """Every snapshot of a game, as ``(seq, state JSON)`` in seq order."""
        rows = self._all(
            "SELECT seq, state FROM snapshots WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [(row[0], row[1]) for row in rows]

    def secrets(self, game_id: str) -> GameSecrets | None:
        """The game's secret seed and explicit deal (server-side use only: deciding,
        auditing, the final reveal), or ``None`` for no such game."""
        row = self._one("SELECT seed, deal FROM seeds WHERE game_id = ?", (game_id,))
        if row is None:
            return None
        deal = None if row[1] is None else msgspec.json.decode(row[1])
        return GameSecrets(seed=bytes.fromhex(row[0]), deal=deal)

    def check_token(self, game_id: str, token: str) -> int | None:
        """The seat a token belongs to, or ``None``; compares sha256 hashes in constant time."""
        digest = hash_token(token)
        rows = self._all(
            "SELECT seat, token_hash FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
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
        row = self._one(
            "SELECT game_id, seat FROM seats WHERE token_hash = ? LIMIT 1", (hash_token(token),)
        )
        return None if row is None else (row[0], row[1])

    def get_idempotency(self, game_id: str, key: str) -> IdempotencyRecord | None:
        """The record stored under an idempotency key, if any."""
        row = self._one(
            "SELECT request_fingerprint, response, created_at FROM idempotency"
            " WHERE game_id = ? AND key = ?",
            (game_id, key),
        )
        return None if row is None else _idempotency(game_id, key, row)

    def idempotency_records(self, game_id: str) -> list[IdempotencyRecord]:
        """Every idempotency record of a game, by key (for copying a store)."""
        rows = self._all(
            "SELECT key, request_fingerprint, response, created_at FROM idempotency"
            " WHERE game_id = ? ORDER BY key",
            (game_id,),
        )
        return [_idempotency(game_id, row[0], row[1:]) for row in rows]

    def token_hashes(self, game_id: str) -> dict[int, str]:
        """The sha256 of each seat token held, by seat (for copying a store; never a token)."""
        rows = self._all(
            "SELECT seat, token_hash FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return {row[0]: row[1] for row in rows}

    # -- seats -----------------------------------------------------------------------------

    def seat_states(self, game_id: str, players: int | None = None) -> list[SeatState]:
        """Each seat's holder, by seat (a game stored without holders: the creator's)."""
        with self.reading() as conn:
            return _seat_states(conn, game_id, players)

    def seat_states_of(self, game_ids: Sequence[str]) -> dict[str, list[SeatState]]:
        """The holders of several games at once (a page of summaries), by game id."""
        found: dict[str, list[SeatState]] = {}
        for start in range(0, len(game_ids), 500):
            chunk = list(game_ids[start : start + 500])
            marks = ", ".join("?" * len(chunk))
            rows = self._all(
                f"SELECT game_id, seat, type, name, bot FROM seat_states WHERE game_id IN ({marks})"
                " ORDER BY game_id, seat",
                chunk,
            )
            for row in rows:
                found.setdefault(row[0], []).append(_seat_state(row[1:]))
        return found

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

    def due_games(self, *, limit: int = 1000) -> list[tuple[str, str]]:
        """``(game id, due_at)`` of the games the server has work to do on, soonest first
        (an index read: games that wait on people are not read)."""
        rows = self._all(
            "SELECT id, due_at FROM games WHERE due_at IS NOT NULL ORDER BY due_at, id LIMIT ?",
            (limit,),
        )
        return [(row[0], row[1]) for row in rows]

    def due_at(self, game_id: str) -> str | None:
        """When the server next has work to do on a game (``None``: none, or no such game)."""
        row = self._one("SELECT due_at FROM games WHERE id = ?", (game_id,))
        return None if row is None else row[0]

    def set_due(self, game_id: str, version: int, due_at: str | None) -> bool:
        """Mark when the server next has work to do on a game that is still at ``version``
        (a scheduler that looked and found the next work elsewhere, or none). Returns whether
        the mark was set; a game that moved on keeps the mark its last append gave it."""
        with self._write() as conn:
            changed = conn.execute(
                "UPDATE games SET due_at = ? WHERE id = ? AND version = ?",
                (due_at, game_id, version),
            )
            return bool(changed.rowcount)

    def orphan_game_ids(self) -> list[str]:
        """Game ids that have events but no ``games`` row (a sign of tampering)."""
        rows = self._all(
            "SELECT DISTINCT game_id FROM events WHERE game_id NOT IN (SELECT id FROM games)"
            " ORDER BY game_id"
        )
        return [row[0] for row in rows]


def _nothing() -> None:
    pass


def _seat_state(row: Sequence[Any]) -> SeatState:
    return SeatState(seat=row[0], type=SeatType(row[1]), name=row[2], bot=row[3])


def _seat_states(conn: Transaction, game_id: str, players: int | None) -> list[SeatState]:
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


def check_batch(batch: Append) -> None:
    """Refuse a malformed batch (a caller's bug, not a conflict): ``ValueError``."""
    rows = batch.rows
    for index, row in enumerate(rows):
        if row.seq != batch.version + 1 + index:
            raise ValueError(f"row {index} has seq {row.seq}, not {batch.version + 1 + index}")
        last = index == len(rows) - 1
        if row.type == "game_created" or (row.type == "seed_revealed" and not last):
            raise ValueError(f"{row.type} cannot be appended at position {index} of a batch")
    finishing = bool(rows) and rows[-1].type == "seed_revealed"
    if finishing != (batch.outcome is not None):
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
        response=row[1].encode(),
        created_at=row[2],
    )
