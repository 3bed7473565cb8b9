"""Server-sent events: the log of one game, live, as the caller may see it, with its state.

Each event is one message::

    id: 7
    data: {"type":"spy_countered","spy":"5C","cards":["2H","3S"],"seq":7,"recorded_at":"..."}

A stream opens with one ``event: snapshot`` message and follows each batch of events that
brings it to the game's version with one ``event: state`` message; their data is the
reader's :class:`~spies_api.schemas.StreamState` at that version (the view, the status and
seats to act, a seat's legal commands), computed once per version and reader
(:mod:`spies_api.service.stream_state`). They carry no ``id``, so ``Last-Event-ID`` stays
the last event's, and an ``EventSource``'s ``onmessage`` sees events only, as before.

``id`` is the event's seq, so a reconnecting client (``Last-Event-ID``, or ``?after=``)
resumes exactly after the last event it received (also after a server restart: a server
shutting down ends its streams). Messages carry no ``event:`` line, so an
``EventSource``'s ``onmessage`` sees every event; the type is in the data. An idle stream
sends a ``: keep-alive`` comment at least every ``Settings.sse_keepalive_seconds``. The
stream ends after the game's final event (``seed_revealed``). A server shutting down ends
its streams with one message of its own, ``event: reconnect`` (no ``id``, so a client's
last event id stays that of its last event) with ``data: {"reason": "shutdown", "after":
N}`` and ``retry: 1000``: the client reconnects, to another process, and resumes.

A stream is pushed, not polled: it reads its game's log (in a worker thread, one page at
a time, so it never holds more than a page in memory) when it starts and then only when
woken, by this process's appends at once, by another process's through the store's watch
(:mod:`spies_api.service.notify`), or by the process's slow safety poll, which wakes only
the streams that are behind. Streams woken together at the same point of the same log
(a game's spectators, after a command) share one read
(:class:`~spies_api.service.notify.SharedReads`). An idle stream does nothing but send its
keep-alives.

Each stream holds a place (:class:`~spies_api.service.slots.StreamSlots`): spectators are
capped per game and in all, a seat's own streams are not counted against its game's cap,
and a seat's newest stream past its own allowance ends its oldest (which says so in a last
comment and ends); a client address holds at most its own number of streams, seats' and
spectators' together; a stream that cannot have a place is refused before it starts, with
503 ``too-many-streams`` (429 ``too-many-client-streams`` for the client's own cap) and
``Retry-After``. A place is given back when its stream ends,
however it ends (the game's end, the client leaving, a shutdown), or when a stream that
never started is dropped.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from functools import partial
from typing import Final

import anyio
import msgspec
from litestar.response import ServerSentEventMessage

from spies_api.schemas import EventsPage
from spies_api.service.auth import Caller
from spies_api.service.notify import EventNotifier, SharedReads
from spies_api.service.queries import GameQueries
from spies_api.service.slots import StreamSlot
from spies_api.service.stream_state import StateAt, StreamStates
from spies_api.settings import Settings
from spies_replay.store.records import GameStatus

__all__ = [
    "FINAL_EVENT",
    "RECONNECT_EVENT",
    "RECONNECT_RETRY_MS",
    "SNAPSHOT_EVENT",
    "STATE_EVENT",
    "SUPERSEDED",
    "event_stream",
]

FINAL_EVENT: Final = "seed_revealed"
"""The type of a finished game's last event, after which the stream ends."""

SNAPSHOT_EVENT: Final = "snapshot"
"""The ``event:`` of the message that opens every stream: the reader's state then."""
STATE_EVENT: Final = "state"
"""The ``event:`` of the message after each batch of events: the reader's state after it."""

RECONNECT_EVENT: Final = "reconnect"
"""The ``event:`` of the last message of a stream its server ends at shutdown."""
RECONNECT_RETRY_MS: Final = 1000
"""Its ``retry:``: how soon the client should reconnect, in milliseconds."""

SUPERSEDED: Final = "superseded by a newer stream of this seat"
"""The last comment of a seat's stream ended to make way for that seat's newest one."""

