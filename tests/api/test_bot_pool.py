"""The bot pool's time limit counts a decision, not the start of the worker that makes it."""

from __future__ import annotations

import asyncio
import threading
import time
from random import Random

import pytest

from spies_api.table import bots
from spies_api.table.bots import BotPool, BotTurn
from spies_core.registry import GAMES
from spies_core.rng import FairRng
from spies_core.step import setup, view_at


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
