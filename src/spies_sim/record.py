"""``--record DB``: every game of a run written into a replay database through the engine.

Each game is created with its client seed (committed at creation, revealed at the end), then
each bot command is submitted as its seat's, exactly as the server records a game, so
``spies-replay --db DB verify --all`` re-derives every recorded game and any of them can be
stepped through. The workers only play; the parent process alone writes, in game order
(SQLite has one writer).

With ``--clock`` each game is created with that time control and every command's batch
carries the clocks as the server records them (``clocks_updated``), at the times the
commands are written; no clock runs out, since they are written milliseconds apart, and
``verify`` checks every clock from those times.
"""

from __future__ import annotations

import os
from pathlib import Path

from spies_api.game import create_game, submit_command
from spies_replay import (
    EventStore,
    ReplayError,
    is_postgres_url,
    open_store,
)
from spies_sim.errors import UsageError
from spies_sim.games import GameResult, Run, game_seed

__all__ = ["check_location", "open_record_store", "record_game"]


def check_location(location: str) -> None:
    """Refuse a ``--record`` file that SQLite could not write, before anything is played.

    A PostgreSQL URL is checked when it is opened (:func:`open_record_store`).

    Raises:
        UsageError: a directory, a missing or read-only directory, a read-only file.
    """
    if is_postgres_url(location):
        return
    path = Path(location)
    folder = path.parent
    if path.is_dir():
        raise UsageError(f"--record {path} is a directory, not a database file")
    if not folder.is_dir():
        raise UsageError(f"--record {path}: there is no directory {folder}")
    # SQLite also writes beside the file (its journal), so the folder must be writable.
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"--record {path}: the directory {folder} is not writable")
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise UsageError(f"--record {path} is not writable")


def open_record_store(location: str | None) -> EventStore | None:
    """The store to record into (created when missing), or ``None`` when not recording.

    Raises:
        UsageError: the database cannot be opened (not a database, unreachable, ...).
    """
    if location is None:
        return None
    try:
        return open_store(location)
    except ReplayError as exc:
        raise UsageError(f"--record: {exc}") from None


def record_game(store: EventStore, run: Run, result: GameResult) -> None:
    """Create game ``result.index`` through the engine and submit its commands.

    Raises:
        ReplayError: the store refused a write, or the recorded game ended otherwise than
            the game played (``record-diverged``), or a seat's clock ran out while its
            commands were being written (``deadline-passed``: a clock far too short).
    """
    assert result.moves is not None
    created = create_game(
        store,
        run.game,
        len(run.bots),
        run.options,
        seed=game_seed(run.seed, result.index),
        clock=run.clock,
    )
    game_id, state, version = created.record.id, created.state, created.record.version
    outcome = created.record.outcome
    for seat, command in result.moves:
        submitted = submit_command(store, game_id, seat, command, state=state, version=version)
        state, version, outcome = submitted.state, submitted.version, submitted.outcome
    if outcome is None or (outcome.winners, outcome.draw) != (result.winners, result.draw):
        raise ReplayError(
            f"game {result.index} ({game_id}) ended differently when recorded: {outcome!r}",
            code="record-diverged",
        )
