"""The compact heads kept with the games: one row a game, so that loading a game's head is
one read, not a fold of its log.

One table, ``heads``, created by each backend's migration :data:`MIGRATION_NAME`
(:mod:`~spies_replay.store.sqlite_schema`, :mod:`~spies_replay.store.postgres_schema`):
``game_id`` (primary key), ``version`` (the game's version the head was kept at) and
``head`` (text its writer encoded; the store never reads it). Each append that carries a
head (:attr:`~spies_replay.store.records.Append.head`) replaces the game's row in the
append's own transaction (:func:`~spies_replay.store.sql_rows.insert_head`, from SQLite's
:mod:`~spies_replay.store.sqlite_append` and in PostgreSQL's ``spies_append``); a creation
writes the first one (:func:`~spies_replay.store.sql_rows.insert_game`). It is a cache of
what the log says, never the log: :data:`HEAD_ROW_SQL` hands it out only at the version
the game's row has, a writer that kept none (an older server, a seat change on a game
whose head was not kept, a copy or an import) leaves it behind and so unused, and a reader
that folds the log instead may write it back (:func:`write_back`, a write that may fail
without harm). Verify, export and copy never read it. A process that starts reads them ahead
a page at a time (:func:`kept_heads`: the games not finished, newest first).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from spies_replay.errors import GameNotFoundError
from spies_replay.store.records import HeadRow, KeptHeads
from spies_replay.store.sql_rows import GAME_COLUMNS, Transaction, game_record, game_secrets

__all__ = [
    "HEADS_SQL",
    "HEAD_ROW_SQL",
    "MIGRATION_NAME",
    "head_of_row",
    "kept_heads",
    "write_back",
]

MIGRATION_NAME: Final = "m011_heads"
"""The migration that makes the table (and, on PostgreSQL, the append that writes it)."""

HEADS_SQL: Final = (
    "CREATE TABLE heads (game_id TEXT PRIMARY KEY, version BIGINT NOT NULL, head TEXT NOT NULL)"
)
"""The table's DDL (SQLite's migration makes it ``INTEGER`` and ``STRICT``)."""

_GAME: Final = ", ".join(f"g.{column}" for column in GAME_COLUMNS.split(", "))
HEAD_ROW_SQL: Final = (
    f"SELECT {_GAME}, s.seed, s.deal, h.head FROM games g"
    " LEFT JOIN seeds s ON s.game_id = g.id"
    " LEFT JOIN heads h ON h.game_id = g.id AND h.version = g.version"
    " WHERE g.id = ?"
)
"""A game's row, its secrets and its compact head at its version: one indexed read."""

_KEPT_HEADS: Final = (
    f"SELECT {_GAME}, s.seed, s.deal, h.head FROM games g"
    " JOIN heads h ON h.game_id = g.id AND h.version = g.version"
    " JOIN seeds s ON s.game_id = g.id"
    " WHERE g.status <> 'finished'{before}"
    " ORDER BY g.created_at DESC, g.id DESC LIMIT ?"
)


def _kept_heads_sql(*, after_first: bool) -> str:
    """The games not finished that have a compact head kept at their version, with their
    row and secrets (as :data:`HEAD_ROW_SQL`), newest first (by ``created_at``, then id: the
    index ``idx_games_created_at_id``); a page of ``?`` of them, after the first page those
    created before the last one seen (``created_at``, ``id``: two more parameters first)."""
    before = " AND (g.created_at < ? OR (g.created_at = ? AND g.id < ?))" if after_first else ""
    return _KEPT_HEADS.format(before=before)


_SAVE_HEAD_SQL: Final = (
    "INSERT INTO heads (game_id, version, head) SELECT ?, ?, ?"
    " WHERE EXISTS (SELECT 1 FROM games WHERE id = ? AND version = ?)"
    " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, head = excluded.head"
    " WHERE heads.version <= excluded.version"
)
"""A head written back by a reader: only while the game is at its version, never over a
newer one (a writer that appended meanwhile keeps its own)."""


def head_of_row(row: Sequence[Any] | None, game_id: str) -> HeadRow:
    """The :class:`~spies_replay.store.records.HeadRow` of a row :data:`HEAD_ROW_SQL` selected.

    Raises:
        GameNotFoundError: no row: no such game.
    """
    if row is None:
        raise GameNotFoundError(game_id)
    columns = len(GAME_COLUMNS.split(", "))
    seed, deal, head = row[columns], row[columns + 1], row[columns + 2]
    secrets = None if seed is None else game_secrets(seed, deal)
    return HeadRow(record=game_record(row[:columns]), secrets=secrets, head=head)


def kept_heads(
    read: Callable[[str, Sequence[Any]], list[Any]],
    limit: int,
    after: tuple[str, str] | None = None,
) -> KeptHeads:
    """Up to ``limit`` games not finished whose compact head is kept at their version, newest
    first, with their seats' token hashes: two indexed reads through ``read`` (a store's
    ``(sql, params) -> rows``); after the first page, those created before ``after`` (the
    previous page's :attr:`~spies_replay.store.records.KeptHeads.last`)."""
    if after is None:
        rows = read(_kept_heads_sql(after_first=False), (limit,))
    else:
        created_at, game_id = after
        rows = read(_kept_heads_sql(after_first=True), (created_at, created_at, game_id, limit))
    heads = [head_of_row(row, "") for row in rows]
    tokens: dict[str, dict[int, str]] = {}
    if heads:
        ids = [head.record.id for head in heads]
        marks = ", ".join("?" * len(ids))
        found = read(f"SELECT game_id, seat, token_hash FROM seats WHERE game_id IN ({marks})", ids)
        for key, seat, token_hash in found:
            tokens.setdefault(key, {})[seat] = token_hash
    return KeptHeads(heads, tokens)


def write_back(conn: Transaction, game_id: str, version: int, head: str) -> bool:
    """Write back a head a reader folded at ``version``, if the game is still there and no
    newer head is kept; returns whether it was written."""
    written = conn.execute(_SAVE_HEAD_SQL, (game_id, version, head, game_id, version))
    return bool(written.rowcount)
