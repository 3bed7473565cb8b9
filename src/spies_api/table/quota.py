"""How many games one client may have going at once: every game it created, and its bot
games; and how many bot games the whole server may have.

A client is a client key (by address, see :func:`spies_api.http.edge.rate_key`). Two quotas
count its games the same way, each with its own limit and refusal:

- :class:`GameQuota`: every game it created. A client that already has ``limit`` that
  count gets 429 ``too-many-games`` with ``Retry-After`` for one more. A game waiting for
  players (an open seat, nothing dealt) counts until it is dealt, ends, or its open seats
  expire, however long it waits: so one address cannot fill the lobby. Any other game
  counts until it ends, or until nothing has been appended to it for ``idle_seconds``.
  Rematches are not counted.
- :class:`BotGameQuota`: its bot games. Bots think in a bounded pool
  (:class:`~spies_api.table.bots.BotPool`: ``bot_workers`` at a time, shared fairly between
  the clients that own the games), so bot work never takes more than that share of the
  machine; this quota makes a flood of bot games queue behind itself at the door. A bot
  game is one with a bot seat, or with a clock whose timeouts a bot plays (``on_timeout``
  ``bot``: it plays on, a forced move at each deadline, with nobody at the table). A client
  that already has ``limit`` active bot games that it created, or handed a seat of to a
  bot, gets 429 ``too-many-bot-games`` with ``Retry-After`` for one more; once the server
  has ``total`` of them, all clients together, one more is 429 ``server-bot-games-full``.

A game stops counting when it ends, or when nothing has been appended to it for
``idle_seconds`` (a game left waiting on a person costs the server nothing), unless it waits
for players in :class:`GameQuota`; its owner is kept until it ends, and an append to it (its
person came back, or a clock ran out) counts it again for that owner at once, even above
the limit: the owner's next game then waits until it is back under.

A rematch of a game with bot seats is not counted: it needs its game finished first, and
its game needed a person to finish (a seat handed to a bot is counted when it is handed),
so a chain of rematches goes at a person's pace, one game at a time. A rematch of a game
whose timeouts a bot plays is counted: that game finishes with nobody at the table, so
without the count a script could chain rematches into bot games for ever.

The bot quota is also where the bot pool learns who owns a game (:meth:`GameQuota.owner`),
to share the bots' think time between clients. The counts are of this process (each
``spies-api`` process behind a load balancer keeps its own; a game created before this
process started, or by another process, has no owner here). A game of this process's that
another process ends (its last move was served there) stops counting at that process's
notice (:meth:`GameQuota.heard`), not when it idles.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ClassVar, Final

from spies_api.problems.errors import (
    ServerBotGamesFullError,
    TooManyBotGamesError,
    TooManyGamesError,
)
from spies_api.service.states import GameStates
from spies_replay.store.records import Appended

__all__ = [
    "GAMES_RETRY_AFTER_SECONDS",
    "IDLE_SECONDS",
    "OWNERS_KEPT",
    "BotGameQuota",
    "GameQuota",
]

IDLE_SECONDS: Final = 300.0
"""A game with no append for this long stops counting (unless it waits for players)."""
GAMES_RETRY_AFTER_SECONDS: Final = 30
"""The ``Retry-After`` of ``too-many-games``: a script that fills its quota waits that long;
a person never meets it."""
OWNERS_KEPT: Final = 100_000
"""Owners of idle games kept at most (the oldest idle ones are forgotten past it)."""


class GameQuota:
    """Active games per client: every game the client created (see the module docstring),
    and who owns each.

    Args:
        limit: games per client, or ``None`` for no limit.
        states: the cached heads (to see a game end, or its table fill).
        total: games of all clients together, or ``None`` for no limit.
        idle_seconds: a game with no append for this long stops counting, unless it waits
            for players.
        retry_after: the ``Retry-After`` of a refusal, in seconds (default
            :attr:`default_retry_after`).
        clock: seconds, monotonic.
        owners_kept: owners of idle games kept at most.
    """

    keeps_waiting: ClassVar[bool] = True
    """Whether a game waiting for players counts however long it waits."""
    default_retry_after: ClassVar[int] = GAMES_RETRY_AFTER_SECONDS
    """The ``Retry-After`` of a refusal when none is given."""

    def __init__(
        self,
        limit: int | None,
        states: GameStates,
        *,
        total: int | None = None,
        idle_seconds: float = IDLE_SECONDS,
        retry_after: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        owners_kept: int = OWNERS_KEPT,
    ) -> None:
        self.limit = limit
        self.total = total
        self.states = states
        self.idle_seconds = idle_seconds
        self.retry_after = self.default_retry_after if retry_after is None else retry_after
        self.clock = clock
        self.owners_kept = owners_kept
        self._games: dict[str, dict[str, float]] = {}
        """Per client, its games that count and when each was last appended to."""
        self._owner: dict[str, str] = {}
        """Every game with an owner until it ends, counted or idle, oldest first."""
        self._waiting: set[str] = set()
        """The owned games last seen waiting for players (they never idle)."""
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
                self._waiting.discard(game_id)
            elif now - seen >= self.idle_seconds and game_id not in self._waiting:
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
            RetryLaterError: the client has ``limit`` games that count already, or the
                server ``total`` (see :meth:`_admit`).
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
        """Raise unless ``client`` may have one more game (under the lock).

        Raises:
            TooManyGamesError: the client has ``limit`` games that count already.
        """
        if self.limit is None:
            return
        counted = len(self._current(client)) + self._pending.get(client, 0)
        if counted >= self.limit:
            raise TooManyGamesError(
                f"this client already has {counted} active games it created (at most"
                f" {self.limit}); a game waiting for players counts until its table is full,"
                " it ends or its open seats expire, any other until it ends or has waited"
                f" {self.idle_seconds:g} seconds with nothing appended: retry after"
                f" {self.retry_after} seconds",
                retry_after=self.retry_after,
            )

    def _count(self, client: str, game_id: str) -> None:
        """Count ``game_id`` for ``client``, as appended to now (under the lock)."""
        before = self._owner.pop(game_id, None)  # re-inserted: the newest owner goes last
        if before is not None and before != client:
            self._uncount(before, game_id)  # a seat handed over by another holder moves it
        self._owner[game_id] = client
        self._games.setdefault(client, {})[game_id] = self.clock()
        self._seen(game_id)
        if len(self._owner) > self.owners_kept:
            self._forget_idle_owners()

    def _seen(self, game_id: str) -> None:
        """Whether the game waits for players, as its cached head says (a head not cached,
        as after the join that deals, leaves it as it was last seen; under the lock)."""
        head = self.states.cached(game_id)
        if head is None or not self.keeps_waiting:
            return
        if head.waiting and not head.finished:
            self._waiting.add(game_id)
        else:
            self._waiting.discard(game_id)

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
            waits = game_id in self._waiting
            if seen is None or (now - seen >= self.idle_seconds and not waits):
                idle.append(game_id)
        for game_id in idle:
            self._uncount(self._owner.pop(game_id), game_id)

    def _uncount(self, client: str, game_id: str) -> None:
        """Take ``game_id`` out of ``client``'s count (under the lock)."""
        games = self._games.get(client, {})
        games.pop(game_id, None)
        self._waiting.discard(game_id)
        if not games:
            self._games.pop(client, None)

    def appended(self, game_id: str) -> None:
        """After an append to ``game_id`` (an
        :class:`~spies_api.service.notify.AppendListeners` listener): its game counts for its
        owner again as of now (an idle one too), or leaves the count when it has ended."""
        if game_id not in self._owner:  # most appends: no lock taken
            return
        head = self.states.cached(game_id)
        self._after_append(game_id, finished=head is not None and head.finished)

    def heard(self, appended: Appended) -> None:
        """After another process's append to ``appended.game_id`` (the store's watch, an
        :class:`~spies_api.service.notify.AppendListeners` ``heard`` listener): as
        :meth:`appended`, with whether the game ended taken from the notice, since this
        process's cached head is not the game's newest then. A notice that does not say
        (an older engine's) is read like a local append."""
        if appended.game_id not in self._owner:
            return
        if not appended.told:
            self.appended(appended.game_id)
            return
        self._after_append(appended.game_id, finished=appended.finished)

    def _after_append(self, game_id: str, *, finished: bool) -> None:
        with self._lock:
            client = self._owner.get(game_id)
            if client is None:
                return
            if finished:
                self._owner.pop(game_id, None)
                self._uncount(client, game_id)
            else:
                self._games.setdefault(client, {})[game_id] = self.clock()
                self._seen(game_id)


class BotGameQuota(GameQuota):
    """Active bot games per client and in all, and who owns each (see the module docstring).

    Args: as :class:`GameQuota`'s; a bot game waiting for players idles like any other (it
    costs the bots nothing).
    """

    keeps_waiting = False
    default_retry_after = 5

    def _admit(self, client: str) -> None:
        """Raise unless ``client`` may have one more bot game (under the lock).

        Raises:
            TooManyBotGamesError: the client has ``limit`` games that count already.
            ServerBotGamesFullError: the server has ``total`` games that count already.
        """
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
