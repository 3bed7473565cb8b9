"""Waiting on a condition, never for a fixed time: poll it until it holds or a deadline
passes, then fail saying what did not happen."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

__all__ = ["POLL_SECONDS", "next_loop_turn", "until", "until_async"]

T = TypeVar("T")

POLL_SECONDS = 0.02
"""How often a condition is looked at: often enough that a test never waits much longer
than what it waits for, rarely enough to leave the CPU to it."""


def until(
    condition: Callable[[], T | None],
    *,
    timeout: float = 30.0,
    every: float = POLL_SECONDS,
    what: str | Callable[[], str] = "the condition",
) -> T:
    """The first true value of ``condition()``, called every ``every`` seconds.

    Args:
        condition: what to wait for; a false value (``None``, ``False``, empty) means not
            yet. An exception it raises is not caught.
        timeout: the deadline, in seconds from now: a bound for a loaded machine, never a
            duration the test relies on.
        every: the seconds between two looks.
        what: the condition in words, or a function that says how things stand, for the
            failure's message.

    Raises:
        AssertionError: ``condition()`` was still false at the deadline.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            said = what() if callable(what) else what
            raise AssertionError(f"waited {timeout} s for {said}")
        time.sleep(every)


async def until_async(
    condition: Callable[[], object], *, timeout: float = 30.0, every: float = 0.005
) -> None:
    """:func:`until` on an event loop: the loop runs on while the condition is not met.

    Raises:
        AssertionError: ``condition()`` was still false at the deadline.
    """
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            raise AssertionError(f"waited {timeout} s for the condition")
        await asyncio.sleep(every)


async def next_loop_turn() -> None:
    """Let the event loop run what is ready (callbacks set from other threads, tasks just
    created) before the caller goes on."""
    await asyncio.sleep(0)
