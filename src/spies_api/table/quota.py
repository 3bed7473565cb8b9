"""How many bot games one client, and the whole server, may have going at once.

Bots think in a bounded pool (:class:`~spies_api.table.bots.BotPool`: ``bot_workers`` at a
time, shared fairly between the clients that own the games), so bot work never takes more
than that share of the machine; this quota makes a flood of bot games queue behind itself
at the door. A bot game is one with a bot seat, or with a clock whose timeouts a bot plays
(``on_timeout`` ``bot``: it plays on, a forced move at each deadline, with nobody at the
table). A client (by address, see :func:`spies_api.http.edge.rate_key`) that already has
``limit`` active bot games that it created, or handed a seat of to a bot, gets 429
``too-many-bot-games`` with ``Retry-After`` for one more; once the server has ``total`` of
them, all clients together, one more is 429 ``server-bot-games-full``.

A game stops counting when it ends, or when nothing has been appended to it for
``idle_seconds`` (a game left waiting on a person costs the server nothing); its owner is
kept until it ends, and an append to it (its person came back, or a clock ran out) counts
it again for that owner at once, even above the limit: the owner's next game then waits
until it is back under.

A rematch of a game with bot seats is not counted: it needs its game finished first, and
its game needed a person to finish (a seat handed to a bot is counted when it is handed),
so a chain of rematches goes at a person's pace, one game at a time. A rematch of a game
whose timeouts a bot plays is counted: that game finishes with nobody at the table, so
without the count a script could chain rematches into bot games for ever.

The quota is also where the bot pool learns who owns a game (:meth:`BotGameQuota.owner`),
to share the bots' think time between clients. The count is of this process (each
``spies-api`` process behind a load balancer keeps its own; a game created before this
process started, or by another process, has no owner here).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Final

from spies_api.problems.errors import ServerBotGamesFullError, TooManyBotGamesError
from spies_api.service.states import GameStates

__all__ = ["IDLE_SECONDS", "OWNERS_KEPT", "BotGameQuota"]

IDLE_SECONDS: Final = 300.0
"""A game with no append for this long stops counting."""
OWNERS_KEPT: Final = 100_000
"""Owners of idle games kept at most (the oldest idle ones are forgotten past it)."""


class BotGameQuota:
    """Active bot games per client and in all, and who owns each.

    Args:
        limit: games per client, or ``None`` for no limit.
        states: the cached heads (to see a game end).
        total: games of all clients together, or ``None`` for no limit.
        idle_seconds: a game with no append for this long stops counting.
        retry_after: the ``Retry-After`` of a refusal, in seconds.
        clock: seconds, monotonic.
        owners_kept: owners of idle games kept at most.
    """

    def __init__(
        self,
        limit: int | None,
        states: GameStates,
        *,
        total: int | None = None,
        idle_seconds: float = IDLE_SECONDS,
        retry_after: int = 5,
        clock: Callable[[], float] = time.monotonic,
        owners_kept: int = OWNERS_KEPT,
    ) -> None:
        self.limit = limit
        self.total = total
        self.states = states
        self.idle_seconds = idle_seconds
        self.retry_after = retry_after
        self.clock = clock
        self.owners_kept = owners_kept
        self._games: dict[str, dict[str, float]] = {}
        """Per client, its games that count and when each was last appended to."""
        self._owner: dict[str, str] = {}
        """Every game with an owner until it ends, counted or idle, oldest first."""
        self._pending: dict[str, int] = {}
        self._lock = threading.Lock()

    def active(self, client: str) -> int:
        """The client's games that count now."""
        with self._lock:
            return len(self._current(client))

    def active_in_all(self) -> int:
        """The games of every client that count now."""
        with self._lock:
            return self._counted_in_all()

    def owner(self, game_id: str) -> str | None:
        """The client that owns ``game_id`` (created it with a bot seat or handed a seat of
        it to a bot), until it ends; ``None`` when this process does not know."""
        return self._owner.get(game_id)

    def _current(self, client: str) -> dict[str, float]:
        """The client's games that count, those that ended or idled taken out."""
        games = self._games.get(client, {})
        now = self.clock()
        for game_id, seen in list(games.items()):
            head = self.states.cached(game_id)
            if head is not None and head.finished:
                del games[game_id]
                self._owner.pop(game_id, None)
            elif now - seen >= self.idle_seconds:
                del games[game_id]  # idle: its owner is kept, and its next append counts
        if not games:
            self._games.pop(client, None)
        return games

    def _counted_in_all(self) -> int:
        return sum(len(self._current(client)) for client in list(self._games)) + sum(
            self._pending.values()
        )

    @contextmanager
    def hold(self, client: str, game_id: str | None = None) -> Iterator[Callable[[str], None]]:
        """Hold a place for one more game of ``client``; the body records the game's id with
        the function it is given (a body that raises, or records nothing, frees the place).
        A ``game_id`` the client already owns needs no new place (if it idled, the append
        that follows counts it again).

        Raises:
            TooManyBotGamesError: the client has ``limit`` games that count already.
            ServerBotGamesFullError: the server has ``total`` games that count already.
        """
        if game_id is not None and self._owner.get(game_id) == client:
            yield lambda _: None
            return
        with self._lock:
            self._admit(client)
            self._pending[client] = self._pending.get(client, 0) + 1

        def record(game_id: str) -> None:
            with self._lock:
                self._count(client, game_id)

        try:
            yield record
        finally:
            with self._lock:
                left = self._pending[client] - 1
                if left:
                    self._pending[client] = left
                else:
                    del self._pending[client]

    def _admit(self, client: str) -> None:
        """Raise unless ``client`` may have one more game (under the lock)."""
        if self.limit is not None:
            counted = len(self._current(client)) + self._pending.get(client, 0)
            if counted >= self.limit:
                raise TooManyBotGamesError(
                    f"this client already has {counted} active bot games (at most"
                    f" {self.limit}); a game stops counting when it ends, or when it has waited"
                    f" {self.idle_seconds:g} seconds with nothing appended (on a person):"
                    " finish one first",
                    retry_after=self.retry_after,
                )
        if self.total is not None:
            counted = self._counted_in_all()
            if counted >= self.total:
                raise ServerBotGamesFullError(
                    f"this server already runs {counted} active bot games, all"
                    f" clients together (at most {self.total}); one frees its place when it"
                    " ends or waits on a person: retry later",
                    retry_after=self.retry_after,
                )

    def _count(self, client: str, game_id: str) -> None:
        """Count ``game_id`` for ``client``, as appended to now (under the lock)."""
        before = self._owner.pop(game_id, None)  # re-inserted: the newest owner goes last
        if before is not None and before != client:
            self._uncount(before, game_id)  # a seat handed over by another holder moves it
        self._owner[game_id] = client
        self._games.setdefault(client, {})[game_id] = self.clock()
        if len(self._owner) > self.owners_kept:
            self._forget_idle_owners()

    def _forget_idle_owners(self) -> None:
        """Forget the oldest owners of games that do not count now, down to
        ``owners_kept`` (under the lock): an idle game's owner is kept only so long."""
        excess = len(self._owner) - self.owners_kept
        now = self.clock()
        idle: list[str] = []
        for game_id, client in self._owner.items():  # oldest first: idle ones are found soon
            if len(idle) >= excess:
                break
            seen = self._games.get(client, {}).get(game_id)
            if seen is None or now - seen >= self.idle_seconds:
                idle.append(game_id)
        for game_id in idle:
            self._uncount(self._owner.pop(game_id), game_id)

    def _uncount(self, client: str, game_id: str) -> None:
        """Take ``game_id`` out of ``client``'s count (under the lock)."""
        games = self._games.get(client, {})
        games.pop(game_id, None)
        if not games:
            self._games.pop(client, None)

    def appended(self, game_id: str) -> None:
        """After an append to ``game_id`` (an :class:`AppendListeners` listener): its game
        counts for its owner again as of now (an idle one too), or leaves the count when it
        has ended."""
        if game_id not in self._owner:  # most appends: no lock taken
            return
        head = self.states.cached(game_id)
        with self._lock:
            client = self._owner.get(game_id)
            if client is None:
                return
            if head is not None and head.finished:
                self._owner.pop(game_id, None)
                self._uncount(client, game_id)
            else:
                self._games.setdefault(client, {})[game_id] = self.clock()
