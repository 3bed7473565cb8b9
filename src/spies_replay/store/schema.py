"""The database schema, as sqlite-utils migrations with a recorded schema version.

Every migration is recorded, with the time it ran, in ``_sqlite_migrations`` (migration set
``spies_replay``) by sqlite-utils; the schema version of a file is the number of those
records (:func:`schema_version`), :data:`SCHEMA_VERSION` for this code. A file that records
migrations this code does not know (written by a newer version) is refused. ``PRAGMA
user_version`` is left to the application that shares the file.

Tables (all SQLite ``STRICT``):

- ``games``: one row per game: ``id`` (random url-safe text, primary key), ``game``
  (registered game id), ``players``, ``options`` (JSON as given), ``status``
  (``active``/``finished``), ``version`` (seq of the last event), ``head_hash``,
  ``seed_commitment``, ``seed_source``, ``rng``, ``outcome`` (JSON or NULL),
  ``created_at``, ``updated_at``.
- ``seeds``: ``game_id`` (primary key), ``seed`` (hex), ``deal`` (JSON of ``options.deal``
  or NULL; migration 2). Kept apart from the events so that no reader of the log sees them
  before ``seed_revealed``.
- ``seats``: ``(game_id, seat)`` primary key, ``token_hash`` (sha256 hex of the seat token).
- ``events``: ``(game_id, seq)`` primary key, ``type``, ``payload`` (JSON text),
  ``recorded_at``, ``actor`` (seat or NULL), ``command`` (JSON or NULL; on the first row of
  the batch a command produced), ``hash``. Triggers abort every UPDATE and DELETE, and
  every INSERT onto a taken ``(game_id, seq)`` (which ``INSERT OR REPLACE`` would otherwise
  turn into a silent delete).
- ``idempotency``: ``(game_id, key)`` primary key, ``request_fingerprint``, ``response``
  (JSON), ``created_at``; written in the transaction of the append it belongs to.
- ``snapshots``: ``(game_id, seq)`` primary key, ``state`` (JSON); a pure cache.
- ``seat_states`` (migration 3): ``(game_id, seat)`` primary key, ``type`` (``creator``,
  ``open``, ``joined``, ``bot``), ``name``, ``bot``: each seat's holder as the log's seat
  events leave it. A seat has a ``seats`` row (a token hash) exactly when a person holds
  its token: open and bot seats have none.
- ``rematches`` (migration 3): ``game_id`` (primary key: one rematch per game),
  ``next_id`` (unique).
- ``events.bot`` (migration 3): the bot that chose the command of the batch (first row).
- ``signing_keys`` (migration 5): the receipt signing keys (:mod:`spies_replay.store.keyring`).
"""

from __future__ import annotations

from typing import Final

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from spies_replay.store.keyring import SIGNING_KEYS_SQL  # receipts

__all__ = ["MIGRATION_NAMES", "SCHEMA_VERSION", "migrations", "schema_version"]

migrations: Final = Migrations("spies_replay")
"""The migration set. Append new migrations at the end; never edit an applied one."""

APPEND_ONLY_MESSAGE: Final = "events are append-only"


