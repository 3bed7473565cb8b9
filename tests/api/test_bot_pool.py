"""The bot pool: its time limit counts a decision, not the start of the worker that makes
it; a decision lost to a restart of the pool is transient, and a worker that dies is the
bot's failure and is replaced."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from random import Random

import pytest

from spies_api.table import bots
from spies_api.table.bots import BotPool, BotTurn, BotWorkerLostError, Decision
from spies_core.registry import GAMES
from spies_core.rng import FairRng
from spies_core.step import setup, view_at
from spies_replay.errors import is_transient
from tests.support.workers import MARKER, dies_once, hangs_once


def turn() -> BotTurn:
    spec = GAMES["deck-of-spies"]
    state = setup(spec, 1, {}, FairRng(b"pool", 0)).state
    legal = tuple(spec.legal_commands(state, 0))
    view = view_at(spec, state, 0, 2)
    return BotTurn("g", 0, "greedy", 2, spec.name, view, legal, b"pool")


def test_a_slow_worker_start_does_not_make_the_first_decision_time_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    starts: list[float] = []

    def slow_start() -> None:  # a worker process importing the bots on a busy machine
        starts.append(time.monotonic())
        time.sleep(0.6)

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
    def slow(bot: str, game: str, view: object, legal: object, rng: Random) -> object:
        time.sleep(0.5)
        raise AssertionError("never answers in time")

    pool = BotPool(0, timeout_seconds=0.1, choose=slow)
    try:
        decision = asyncio.run(pool.decide(turn()))
    finally:
        pool.close()
    assert decision.bot == "random" and decision.failures == ("timeout", "timeout")


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