_encoder: Final = msgspec.json.Encoder()


async def _state(
    states: StreamStates, shared: SharedReads, caller: Caller, version: int
) -> StateAt:
    """The reader's state at ``version`` if kept (no thread, no store), else its state now,
    computed on a worker thread once for every stream of that reader asking meanwhile."""
    kept = states.kept(caller.game_id, version, caller.seat)
    if kept is not None:
        return kept
    return await shared.read(
        ("state", caller.game_id, caller.seat, version),
        0,  # any read of that state under way will do
        partial(states.now, caller.game_id, caller.seat),
    )


def _event_messages(page: EventsPage) -> tuple[list[ServerSentEventMessage], bool]:
    """A page's events as messages, up to the final one; and whether it was there."""
    messages = []
    for event in page.events:
        messages.append(ServerSentEventMessage(id=event.seq, data=_encoder.encode(event).decode()))
        if event.__struct_config__.tag == FINAL_EVENT:
            return messages, True
    return messages, False


def _state_message(kind: str, state: StateAt) -> ServerSentEventMessage:
    """A ``snapshot`` or ``state`` message: no ``id``, so ``Last-Event-ID`` stays an event's."""
    return ServerSentEventMessage(event=kind, data=state.data)


async def event_stream(
    queries: GameQueries,
    states: StreamStates,
    notifier: EventNotifier,
    settings: Settings,
    caller: Caller,
    after: int,
    slot: StreamSlot,
) -> AsyncIterator[ServerSentEventMessage]:
    """Yield a ``snapshot``, then the events of the caller's game with ``seq > after`` as
    the caller sees them, live, each batch followed by the caller's ``state``.

    ``slot`` is released when the stream ends, however it ends.
    """
    try:
        keepalive = settings.sse_keepalive_seconds
        game_id = caller.game_id
        read = partial(queries.events, game_id, caller.seat, limit=settings.events_page_max)
        shared = notifier.reads
        last_sent = time.monotonic()
        sent_state = -1  # the version of the last state sent
        with notifier.subscribe(game_id) as waiter:
            slot.on_revoke(waiter.wake)
            woken = True  # nothing read yet
            while not notifier.closed:
                if slot.revoked:
                    yield ServerSentEventMessage(comment=SUPERSEDED, data=None)
                    return
                if woken:
                    waiter.event.clear()  # before the read: an append during it wakes again
                    since = waiter.woken_at  # after the clear: no later wake-up is lost
                    page = await shared.read(
                        (game_id, caller.seat, after), since, partial(read, after=after)
                    )
                    if sent_state < 0:  # the stream opens with the reader's state
                        state = await _state(states, shared, caller, page.version)
                        yield _state_message(SNAPSHOT_EVENT, state)
                        sent_state = state.version
                    sent, final = _event_messages(page)
                    for message in sent:
                        yield message
                    if page.events:
                        last_sent = time.monotonic()
                    after = max(after, page.next_after)
                    if after >= page.version > sent_state:
                        # the state at exactly the point reached (if the game has moved on
                        # meanwhile, that append wakes the stream again)
                        state = await _state(states, shared, caller, page.version)
                        if state.version == after:
                            yield _state_message(STATE_EVENT, state)
                            sent_state = state.version
                    if final:
                        return
                    if after < page.version:
                        continue  # a full page: read the next at once
                    if page.status == GameStatus.FINISHED:
                        return
                    waiter.seen = page.version
                wait = keepalive - (time.monotonic() - last_sent)
                if wait > 0:
                    with anyio.move_on_after(wait):
                        await waiter.event.wait()
                woken = waiter.event.is_set()
                if not woken and time.monotonic() - last_sent >= keepalive:
                    yield ServerSentEventMessage(comment="keep-alive", data=None)
                    last_sent = time.monotonic()
            # the server is shutting down: tell the client to go on elsewhere
            yield ServerSentEventMessage(
                event=RECONNECT_EVENT,
                data=_encoder.encode({"reason": "shutdown", "after": after}).decode(),
                retry=RECONNECT_RETRY_MS,
            )
    finally:
        slot.release()