@migrations()
def m001_initial(db: Database) -> None:
    """Games, seeds, seats, events (append-only), idempotency records and snapshots."""
    db.table("games").create(
        {
            "id": str,
            "game": str,
            "players": int,
            "options": str,
            "status": str,
            "version": int,
            "head_hash": str,
            "seed_commitment": str,
            "seed_source": str,
            "rng": str,
            "outcome": str,
            "created_at": str,
            "updated_at": str,
        },
        pk="id",
        not_null={
            "game",
            "players",
            "options",
            "status",
            "version",
            "head_hash",
            "seed_commitment",
            "seed_source",
            "rng",
            "created_at",
            "updated_at",
        },
        strict=True,
    )
    db.table("games").create_index(["game", "status"])
    db.table("games").create_index(["created_at", "id"])
    db.table("seeds").create({"game_id": str, "seed": str}, pk="game_id", strict=True)
    db.table("seats").create(
        {"game_id": str, "seat": int, "token_hash": str},
        pk=("game_id", "seat"),
        not_null={"token_hash"},
        strict=True,
    )
    db.table("events").create(
        {
            "game_id": str,
            "seq": int,
            "type": str,
            "payload": str,
            "recorded_at": str,
            "actor": int,
            "command": str,
            "hash": str,
        },
        pk=("game_id", "seq"),
        not_null={"type", "payload", "recorded_at", "hash"},
        strict=True,
    )
    abort = f"BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY_MESSAGE}'); END"
    db.execute(f"CREATE TRIGGER events_no_update BEFORE UPDATE ON events {abort}")
    db.execute(f"CREATE TRIGGER events_no_delete BEFORE DELETE ON events {abort}")
    # INSERT OR REPLACE deletes the old row without firing the DELETE trigger unless the
    # connection set recursive_triggers; refuse any insert onto a taken (game_id, seq).
    db.execute(
        "CREATE TRIGGER events_no_replace BEFORE INSERT ON events WHEN EXISTS"
        " (SELECT 1 FROM events WHERE game_id = NEW.game_id AND seq = NEW.seq)"
        f" {abort}"
    )
    db.table("idempotency").create(
        {
            "game_id": str,
            "key": str,
            "request_fingerprint": str,
            "response": str,
            "created_at": str,
        },
        pk=("game_id", "key"),
        not_null={"request_fingerprint", "response", "created_at"},
        strict=True,
    )
    db.table("snapshots").create(
        {"game_id": str, "seq": int, "state": str},
        pk=("game_id", "seq"),
        not_null={"state"},
        strict=True,
    )


@migrations()
def m002_secret_deal(db: Database) -> None:
    """``seeds.deal``: an explicit deal is secret until the end, like the seed."""
    db.execute("ALTER TABLE seeds ADD COLUMN deal TEXT")


@migrations()
def m003_seats(db: Database) -> None:
    """Seat holders, rematch links, and the bot that chose a command.

    ``seat_states`` is the seats of each game as its log's seat events leave them (kept in
    the transaction of each event, so a join is decided against the current holders);
    ``rematches`` links a finished game to its rematch (one each); ``events.bot`` names the
    bot that chose the batch's command (first row only; covered by the hash when set).
    """
    db.table("seat_states").create(
        {"game_id": str, "seat": int, "type": str, "name": str, "bot": str},
        pk=("game_id", "seat"),
        not_null={"type"},
        strict=True,
    )
    db.execute(
        "INSERT INTO seat_states (game_id, seat, type) SELECT game_id, seat, 'creator' FROM seats"
    )
    db.table("rematches").create(
        {"game_id": str, "next_id": str}, pk="game_id", not_null={"next_id"}, strict=True
    )
    db.execute("CREATE UNIQUE INDEX rematches_next ON rematches (next_id)")
    db.execute("ALTER TABLE events ADD COLUMN bot TEXT")


@migrations()
def m004_due_work(db: Database) -> None:
    """``games.due_at``: when the server next has work to do on a game (a bot to move, a
    clock to run out), so a scheduler finds the games with work without reading the others.

    Games in progress with a bot seat are marked due at once: the scheduler looks at each
    once and clears the mark when nothing is due.
    """
    db.execute("ALTER TABLE games ADD COLUMN due_at TEXT")
    db.execute("CREATE INDEX games_due ON games (due_at) WHERE due_at IS NOT NULL")
    db.execute(
        "UPDATE games SET due_at = updated_at WHERE status = 'active' AND EXISTS"
        " (SELECT 1 FROM seat_states s WHERE s.game_id = games.id AND s.bot IS NOT NULL)"
    )


@migrations()
def m005_signing_keys(db: Database) -> None:
    """``signing_keys``: the server's receipt signing keys (:mod:`spies_replay.store.keyring`)."""
    db.execute(SIGNING_KEYS_SQL + " STRICT")  # receipts


def schema_version(db: Database) -> int:
    """The number of ``spies_replay`` migrations recorded in the file."""
    return len(migrations.applied(db))


MIGRATION_NAMES: Final = frozenset(
    migration.name for migration in migrations.pending(Database(memory=True, execute_plugins=False))
)
"""The names of every migration this code knows."""

SCHEMA_VERSION: Final = len(MIGRATION_NAMES)
"""The number of migrations of this code (the schema version of an up-to-date file)."""
