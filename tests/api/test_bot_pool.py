"""The bot pool: its time limit counts a decision, not the start of the worker that makes
it; its workers serve the clients that own the games in turn; a decision lost to a restart of
the pool is transient, and a worker that dies is the bot's failure and is replaced."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from random import Random
from typing import Any

import pytest

from spies_api.table import bots
from spies_api.table.bots import BotPool, BotTurn, BotWorkerLostError, Decision
from spies_api.table.fairness import Urgency
from spies_core.registry import GAMES
from spies_core.rng import FairRng
from spies_core.step import setup, view_at
from spies_replay.errors import is_transient
from tests.support.workers import MARKER, dies_once, hangs_once


def turn(game_id: str = "g", bot: str = "greedy", urgency: Urgency = Urgency.UNTIMED) -> BotTurn:
    spec = GAMES["deck-of-spies"]
    state = setup(spec, 1, {}, FairRng(b"pool", 0)).state
    legal = tuple(spec.legal_commands(state, 0))
    view = view_at(spec, state, 0, 2)
    return BotTurn(game_id, 0, bot, 2, spec.name, view, legal, b"pool", urgency)


def test_a_slow_worker_start_does_not_make_the_first_decision_time_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    starts: list[float] = []

    def slow_start() -> None:  # a worker process importing the bots on a busy machine
        starts.append(time.monotonic())
        time.sleep(0.6)  # twice the time limit: the slowness under test, not a wait

    monkeypatch.setattr(bots, "_started", slow_start)
    pool = BotPool(0, timeout_seconds=0.3)
    try:
        first = asyncio.run(pool.decide(turn()))
        second = asyncio.run(pool.decide(turn()))
    finally:
        pool.close()
    assert first.bot == "greedy" and first.failures == ()
    assert second.bot == "greedy" and second.failures == ()
    assert len(starts) == 1  # the worker starts once, not once per decision


def test_a_decision_slower_than_the_limit_still_falls_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answer = threading.Event()

    def slow(bot: str, game: str, view: object, legal: object, rng: Random) -> object:
        answer.wait(30)  # thinks until the test is over
        raise AssertionError("never answers in time")

    pool = BotPool(0, timeout_seconds=0.1, choose=slow)
    try:
        decision = asyncio.run(pool.decide(turn()))
    finally:
        answer.set()
        pool.close()
    assert decision.bot == "random" and decision.failures == ("timeout", "timeout")


async def until(condition: Callable[[], bool]) -> None:
    """Wait until ``condition()`` holds (the pool's queue is filled by other tasks)."""
    deadline = time.monotonic() + 30
    while not condition():
        assert time.monotonic() < deadline, "the condition was not reached"
        await asyncio.sleep(0.001)


def test_a_flood_of_one_clients_decisions_waits_behind_itself() -> None:
    """One worker; one client's four games have decisions waiting when another client's
    game asks: the other's is served next, not after all four (before: first come, first
    served, so a client with four expert games cut another table's bots to 2% of its
    speed), and a forced move (a clock that ran out) goes before both."""
    served: list[str] = []
    all_waiting = threading.Event()

    def choose(label: str, game: str, view: Any, legal: Sequence[Any], rng: Random) -> Any:
        served.append(label)
        all_waiting.wait(30)  # the first decision holds the worker until all have queued
        return legal[0]

    owners = {f"hog{n}": "203.0.113.66" for n in range(4)} | {"other": "198.51.100.7"}
    pool = BotPool(0, choose=choose, owner=owners.get)

    async def scenario() -> None:
        asking = [asyncio.create_task(pool.decide(turn(g, g))) for g in owners]
        await until(lambda: pool.waiting() == len(owners) - 1)  # all asked, one thinking
        late = asyncio.create_task(pool.decide(turn("late", "forced", Urgency.FORCED)))
        await until(lambda: pool.waiting() == len(owners))
        all_waiting.set()
        await asyncio.gather(*asking, late)

    try:
        asyncio.run(scenario())
    finally:
        pool.close()
    assert served == ["hog0", "forced", "other", "hog1", "hog2", "hog3"]


def test_a_turn_given_up_while_it_waits_leaves_no_worker_taken() -> None:
    served: list[str] = []
    release = threading.Event()

    def choose(label: str, game: str, view: Any, legal: Sequence[Any], rng: Random) -> Any:
        served.append(label)
        release.wait(30)
        return legal[0]

    pool = BotPool(0, choose=choose)

    async def scenario() -> None:
        first = asyncio.create_task(pool.decide(turn("a", "a")))
        given_up = asyncio.create_task(pool.decide(turn("b", "b")))
        await until(lambda: bool(served) and pool.waiting() == 1)
        given_up.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await given_up
        assert pool.waiting() == 0
        release.set()
        await first
        await pool.decide(turn("c", "c"))  # the one worker is free again

    try:
        asyncio.run(scenario())
    finally:
        pool.close()
    assert served == ["a", "c"]


# -- lost workers (worker processes: seconds each) -----------------------------------------


@pytest.mark.slow
def test_a_decision_lost_to_another_decisions_restart_is_transient_not_a_failure(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The pool is restarted under a decision in flight (as another decision's timeout
    does): the decision is lost, not failed. It raises the transient BotWorkerLostError, so
    the scheduler asks again later, rather than counting a failure of the bot (and logging
    it, or falling back to the random bot)."""
    marker = tmp_path / "asked"
    monkeypatch.setenv(MARKER, str(marker))
    pool = BotPool(1, timeout_seconds=60, choose=hangs_once)

    async def scenario() -> Decision:
        asked = asyncio.ensure_future(pool.decide(turn()))
        for _ in range(3000):  # the first decision has reached its worker
            if marker.exists():
                break
            await asyncio.sleep(0.01)
        pool._restart()  # what a timeout of another decision in this pool does
        with pytest.raises(BotWorkerLostError) as lost:
            await asked
        assert is_transient(lost.value)
        return await pool.decide(turn())  # asked again: a new worker answers

    try:
        again = asyncio.run(scenario())
    finally:
        pool.close()
    assert again.bot == "greedy" and again.failures == ()


@pytest.mark.slow
def test_a_worker_that_dies_is_the_bots_failure_and_is_replaced(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A worker that dies under a decision counts as that bot's failure (a bot that kills
    its worker every time falls back to the random bot), and the broken pool is replaced:
    the next attempt, and every later decision, gets a working one."""
    monkeypatch.setenv(MARKER, str(tmp_path / "asked"))
    pool = BotPool(1, timeout_seconds=60, choose=dies_once)
    try:
        first = asyncio.run(pool.decide(turn()))
        second = asyncio.run(pool.decide(turn()))
    finally:
        pool.close()
    assert first.bot == "greedy" and first.failures == ("BrokenProcessPool",)
    assert second.bot == "greedy" and second.failures == ()
