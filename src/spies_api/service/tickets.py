"""Stream tickets: a seat's event stream opened by a browser's ``EventSource``.

``EventSource`` cannot send an ``Authorization`` header, and a seat token must never travel
in a URL (it would land in access logs, proxies and the browser's history). So a seat asks,
with its token, for a ticket (``POST /games/{id}/seats/{seat}/stream-ticket``) and opens its
stream with ``?ticket=``: a random secret that opens one stream of that seat, once, within
:data:`TICKET_SECONDS`.

Tickets live in the memory of the process that issued them (only their sha256 digests are
kept): a deployment of several processes behind one address must send a client's ticket
request and its stream to the same process (or the stream is 401 and the client asks for a
new ticket), which is cheaper than a shared table for a secret that lives seconds. A seat
holds at most :data:`TICKETS_PER_SEAT` unused tickets (a new one drops its oldest) and the
process at most its ``capacity`` (the oldest dropped first), so no client can grow them
without bound.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from spies_api.problems.errors import UnauthorizedError
from spies_api.schemas.seats import TICKET_SECONDS, TICKETS_PER_SEAT

__all__ = ["StreamTickets", "Ticket"]


@dataclass(frozen=True, slots=True)
class Ticket:
    """A ticket handed to a seat.

    Attributes:
        ticket: the secret, for ``?ticket=``.
        expires_at: when it stops opening the stream (RFC 3339, UTC, as the log writes
            times).
    """

    ticket: str
    expires_at: str


@dataclass(frozen=True, slots=True)
class _Held:
    game_id: str
    seat: int
    deadline: float


def _digest(ticket: str) -> str:
    return hashlib.sha256(ticket.encode("utf-8", "surrogatepass")).hexdigest()


class StreamTickets:
    """The unused tickets of this process.

    Args:
        capacity: the most tickets held at once (the oldest are dropped first).
        seconds: how long a ticket is good for.
        monotonic: where the time is read (tests pass their own).
    """

    def __init__(
        self,
        capacity: int,
        seconds: float = TICKET_SECONDS,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.capacity = capacity
        self.seconds = seconds
        self._now = monotonic
        self._held: OrderedDict[str, _Held] = OrderedDict()  # oldest first
        self._by_seat: dict[tuple[str, int], list[str]] = {}  # oldest first
        self._lock = threading.Lock()

    def issue(self, game_id: str, seat: int) -> Ticket:
        """A new ticket for one stream of ``seat`` of ``game_id`` (the caller checked that
        the requester holds that seat)."""
        ticket = secrets.token_urlsafe(32)
        now = self._now()
        with self._lock:
            self._drop_expired(now)
            mine = self._by_seat.get((game_id, seat), [])
            while len(mine) >= TICKETS_PER_SEAT:
                self._forget(mine[0])
            while len(self._held) >= self.capacity:
                self._forget(next(iter(self._held)))
            digest = _digest(ticket)
            self._held[digest] = _Held(game_id, seat, now + self.seconds)
            self._by_seat.setdefault((game_id, seat), []).append(digest)
        expires = datetime.now(UTC) + timedelta(seconds=self.seconds)
        return Ticket(ticket, expires.isoformat(timespec="microseconds").replace("+00:00", "Z"))

    def redeem(self, game_id: str, ticket: str) -> int:
        """The seat a ticket opens the stream of; the ticket is used up.

        Raises:
            UnauthorizedError: ``invalid-stream-ticket``: the ticket is unknown, used,
                expired, or of another game.
        """
        now = self._now()
        with self._lock:
            held = self._forget(_digest(ticket))
        if held is None or held.deadline <= now or held.game_id != game_id:
            raise UnauthorizedError(
                "this stream ticket is unknown, used or expired: ask for a new one with"
                " POST /games/{id}/seats/{seat}/stream-ticket (a ticket opens one stream,"
                f" once, within {self.seconds:g} s, on the server process that issued it)",
                code="invalid-stream-ticket",
            )
        return held.seat

    def __len__(self) -> int:
        with self._lock:
            return len(self._held)

    def _forget(self, digest: str) -> _Held | None:
        """Drop a ticket (under the lock); the ticket dropped, if it was held."""
        held = self._held.pop(digest, None)
        if held is not None:
            key = (held.game_id, held.seat)
            mine = self._by_seat[key]
            mine.remove(digest)
            if not mine:
                del self._by_seat[key]
        return held

    def _drop_expired(self, now: float) -> None:
        while self._held:
            digest, held = next(iter(self._held.items()))
            if held.deadline > now:
                return
            self._forget(digest)
