"""Every bot decides on a crowded thread pool exactly as it decides alone.

The server asks its bots from a pool of threads (16 in ``spies_api.bots``), so whatever a
bot keeps between calls is read and written by many threads at once. Here every bot of
every game is given many distinct views, taken at the decisions of seeded random playouts
at every seat count (and, for Deck of Spies, with its default rule flags and with all
three changed, which changes the keys of the expert's memo), on a
:class:`~concurrent.futures.ThreadPoolExecutor` of as many threads. Each decision is
submitted twice, so that threads meet on the same memo entries, and bots and games are
interleaved. Then each decision is made again alone, in turn, with a generator seeded
alike. No concurrent decision may raise, and each must equal the decision made alone.

A race in a shared memo shows when a thread is interrupted between looking at the table
and changing it, and the table changes most when it is full and forgets. So the threads
switch often here (:func:`sys.setswitchinterval`), and every :class:`SharedMemo` of the
bots is bounded to a few hundred keys for the run, which makes it fill and forget all
through a run of seconds instead of once per 40,000 keys (a bound only changes how much is
remembered, never a decision: a memo's values are those of a pure function).
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from random import Random
from typing import Any, Final

import pytest

import spies_bots
from spies_bots import BOTS, policy_for
from spies_bots.match import play_match
from spies_bots.memo import SharedMemo
from spies_core import GAMES

THREADS: Final = 16
"""As many threads as the server's bot pool."""
COPIES: Final = 2
"""Each decision is submitted this many times, so that threads share memo entries."""
SWITCH_SECONDS: Final = 1e-3
"""The interpreter's thread switch interval during the concurrent run (default 5 ms)."""
MEMO_LIMIT: Final = 512
"""The bound of every shared memo of the bots during the test."""

OPTIONS: Final[dict[str, tuple[dict[str, Any], ...]]] = {
    "deck-of-spies": (
        {},
        {
            "strict_necessity": False,
            "ace_counts_in_necessity": False,
            "retire_multiple_ranks": True,
        },
    ),
}
"""Creation options per game for the playouts that supply the views (default: none)."""
VIEWS: Final[dict[str, int]] = {"random": 8, "greedy": 40}
"""Distinct views per bot, game, seat count and options; a bot not named here searches:"""
SEARCH_VIEWS: Final = 2
"""Distinct views per game, seat count and options for a searching bot."""


@dataclass(frozen=True, slots=True, eq=False)
class Case:
    """One decision: a bot, its game, a seat's view, its legal commands and a seed."""

    bot: str
    game: str
    view: Any
    legal: tuple[Any, ...]
    seed: int

    def decide(self) -> Any:
        """The bot's command, with a generator seeded by the case."""
        return policy_for(self.bot, self.game)(self.view, self.legal, Random(self.seed))


def _views(game: str, players: int, options: dict[str, Any]) -> list[tuple[Any, tuple[Any, ...]]]:
    """``(view, legal)`` at every decision with a choice in two seeded random playouts."""
    spec = GAMES[game]
    random_policy = policy_for("random", game)
    seen: list[tuple[Any, tuple[Any, ...]]] = []

    def recording(view: Any, legal: Any, rng: Random) -> Any:
        if len(legal) > 1:
            seen.append((view, tuple(legal)))
        return random_policy(view, legal, rng)

    for index in range(2):
        label = f"threads:{game}:{players}:{sorted(options.items())}:{index}"
        play_match(
            spec,
            [recording] * players,
            seed=label.encode(),
            rngs=[Random(f"{label}:{seat}") for seat in range(players)],
            options=options,
        )
    return seen


def _spread(items: list[Any], count: int) -> list[Any]:
    """``count`` items taken evenly through ``items`` (all of them when fewer)."""
    if len(items) <= count:
        return items
    return [items[i * len(items) // count] for i in range(count)]


def _cases() -> list[Case]:
    cases: list[Case] = []
    for game, spec in GAMES.items():
        bots = [bot.name for bot in BOTS.values() if game in bot.games]
        for options in OPTIONS.get(game, ({},)):
            for players in sorted(spec.seat_counts):
                views = _views(game, players, options)
                for bot in bots:
                    for view, legal in _spread(views, VIEWS.get(bot, SEARCH_VIEWS)):
                        cases.append(Case(bot, game, view, legal, seed=len(cases)))
    return cases


def _shared_memos() -> Iterator[SharedMemo[Any, Any]]:
    """Every :class:`SharedMemo` held at module level anywhere in ``spies_bots``."""
    for info in pkgutil.walk_packages(spies_bots.__path__, "spies_bots."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, SharedMemo):
                yield value


@pytest.fixture
def small_memos(monkeypatch: pytest.MonkeyPatch) -> int:
    """Bound every shared memo of the bots to :data:`MEMO_LIMIT` keys; how many there are."""
    memos = list({id(memo): memo for memo in _shared_memos()}.values())
    for memo in memos:
        monkeypatch.setattr(memo, "limit", MEMO_LIMIT)
    return len(memos)


def _outcome(future: Future[Any]) -> tuple[bool, Any]:
    try:
        return True, future.result()
    except Exception as error:  # noqa: BLE001 (whatever a bot raises is the finding)
        return False, f"{type(error).__name__}: {error}"


@pytest.mark.slow
def test_bots_decide_on_many_threads_at_once_as_they_do_alone(small_memos: int) -> None:
    assert small_memos > 0, "no shared memo found in spies_bots: is the test still needed?"
    cases = _cases()
    jobs = [case for case in cases for _ in range(COPIES)]
    Random(7).shuffle(jobs)  # bots and games interleaved, copies apart
    previous = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_SECONDS)
    try:
        with ThreadPoolExecutor(THREADS) as pool:
            submitted = [(case, pool.submit(case.decide)) for case in jobs]
            outcomes = [(case, *_outcome(future)) for case, future in submitted]
    finally:
        sys.setswitchinterval(previous)
    raised = [(case.bot, case.game, result) for case, ok, result in outcomes if not ok]
    assert not raised, f"{len(raised)} of {len(jobs)} concurrent decisions raised: {raised[:5]}"
    alone = {case: case.decide() for case in cases}
    differ = [
        (case.bot, case.game, case.seed, result, alone[case])
        for case, _, result in outcomes
        if result != alone[case]
    ]
    assert not differ, f"{len(differ)} concurrent decisions differ from alone: {differ[:5]}"
    assert {(case.bot, case.game) for case in cases} == {
        (bot.name, game) for bot in BOTS.values() for game in bot.games
    }
