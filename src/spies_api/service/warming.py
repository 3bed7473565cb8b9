"""Reading ahead: a process that starts holds the games in use before they are asked for.

A game's first command in a process (after a start, or on a game the cache never held) is a
cache miss: a read of its kept head and of its seat's token, which a command on a held game
does not make (on PostgreSQL a round trip; figures in docs/speed.md, *Read ahead*). So
once the app answers, :func:`warm_caches` reads the compact heads the store keeps with the
games not finished (:meth:`~spies_replay.store.protocols.SnapshotCache.kept_heads`, newest
first, a page at a time on a worker thread) into the cache's packed tier
(:meth:`~spies_api.service.states.GameStates.warm`, undecoded: a head is decoded and checked
against its game's row when first used) and their seats' token hashes into the
authenticator (:meth:`~spies_api.service.auth.SeatAuthenticator.warm`), until either budget
is full (``Settings.cache_bytes``, and a game per KiB of it for the tokens) or every game is
held. A head made stale meanwhile (another process's append) is not kept; a head the cache
already holds, or a token it already remembers, is not replaced; what is read ahead is the
first to go when the budget is wanted. It is one pass, then the task ends: a failure of the
store ends it early (logged), and the games are read when first used, as before.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Final

import structlog

from spies_api.service.auth import SeatAuthenticator
from spies_api.service.placement import blocking
from spies_api.service.states import GameStates
from spies_core.errors import SpiesError
from spies_replay.store.protocols import SnapshotCache

__all__ = ["PAGE", "warm_caches"]

PAGE: Final = 500
"""Games read a page: a few milliseconds of the database's time each."""

_log = structlog.get_logger("spies_api.warming")


async def warm_caches(
    store: SnapshotCache,
    states: GameStates,
    auth: SeatAuthenticator,
    *,
    page: int = PAGE,
    heard: asyncio.Event | None = None,
    done: threading.Event | None = None,
) -> int:
    """Read the kept heads of the games not finished into ``states`` and their token hashes
    into ``auth``, ``page`` games a read, while they fit; log one line (``caches_warmed``,
    or ``caches_not_warmed`` when the store failed); then set ``done``, if given.

    When given, ``heard`` is waited for first: it is set once another process's append is
    heard (the store's watch on the loop is listening), which a head read ahead must be, or
    it stays stale.

    Returns:
        How many games' heads were kept.
    """
    try:
        if heard is not None:
            await heard.wait()
        return await _warm(store, states, auth, page)
    finally:
        if done is not None:
            done.set()


async def _warm(
    store: SnapshotCache, states: GameStates, auth: SeatAuthenticator, page: int
) -> int:
    started = time.perf_counter()
    games = tokens = 0
    after: tuple[str, str] | None = None
    full = not states.packed_bytes  # no budget: nothing to read
    try:
        while not full:
            states.warming()
            found = await blocking(store.kept_heads, page, after)
            taken = states.warm(found)
            kept = {row.record.id for row in found.rows[:taken]}
            held = {key: seats for key, seats in found.tokens.items() if key in kept}
            fits = auth.warm(held)
            games += taken
            tokens += sum(map(len, held.values()))
            full = taken < len(found.rows) or not fits
            after = found.last
            if len(found.rows) < page:
                break
            await asyncio.sleep(0)  # the requests waiting go first
    except SpiesError as exc:
        _log.warning("caches_not_warmed", games=games, error=str(exc), code=exc.code)
        return games
    finally:
        states.warming(on=False)
    _log.info(
        "caches_warmed",
        games=games,
        tokens=tokens,
        full=full,
        packed_bytes=states.packed_size,
        seconds=round(time.perf_counter() - started, 3),
    )
    return games
