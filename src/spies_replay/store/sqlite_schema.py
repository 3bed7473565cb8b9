"""The SQLite schema: its migrations, in order (run by :mod:`spies_replay.store.migrations`).

Tables (all SQLite ``STRICT``):

- ``games``: one row per game: ``id`` (random url-safe text, primary key), ``game``
  (registered game id), ``players``, ``options`` (JSON as given), ``status``
  (``active``/``finished``), ``version`` (seq of the last event), ``head_hash``,
  ``seed_commitment``, ``seed_source``, ``rng``, ``outcome`` (JSON or NULL),
  ``created_at``, ``updated_at``, ``due_at`` (migration 4: when the server next has work to
  do on the game, as its writer said; an index of the games with work).
- ``seeds``: ``game_id`` (primary key), ``seed`` (hex), ``deal`` (JSON of ``options.deal``
  or NULL; migration 2). Kept apart from the events so that no reader of the log sees them
  before the log reveals them.
- ``seats``: ``(game_id, seat)`` primary key, ``token_hash`` (sha256 hex of the seat token;
  indexed since migration 5, so a token is found in any game without a scan).
- ``events``: ``(game_id, seq)`` primary key, ``type``, ``payload`` (JSON text),
  ``recorded_at``, ``actor`` (seat or NULL), ``command`` (JSON or NULL; on the first row of
  the batch a command produced), ``hash``, ``bot`` (migration 3: the bot that chose the
  batch's command, first row only). Triggers abort every UPDATE and DELETE, and every
  INSERT onto a taken ``(game_id, seq)`` (which ``INSERT OR REPLACE`` would otherwise turn
  into a silent delete).
- ``idempotency``: ``(game_id, key)`` primary key, ``request_fingerprint``, ``response``
  (the command's result as its writer gave it), ``created_at``; written in the transaction
  of the append it belongs to.
- ``snapshots``: ``(game_id, seq)`` primary key, ``state`` (JSON); a pure cache.
- ``seat_states`` (migration 3): ``(game_id, seat)`` primary key, ``type``, ``name``,
  ``bot``: each seat's holder as its writers recorded it with each seat change.
- ``rematches`` (migration 3): ``game_id`` (primary key: one rematch per game),
  ``next_id`` (unique).
- ``signing_keys`` (migration 6): the receipt signing keys (:mod:`spies_replay.store.keyring`).
- ``seed_commitments`` (migration 8; the numbers are shared with PostgreSQL, whose 7th
  changed its append, so SQLite has no 7th): server seeds committed before a player's
  entropy (:mod:`spies_replay.store.commitments`).
- ``players``, ``player_seats`` (migration 9): players and the seats they hold
  (:mod:`spies_replay.store.players`); migration 10 indexes ``player_seats`` by game and
  seat.
- ``heads`` (migration 11): ``game_id`` (primary key), ``version``, ``head``: each game's
  compact head, written by its appends; a cache (:mod:`spies_replay.store.heads`).

The first four migrations were written with sqlite-utils, and files made then record them
in sqlite-utils' table ``_sqlite_migrations``: :func:`adopt_sqlite_utils_records` carries
those records over to ``schema_migrations`` once (the statements here make exactly the
tables sqlite-utils made, text for text), and leaves a marker there that an older
spies-engine reads as a migration it does not know, so it refuses the file rather than
miss the later ones.
"""

from __future__ import annotations

import sqlite3
from typing import Final

from spies_replay.store.commitments import MIGRATION_NAME as COMMITMENTS_MIGRATION
from spies_replay.store.commitments import SEED_COMMITMENTS_INDEX, SEED_COMMITMENTS_SQL
from spies_replay.store.heads import HEADS_SQL
from spies_replay.store.heads import MIGRATION_NAME as HEADS_MIGRATION
from spies_replay.store.keyring import MIGRATION_NAME, SIGNING_KEYS_SQL  # receipts
from spies_replay.store.migrations import APPEND_ONLY_MESSAGE, MIGRATIONS_TABLE, Migration
from spies_replay.store.players import MIGRATION_NAME as PLAYERS_MIGRATION  # players
from spies_replay.store.players import (  # players
    OWNERS_INDEX_SQL,
    OWNERS_MIGRATION,
    PLAYERS_INDEX_SQL,
    PLAYERS_SQL,
)

