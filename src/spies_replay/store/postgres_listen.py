"""Other processes' appends heard on the event loop itself: PostgreSQL's ``LISTEN`` without a
thread.

:meth:`~spies_replay.store.postgres.PostgresEventStore.watch` listens on a thread of its own,
which wakes for every notice and takes the interpreter's lock from the event loop to read
it. With N processes on one database every process hears N notices for each command of its
own, so those wake-ups grow with the number of processes. :class:`LoopListener` reads the
same notices on the event loop instead: its connection's socket is one more reader of the
loop's selector, so the notices that came meanwhile are read in the loop's next turn, with
whatever else woke it, and no thread is woken (docs/speed.md, *Scale-out*, has the figures).

The connection is opened with psycopg's async connect (a server that is slow to answer does
not block the loop), then read with libpq's ``consume_input`` and ``notifies``, which never
block. A connection lost is reopened a second later, as with the thread; the notices of the
meantime are lost, which the listener's ``on_gap`` is told once it listens again.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import Any, Final

import msgspec
import psycopg
import structlog
from psycopg import pq

from spies_replay.store.postgres_errors import reason
from spies_replay.store.postgres_schema import NOTIFY_CHANNEL
from spies_replay.store.postgres_server import Server
from spies_replay.store.records import Appended, Heard, Unheard
from spies_replay.store.watch_thread import watch_thread

__all__ = ["LoopListener", "heard", "listen_on_thread"]

_RETRY_SECONDS: Final = 1.0
"""How long after a failure the listener connects again."""

_LISTEN_POLL_SECONDS: Final = 0.5
"""How often a listening thread checks it should stop."""

_log = structlog.get_logger("spies_replay.store.postgres")

_notice = msgspec.json.Decoder(Appended)


def heard(payload: str) -> Appended:
    """What a notice on :data:`~spies_replay.store.postgres_schema.NOTIFY_CHANNEL` tells: a
    JSON object (``spies_append``'s), or the game id alone (an engine from before
    ``m007_notify_carries_head``, during a rolling upgrade: nothing else is known)."""
    if payload.startswith("{"):
        try:
            return _notice.decode(payload)
        except msgspec.DecodeError:  # not ours: a wake-up that tells nothing
            pass
    return Appended(game_id=payload)


def _hand_on(server: Server, pid: int, payload: str, on_append: Heard) -> None:
    """Tell ``on_append`` what a notice tells, unless the server process that sent it is one
    of ``server``'s own connections (the store's own append: its caller knows of it). A
    listener's fault is logged (``heard_failed``), never the end of the notices after it."""
    if pid in server.own_pids:
        return
    try:
        on_append(heard(payload))
    except Exception:
        _log.exception("heard_failed")


def listen_on_thread(
    server: Server, on_append: Heard, on_gap: Unheard | None = None
) -> Callable[[], None]:
    """Call ``on_append`` from a daemon thread with every append that a connection not of
    ``server``'s store commits, and ``on_gap`` each time it starts listening; returns the
    function that stops the thread.

    The thread holds one connection of its own (outside the pool) listening on
    :data:`~spies_replay.store.postgres_schema.NOTIFY_CHANNEL`, and reconnects after a
    failure; the appends of the meantime went unheard, which ``on_gap`` is told (the first
    connection too: appends before it were not heard either). The store's own appends are
    told apart by the server process that sent the notice.
    """

    def listen(stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                with psycopg.connect(
                    server.url, autocommit=True, connect_timeout=server.connect_timeout
                ) as conn:
                    conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    if on_gap is not None:
                        on_gap()
                    while not stop.is_set():
                        for note in conn.notifies(timeout=_LISTEN_POLL_SECONDS):
                            _hand_on(server, note.pid, note.payload, on_append)
            except psycopg.Error as exc:
                _log.warning("listen_lost", error=reason(exc))
                stop.wait(_RETRY_SECONDS)

    return watch_thread(listen, name="spies-store-listen", join_seconds=_LISTEN_POLL_SECONDS + 5.0)


class LoopListener:
    """Calls ``on_append`` on the event loop with every append that a connection not of
    this store commits (what :meth:`~spies_replay.store.postgres.PostgresEventStore.watch`
    tells, from the loop instead of a thread).

    Args:
        server: the store's server (its URL, its own connections' server processes).
        on_append: called on the loop with what each notice tells.
        on_gap: called on the loop each time listening starts (the first time, and again
            after a lost connection): the appends before went unheard.

    Attributes:
        ready: set once the first attempt to listen has ended, listening or not (what must
            not start before a notice can be heard waits on it).
    """

    def __init__(self, server: Server, on_append: Heard, on_gap: Unheard | None = None) -> None:
        self.server = server
        self.on_append = on_append
        self.on_gap = on_gap
        self.ready = asyncio.Event()

    def start(self) -> asyncio.Task[None]:
        """Listen on the running loop until the task this returns is cancelled (or the store
        closed), connecting again a second after each failure; :attr:`ready` is new."""
        self.ready = asyncio.Event()
        return asyncio.get_running_loop().create_task(self._run(), name="spies-store-listen")

    async def _run(self) -> None:
        while not self.server.closed:
            try:
                await self._listen()
            except psycopg.Error as exc:
                _log.warning("listen_lost", error=reason(exc))
            except OSError as exc:  # the socket itself (the loop's reader): tried again too
                _log.warning("listen_lost", error=str(exc))
            finally:
                self.ready.set()
            await asyncio.sleep(_RETRY_SECONDS)

    async def _listen(self) -> None:
        server = self.server
        conn = await psycopg.AsyncConnection.connect(
            server.url, autocommit=True, connect_timeout=server.connect_timeout
        )
        loop = asyncio.get_running_loop()
        lost: asyncio.Future[None] = loop.create_future()
        socket: int | None = None
        try:
            await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
            pgconn = conn.pgconn
            socket = pgconn.socket
            loop.add_reader(socket, self._readable, pgconn, lost)
            if self.on_gap is not None:
                self.on_gap()
            self.ready.set()
            await lost
        finally:
            if socket is not None:
                loop.remove_reader(socket)
            with contextlib.suppress(psycopg.Error):
                await conn.close()

    def _readable(self, pgconn: pq.abc.PGconn, lost: asyncio.Future[Any]) -> None:
        """The socket has data: read what came, hand on every notice not of this store."""
        try:
            pgconn.consume_input()
        except psycopg.OperationalError as exc:
            if not lost.done():
                lost.set_exception(exc)
            return
        while (note := pgconn.notifies()) is not None:
            _hand_on(self.server, note.be_pid, note.extra.decode(), self.on_append)
        if pgconn.status != pq.ConnStatus.OK and not lost.done():
            lost.set_exception(psycopg.OperationalError("the listening connection closed"))
