"""Bots at the table: the server plays every seat a bot holds, off the request path.

:class:`BotRunner` is a background task of the app's lifespan. It wakes when a game of this
process is appended to (the service's append listeners) and sweeps the log every second for
games in progress with a bot seat (which also resumes them after a restart, and catches
appends by other processes). For each such game, one task at a time:

1. on a worker thread, read the state and find a seat that a bot plays and that is to act;
2. ask the bot's policy (:func:`spies_bots.policy_for`) for a command, on the bots' own
   thread pool with a timeout, given that seat's view (version filled in), its legal
   commands and :func:`spies_bots.bot_rng`, a :class:`random.Random` seeded by
   ``HMAC-SHA256(seed, "bot:<seat>:<version>")``: the same for every re-run of the game,
   unknown to the players until the seed is revealed;
3. submit it through the command pipeline as a command of that seat, marked with the bot's
   name and version (``greedy@1``, :func:`spies_replay.marks.bot_mark`), at the version it
   was chosen for (anything appended meanwhile sends it back to 1). Once the seed is
   revealed, ``spies-replay verify`` asks the same bot the same question and checks that
   the recorded command is its answer.

Games are played concurrently, so a slow bot holds up only its own game. When the task is
cancelled (the app shutting down), it waits for its store calls already running on worker
threads before it ends: a cancelled ``await`` abandons its thread, and the store must not be
closed under a thread that is using it. A bot that fails
(raises, returns a refused command, or runs out of time) logs one ``bot_failed`` line and
leaves the game waiting: nothing is appended, and the bot is not asked again at that
version (a seat taken back, or any other change, moves the game on).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from random import Random
from typing import Any, Final, Protocol, TypeVar

import anyio
import structlog

from spies_api.schemas import SubmittedCommand
from spies_api.service.commands import Commands
from spies_api.service.notify import AppendListeners
from spies_api.service.states import GameStates
from spies_bots import bot_rng, get_bot, policy_for
from spies_core.errors import SpiesError
from spies_core.registry import GAMES
from spies_core.step import view_at
from spies_replay.errors import GameFinishedError, VersionConflictError
from spies_replay.marks import bot_mark
from spies_replay.store.protocols import GameIndex, SeatLedger

__all__ = ["BOT_TIMEOUT_SECONDS", "SWEEP_SECONDS", "BotRunner", "BotTurn"]

SWEEP_SECONDS: Final = 1.0
"""How often the log is swept for games waiting on a bot."""
BOT_TIMEOUT_SECONDS: Final = 10.0
"""How long a bot may think about one command."""
_BOT_THREADS: Final = 16
_DRAIN_SECONDS: Final = 30.0
"""At shutdown, how long to wait for store calls still running on worker threads."""

T = TypeVar("T")


class _Stopped(Exception):  # noqa: N818  (a signal, not an error)
    """The runner is stopping: a store call that has not started yet does not start."""


@dataclass(frozen=True, slots=True)
class BotTurn:
    """What a bot is asked: a seat to act, at a version, with what it may see and do."""

    game_id: str
    seat: int
    bot: str
    version: int
    game: str
    view: Any
    legal: list[Any]
    rng: Random


class BotSeats(GameIndex, SeatLedger, Protocol):
    """The roles of the store the bot runner reads: the games with bots, and their seats."""


class BotRunner:
    """Plays the bot seats of every game in progress (see the module docstring).

    Args:
        store: the games and their seats.
        states: the cached heads of games.
        commands: the command handler a bot's command goes through.
        appends: the listeners of this process's appends (the runner is one while it runs).
        sweep_seconds: how often the log is swept for games waiting on a bot.
        timeout_seconds: how long a bot may think about one command.
    """

    def __init__(
        self,
        store: BotSeats,
        states: GameStates,
        commands: Commands,
        appends: AppendListeners,
        *,
        sweep_seconds: float = SWEEP_SECONDS,
        timeout_seconds: float = BOT_TIMEOUT_SECONDS,
    ) -> None:
        self.store = store
        self.states = states
        self.commands = commands
        self.appends = appends
        self.sweep_seconds = sweep_seconds
        self.timeout_seconds = timeout_seconds
        self.log = structlog.get_logger("spies_api").bind()
        self._pending: set[str] = set()
        self._busy: set[str] = set()
        self._failed: set[tuple[str, int, int]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._running = threading.Condition()
        self._in_threads = 0
        self._stopping = False

    # -- store calls on worker threads -----------------------------------------------------

    async def _in_thread(self, func: Callable[[], T]) -> T:
        """Run ``func`` on a worker thread, counted so that :meth:`_drain` can wait for it."""

        def counted() -> T:
            with self._running:
                if self._stopping:
                    raise _Stopped
                self._in_threads += 1
            try:
                return func()
            finally:
                with self._running:
                    self._in_threads -= 1
                    self._running.notify_all()

        return await anyio.to_thread.run_sync(counted)

    def _drain(self) -> None:
        """Stop new store calls and wait for those running (blocks: shutdown only)."""
        with self._running:
            self._stopping = True
            self._running.wait_for(lambda: self._in_threads == 0, timeout=_DRAIN_SECONDS)

    # -- waking up -------------------------------------------------------------------------

    def poke(self, game_id: str) -> None:
        """Look at ``game_id`` soon (called after every append, from any thread)."""
        loop = self._loop
        if loop is None:
            return
        try:
            loop.call_soon_threadsafe(self._mark, game_id)
        except RuntimeError:  # the loop has closed: the server is shutting down
            return

    def _mark(self, game_id: str) -> None:
        self._pending.add(game_id)
        if self._wake is not None:
            self._wake.set()

    # -- the task --------------------------------------------------------------------------

    async def run(self) -> None:
        """Play bot turns until cancelled (the app's lifespan runs this as a task)."""
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        executor = ThreadPoolExecutor(_BOT_THREADS, thread_name_prefix="spies-bot")
        self.appends.add(self.poke)
        try:
            async with anyio.create_task_group() as group:
                await self._sweep()
                while True:
                    for game_id in sorted(self._pending - self._busy):
                        self._busy.add(game_id)
                        self._pending.discard(game_id)
                        group.start_soon(self._play, game_id, executor)
                    woken = False
                    with anyio.move_on_after(self.sweep_seconds):
                        await self._wake.wait()
                        woken = True
                    self._wake.clear()
                    if not woken:
                        await self._sweep()
        finally:
            self.appends.remove(self.poke)
            executor.shutdown(wait=False, cancel_futures=True)
            self._loop = None
            self._drain()

    async def _sweep(self) -> None:
        try:
            found = await self._in_thread(self.store.games_with_bots)
        except Exception as exc:  # noqa: BLE001  (a busy or closed database: sweep again later)
            self.log.warning("bot_sweep_failed", error_type=type(exc).__name__)
            return
        self._pending.update(found)

    async def _play(self, game_id: str, executor: ThreadPoolExecutor) -> None:
        try:
            while True:
                turn = await self._in_thread(lambda: self.plan(game_id))
                if turn is None:
                    return
                await self._move(turn, executor)
        except Exception as exc:  # noqa: BLE001  (one game's trouble never stops the runner)
            self.log.error("bot_failed", game_id=game_id, error_type=type(exc).__name__)
        finally:
            self._busy.discard(game_id)
            if self._wake is not None:
                self._wake.set()  # appends seen while busy wait in _pending

    def plan(self, game_id: str) -> BotTurn | None:
        """The next bot turn of a game, or ``None`` when no bot is to act (worker thread)."""
        record, head = self.states.current(game_id)
        if head.finished:
            return None
        spec = GAMES[record.game]
        seats = self.store.seat_states(game_id, record.players)
        for seat in sorted(spec.to_act(head.state)):
            bot = seats[seat].bot if seat < len(seats) else None
            if bot is None or (game_id, seat, head.version) in self._failed:
                continue
            legal = list(spec.legal_commands(head.state, seat))
            if not legal:
                continue
            view = view_at(spec, head.state, seat, head.version)
            rng = bot_rng(head.secrets.seed, seat, head.version)
            return BotTurn(game_id, seat, bot, head.version, record.game, view, legal, rng)
        return None

    async def _move(self, turn: BotTurn, executor: ThreadPoolExecutor) -> None:
        fields = {"game_id": turn.game_id, "seat": turn.seat, "bot": turn.bot}
        loop = asyncio.get_running_loop()
        try:
            policy = policy_for(turn.bot, turn.game)
            chosen = loop.run_in_executor(executor, policy, turn.view, turn.legal, turn.rng)
            command = await asyncio.wait_for(chosen, self.timeout_seconds)
            # The version of the bot that chose, recorded with its move: verify re-runs the
            # move only with that version of the bot.
            mark = bot_mark(turn.bot, get_bot(turn.bot).version)
        except TimeoutError:
            self._fail(turn, fields, "timeout")
            return
        except Exception as exc:  # noqa: BLE001  (a bug in a bot must not stop its game's log)
            self._fail(turn, fields, type(exc).__name__)
            return
        request = SubmittedCommand(command=command, expected_version=turn.version)
        try:
            await self.commands.submit(turn.game_id, turn.seat, request, bot=mark)
        except (VersionConflictError, GameFinishedError):
            return  # the game moved meanwhile: plan again (or it is over)
        except SpiesError as exc:  # the rules refused the bot's command: a bug in the bot
            self._fail(turn, fields, exc.code)

    def _fail(self, turn: BotTurn, fields: dict[str, Any], reason: str) -> None:
        self._failed.add((turn.game_id, turn.seat, turn.version))
        self.log.error("bot_failed", **fields, version=turn.version, reason=reason)
