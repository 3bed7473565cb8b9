"""Bots at the table: what a bot is asked, where it thinks, and what happens when it fails.

A bot turn (:class:`BotTurn`) is planned from a game's head: the lowest seat a bot plays
among those to act, its view (version filled in, as the API serves it), its legal commands,
and the generator its version draws from (:attr:`spies_bots.BotSpec.generator`: the
protocol's bot stream, ``HMAC-SHA256(seed, "spies-bot/1:<seat>:<version>:<k>")``): the same
for every re-run of the game, unknown to the players until the seed is revealed.

Bots think off the event loop, in :class:`BotPool`: by default in worker processes (so a
searching bot never holds the server's GIL while requests wait), at most ``workers`` at a
time; with ``workers=0`` in threads of this process (tests that register a bot of their
own). The decisions waiting for a worker are taken in a fair order
(:class:`~spies_api.table.fairness.FairQueue`): forced moves and the bots of clocked games
first, each client that owns games in turn, each of its games in turn, so a flood of bot
games from one client queues behind itself, not in front of the others. A worker process
ends when its server does, however the server ends (``kill -9`` included). A decision that
raises, times out or returns a command that is not legal is asked once more; if it fails
again, the ``random`` bot makes that one move, recorded as ``random``'s (:func:`fallback`),
so a game never stalls on a bot. A worker lost because another decision's time ran out (the
pool is restarted to stop it) is no failure of this bot: :class:`BotWorkerLostError` is
transient, and the scheduler asks again later; a worker that died on its own counts as the
bot's failure, and its pool is replaced for the next decision.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import multiprocessing.connection
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from random import Random
from typing import Any, ClassVar, Final

from spies_api.game import Head
from spies_api.settings import DEFAULTS
from spies_api.table.fairness import FairQueue, Ticket, Urgency
from spies_bots import BOTS, bot_stream, get_bot, policy_for
from spies_core.bot_names import FALLBACK_BOT
from spies_core.registry import GAMES
from spies_core.step import view_at
from spies_replay.marks import bot_mark

__all__ = [
    "BotPool",
    "BotTurn",
    "BotWorkerLostError",
    "Decision",
    "fallback",
    "forced_turn",
    "plan_turn",
]

_ATTEMPTS: Final = 2
_ORPHANED: Final = 70
"""The exit status of a worker process whose server has gone."""


@dataclass(frozen=True, slots=True)
class BotTurn:
    """What a bot is asked: a seat to act, at a version, with what it may see and do, and
    how soon its answer is needed (the pool serves urgent turns first)."""

    game_id: str
    seat: int
    bot: str
    version: int
    game: str
    view: Any
    legal: tuple[Any, ...]
    seed: bytes
    urgency: Urgency = Urgency.UNTIMED

    def rng(self, bot: str | None = None) -> Random:
        """The generator of the seat's bot (or of ``bot``), at its current version, for this
        turn: a fresh one, so each attempt draws the same. A name the registry lacks gets
        the bot stream, as every bot of this build (its policy is what fails, where it
        runs)."""
        found = BOTS.get(self.bot if bot is None else bot)
        generator = bot_stream if found is None else found.generator
        return generator(self.seed, self.seat, self.version)


@dataclass(frozen=True, slots=True)
class Decision:
    """A bot's command for a turn, and the bot that chose it.

    Attributes:
        command: one of the turn's legal commands.
        bot: the bot that chose it (the seat's bot, or :data:`FALLBACK_BOT`).
        failures: why the seat's bot failed, attempt by attempt (empty when it did not).
    """

    command: Any
    bot: str
    failures: tuple[str, ...] = ()

    @property
    def mark(self) -> str:
        """The mark recorded with the move: the bot and the version of its choices
        (``greedy@2``), so that ``spies-replay verify`` re-runs the move with that version."""
        return bot_mark(self.bot, get_bot(self.bot).version)


class BotWorkerLostError(Exception):
    """A decision lost with its worker, stopped for another decision that ran out of time:
    no failure of this bot. Transient (:func:`spies_replay.errors.is_transient`): ask again
    later."""

    transient: ClassVar[bool] = True
    code: ClassVar[str] = "bot-worker-lost"

    def __init__(self) -> None:
        super().__init__("the bot's worker was restarted before it answered")


def fallback(turn: BotTurn, failures: tuple[str, ...] = ()) -> Decision:
    """The move of :data:`FALLBACK_BOT` for a turn whose bot failed (``failures``: why)."""
    choose = policy_for(FALLBACK_BOT, turn.game)
    command = choose(turn.view, list(turn.legal), turn.rng(FALLBACK_BOT))
    return Decision(command, FALLBACK_BOT, failures)


def plan_turn(head: Head) -> BotTurn | None:
    """The next bot turn at a game's head, or ``None`` when no seat a bot plays is to act."""
    if head.finished:
        return None
    spec = GAMES[head.game]
    for seat in sorted(spec.to_act(head.state)):
        bot = head.seats[seat].bot if seat < len(head.seats) else None
        if bot is None:
            continue
        legal = tuple(spec.legal_commands(head.state, seat))
        if not legal:
            continue
        view = view_at(spec, head.state, seat, head.version)
        urgency = Urgency.UNTIMED if head.clock is None else Urgency.CLOCKED
        seed = head.secrets.play_seed
        return BotTurn(head.id, seat, bot, head.version, head.game, view, legal, seed, urgency)
    return None


def forced_turn(head: Head, seat: int, bot: str, version: int) -> BotTurn:
    """The turn ``bot`` is asked for a seat whose clock ran out: the seat's view at
    ``version``, the version its forced move follows (after ``clock_expired``, and the
    seat's hand-over when the timeout abandons it: :func:`spies_api.game.clocks.plan_timeout`)."""
    spec = GAMES[head.game]
    legal = tuple(spec.legal_commands(head.state, seat))
    view = view_at(spec, head.state, seat, version)
    seed = head.secrets.play_seed
    return BotTurn(head.id, seat, bot, version, head.game, view, legal, seed, Urgency.FORCED)


def _choose(bot: str, game: str, view: Any, legal: Sequence[Any], rng: Random) -> Any:
    """One decision, where it runs (a worker process or thread): the bot's policy."""
    return policy_for(bot, game)(view, legal, rng)


def _warm() -> None:
    """In a new worker process, before its first decision (the bots are imported with this
    module): end the process with its server (:func:`_end_with_parent`)."""
    _end_with_parent()


def _end_with_parent() -> None:
    """End this worker process as soon as the process that started it has ended, however
    it ended (``kill -9`` included), rather than live on re-parented to init.

    A spawned worker holds the read end of a pipe whose only write end is its parent's
    (multiprocessing's parent sentinel): it becomes readable when the parent is gone. A
    thread waits on it; the pool's own queues cannot tell, since the worker holds their
    write ends too. Once every worker has ended, multiprocessing's resource tracker (whose
    pipe the parent and the workers hold) ends too.
    """
    parent = multiprocessing.parent_process()
    if parent is None:  # not a spawned worker (a thread pool): nothing to watch
        return
    sentinel = parent.sentinel

    def wait_for_parent() -> None:
        multiprocessing.connection.wait([sentinel])
        os._exit(_ORPHANED)

    threading.Thread(target=wait_for_parent, name="spies-parent-watch", daemon=True).start()


def _started() -> None:
    """Nothing: a first call that returns once a worker has started (see ``BotPool.warm``)."""


class BotPool:
    """Where bots think: worker processes (or threads), bounded, each decision timed out,
    the decisions waiting for a worker taken in a fair order.

    Args:
        workers: how many bots may think at once: worker processes, or with ``0`` one
            thread of this process (where a bot registered by a test is seen).
        timeout_seconds: how long one decision may take before it counts as failed.
        choose: what a worker runs for one decision (a test may put its own bots here).
        observe: called after each decision with the seat's bot, the game id, the seconds
            it took and whether the fallback bot played (the metrics).
        owner: the client that owns a game (``None``: not known; the game is then a client
            of its own), whose decisions share the workers fairly with other clients'.
    """

    def __init__(
        self,
        workers: int,
        *,
        timeout_seconds: float = DEFAULTS.bot_timeout_seconds,
        choose: Callable[[str, str, Any, Sequence[Any], Random], Any] = _choose,
        observe: Callable[[str, str, float, bool], None] | None = None,
        owner: Callable[[str], str | None] = lambda _: None,
    ) -> None:
        self.workers = workers
        self.observe = observe
        self.timeout_seconds = timeout_seconds
        self.choose = choose
        self.owner = owner
        self._executor: Executor | None = None
        self._warmed: Executor | None = None
        self._free = max(1, workers)
        self._queue: FairQueue[asyncio.Future[None]] = FairQueue()

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.workers == 0:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="spies-bot")
            else:
                context = multiprocessing.get_context("spawn")  # no fork of a threaded server
                self._executor = ProcessPoolExecutor(
                    self.workers, mp_context=context, initializer=_warm
                )
        return self._executor

    def _restart(self) -> None:
        """Drop a pool whose worker is stuck on a decision that timed out."""
        executor, self._executor = self._executor, None
        if executor is None:
            return
        # shutdown does not stop a worker process that is still thinking: stop it, or it
        # would hold a core for as long as the stuck bot runs
        workers = list((getattr(executor, "_processes", None) or {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            process.kill()

    async def warm(self) -> None:
        """Start the pool's worker now (the scheduler does at start), so that the first bot
        move, or the first forced move of a seat whose clock ran out, does not wait for it."""
        await self._ready()

    async def _ready(self) -> Executor:
        """The pool, its worker started: a worker process's start (a new interpreter that
        imports the bots: seconds on a busy machine) is not counted against a decision's
        time limit, or every first decision after a start could time out twice and fall
        back to the ``random`` bot."""
        pool = self._pool()
        if self._warmed is not pool:
            await asyncio.get_running_loop().run_in_executor(pool, _started)
            self._warmed = pool
        return pool

    async def _ask(self, bot: str, turn: BotTurn) -> Any:
        loop = asyncio.get_running_loop()
        ticket = await self._turn_of(turn)
        seconds = 0.0
        try:
            pool = self._pool()
            try:
                await self._ready()
                started = time.perf_counter()
                pending = loop.run_in_executor(
                    pool, self.choose, bot, turn.game, turn.view, turn.legal, turn.rng()
                )
                try:
                    return await asyncio.wait_for(pending, self.timeout_seconds)
                finally:
                    seconds = time.perf_counter() - started
            except TimeoutError:
                self._restart()
                raise
            except (BrokenExecutor, RuntimeError, asyncio.CancelledError) as exc:
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise  # this decision itself is being cancelled
                if self._executor is not pool:
                    # another decision's timeout restarted the pool under this one (its
                    # worker killed, or its call cancelled before it started)
                    raise BotWorkerLostError from exc
                if isinstance(exc, BrokenExecutor):
                    self._restart()  # its worker died: a new pool for the next decision
                raise
        finally:
            self._queue.finish(ticket, seconds)
            self._free += 1
            self._dispatch()

    async def _turn_of(self, turn: BotTurn) -> Ticket[asyncio.Future[None]]:
        """Wait until a worker is free for ``turn`` and the fair order says it is its turn;
        the ticket, started (:meth:`FairQueue.finish` it when the decision ends)."""
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        client = self.owner(turn.game_id) or f"game:{turn.game_id}"
        ticket = self._queue.push(woken, client=client, game=turn.game_id, urgency=turn.urgency)
        self._dispatch()
        try:
            await woken
        except BaseException:  # cancelled while waiting, or after its turn came
            if ticket.started:
                self._queue.finish(ticket, 0.0)
                self._free += 1
                self._dispatch()
            else:
                self._queue.cancel(ticket)
            raise
        return ticket

    def waiting(self) -> int:
        """How many decisions wait for a worker now."""
        return len(self._queue)

    def _dispatch(self) -> None:
        """Give each free worker the decision whose turn it is."""
        while self._free > 0:
            ticket = self._queue.pop()
            if ticket is None:
                return
            self._free -= 1
            if not ticket.item.done():  # else its waiter was cancelled: it gives the worker back
                ticket.item.set_result(None)

    async def decide(self, turn: BotTurn) -> Decision:
        """The seat's bot's command, asked twice if it fails; else the fallback bot's.

        Never raises for a bot's failure: the game always gets a legal move.

        Raises:
            BotWorkerLostError: the pool was restarted under the decision (transient).
        """
        started = time.perf_counter()
        decision = await self._decide(turn)
        if self.observe is not None:
            fell_back = decision.bot != turn.bot
            self.observe(turn.bot, turn.game, time.perf_counter() - started, fell_back)
        return decision

    async def _decide(self, turn: BotTurn) -> Decision:
        failures: list[str] = []
        for _attempt in range(_ATTEMPTS):
            try:
                command = await self._ask(turn.bot, turn)
            except TimeoutError:
                failures.append("timeout")
                continue
            except BotWorkerLostError:
                raise  # no failure of the bot: the scheduler asks again later
            except Exception as exc:  # noqa: BLE001  (a bug in a bot must not stop its game)
                failures.append(type(exc).__name__)
                continue
            if command in turn.legal:
                return Decision(command, turn.bot, tuple(failures))
            failures.append("illegal-command")
        return fallback(turn, tuple(failures))

    def close(self) -> None:
        """Stop the workers (at shutdown)."""
        self._restart()


def default_workers() -> int:
    """Worker processes for bots when the operator does not say: one core is left to the
    server, and at least one bot thinks."""
    return max(1, (os.cpu_count() or 1) - 1)
