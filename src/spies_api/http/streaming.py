"""Server-sent events: the log of one game, live, as the caller may see it.

Each event is one message::

    id: 7
    data: {"type":"spy_countered","spy":"5C","cards":["2H","3S"],"seq":7,"recorded_at":"..."}

``id`` is the event's seq, so a reconnecting client (``Last-Event-ID``, or ``?after=``)
resumes exactly after the last event it received (also after a server restart: a server
shutting down ends its streams). Messages carry no ``event:`` line, so an
``EventSource``'s ``onmessage`` sees every event; the type is in the data. An idle stream
sends a ``: keep-alive`` comment at least every ``Settings.sse_keepalive_seconds``. The
stream ends after the game's final event (``seed_revealed``).

Each game has at most ``Settings.max_streams_per_game`` open streams in this process
(:class:`~spies_api.notify.StreamSlots`); one more is refused before it starts, with 503
``too-many-streams`` and ``Retry-After``. A slot is given back when its stream ends,
however it ends (the game's end, the client leaving, a shutdown), or when a stream that
never started is dropped.

New events are noticed at once when this process appended them (:mod:`spies_api.service.notify`),
and within ``Settings.sse_poll_seconds`` when another process did. The log is read in a
worker thread, one page at a time, so a stream never holds more than a page in memory.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from functools import partial
from typing import Final

import anyio
import msgspec
from litestar.response import ServerSentEventMessage

from spies_api.service.auth import Caller
from spies_api.service.notify import EventNotifier, StreamSlot
from spies_api.service.queries import GameQueries
from spies_api.settings import Settings
from spies_replay.store.records import GameStatus

__all__ = ["FINAL_EVENT", "event_stream"]

FINAL_EVENT: Final = "seed_revealed"
"""The type of a finished game's last event, after which the stream ends."""

_encoder: Final = msgspec.json.Encoder()


async def event_stream(
    queries: GameQueries,
    notifier: EventNotifier,
    settings: Settings,
    caller: Caller,
    after: int,
    slot: StreamSlot,
) -> AsyncIterator[ServerSentEventMessage]:
    """Yield the events of the caller's game with ``seq > after`` as the caller sees them,
    live.

    ``slot`` is released when the stream ends, however it ends.
    """
    try:
        keepalive = settings.sse_keepalive_seconds
        game_id = caller.game_id
        read = partial(queries.events, game_id, caller.seat, limit=settings.events_page_max)
        last_sent = time.monotonic()
        with notifier.subscribe(game_id) as appended:
            while not notifier.closed:
                appended.clear()
                page = await anyio.to_thread.run_sync(partial(read, after=after))
                for event in page.events:
                    yield ServerSentEventMessage(id=event.seq, data=_encoder.encode(event).decode())
                    if event.__struct_config__.tag == FINAL_EVENT:
                        return
                if page.events:
                    last_sent = time.monotonic()
                if page.next_after > after:
                    after = page.next_after
                    continue  # a full page: there may be more
                if page.status == GameStatus.FINISHED and after >= page.version:
                    return
                wait = min(settings.sse_poll_seconds, keepalive - (time.monotonic() - last_sent))
                if wait > 0:
                    with anyio.move_on_after(wait):
                        await appended.wait()
                if time.monotonic() - last_sent >= keepalive:
                    yield ServerSentEventMessage(comment="keep-alive", data=None)
                    last_sent = time.monotonic()
    finally:
        slot.release()
