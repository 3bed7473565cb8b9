"""The replay log: the append-only event store, the hash chain, fair shuffles, replay.

Everything that happens in a game is an event in the store: one SQLite file by default
(:mod:`spies_replay.sqlite_store`), or a PostgreSQL database
(:mod:`spies_replay.postgres_store`), behind one protocol (:mod:`spies_replay.store`). The
store appends a command's events in one transaction or none, guarded by the unique
``(game_id, seq)`` key, and the database itself refuses to update or delete them.
Each event row is sealed into a per-game hash chain (:mod:`spies_replay.codec`). A game's
first event commits to its secret seed and its last reveals it (:mod:`spies_replay.meta`), so
after the game anyone can re-run it from the export and check every shuffle
(:mod:`spies_replay.verify`, :mod:`spies_replay.transfer`).

Public API, by module:

- :mod:`spies_replay.engine`: :func:`create_game`, :func:`submit_command`,
  :func:`load_state`, :func:`view_at`, :func:`redact_for`, :func:`seed_from_client` (a
  client's seed string to the seed bytes).
- :mod:`spies_replay.backends`: :func:`open_store` (a database location to an open store),
  :func:`is_postgres_url`, :func:`redact_location` (a location fit for messages: a URL's
  password hidden).
- :mod:`spies_replay.store`: the :class:`EventStore` protocol (``append``, ``get_game``,
  ``list_games``, ``read_events``, ``check_token``, ``get_idempotency``, ...).
- :mod:`spies_replay.records`: :class:`GameRecord`, :class:`StoredEvent`, and the other
  records a store keeps.
- :mod:`spies_replay.verify`: :func:`verify_game`, :func:`verify_all`, :func:`verify_log`.
- :mod:`spies_replay.transfer`: :func:`export_game`, :func:`import_game` (JSON Lines).
- :mod:`spies_replay.errors`: the typed errors and their codes.
- :mod:`spies_replay.cli`: the ``spies-replay`` console script (a package, one module per
  group of subcommands).

Nothing here names a game: games come from :data:`spies_core.registry.GAMES` (or a mapping
given to :func:`open_store`).
"""

from __future__ import annotations

from spies_replay.backends import is_postgres_url, open_store
from spies_replay.backends import redact as redact_location
from spies_replay.engine import (
    CommandResult,
    CreatedGame,
    IdempotencyRequest,
    LoadedState,
    ViewAt,
    create_game,
    load_state,
    redact_for,
    seed_from_client,
    submit_command,
    view_at,
)
from spies_replay.errors import (
    GameExistsError,
    GameFinishedError,
    GameNotFinishedError,
    GameNotFoundError,
    IdempotencyKeyExistsError,
    InvalidExportError,
    ReplayError,
    SeqOutOfRangeError,
    StoreBusyError,
    StoreUnavailableError,
    TamperedLogError,
    VersionConflictError,
)
from spies_replay.meta import GameCreated, MetaEvent, SeedRevealed, SeedSource, is_meta
from spies_replay.records import (
    GamePage,
    GameRecord,
    GameStatus,
    IdempotencyRecord,
    StoredEvent,
)
from spies_replay.store import EventStore
from spies_replay.transfer import export_game, export_lines, import_game
from spies_replay.verify import Problem, Rederivation, VerifyReport, verify_all, verify_game

__all__ = [
    "CommandResult",
    "CreatedGame",
    "EventStore",
    "GameCreated",
    "GameExistsError",
    "GameFinishedError",
    "GameNotFinishedError",
    "GameNotFoundError",
    "GamePage",
    "GameRecord",
    "GameStatus",
    "IdempotencyKeyExistsError",
    "IdempotencyRecord",
    "IdempotencyRequest",
    "InvalidExportError",
    "LoadedState",
    "MetaEvent",
    "Problem",
    "Rederivation",
    "ReplayError",
    "SeedRevealed",
    "SeedSource",
    "SeqOutOfRangeError",
    "StoreBusyError",
    "StoreUnavailableError",
    "StoredEvent",
    "TamperedLogError",
    "VerifyReport",
    "VersionConflictError",
    "ViewAt",
    "create_game",
    "export_game",
    "export_lines",
    "import_game",
    "is_meta",
    "is_postgres_url",
    "load_state",
    "open_store",
    "redact_for",
    "redact_location",
    "seed_from_client",
    "submit_command",
    "verify_all",
    "verify_game",
    "view_at",
]
