"""One game of a run: what to play, how each game is seeded, and what it leaves behind.

Game ``i`` of a run with seed ``S`` is played from the client seed ``"S:i"``, taken as the
server takes a client's seed (its UTF-8 bytes), with the server's nonces
(:func:`spies_bots.match.play_match`); the bot of seat ``k`` draws from
``random.Random("S:i:k")``. A game's result depends on ``S`` and ``i`` alone, so the same
seed gives the same results whichever process plays it, and game ``i`` is the game the server
would create with seed ``"S:i"`` and the same commands. With ``--clock`` it is the game the
server would create with that clock too: the log's ``clocks_updated`` events take their place
in the nonces (:func:`~spies_bots.match.play_match` ``clocked``), so the deal differs from the
same seed's game without a clock.
"""

from __future__ import annotations

import time
from array import array
from dataclasses import dataclass
from random import Random
from typing import Any

from spies_api.game import seed_from_client
from spies_bots.match import play_match
from spies_bots.registry import policy_for
from spies_core.clock import TimeControl
from spies_core.registry import get_game

__all__ = ["GameResult", "Run", "game_seed", "play_game"]


@dataclass(frozen=True, slots=True)
class Run:
    """A validated request: what to play and where to record it."""

    game: str
    bots: tuple[str, ...]
    games: int
    seed: str
    jobs: int
    options: dict[str, Any]
    record: str | None = None
    """A SQLite file path or a ``postgresql://`` URL."""
    checkpoint: str | None = None
    """A file of the results played so far (JSON lines), to resume from."""
    clock: TimeControl | None = None
    """The time control of every recorded game (``--clock``, with ``--record`` only): each
    game is played as the server would play it with that clock (its nonces count the clock
    events), and each recorded game carries its clocks."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """What one game leaves behind for the report (and, when recording, its commands)."""

    index: int
    winners: tuple[int, ...]
    draw: bool
    reason: str
    scores: tuple[int, ...]
    commands: int
    events: int
    sides: tuple[int | None, ...]
    times: tuple[array[float], ...]
    """Per seat, the seconds of each of its decisions."""
    moves: tuple[tuple[int, Any], ...] | None = None
    """``(seat, command)`` in order, kept only when the game is to be recorded."""


def game_seed(seed: str, index: int) -> str:
    """The client seed of game ``index`` of a run with seed ``seed``."""
    return f"{seed}:{index}"


def play_game(run: Run, index: int, *, keep_moves: bool = False) -> GameResult:
    """Play game ``index`` of ``run``; its result depends on ``run.seed`` and ``index`` only.

    A decision's time is the CPU its process spent in the bot (``time.process_time``), which
    other processes on a busy machine do not inflate.
    """
    spec = get_game(run.game)
    policies = [policy_for(bot, run.game) for bot in run.bots]
    rngs = [Random(f"{run.seed}:{index}:{seat}") for seat in range(len(run.bots))]
    match = play_match(
        spec,
        policies,
        seed=seed_from_client(game_seed(run.seed, index)),
        rngs=rngs,
        options=run.options,
        clock=time.process_time,
        clocked=run.clock is not None,
    )
    times = tuple(array("d") for _ in run.bots)
    for decision in match.decisions:
        assert decision.seconds is not None
        times[decision.seat].append(decision.seconds)
    outcome = match.outcome
    return GameResult(
        index=index,
        winners=outcome.winners,
        draw=outcome.draw,
        reason=outcome.reason,
        scores=outcome.scores,
        commands=len(match.decisions),
        events=match.events,
        sides=match.sides,
        times=times,
        moves=match.commands if keep_moves else None,
    )
