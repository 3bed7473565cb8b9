"""How many bot games one client may have going at once.

Bots think in a bounded pool (:class:`~spies_api.table.bots.BotPool`: ``bot_workers`` at a
time), so bot work never takes more than that share of the machine; this quota makes a
flood of bot games queue behind itself at the door. A bot game is one with a bot seat, or
with a clock whose timeouts a bot plays (``on_timeout`` ``bot``: it plays on, a forced move
at each deadline, with nobody at the table). A client (by address, see
:func:`spies_api.http.edge.rate_key`) that already has ``limit`` active bot games that it
created, or handed a seat of to a bot, gets 429 ``too-many-bot-games`` with ``Retry-After``
for one more. A game stops counting when it ends, or when nothing has been appended to it
for ``idle_seconds`` (a game left waiting on a person costs the server nothing).

A rematch of a game with bot seats is not counted: it needs its game finished first, and
its game needed a person to finish (a seat handed to a bot is counted when it is handed),
so a chain of rematches goes at a person's pace, one game at a time. A rematch of a game
whose timeouts a bot plays is counted: that game finishes with nobody at the table, so
without the count a script could chain rematches into bot games for ever.

The count is of this process (each ``spies-api`` process behind a load balancer keeps its
own).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Final

from spies_api.problems.errors import TooManyBotGamesError
from spies_api.service.states import GameStates

__all__ = ["IDLE_SECONDS", "BotGameQuota"]

IDLE_SECONDS: Final = 300.0
"""A game with no append for this long stops counting."""


class BotGameQuota:
    """Active bot games per client.

    Args:
        limit: games per client, or ``None`` for no limit.
        states: the cached heads (to see a game end).
        idle_seconds: a game with no append for this long stops counting.
        retry_after: the ``Retry-After`` of a refusal, in seconds (at most the time until
            the client's oldest game would stop counting for being idle).
        clock: seconds, monotonic.
    """

    def __init__(
        self,
        limit: int | None,
        states: GameStates,
        *,
        idle_seconds: float = IDLE_SECONDS,
        retry_after: int = 5,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit
        self.states = states
        self.idle_seconds = idle_seconds
        self.retry_after = retry_after
        self.clock = clock
        self._games: dict[str, dict[str, float]] = {}
        self._owner: dict[str, str] = {}
        self._pending: dict[str, int] = {}
        self._lock = threading.Lock()

    def active(self, client: str) -> int:
        """The client's games that count now."""
        with self._lock:
            return len(self._current(client))

    def _current(self, client: str) -> dict[str, float]:
        games = self._games.get(client, {})
        now = self.clock()
        for game_id, seen in list(games.items()):
            head = self.states.cached(game_id)
            if now - seen >= self.idle_seconds or (head is not None and head.finished):
                del games[game_id]
                self._owner.pop(game_id, None)
        if not games:
            self._games.pop(client, None)
        return games

    @contextmanager
    def hold(self, client: str, game_id: str | None = None) -> Iterator[Callable[[str], None]]:
        """Hold a place for one more game of ``client``; the body records the game's id with
        the function it is given (a body that raises, or records nothing, frees the place).
        A ``game_id`` the client already has counted needs no new place.

        Raises:
            TooManyBotGamesError: the client has ``limit`` games that count already.
        """
        if self.limit is None or (game_id is not None and self._owner.get(game_id) == client):
            yield lambda _: None
            return
        with self._lock:
            counted = len(self._current(client)) + self._pending.get(client, 0)
            if counted >= self.limit:
                raise TooManyBotGamesError(
                    f"this client already has {counted} active bot games (at most"
                    f" {self.limit}); finish one, or retry after {self.retry_after} seconds",
                    retry_after=self.retry_after,
                )
            self._pending[client] = self._pending.get(client, 0) + 1

        def record(game_id: str) -> None:
            with self._lock:
                self._games.setdefault(client, {})[game_id] = self.clock()
                self._owner[game_id] = client

        try:
            yield record
        finally:
            with self._lock:
                left = self._pending[client] - 1
                if left:
                    self._pending[client] = left
                else:
                    del self._pending[client]

    def appended(self, game_id: str) -> None:
        """After an append to ``game_id`` (an :class:`AppendListeners` listener): its game
        stays counted, or leaves the count when it has ended."""
        if game_id not in self._owner:  # most appends: no lock taken
            return
        head = self.states.cached(game_id)
        with self._lock:
            client = self._owner.get(game_id)
            if client is None:
                return
            if head is not None and head.finished:
                self._owner.pop(game_id, None)
                games = self._games.get(client, {})
                games.pop(game_id, None)
                if not games:
                    self._games.pop(client, None)
            else:
                self._games.setdefault(client, {})[game_id] = self.clock()
