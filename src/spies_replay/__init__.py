"""The replay log: the append-only event store, the hash chain, fair shuffles, replay.

Everything that happens in a game is an event in the store: one SQLite file by default
(:mod:`spies_replay.store.sqlite`), or a PostgreSQL database
(:mod:`spies_replay.store.postgres`), behind small protocols by role
(:mod:`spies_replay.store.protocols`). The store appends a command's events in one
transaction or none, guarded by the unique ``(game_id, seq)`` key, and the database itself
refuses to update or delete them.
Each event row is sealed into a per-game hash chain (:mod:`spies_replay.codec`). A game's
first event commits to its secret seed and its last reveals it (:mod:`spies_replay.meta`), so
after the game anyone can re-run it from the export and check every shuffle
(:mod:`spies_replay.verify`, :mod:`spies_replay.transfer`).

Public API, by module:

- :mod:`spies_replay.reading`: :func:`load_state`, :func:`view_at` (a state or a view after
  any event), :func:`redact_for`, :func:`~spies_replay.reading.clock_at`. Creating games and
  turning commands into appends is the application layer's, :mod:`spies_api.game`.
- :mod:`spies_replay.store`: the store: :func:`open_store` (a database location to an open
  store), :func:`is_postgres_url`, :func:`redact_location` (a location fit for messages: a
  URL's password hidden), the protocols by role (:class:`EventStore` and its parts), the
  records a store keeps (:class:`GameRecord`, :class:`GamePage`, ...) and the backends. The
  store keeps rows of JSON text; :mod:`spies_replay.reading` decodes them
  (:func:`read_events`, :class:`StoredEvent`).
- :mod:`spies_replay.verify`: :func:`verify_game`, :func:`verify_all`, :func:`~.verify.verify_log`
  (the report: :class:`VerifyReport`, its :class:`Problem` and :class:`Caveat`).
- :mod:`spies_replay.transfer`: :func:`export_game`, :func:`import_game` (JSON Lines).
- :mod:`spies_replay.marks`: the bot mark recorded with a bot's command (``greedy@1``), and
  :class:`BotPolicies`, the bots verify re-runs those commands with.
- :mod:`spies_replay.errors`: the typed errors and their codes.
- :mod:`spies_replay.cli`: the ``spies-replay`` console script (a package, one module per
  group of subcommands).

Nothing here names a game: games come from :data:`spies_core.registry.GAMES` (or a mapping
given as ``games`` to the functions that look a game up). Nothing here names a bot either:
a bot's command is recorded with the mark the caller gives, and verify re-runs bot moves
only with the bots it is given.

Who may import it: ``spies_api`` and ``spies_sim`` (and tools and tests). It imports only
:mod:`spies_core`, never the bots or the API, with one exception: its console layer,
:mod:`spies_replay.cli` (a program, which nothing in ``src/`` imports), hands the registry of
``spies_bots`` to verify and import (:mod:`spies_replay.cli.bots`), and ends a game for an
operator through the application layer (:func:`spies_api.game.clocks.abort_game`).
"""

from __future__ import annotations

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
    StoreFullError,
    StoreUnavailableError,
    TamperedLogError,
    VersionConflictError,
)
from spies_replay.marks import BotMark, BotPolicies, bot_mark, parse_bot_mark
from spies_replay.meta import (
    AbortReason,
    GameAborted,
    GameCreated,
    MetaEvent,
    SeedRevealed,
    SeedSource,
    is_meta,
)
from spies_replay.reading import (
    LoadedState,
    StoredEvent,
    ViewAt,
    load_state,
    read_events,
    redact_for,
    view_at,
)
from spies_replay.store.backends import open_store
from spies_replay.store.locations import is_postgres_url
from spies_replay.store.locations import redact as redact_location
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import GamePage, GameRecord, GameStatus, IdempotencyRecord
from spies_replay.transfer import export_game, export_lines, import_game
from spies_replay.verify import (
    Caveat,
    Problem,
    Rederivation,
    VerifyReport,
    verify_all,
    verify_game,
)

__all__ = [
    "AbortReason",
    "BotMark",
    "BotPolicies",
    "Caveat",
    "EventStore",
    "GameAborted",
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
    "StoreFullError",
    "StoreUnavailableError",
    "StoredEvent",
    "TamperedLogError",
    "VerifyReport",
    "VersionConflictError",
    "ViewAt",
    "bot_mark",
    "export_game",
    "export_lines",
    "import_game",
    "is_meta",
    "is_postgres_url",
    "load_state",
    "open_store",
    "parse_bot_mark",
    "read_events",
    "redact_for",
    "redact_location",
    "verify_all",
    "verify_game",
    "view_at",
]
