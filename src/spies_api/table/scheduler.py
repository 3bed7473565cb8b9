"""The scheduler: the server's own work at every table, driven by when it is due.

Every append records when the server next has work to do on its game (``games.due_at``, see
:attr:`spies_replay.store.records.Append.due_at`): now when a seat a bot plays is to act, the
earliest deadline of a running clock, the expiry of a waiting game's open seats, ``None``
while the game waits on people with no clock.
The scheduler keeps the games that are due, soonest first, and sleeps until the next one; it
never sweeps the games that wait on people, so an idle server costs nothing however many
games it holds.

- **Waking.** An append of this process pokes it with the game (its cached head says what is
  due); another process's is heard with the game's due mark, kept as told (no query:
  :class:`~spies_api.table.due.Notices`). At start, and every ``poll_seconds`` (for other
  processes on one SQLite file), it reads the index of due work: one indexed query that
  returns only games with work.
- **A turn.** Per game one task at a time; games run concurrently, so a slow bot holds up
  only its own game. The bot's turn is planned from the game's head (:func:`plan_turn`), its
  decision made in the bot pool (:class:`~spies_api.table.bots.BotPool`: off the event loop,
  bounded, retried, with the ``random`` bot as the fallback), and the command submitted
  through the command handler as that seat's, marked with the bot that chose it, at the
  version it was chosen for; anything appended meanwhile plans the turn again.
- **Open seats that expire.** A game still waiting for players when its open seats expire
  (``game_created.open_until``: its due time while it waits) is abandoned
  (:class:`~spies_api.game.clocks.Abandon`: ``game_aborted``, reason ``abandoned``),
  submitted as data at the version it was decided at, on the game's lock like a command; a
  join that got there first deals it instead.
- **A deadline.** A seat whose clock ran out gets its timeout recorded
  (:class:`~spies_api.game.clocks.Timeout`, decided here from the loaded head, its forced
  move chosen by the bot pool, and submitted as data: ``clock_expired``, then its forfeit, or the
  time control's bot's move for it, after the seat's hand-over to that bot when
  ``abandon_after`` timeouts in a row abandon it), in one batch, on the game's lock like a
  command, so every timeout moves the game on: a move that got there first wins,
  and of several processes racing one deadline, the append's version check lets exactly one
  record it. A deadline that had already passed when this server started (by more than
  ``poll_seconds``: no server was up to see it pass) resumes the clocks instead
  (``clocks_resumed``): a seat does not lose on time because the server was down.
- **The bots' worker** is started with the scheduler, not at the first decision: a bot
  seat's clock runs while a worker process starts, and a deadline's forced move needs it.
- **Nothing due.** A game whose mark says due but that has nothing to do now (a seat taken
  back, a mark set by a seat change) has its mark cleared at that version, or moved to its
  next deadline.
- **Transient failures.** Due work stopped by a failure that passes
  (:func:`spies_replay.errors.is_transient`: the store busy, unreachable or full, a bot
  worker lost) stays due: the game is looked at again after a backoff that doubles from
  ``retry_first_seconds`` up to ``retry_max_seconds`` (with jitter, so games stopped
  together do not come back together), and until then nothing else starts its work. Each
  retry is counted (``retried``: the metrics), never logged. The version check of every
  append makes the work safe to do again: a move or a timeout that was in fact recorded is
  refused the second time, and the game is looked at afresh.
- **A rules refusal** of a bot's command (a bug: the rules and the bot's legal commands
  disagree) is logged once, as ``bot_failed``, and the ``random`` bot makes that move
  instead; a refusal of its move too leaves the game to its people.

The queue of due work and the backoff are :mod:`spies_api.table.due`'s. When the task is
cancelled (the app shutting down), it waits for its store calls already running on worker
threads before it ends (:mod:`spies_api.table.threads`): a cancelled ``await`` abandons its
thread, and the store must not be closed under a thread that is using it.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Final

import anyio
import structlog

from spies_api.game import Head, plan_timeout
from spies_api.game.clocks import (
    Abandon,
    Resume,
    ServerAction,
    Timeout,
)
from spies_api.schemas import SubmittedCommand
from spies_api.service.commands import Commands
from spies_api.service.notify import AppendListeners
from spies_api.service.states import GameStates
from spies_api.settings import DEFAULTS
from spies_api.table.bots import (
    BotPool,
    BotTurn,
    Decision,
    fallback,
    forced_turn,
    plan_turn,
)
from spies_api.table.due import (
    RETRY_FIRST_SECONDS,
    RETRY_MAX_SECONDS,
    DueIndex,
    DueQueue,
    DueWork,
    Notices,
    backoff,
    late_seat,
)
from spies_api.table.threads import CountedCalls, Stopped
from spies_core.bot_names import FALLBACK_BOT
from spies_core.clock import deadline_ms
from spies_core.errors import SpiesError
from spies_core.registry import GAMES
from spies_replay.clocks import to_ms
from spies_replay.errors import (
    DeadlinePassedError,
    GameFinishedError,
    GameNotFoundError,
    VersionConflictError,
    is_transient,
)
from spies_replay.store.records import Appended, Clock, utc_now

__all__ = ["Scheduler"]

_DRAIN_SECONDS: Final = 30.0
"""At shutdown, how long to wait for store calls still running on worker threads."""
_DUE_PAGE: Final = 1000


@dataclass(eq=False)
class Scheduler:
    """Runs every game's due work (see the module docstring).

    Args:
        store: the index of due work.
        states: the cached heads of games.
        commands: the command handler a bot's command goes through.
        appends: the listeners of this process's appends (the scheduler is one while it
            runs).
        bots: where bots think.
        poll_seconds: how often the index of due work is read.
        clock: where the time is read.
        fired: called with the game and the event (``clock_expired``, ``clocks_resumed``,
            ``game_abandoned``) of each deadline recorded (the metrics).
        retried: called with the :class:`DueWork` and the failure's code of each retry of
            due work stopped by a transient failure (the metrics).
        retry_first_seconds: the first backoff after a transient failure (it doubles).
        retry_max_seconds: the longest backoff.
    """

    store: DueIndex
    states: GameStates
    commands: Commands
    appends: AppendListeners
    bots: BotPool
    poll_seconds: float = DEFAULTS.scheduler_poll_seconds
    clock: Clock = utc_now
    fired: Callable[[str, str], None] | None = None
    retried: Callable[[str, str], None] | None = None
    retry_first_seconds: float = RETRY_FIRST_SECONDS
    retry_max_seconds: float = RETRY_MAX_SECONDS
    log: Any = field(init=False, repr=False)
    _queue: DueQueue = field(init=False, default_factory=DueQueue)
    _poked: set[str] = field(init=False, default_factory=set)
    _notices: Notices = field(init=False, default_factory=Notices)
    _busy: set[str] = field(init=False, default_factory=set)
    _retrying: dict[str, asyncio.TimerHandle] = field(init=False, default_factory=dict)
    """Games whose work failed for a transient reason, each with the timer of its retry."""
    _failures: dict[str, int] = field(init=False, default_factory=dict)
    """Transient failures in a row, by game (its backoff grows with them)."""
    _decided: dict[str, tuple[int, int, Decision]] = field(init=False, default_factory=dict)
    """The decision of a bot turn whose command did not get through, by game, with its
    version and seat: a retry submits it again rather than asking (and logging) again."""
    _jitter: random.Random = field(init=False, default_factory=random.Random)
    _index_failures: int = field(init=False, default=0)
    _loop: asyncio.AbstractEventLoop | None = field(init=False, default=None)
    _loop_thread: int = field(init=False, default=0)
    _wake: asyncio.Event | None = field(init=False, default=None)
    _threads: CountedCalls = field(init=False, default_factory=CountedCalls)
    _started_ms: int = field(init=False, default=0)
    _grace_ms: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.log = structlog.get_logger("spies_api").bind()
        self._grace_ms = round(self.poll_seconds * 1000)

    # -- what is due -----------------------------------------------------------------------

    def poke(self, game_id: str) -> None:
        """Look at ``game_id`` soon (called after every append, from any thread)."""
        loop = self._loop
        if loop is None:
            return
        if threading.get_ident() == self._loop_thread:
            self._poke(game_id)  # the command handler, on the loop: no hop needed
            return
        try:
            loop.call_soon_threadsafe(self._poke, game_id)
        except RuntimeError:  # the loop has closed: the server is shutting down
            return

    def heard(self, appended: Appended) -> None:
        """Another process appended (from the store's watch: its thread, or the loop): keep its
        due mark."""
        if not appended.told:
            self.poke(appended.game_id)  # an older engine's notice: the store says
        elif self._notices.hear(appended, self._has_work):
            loop, wake = self._loop, self._wake
            if loop is not None and wake is not None:
                with contextlib.suppress(RuntimeError):  # the loop has closed: shutting down
                    loop.call_soon_threadsafe(wake.set)

    def _has_work(self, game_id: str) -> bool:
        return self._queue.holds(game_id) or game_id in self._busy or game_id in self._retrying

    def _poke(self, game_id: str) -> None:
        self._poked.add(game_id)
        if self._wake is not None:
            self._wake.set()

    def _mark(self, game_id: str, due_at: str | None) -> None:
        """Keep ``game_id`` due at ``due_at`` (``None``: nothing due)."""
        if game_id in self._retrying:
            return  # its retry looks at the game afresh when its backoff is over
        self._queue.mark(game_id, due_at)

    async def _settle_pokes(self) -> None:
        """What is due on each game: as told by another process's notice; from the cached
        head of a poked game, else from the store."""
        for game_id, appended in self._notices.take().items():
            head = self.states.cached(game_id)  # a newer head here: its own append poked
            if head is None or head.version < (appended.version or 0):
                self._mark(game_id, appended.due_at)
        poked, self._poked = self._poked, set()
        now = self.clock()
        unknown = []
        for game_id in poked - self._retrying.keys():  # a retry will look at those anyway
            head = self.states.cached(game_id)
            if head is None:
                unknown.append(game_id)
            else:
                self._mark(game_id, head.due_at(GAMES[head.game], now))
        for game_id in unknown:
            try:
                due_at = await self._threads.run(partial(self.store.due_at, game_id))
            except Stopped:
                raise
            except Exception as exc:  # noqa: BLE001  (one game's trouble never stops the others)
                self._failed(game_id, DueWork.LOAD, exc)
                continue
            self._mark(game_id, due_at)

    async def _read_index(self) -> float:
        """Read the index of due work; the seconds until it is to be read again (sooner,
        after a backoff, when a transient failure stopped this read)."""
        try:
            found = await self._threads.run(lambda: self.store.due_games(limit=_DUE_PAGE))
        except Stopped:
            raise
        except Exception as exc:  # noqa: BLE001  (a busy or closed database: read it later)
            if not is_transient(exc):
                self.log.warning("due_index_unread", error_type=type(exc).__name__)
                return self.poll_seconds
            self._count_retry(DueWork.INDEX, exc)
            self._index_failures += 1
            return min(self.poll_seconds, self._backoff(self._index_failures))
        self._index_failures = 0
        for game_id, due_at in found:
            self._mark(game_id, due_at)
        return self.poll_seconds

    # -- transient failures ----------------------------------------------------------------

    def _failed(self, game_id: str, work: DueWork, exc: Exception) -> None:
        """Due work of ``game_id`` stopped by ``exc``: retried after a backoff when the
        failure passes, else logged once (a bug) and left."""
        if not is_transient(exc):
            self._forget(game_id)
            self.log.error("bot_failed", game_id=game_id, error_type=type(exc).__name__)
            return
        self._count_retry(work, exc)
        failures = self._failures.get(game_id, 0) + 1
        self._failures[game_id] = failures
        wait = self._backoff(failures)
        self._queue.mark(game_id, None)
        old = self._retrying.pop(game_id, None)
        if old is not None:
            old.cancel()
        assert self._loop is not None
        self._retrying[game_id] = self._loop.call_later(wait, self._retry, game_id)

    def _backoff(self, failures: int) -> float:
        return backoff(failures, self.retry_first_seconds, self.retry_max_seconds, self._jitter)

    def _count_retry(self, work: DueWork, exc: Exception) -> None:
        if self.retried is not None:
            self.retried(work.value, str(getattr(exc, "code", type(exc).__name__)))

    def _retry(self, game_id: str) -> None:
        """A game's backoff is over: it is due now (its work reads the head afresh)."""
        if self._retrying.pop(game_id, None) is None:
            return
        self._mark(game_id, self.clock())
        if self._wake is not None:
            self._wake.set()

    def _forget(self, game_id: str) -> None:
        """The game's work ended (done, or given up): no backoff, no decision kept."""
        self._failures.pop(game_id, None)
        self._decided.pop(game_id, None)

    def _sleep(self) -> float:
        """Seconds until the soonest due work (at most ``poll_seconds``)."""
        soonest = self._queue.soonest()
        if soonest is None:
            return self.poll_seconds
        wait = (to_ms(soonest) - to_ms(self.clock())) / 1000
        return min(self.poll_seconds, max(0.0, wait))

    # -- the task --------------------------------------------------------------------------

    async def run(self) -> None:
        """Run due work until cancelled (the app's lifespan runs this as a task)."""
        self._loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        self._started_ms = to_ms(self.clock())
        self._wake = asyncio.Event()
        self.appends.add(self.poke, self.heard)
        try:
            async with anyio.create_task_group() as group:
                group.start_soon(self._warm_bots)
                read_at = self._loop.time() + await self._read_index()
                while True:
                    await self._settle_pokes()
                    for game_id in self._queue.take(self.clock(), self._busy):
                        self._busy.add(game_id)
                        group.start_soon(self._work, game_id)
                    with anyio.move_on_after(min(self._sleep(), read_at - self._loop.time())):
                        await self._wake.wait()
                    self._wake.clear()
                    if self._loop.time() >= read_at:
                        read_at = self._loop.time() + await self._read_index()
        finally:
            for timer in self._retrying.values():
                timer.cancel()
            self._retrying.clear()
            self.appends.remove(self.poke)
            self.bots.close()
            self._loop = None
            self._threads.drain(_DRAIN_SECONDS)

    async def _warm_bots(self) -> None:
        """Start the bots' worker at once: a clock keeps running while a worker process
        starts (seconds on a busy machine), and a bot seat's clock, or a forced move's
        deadline, must not pay for it."""
        try:
            await self.bots.warm()
        except Exception as exc:  # noqa: BLE001  (a decision retries; the server goes on)
            self.log.warning("bot_pool_unstarted", error_type=type(exc).__name__)

    async def _work(self, game_id: str) -> None:
        work = DueWork.LOAD
        try:
            while True:
                work = DueWork.LOAD
                head = self.states.cached(game_id)
                if head is None:  # a fold from the log: not on the event loop
                    head = await self._threads.run(partial(self.states.load, game_id))
                if head.expired(self.clock()):  # a table that never filled ends
                    work = DueWork.DEADLINE
                    await self._abandon(head)
                    self._failures.pop(game_id, None)
                    continue
                late = late_seat(head, to_ms(self.clock()))
                if late is not None:  # a clock that ran out comes first, a bot's too
                    work = DueWork.DEADLINE
                    await self._time_out(head, late)
                    self._failures.pop(game_id, None)  # it went through: no backoff now
                    continue
                turn = plan_turn(head)
                if turn is not None:
                    work = DueWork.BOT_MOVE
                    if not await self._move(turn):
                        break
                    self._failures.pop(game_id, None)
                    continue
                due = head.due_at(GAMES[head.game], self.clock())
                if due is None:
                    work = DueWork.MARK
                    clear = partial(self.store.set_due, game_id, head.version, None)
                    await self._threads.run(clear)
                else:
                    self._mark(game_id, due)  # the next deadline
                break
        except Stopped:
            return
        except GameNotFoundError:
            # a poke about a game this store does not hold (another schema's notification on
            # a shared PostgreSQL database): nothing is due here
            self._forget(game_id)
        except Exception as exc:  # noqa: BLE001  (one game's trouble never stops the others)
            self._failed(game_id, work, exc)
        else:
            self._forget(game_id)
        finally:
            self._busy.discard(game_id)
            if self._wake is not None:
                self._wake.set()  # appends seen while busy wait in the pokes

    async def _time_out(self, head: Head, seat: int) -> None:
        """Record ``seat``'s timeout (or, for a deadline that passed before this server was up,
        resume the clocks): on the game's lock, if the head still calls for it."""
        clocks = head.clock
        assert clocks is not None
        deadline = deadline_ms(clocks, seat)
        if deadline is not None and deadline < self._started_ms - self._grace_ms:
            # it ran out while no server was running: the time nobody saw is not counted
            if await self._record(head, Resume(), "clocks_resumed", seat=seat):
                self._fired(head.game, "clocks_resumed")
            return
        plan = plan_timeout(head, seat)
        forced = bot = None
        if plan.forced_at is not None:  # every timeout a bot answers moves the game on
            turn = forced_turn(head, seat, clocks.control.timeout_bot, plan.forced_at)
            decision = await self._decision(turn)
            self._decided[head.id] = (turn.version, seat, decision)  # kept for a retry
            forced, bot = decision.command, decision.mark

        timeout = Timeout(seat, forced=forced, bot=bot)
        if await self._record(head, timeout, "clock_expired", seat=seat, bot=bot):
            self._decided.pop(head.id, None)
            self._fired(head.game, "clock_expired")

    async def _abandon(self, head: Head) -> None:
        """Record that a game's open seats expired before its table was full
        (:func:`spies_api.game.clocks.prepare_abort`: ``game_aborted``, reason ``abandoned``;
        the game is over, nobody wins), on the game's lock like a command: a join that got
        there first deals the game instead."""
        detail = f"its open seats expired at {head.open_until} before the table was full"
        if await self._record(head, Abandon(detail), "game_abandoned"):
            self._fired(head.game, "game_abandoned")

    def _fired(self, game: str, event: str) -> None:
        if self.fired is not None:
            self.fired(game, event)

    async def _record(self, head: Head, action: ServerAction, event: str, **fields: Any) -> bool:
        """Record ``action``, decided at ``head``, down the path of every command; whether it
        was recorded."""
        try:
            await self.commands.record(head.id, action, version=head.version, event=event, **fields)
        except VersionConflictError:
            return False  # the game moved meanwhile (a join, another process): look again
        return True

    async def _move(self, turn: BotTurn) -> bool:
        """Play one bot turn; whether the game may have more due work now.

        A transient failure (the decision's worker lost, the command's store busy) raises,
        and the game's work is retried with the same decision. A rules refusal is logged
        once and the fallback bot moves instead.
        """
        decision = await self._decision(turn)
        while True:
            self._decided[turn.game_id] = (turn.version, turn.seat, decision)
            request = SubmittedCommand(command=decision.command, expected_game_version=turn.version)
            try:
                await self.commands.submit(turn.game_id, turn.seat, request, bot=decision.mark)
            except (VersionConflictError, GameFinishedError, DeadlinePassedError):
                pass  # the game moved, or the seat's clock ran out: look again
            except SpiesError as exc:
                if is_transient(exc):
                    raise
                # the rules refused a legal command: a bug, not a bot's
                self._bot_failed(turn, decision.bot, exc.code)
                if decision.bot == FALLBACK_BOT:
                    return False  # the fallback's move refused too: leave it to people
                decision = fallback(turn)
                continue
            self._decided.pop(turn.game_id, None)
            return True

    async def _decision(self, turn: BotTurn) -> Decision:
        """The turn's decision: the one kept from an attempt that did not get through, else
        the bot's (its failures logged once)."""
        kept = self._decided.get(turn.game_id)
        if kept is not None and kept[:2] == (turn.version, turn.seat):
            return kept[2]
        decision = await self.bots.decide(turn)
        if decision.failures:
            self._bot_failed(
                turn,
                turn.bot,
                decision.failures[-1],
                attempts=len(decision.failures),
                played_by=decision.bot,
            )
        return decision

    def _bot_failed(self, turn: BotTurn, bot: str, reason: str, **more: object) -> None:
        """The one log line of a bot turn that went wrong."""
        where = {"game_id": turn.game_id, "seat": turn.seat, "version": turn.version}
        self.log.error("bot_failed", **where, bot=bot, reason=reason, **more)
