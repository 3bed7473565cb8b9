"""The dependency every route about one game's caller takes: who is calling, parsed once.

The app provides it (:func:`spies_api.app.create_app`, with :func:`caller_provider`) as
``caller`` for the routes under ``/games/{game_id}``; the other dependencies (queries,
commands, seats, settings...) are the parts of the running app themselves.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeAlias, TypeVar

from litestar import Request
from litestar.di import NamedDependency
from litestar.params import FromPath, SkipValidation

from spies_api.service.auth import Caller, SeatAuthenticator, bearer_token
from spies_api.service.states import GameStates

__all__ = ["Provided", "authorization", "caller_provider"]

T = TypeVar("T")

Provided: TypeAlias = NamedDependency[SkipValidation[T]]
"""A part of the running app, provided by the app under the parameter's name (never a
client's input, so it is not validated)."""


def caller_provider(
    seats: SeatAuthenticator, states: GameStates
) -> Callable[..., Awaitable[Caller]]:
    """The ``caller`` dependency, over the app's authenticator and cached heads.

    The provider takes only the path's ``game_id`` and the request (no other dependency),
    so resolving it costs one call, not a batch of dependencies.
    """

    reads = states.reads  # PostgreSQL's reads awaited on the loop, else None

    async def provide_caller(game_id: FromPath[str], request: Request[Any, Any, Any]) -> Caller:
        """The caller of a request about ``game_id``: a seat by its bearer token, or a
        spectator (see :mod:`spies_api.service.auth` for the rule).

        A token verified before, or a spectator of a game in use, costs no store access; a
        token of a game not in use, where the store reads on the loop (PostgreSQL), one round
        trip that also reads the game's head; anything else is looked up
        (:meth:`SeatAuthenticator.identify`: on the event loop where the store reads there;
        an unknown game is 404 whatever the token).

        Raises:
            GameNotFoundError: no such game.
            UnauthorizedError: a malformed header, or a token of no seat.
            ForbiddenError: a token of another game.
        """
        token = bearer_token(authorization(request))
        known = states.cached(game_id) is not None
        if token is not None:
            seat = seats.remembered(game_id, token)
            if seat is not None:
                return Caller(game_id, seat, token)
            if not known and reads is not None:
                # a game this process does not hold: its seat and its head in one round
                # trip (the head cached for the command or read that follows)
                seat, found = await reads.seat_and_head(game_id, token)
                states.adopt(found)
                if seat is not None:
                    seats.remember(game_id, seat, token)
                    return Caller(game_id, seat, token)
                known = True  # the row was there: a token of no seat of it (401 or 403)
        elif known:
            return Caller(game_id, None)
        return await seats.identify(game_id, token, known_game=known)

    return provide_caller


def authorization(request: Request[Any, Any, Any]) -> str | None:
    """The request's ``Authorization`` header, read from the ASGI scope (without building the
    request's whole header map)."""
    for name, value in request.scope["headers"]:
        if name == b"authorization":
            return value.decode("latin-1")
    return None