__all__ = ["MIGRATIONS", "MIGRATION_NAMES", "SCHEMA_VERSION", "adopt_sqlite_utils_records"]

_ABORT: Final = f"BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY_MESSAGE}'); END"

MIGRATIONS: Final[tuple[Migration, ...]] = (
    Migration(
        "m001_initial",
        (
            'CREATE TABLE "games" (\n   "id" TEXT PRIMARY KEY,\n   "game" TEXT NOT NULL,\n'
            '   "players" INTEGER NOT NULL,\n   "options" TEXT NOT NULL,\n'
            '   "status" TEXT NOT NULL,\n   "version" INTEGER NOT NULL,\n'
            '   "head_hash" TEXT NOT NULL,\n   "seed_commitment" TEXT NOT NULL,\n'
            '   "seed_source" TEXT NOT NULL,\n   "rng" TEXT NOT NULL,\n   "outcome" TEXT,\n'
            '   "created_at" TEXT NOT NULL,\n   "updated_at" TEXT NOT NULL\n) STRICT',
            'CREATE INDEX "idx_games_game_status"\n    ON "games" ("game", "status")',
            'CREATE INDEX "idx_games_created_at_id"\n    ON "games" ("created_at", "id")',
            'CREATE TABLE "seeds" (\n   "game_id" TEXT PRIMARY KEY,\n   "seed" TEXT\n) STRICT',
            'CREATE TABLE "seats" (\n   "game_id" TEXT,\n   "seat" INTEGER,\n'
            '   "token_hash" TEXT NOT NULL,\n   PRIMARY KEY ("game_id", "seat")\n) STRICT',
            'CREATE TABLE "events" (\n   "game_id" TEXT,\n   "seq" INTEGER,\n'
            '   "type" TEXT NOT NULL,\n   "payload" TEXT NOT NULL,\n'
            '   "recorded_at" TEXT NOT NULL,\n   "actor" INTEGER,\n   "command" TEXT,\n'
            '   "hash" TEXT NOT NULL,\n   PRIMARY KEY ("game_id", "seq")\n) STRICT',
            f"CREATE TRIGGER events_no_update BEFORE UPDATE ON events {_ABORT}",
            f"CREATE TRIGGER events_no_delete BEFORE DELETE ON events {_ABORT}",
            # INSERT OR REPLACE deletes the old row without firing the DELETE trigger unless
            # the connection set recursive_triggers; refuse any insert onto a taken seq.
            "CREATE TRIGGER events_no_replace BEFORE INSERT ON events WHEN EXISTS"
            " (SELECT 1 FROM events WHERE game_id = NEW.game_id AND seq = NEW.seq)"
            f" {_ABORT}",
            'CREATE TABLE "idempotency" (\n   "game_id" TEXT,\n   "key" TEXT,\n'
            '   "request_fingerprint" TEXT NOT NULL,\n   "response" TEXT NOT NULL,\n'
            '   "created_at" TEXT NOT NULL,\n   PRIMARY KEY ("game_id", "key")\n) STRICT',
            'CREATE TABLE "snapshots" (\n   "game_id" TEXT,\n   "seq" INTEGER,\n'
            '   "state" TEXT NOT NULL,\n   PRIMARY KEY ("game_id", "seq")\n) STRICT',
        ),
    ),
    Migration(
        # an explicit deal is secret until the end, like the seed
        "m002_secret_deal",
        ("ALTER TABLE seeds ADD COLUMN deal TEXT",),
    ),
    Migration(
        # seat holders (written with each seat change), rematch links (one each), and the
        # bot that chose a command (first row of its batch; covered by the hash when set)
        "m003_seats",
        (
            'CREATE TABLE "seat_states" (\n   "game_id" TEXT,\n   "seat" INTEGER,\n'
            '   "type" TEXT NOT NULL,\n   "name" TEXT,\n   "bot" TEXT,\n'
            '   PRIMARY KEY ("game_id", "seat")\n) STRICT',
            "INSERT INTO seat_states (game_id, seat, type)"
            " SELECT game_id, seat, 'creator' FROM seats",
            'CREATE TABLE "rematches" (\n   "game_id" TEXT PRIMARY KEY,\n'
            '   "next_id" TEXT NOT NULL\n) STRICT',
            "CREATE UNIQUE INDEX rematches_next ON rematches (next_id)",
            "ALTER TABLE events ADD COLUMN bot TEXT",
        ),
    ),
    Migration(
        # games.due_at, the index of due work; games in progress with a bot seat are marked
        # due at once (the scheduler looks at each once and clears the mark)
        "m004_due_work",
        (
            "ALTER TABLE games ADD COLUMN due_at TEXT",
            "CREATE INDEX games_due ON games (due_at) WHERE due_at IS NOT NULL",
            "UPDATE games SET due_at = updated_at WHERE status = 'active' AND EXISTS"
            " (SELECT 1 FROM seat_states s WHERE s.game_id = games.id AND s.bot IS NOT NULL)",
        ),
    ),
    Migration(
        # a seat token is found by its hash in any game (401 or 403) without a scan
        "m005_token_index",
        ("CREATE INDEX seats_token_hash ON seats (token_hash)",),
    ),
    Migration(MIGRATION_NAME, (SIGNING_KEYS_SQL + " STRICT",)),  # receipts
    Migration(  # players' entropy: the server seeds committed before a game uses them
        COMMITMENTS_MIGRATION, (SEED_COMMITMENTS_SQL + " STRICT", SEED_COMMITMENTS_INDEX)
    ),
    Migration(  # players
        PLAYERS_MIGRATION, (*(table + " STRICT" for table in PLAYERS_SQL), PLAYERS_INDEX_SQL)
    ),
    Migration(OWNERS_MIGRATION, (OWNERS_INDEX_SQL,)),  # players: who owns a game's seat
    # the compact heads, written by the append: a cold load reads one row
    Migration(HEADS_MIGRATION, (HEADS_SQL.replace("BIGINT", "INTEGER") + " STRICT",)),
)
"""SQLite's migrations, in order: append new ones at the end; never edit an applied one."""

