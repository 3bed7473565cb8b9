"""The SQL every backend shares: the reads, the games' creation and the cache's writes.

:class:`SqlEventStore` is written once over a DB-API connection with ``?`` placeholders; a
backend (:mod:`spies_replay.store.sqlite`, :mod:`spies_replay.store.postgres`) supplies its
connections, its transactions, its migrations, its append (each backend has exactly one:
:mod:`spies_replay.store.sqlite_append`, PostgreSQL's SQL function in
:mod:`spies_replay.store.postgres_schema`) and the translation of its driver's errors. The
guarantees, on every backend:

- an append compares the game's version and head hash with the batch's inside a write
  transaction that holds the game's row, and raises
  :class:`~spies_replay.errors.VersionConflictError` when another writer got there first;
  the ``(game_id, seq)`` primary key backs it;
- every write of one command (its events, the game row, its idempotency record, a snapshot,
  a seat token) is one transaction: seat tokens and idempotency records live in the store
  because they guard appends and must commit or vanish with them;
- the database itself refuses to update or delete an event, or to insert one over a taken
  seq;
- the seed and a secret deal are kept apart from the events (their own table).

The store keeps the log as text and numbers: it decodes no event, command or state (the
layers above do, with :mod:`spies_replay.codec`), and answers by row type only for the
types its caller names.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from contextlib import AbstractContextManager
from typing import Any, ClassVar, Self

import structlog

from spies_replay.errors import GameNotFoundError, ReplayError
from spies_replay.meta import SeatState
from spies_replay.store.heads import HEAD_ROW_SQL, head_of_row, kept_heads, write_back
from spies_replay.store.protocols import LoopWatch
from spies_replay.store.records import (
    SNAPSHOT_EVERY,
    BackendName,
    EventRow,
    GamePage,
    GameRecord,
    GameSecrets,
    GameStatus,
    HeadRow,
    Heard,
    IdempotencyRecord,
    KeptHeads,
    NewGame,
    Unheard,
    hash_token,
)
from spies_replay.store.sql_rows import (
    EVENT_COLUMNS,
    GAME_COLUMNS,
    SEATS_SQL,
    Transaction,
    event_row,
    game_record,
    game_secrets,
    idempotency_record,
    insert_game,
    insert_snapshots,
    seat_of_token,
    seat_state,
    seat_states,
)

__all__ = ["SqlEventStore"]

_log = structlog.get_logger("spies_replay.store")


class SqlEventStore:
    """The store's behaviour over SQL, shared by every backend.

    A backend sets :attr:`location` and :attr:`backend`, and supplies
    :meth:`~spies_replay.store.protocols.EventLog.append`,
    :meth:`~spies_replay.store.protocols.EventStore.recorder`, :meth:`_write` (a write
    transaction), :meth:`reading` (a read
    transaction over one consistent snapshot; reentrant), :meth:`_connection` (the
    connection for one statement outside a transaction: the current transaction's when
    there is one), :meth:`pending_migrations` and :meth:`close`, each translating its
    driver's errors into :mod:`spies_replay.errors`; :attr:`driver_errors` names the
    driver's base error, caught where a failed write is only a missed cache.

    Args:
        snapshot_every: a snapshot of the folded state is kept whenever an append crosses a
            multiple of this many events, so loading any seq folds at most about that many.
    """

    driver_errors: ClassVar[tuple[type[Exception], ...]] = ()
    """The driver's base error, caught where a failed write is only a missed cache."""

    location: str
    backend: BackendName

    def __init__(self, *, snapshot_every: int = SNAPSHOT_EVERY) -> None:
        if snapshot_every < 1:
            raise ValueError(f"snapshot_every must be at least 1, not {snapshot_every}")
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

    def watch(self, on_append: Heard, on_gap: Unheard | None = None) -> Callable[[], None]:
        """Call ``on_append`` with each append by other processes (the game, its version,
        head and due mark after it: a wake-up, the log stays the truth), and ``on_gap`` each
        time some may have gone unheard; returns the function that stops watching. This
        default tells nothing: readers poll."""
        del on_append, on_gap
        return _nothing

    def loop_watch(self, on_append: Heard, on_gap: Unheard | None = None) -> LoopWatch | None:
        """``None``: this backend watches from a thread alone (:meth:`watch`)."""
        del on_append, on_gap
        return None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def _cache_errors(self) -> tuple[type[Exception], ...]:
        return (ReplayError, *self.driver_errors)

    def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._connection() as conn:
            return conn.execute(sql, params).fetchall()

    def _one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        with self._connection() as conn:
            return conn.execute(sql, params).fetchone()

    # -- games --------------------------------------------------------------------------

    def insert_game(self, game: NewGame) -> None:
        """Write a new game: its row, seed, secret deal, seat token hashes and holders, first
        events, and its link from the game it is a rematch of, atomically.

        Used by :func:`spies_api.game.creation.create_game`, by import and by copying.

        Raises:
            GameExistsError: the id is taken.
            RematchExistsError: ``rematch_of`` already has a rematch (nothing is written).
        """
        with self._write() as conn:
            insert_game(conn, game)

    def save_snapshots(self, game_id: str, snapshots: Sequence[tuple[int, object]]) -> None:
        """Keep folded states as snapshots (a cache: failures to write are logged, not raised)."""
        if not snapshots:
            return
        try:
            with self._write() as conn:
                insert_snapshots(conn, game_id, snapshots)
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
        row = self._one(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise GameNotFoundError(game_id)
        return game_record(row)

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
                f"SELECT {GAME_COLUMNS} FROM games{page_clause}"
                " ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
                [*page_params, limit + 1, offset],
            ).fetchall()
        games = [game_record(r) for r in rows[:limit]]
        return GamePage(
            games=games,
            total=total,
            limit=limit,
            offset=offset,
            next_before=games[-1].id if len(rows) > limit else None,
        )

    def read_rows(
        self,
        game_id: str,
        *,
        after: int = 0,
        upto: int | None = None,
        limit: int | None = None,
    ) -> list[EventRow]:
        """A game's rows with ``after < seq <= upto``, in seq order, at most ``limit`` (no
        existence check: a game with no such rows, or none at all, gives ``[]``)."""
        sql = f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq > ?"
        params: list[object] = [game_id, after]
        if upto is not None:
            sql += " AND seq <= ?"
            params.append(upto)
        sql += " ORDER BY seq"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return [event_row(row) for row in self._all(sql, params)]

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

    def last_row(
        self, game_id: str, types: Sequence[str], *, upto: int | None = None
    ) -> EventRow | None:
        """The last row whose type is one of ``types`` (named by the caller) with ``seq <=
        upto`` (default: the whole log), or ``None``: one indexed read."""
        marks = ", ".join("?" * len(types))
        sql = f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ? AND type IN ({marks})"
        params: list[object] = [game_id, *types]
        if upto is not None:
            sql += " AND seq <= ?"
            params.append(upto)
        row = self._one(sql + " ORDER BY seq DESC LIMIT 1", params)
        return None if row is None else event_row(row)

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

    def read_payloads(
        self, game_id: str, *, after: int, upto: int, skip: Collection[str] = ()
    ) -> list[tuple[int, str]]:
        """``(seq, payload)`` of a game's rows with ``after < seq <= upto``, in seq order,
        leaving out the rows whose type is in ``skip`` (the caller names them: a fold skips
        the log's own events)."""
        sql = "SELECT seq, payload FROM events WHERE game_id = ? AND seq > ? AND seq <= ?"
        params: list[object] = [game_id, after, upto]
        if skip:
            sql += f" AND type NOT IN ({', '.join('?' * len(skip))})"
            params += sorted(skip)
        return self._all(sql + " ORDER BY seq", params)

    def latest_snapshot(self, game_id: str, at: int) -> tuple[int, str] | None:
        """The snapshot with the greatest ``seq <= at``, as ``(seq, state JSON)``."""
        row = self._one(
            "SELECT seq, state FROM snapshots WHERE game_id = ? AND seq <= ?"
            " ORDER BY seq DESC LIMIT 1",
            (game_id, at),
        )
        return None if row is None else (row[0], row[1])

    def head_row(self, game_id: str) -> HeadRow:
        """The game's record, its secrets and its compact head at its version, in one read
        (:mod:`spies_replay.store.heads`).

        Raises:
            GameNotFoundError: no such game.
        """
        return head_of_row(self._one(HEAD_ROW_SQL, (game_id,)), game_id)

    def kept_heads(self, limit: int, after: tuple[str, str] | None = None) -> KeptHeads:
        """Up to ``limit`` games not finished whose compact head is kept at their version,
        newest first, with their seats' token hashes (:func:`~spies_replay.store.heads.
        kept_heads`); after the first page, those created before ``after``."""
        return kept_heads(self._all, limit, after)

    def save_head(self, game_id: str, version: int, head: str) -> None:
        """Write back a compact head folded at ``version`` while the game is still there (a
        cache: failures to write are logged, not raised)."""
        try:
            with self._write() as conn:
                write_back(conn, game_id, version, head)
        except self._cache_errors as exc:  # read-only, busy: the next reader folds again
            _log.warning("head_not_saved", game_id=game_id, error=str(exc))

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
        return None if row is None else game_secrets(row[0], row[1])

    def check_token(self, game_id: str, token: str) -> int | None:
        """The seat a token belongs to, or ``None``; compares sha256 hashes in constant time."""
        return seat_of_token(self._all(SEATS_SQL, (game_id,)), hash_token(token))

    def find_token(self, token: str) -> tuple[str, int] | None:
        """The game and seat a token belongs to, in any game, or ``None``.

        For telling a token of another game (HTTP 403) from an unknown one (401). The lookup
        is by the token's sha256, never by the token, so its timing says nothing about the
        token; ``seats.token_hash`` is indexed, so it reads one index entry, not the seats.
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
        return None if row is None else idempotency_record(game_id, key, row)

    def idempotency_records(self, game_id: str) -> list[IdempotencyRecord]:
        """Every idempotency record of a game, by key (for copying a store)."""
        rows = self._all(
            "SELECT key, request_fingerprint, response, created_at FROM idempotency"
            " WHERE game_id = ? ORDER BY key",
            (game_id,),
        )
        return [idempotency_record(game_id, row[0], row[1:]) for row in rows]

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
            return seat_states(conn, game_id, players)

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
                found.setdefault(row[0], []).append(seat_state(row[1:]))
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
