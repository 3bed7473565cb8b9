"""The API's settings: one frozen value, built once and handed to :func:`spies_api.create_app`.

Every field has a default that suits a server started with ``spies-api``; tests pass a
temporary database and short SSE intervals. New limits (rate limits, quotas, ...) are added
as new fields with defaults, so existing callers keep working.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["Settings"]

KIB = 1024


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """How the API runs.

    Attributes:
        db_path: the SQLite file of the replay log; created and migrated on first start.
        max_body_bytes: request bodies above this size get 413 ``body-too-large``.
        cache_size: how many games' folded states are kept in memory (least recently used
            ones are dropped and re-folded from the log when needed).
        snapshot_every: the replay log keeps a snapshot of a game's state every this many
            events, so a cache miss folds at most about that many events.
        sse_keepalive_seconds: an idle event stream sends a ``: keep-alive`` comment at
            least this often.
        sse_poll_seconds: an idle event stream also looks at the log this often, for events
            appended by another process sharing the database file.
        events_page_default: events returned by ``GET /games/{id}/events`` without ``limit``
            (more than any registered game's ``max_events``: one page holds a whole game).
        events_page_max: the largest ``limit`` accepted there.
        games_page_default: games returned by ``GET /games`` without ``limit``.
        games_page_max: the largest ``limit`` accepted there.
        idempotency_key_max_length: the longest ``Idempotency-Key`` accepted.
        inline_commands: run a command on the event loop when nothing can make it wait
            (its seat known, its game cached, the game and the database free), else on a
            worker thread; ``False``: always on a worker thread.
        log_json: ``True`` for JSON log lines, ``False`` for coloured console lines,
            ``None`` to choose by whether stderr is a terminal.
        configure_logging: whether :func:`~spies_api.create_app` configures structlog (an
            embedding application that configures it itself passes ``False``).
    """

    db_path: Path | str = Path("spies.db")
    max_body_bytes: int = 64 * KIB
    cache_size: int = 1024
    snapshot_every: int = 128
    sse_keepalive_seconds: float = 15.0
    sse_poll_seconds: float = 1.0
    events_page_default: int = 5000
    events_page_max: int = 10_000
    games_page_default: int = 50
    games_page_max: int = 200
    idempotency_key_max_length: int = 255
    inline_commands: bool = True
    log_json: bool | None = None
    configure_logging: bool = True

    def __post_init__(self) -> None:
        if self.max_body_bytes < 1 or self.cache_size < 1 or self.snapshot_every < 1:
            raise ValueError("max_body_bytes, cache_size and snapshot_every must be positive")
        if not 0 < self.sse_keepalive_seconds <= 15:
            raise ValueError("sse_keepalive_seconds must be in (0, 15]")
        if self.sse_poll_seconds <= 0:
            raise ValueError("sse_poll_seconds must be positive")
        if not 1 <= self.events_page_default <= self.events_page_max:
            raise ValueError("need 1 <= events_page_default <= events_page_max")
        if not 1 <= self.games_page_default <= self.games_page_max:
            raise ValueError("need 1 <= games_page_default <= games_page_max")
