"""The folded states of games, cached: what queries and the command pipeline read.

The folded state of recently used games is kept in a bounded LRU cache
(:class:`~spies_api.cache.StateCache`). After a restart, or for a game the cache dropped, the
state is folded from the log's nearest snapshot. The log stays the authority: an entry is
used only at the version the game's record has.
"""

from __future__ import annotations

from spies_api.service.cache import CachedGame, StateCache
from spies_replay.engine import load_state
from spies_replay.store import EventStore, GameRecord, GameStatus

__all__ = ["GameStates"]


class GameStates:
    """Cached folded states over one store.

    Args:
        store: the replay log.
        cache: the bounded cache of folded states.
    """

    def __init__(self, store: EventStore, cache: StateCache) -> None:
        self.store = store
        self.cache = cache

    def load(self, game_id: str, *, keep: bool = True) -> tuple[GameRecord, CachedGame]:
        """Fold the game's head state from the log (and cache it when ``keep``)."""
        loaded = load_state(self.store, game_id)
        record = loaded.record
        entry = CachedGame(
            game=record.game,
            version=loaded.seq,
            state=loaded.state,
            finished=record.status == GameStatus.FINISHED,
        )
        if keep:
            self.cache.put(game_id, entry)
        return record, entry

    def current(self, game_id: str, *, keep: bool = True) -> tuple[GameRecord, CachedGame]:
        """The game's record and its state at the same version (cached when possible).

        Raises:
            GameNotFoundError: no such game.
        """
        record = self.store.get_game(game_id)
        return record, self.state_of(record, keep=keep)

    def state_of(self, record: GameRecord, *, keep: bool = True) -> CachedGame:
        """The state at ``record.version``: the cached one when it is at that version."""
        entry = self.cache.get(record.id)
        if entry is not None and entry.version == record.version:
            return entry
        return self.load(record.id, keep=keep)[1]
