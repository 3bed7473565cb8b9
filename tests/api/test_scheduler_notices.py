"""Another process's appends, as the scheduler hears them from the store's watch: a notice
that tells nothing is due of a game with no work in this process is dropped on the watch's
thread (no hop to the event loop, no query), and the notices that matter reach the loop in
one hop for all those heard until it looks. Each process hears every other's appends, so
what it does per notice is what grows with the number of processes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from spies_api.table.scheduler import Scheduler
from spies_replay.store.records import Appended

DUE = "2030-01-02T03:04:05.000000Z"


class Loop:
    """Counts the calls handed to the event loop from another thread."""

    def __init__(self) -> None:
        self.hops: list[Callable[..., Any]] = []

    def call_soon_threadsafe(self, callback: Callable[..., Any], *args: Any) -> None:
        self.hops.append(callback)


def scheduler() -> tuple[Scheduler, Loop]:
    found = Scheduler(store=None, states=None, commands=None, appends=None, bots=None)  # type: ignore[arg-type]
    loop = Loop()
    found._loop = loop  # type: ignore[assignment]  # as run() sets them
    found._wake = asyncio.Event()
    return found, loop


def test_a_notice_of_nothing_due_for_a_game_without_work_here_is_dropped() -> None:
    found, loop = scheduler()
    for version in range(1, 50):
        found.heard(Appended(game_id="g", version=version, head_hash="h"))
    assert loop.hops == []
    assert found._notices.take() == {}


def test_notices_that_matter_reach_the_loop_in_one_hop_the_newest_kept() -> None:
    found, loop = scheduler()
    found.heard(Appended(game_id="g", version=4, head_hash="h", due_at=DUE))
    found.heard(Appended(game_id="k", version=2, head_hash="h", due_at=DUE))
    # a game due here already: its notice that nothing is due any more must reach the loop
    found._queue.mark("q", DUE)
    found.heard(Appended(game_id="q", version=9, head_hash="h"))
    found.heard(Appended(game_id="g", version=5, head_hash="h"))
    assert len(loop.hops) == 1
    assert found._notices.take() == {
        "g": Appended(game_id="g", version=5, head_hash="h"),
        "k": Appended(game_id="k", version=2, head_hash="h", due_at=DUE),
        "q": Appended(game_id="q", version=9, head_hash="h"),
    }


def test_an_older_engines_notice_pokes_the_game() -> None:
    """A notice that tells the game alone (an engine from before the notices carried the
    due mark) is a poke: the due mark is read from the store, as before."""
    found, loop = scheduler()
    found._loop_thread = -1  # not the loop's thread: the poke hops
    found.heard(Appended(game_id="g"))
    assert len(loop.hops) == 1
    assert found._notices.take() == {}
    asyncio.run(_poked(found, loop))


async def _poked(found: Scheduler, loop: Loop) -> None:
    loop.hops[0]("g")
    assert found._poked == {"g"}
