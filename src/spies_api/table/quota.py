"""How many games one client may have going at once: all the games it created, and those
with bot seats.

A client is a client key (by address, see :func:`spies_api.http.edge.rate_key`). Two quotas
count its games the same way, each with its own limit and refusal:

- :class:`GameQuota`: every game it created. A client that already has ``limit`` that
  count gets 429 ``too-many-games`` with ``Retry-After`` for one more. A game waiting for
  players (an open seat, nothing dealt) counts until it is dealt, ends, or its open seats
  expire, however long it waits: so one address cannot fill the lobby. Any other game
  counts until it ends, or until nothing has been appended to it for ``idle_seconds``.
- :class:`BotGameQuota`: the games with bot seats it created, or handed a seat of to a bot.
  Bots think in a bounded pool (:class:`~spies_api.table.bots.BotPool`: ``bot_workers`` at
  a time), so bot work never takes more than that share of the machine; this quota makes
  a flood of bot games queue behind itself at the door, with 429 ``too-many-bot-games``. A
  game stops counting when it ends, or when nothing has been appended to it for
  ``idle_seconds`` (a game left waiting on a person costs the server nothing).

A rematch is counted by neither: it needs its game finished first, so a chain of rematches
is one game at a time. The counts are of this process (each ``spies-api`` process behind a
load balancer keeps its own), and start again from nothing when it restarts.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ClassVar, Final

from spies_api.problems.errors import RetryLaterError, TooManyBotGamesError, TooManyGamesError
from spies_api.service.states import GameStates

__all__ = ["GAMES_RETRY_AFTER_SECONDS", "IDLE_SECONDS", "BotGameQuota", "GameQuota"]

IDLE_SECONDS: Final = 300.0
"""A game with no append for this long stops counting (unless it waits for players)."""
GAMES_RETRY_AFTER_SECONDS: Final = 30
"""The ``Retry-After`` of ``too-many-games``: a script that fills its quota waits that long;
a person never meets it."""


class GameQuota:
    """Active games per client: every game the client created (see the module docstring).

    Args:
        limit: games per client, or ``None`` for no limit.
        states: the cached heads (to see a game end, or its table fill).
        idle_seconds: a game with no append for this long stops counting, unless it is
            waiting for players.
        retry_after: the ``Retry-After`` of a refusal, in seconds (default
            :attr:`default_retry_after`).
        clock: seconds, monotonic.
    """

    refusal: ClassVar[type[RetryLaterError]] = TooManyGamesError
    """What a client over its limit is refused with."""
    counted: ClassVar[str] = "active games it created"
    """What is counted, in the refusal's words."""
    keeps_waiting: ClassVar[bool] = True
    """Whether a game waiting for players counts however long it waits."""
    default_retry_after: ClassVar[int] = GAMES_RETRY_AFTER_SECONDS
    """The ``Retry-After`` of a refusal when none is given."""

    def __init__(
        self,
        limit: int | None,
        states: GameStates,
        *,
        idle_seconds: float = IDLE_SECONDS,
        retry_after: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit
        self.states = states
        self.idle_seconds = idle_seconds
        self.retry_after = self.default_retry_after if retry_after is None else retry_after
        self.clock = clock
        self._games: dict[str, dict[str, float]] = {}
        self._owner: dict[str, str] = {}
        self._waiting: set[str] = set()
        """The counted games last seen waiting for players."""
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
            idle = now - seen >= self.idle_seconds and game_id not in self._waiting
            if idle or (head is not None and head.finished):
                del games[game_id]
                self._owner.pop(game_id, None)
                self._waiting.discard(game_id)
        if not games:
            self._games.pop(client, None)
        return games

    @contextmanager
    def hold(self, client: str, game_id: str | None = None) -> Iterator[Callable[[str], None]]:
        """Hold a place for one more game of ``client``; the body records the game's id with
        the function it is given (a body that raises, or records nothing, frees the place).
        A ``game_id`` the client already has counted needs no new place.

        Raises:
            RetryLaterError: the client has ``limit`` games that count already (the
                quota's :attr:`refusal`).
        """
        if self.limit is None or (game_id is not None and self._owner.get(game_id) == client):
            yield lambda _: None
            return
        with self._lock:
            counted = len(self._current(client)) + self._pending.get(client, 0)
            if counted >= self.limit:
                raise self.refusal(
                    f"this client already has {counted} {self.counted} (at most {self.limit});"
                    f" finish one, or retry after {self.retry_after} seconds",
                    retry_after=self.retry_after,
                )
            self._pending[client] = self._pending.get(client, 0) + 1

        def record(game_id: str) -> None:
            with self._lock:
                self._games.setdefault(client, {})[game_id] = self.clock()
                self._owner[game_id] = client
                self._seen(game_id)

        try:
            yield record
        finally:
            with self._lock:
                left = self._pending[client] - 1
                if left:
                    self._pending[client] = left
                else:
                    del self._pending[client]

    def _seen(self, game_id: str) -> None:
        """Whether the game waits for players, as its cached head says (a head not cached, as
        after the join that deals, leaves it as it was last seen)."""
        head = self.states.cached(game_id)
        if head is not None and self.keeps_waiting:
            if head.waiting and not head.finished:
                self._waiting.add(game_id)
            else:
                self._waiting.discard(game_id)

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
                self._waiting.discard(game_id)
                games = self._games.get(client, {})
                games.pop(game_id, None)
                if not games:
                    self._games.pop(client, None)
            else:
                self._games.setdefault(client, {})[game_id] = self.clock()
                self._seen(game_id)


class BotGameQuota(GameQuota):
    """Active games with bot seats per client (see the module docstring); its
    ``retry_after`` is at most the time until the client's oldest game would stop counting
    for being idle."""

    refusal = TooManyBotGamesError
    counted = "active games with bot seats"
    keeps_waiting = False
    default_retry_after = 5