MIGRATION_NAMES: Final = frozenset(migration.name for migration in MIGRATIONS)
"""The names of every migration this code knows."""

SCHEMA_VERSION: Final = len(MIGRATIONS)
"""The number of migrations of this code (the schema version of an up-to-date file)."""

_SQLITE_UTILS_TABLE: Final = "_sqlite_migrations"
_SQLITE_UTILS_SET: Final = "spies_replay"
ADOPTED_MARKER: Final = "m100_moved_to_schema_migrations"
"""Left in ``_sqlite_migrations`` once its records moved: an unknown migration to the
sqlite-utils runner of older versions, which refuse the file (``schema-too-new``)."""


def adopt_sqlite_utils_records(conn: sqlite3.Connection) -> None:
    """Carry the records of a file migrated by sqlite-utils (``_sqlite_migrations``,
    migration set ``spies_replay``) over to ``schema_migrations``, once, inside the
    migrating transaction. A file without them is left as it is."""
    tables = {
        row[0]
        for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (?, ?)",
            (_SQLITE_UTILS_TABLE, MIGRATIONS_TABLE),
        )
    }
    if _SQLITE_UTILS_TABLE not in tables or MIGRATIONS_TABLE in tables:
        return
    conn.execute(
        f"CREATE TABLE {MIGRATIONS_TABLE} (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
    )
    conn.execute(
        f"INSERT INTO {MIGRATIONS_TABLE} (name, applied_at) SELECT name, applied_at"
        f" FROM {_SQLITE_UTILS_TABLE} WHERE migration_set = ? AND name <> ?",
        (_SQLITE_UTILS_SET, ADOPTED_MARKER),
    )
    conn.execute(
        f"INSERT OR IGNORE INTO {_SQLITE_UTILS_TABLE} (migration_set, name, applied_at)"
        " VALUES (?, ?, datetime('now'))",
        (_SQLITE_UTILS_SET, ADOPTED_MARKER),
    )
