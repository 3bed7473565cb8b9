"""The games of a run on worker processes, their results in index order.

Games are dealt out in chunks of consecutive indices; which process plays a chunk does not
matter, since a game's result depends on its index alone (:mod:`spies_sim.games`). The
workers ignore Ctrl+C: the parent gets it and leaving the pool terminates them all.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Iterator, Sequence

from spies_sim.games import GameResult, Run, play_game

__all__ = ["results"]


def results(run: Run, keep_moves: bool, indices: Sequence[int]) -> Iterator[GameResult]:
    """The result of each game in ``indices`` (ascending), in order, on ``run.jobs`` processes.

    Args:
        run: what to play.
        keep_moves: keep each game's commands (to record it).
        indices: the games to play.
    """
    if run.jobs == 1 or len(indices) == 1:
        for index in indices:
            yield play_game(run, index, keep_moves=keep_moves)
        return
    size = max(1, min(64, len(indices) // (run.jobs * 8)))
    tasks = [
        (run, tuple(indices[start : start + size]), keep_moves)
        for start in range(0, len(indices), size)
    ]
    # Leaving the block (done, an error, Ctrl+C) terminates the workers.
    with multiprocessing.Pool(run.jobs, initializer=_ignore_interrupts) as pool:
        for chunk in pool.imap(_play_chunk, tasks):
            yield from chunk


def _play_chunk(task: tuple[Run, tuple[int, ...], bool]) -> list[GameResult]:
    run, indices, keep_moves = task
    return [play_game(run, i, keep_moves=keep_moves) for i in indices]


def _ignore_interrupts() -> None:
    """Workers leave Ctrl+C to the parent, which stops them all."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
