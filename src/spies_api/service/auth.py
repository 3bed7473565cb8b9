"""Who is calling: a seat by its bearer token, or a spectator without one.

Rule (one for every endpoint that depends on the caller: view, legal, commands, events,
events/stream, replay):

- no ``Authorization`` header: a spectator (commands need a seat: 401);
- ``Authorization: Bearer <token>`` of a seat of this game: that seat;
- a token of a seat of **another** game: 403 ``forbidden``;
- any other token, or a header that is not ``Bearer <token>``: 401 ``unauthorized``.

A seat always acts as itself (commands carry no seat), so there is no other 403 case.
Tokens are stored only as sha256 hashes.
:meth:`~spies_replay.store.protocols.EventStore.check_token` compares them in constant time;
so does :class:`SeatAuthenticator`, which remembers the hashes of tokens it has already
verified (a seat's token never changes), so that a playing seat is recognised without a
database read, and reads the others on the event loop where the store can (SQLite's twin:
:meth:`~spies_replay.store.protocols.EventStore.loop_reader`). Public endpoints (list, summary,
export) ignore the header.
"""

from __future__ import annotations

import hmac
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Final, Protocol

from spies_api.problems.errors import ForbiddenError, UnauthorizedError
from spies_api.service.placement import blocking
from spies_replay.errors import StoreBusyError
from spies_replay.store.protocols import GameIndex, LoopReads, SeatLedger
from spies_replay.store.records import hash_token

__all__ = ["Caller", "SeatAuthenticator", "bearer_token"]


class _Seats(GameIndex, SeatLedger, Protocol):
    """The roles of the store the authenticator reads."""


@dataclass(frozen=True, slots=True)
class Caller:
    """Who sends a request about a game: a seat by its token, or a spectator.

    Attributes:
        game_id: the game of the request's path.
        seat: the caller's seat, or ``None`` for a spectator (no token).
        token: the bearer token (kept in memory for the request only: a rematch derives
            the next game's token from it), or ``None``.
    """

    game_id: str
    seat: int | None
    token: str | None = None


# RFC 6750 b64token; seat tokens are url-safe base64 (secrets.token_urlsafe).
_BEARER: Final = re.compile(r"[Bb][Ee][Aa][Rr][Ee][Rr] +([A-Za-z0-9\-._~+/]{1,512}=*) *")


def bearer_token(header: str | None) -> str | None:
    """The token of an ``Authorization`` header, or ``None`` without a header.

    Raises:
        UnauthorizedError: the header is not ``Bearer <token>``.
    """
    if header is None:
        return None
    match = _BEARER.fullmatch(header)
    if match is None:
        raise UnauthorizedError("the Authorization header must be 'Bearer <seat token>'")
    return match.group(1)


class SeatAuthenticator:
    """Maps a bearer token to a seat of a game, remembering verified token hashes.

    Args:
        store: the replay log, which holds the token hashes.
        capacity: how many games' verified hashes are remembered (least recently used
            games are forgotten, and looked up in the store again).
        reader: the store read on the event loop (``None``: lookups on a worker thread).
        reads: a token's lookup awaited on the event loop (PostgreSQL's: a seat's token
            found there; any other answer is looked into on a worker thread).
    """

    def __init__(
        self,
        store: _Seats,
        capacity: int,
        *,
        reader: _Seats | None = None,
        reads: LoopReads | None = None,
    ) -> None:
        self.store = store
        self.capacity = capacity
        self.reader = reader
        self.reads = reads
        self._verified: OrderedDict[str, dict[int, str]] = OrderedDict()
        self._lock = threading.Lock()

    def _remembered(self, game_id: str, digest: str) -> int | None:
        with self._lock:
            seats = self._verified.get(game_id)
            if seats is None:
                return None
            self._verified.move_to_end(game_id)
            known = tuple(seats.items())
        found: int | None = None
        for seat, stored in known:
            if hmac.compare_digest(stored, digest):  # no early exit, like check_token
                found = seat
        return found

    def remember(self, game_id: str, seat: int, token: str) -> None:
        """Remember a seat's token (the service calls this when it hands the token out)."""
        self._remember(game_id, seat, hash_token(token))

    def _remember(self, game_id: str, seat: int, digest: str) -> None:
        with self._lock:
            self._verified.setdefault(game_id, {})[seat] = digest
            self._verified.move_to_end(game_id)
            while len(self._verified) > self.capacity:
                self._verified.popitem(last=False)

    def warm(self, tokens: dict[str, dict[int, str]]) -> bool:
        """Remember the token hashes of games read ahead (the store's ``kept_heads``: by
        game, each seat's), behind every game verified since (the first forgotten), unless
        the game is remembered already; while they fit in :attr:`capacity`.

        Returns:
            Whether every game's fitted (warming stops when not).
        """
        with self._lock:
            for game_id, seats in tokens.items():
                if game_id in self._verified:
                    continue
                if len(self._verified) >= self.capacity:
                    return False
                self._verified[game_id] = dict(seats)
                self._verified.move_to_end(game_id, last=False)
        return True

    def remembered(self, game_id: str, token: str) -> int | None:
        """The seat of a token verified before, or ``None`` (no store access)."""
        return self._remembered(game_id, hash_token(token))

    async def identify(
        self, game_id: str, token: str | None, *, known_game: bool = False
    ) -> Caller:
        """:meth:`caller`, read on the event loop from :attr:`reader`, or a seat's token
        found there by :attr:`reads` (else, or when that read would wait, on a worker
        thread)."""
        if self.reader is not None:
            try:
                return self.caller(game_id, token, known_game=known_game, via=self.reader)
            except StoreBusyError:
                pass  # the rare read that would wait for another connection
        elif self.reads is not None and token is not None:
            digest = hash_token(token)
            seat = self._remembered(game_id, digest)
            if seat is None:
                seat = await self.reads.check_token(game_id, token)
            if seat is not None:  # else 404, 401 or 403: told apart on a worker thread
                self._remember(game_id, seat, digest)
                return Caller(game_id, seat, token)
        return await blocking(self.caller, game_id, token, known_game=known_game)

    def caller(
        self,
        game_id: str,
        token: str | None,
        *,
        known_game: bool = False,
        via: _Seats | None = None,
    ) -> Caller:
        """The caller of a request about ``game_id`` (blocking: it may read the store).

        Args:
            game_id: the game.
            token: the bearer token (see :func:`bearer_token`), if any.
            known_game: the caller knows the game exists (else it is looked up first, so an
                unknown game is 404 whatever the token).
            via: the store to read (default: :attr:`store`).

        Raises:
            GameNotFoundError: no such game.
            UnauthorizedError: a token of no seat.
            ForbiddenError: a token of a seat of another game.
        """
        if token is not None:
            digest = hash_token(token)
            seat = self._remembered(game_id, digest)
            if seat is not None:
                return Caller(game_id, seat, token)
        store = self.store if via is None else via
        seat = None if token is None else store.check_token(game_id, token)
        if seat is None and not known_game:  # a seat's token: the game exists (one read)
            store.get_game(game_id)
        if token is None:
            return Caller(game_id, None)
        if seat is not None:
            self._remember(game_id, seat, digest)
            return Caller(game_id, seat, token)
        if store.find_token(token) is not None:
            raise ForbiddenError(f"this token is a seat of another game, not of game {game_id!r}")
        raise UnauthorizedError(f"this token is not a seat of game {game_id!r}")
