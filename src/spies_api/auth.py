"""Who is calling: a seat by its bearer token, or a spectator without one.

Rule (one for every endpoint that depends on the caller: view, legal, commands, events,
events/stream, replay):

- no ``Authorization`` header: a spectator (commands need a seat: 401);
- ``Authorization: Bearer <token>`` of a seat of this game: that seat;
- a token of a seat of **another** game: 403 ``forbidden``;
- any other token, or a header that is not ``Bearer <token>``: 401 ``unauthorized``.

A seat always acts as itself (commands carry no seat), so there is no other 403 case.
Tokens are stored only as sha256 hashes; :meth:`~spies_replay.store.EventStore.check_token`
compares them in constant time. Public endpoints (list, summary, export) ignore the header.
"""

from __future__ import annotations

import re
from typing import Final

from spies_api.errors import ForbiddenError, UnauthorizedError
from spies_replay.store import EventStore

__all__ = ["bearer_token", "seat_for"]

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


def seat_for(store: EventStore, game_id: str, header: str | None) -> int | None:
    """The caller's seat in ``game_id`` (``None``: a spectator); the game must exist.

    Raises:
        UnauthorizedError: a malformed header or a token of no seat.
        ForbiddenError: a token of a seat of another game.
    """
    token = bearer_token(header)
    if token is None:
        return None
    seat = store.check_token(game_id, token)
    if seat is not None:
        return seat
    if store.find_token(token) is not None:
        raise ForbiddenError(f"this token is a seat of another game, not of game {game_id!r}")
    raise UnauthorizedError(f"this token is not a seat of game {game_id!r}")
