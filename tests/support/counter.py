"""The counter game (:mod:`tests.support.countergame`) in a store: create a game, play
turns without ending it, finish it, append events as a writer does."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from spies_api.game import CreatedGame, create_game, submit_command
from spies_replay.codec import FORMAT_3, seal
from spies_replay.reading import StoredEvent, load_state
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import Append, Reply, utc_now
from tests.support.countergame import GAMES, Bump, CounterBumped, Draw, Shuffle

__all__ = ["append", "batch", "finish", "new_game", "play"]


def new_game(
    store: EventStore, *, players: int = 2, target: int = 12, seed: str | None = "s1"
) -> CreatedGame:
    return create_game(store, "counter", players, {"target": target}, seed=seed, games=GAMES)


def play(store: EventStore, game_id: str, turns: int) -> int:
    """Play ``turns`` commands (draw, shuffle, bump by 1 in turn) without finishing.

    Returns the version after them. Keep ``turns`` below the target so nobody wins.
    """
    loaded = load_state(store, game_id, games=GAMES)
    state, version = loaded.state, loaded.seq
    for turn in range(turns):
        command = (Draw(), Shuffle(), Bump(by=1))[turn % 3]
        if isinstance(command, Draw) and not state.deck:
            command = Bump(by=1)
        result = submit_command(
            store, game_id, state.turn, command, state=state, version=version, games=GAMES
        )
        state, version = result.state, result.version
    return version


def finish(store: EventStore, game_id: str) -> int:
    """Bump by 3 until someone wins; return the final version."""
    loaded = load_state(store, game_id, games=GAMES)
    state, version = loaded.state, loaded.seq
    while state.winner is None:
        result = submit_command(
            store, game_id, state.turn, Bump(by=3), state=state, version=version, games=GAMES
        )
        state, version = result.state, result.version
    return version


def append(
    store: EventStore,
    game_id: str,
    version: int,
    events: Sequence[msgspec.Struct],
    *,
    reply: Reply | None = None,
) -> list[StoredEvent]:
    """Seal ``events`` after ``version`` (chained from the game's head hash as it is now) and
    hand them to :meth:`~spies_replay.store.protocols.EventLog.append`, as a writer does."""
    head_hash = store.get_game(game_id).head_hash
    rows = seal(head_hash, version + 1, events, recorded_at=utc_now(), log=FORMAT_3)
    store.append(
        Append(game_id=game_id, version=version, head_hash=head_hash, rows=rows, reply=reply)
    )
    return [
        StoredEvent(
            seq=row.seq,
            type=row.type,
            event=event,
            actor=None,
            recorded_at=row.recorded_at,
            hash=row.hash,
        )
        for row, event in zip(rows, events, strict=True)
    ]


def batch(
    store: EventStore, game_id: str, *, by: int = 1, reply: Reply | None = None, **extra: Any
) -> Append:
    """One bump after the game's version, sealed from its head hash (not yet appended)."""
    record = store.get_game(game_id)
    rows = seal(
        record.head_hash,
        record.version + 1,
        [CounterBumped(seat=0, by=by, total=by)],
        recorded_at=utc_now(),
        log=FORMAT_3,
    )
    return Append(
        game_id=game_id,
        version=record.version,
        head_hash=record.head_hash,
        rows=rows,
        reply=reply,
        **extra,
    )
