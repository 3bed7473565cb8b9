"""Players: an optional identity that owns the seats it creates or joins, and lists them.

A player is made by ``POST /players`` and known by its bearer token, ``player.`` and 43
url-safe characters (the ``.`` is never in a seat token, so the two kinds never collide); the
server keeps only the token's sha256 (:mod:`spies_replay.store.players`).

A creation or a join sent with ``Authorization: Bearer <player token>`` records each seat it
hands out as the player's. Such a seat's token is not random: it is
``HMAC-SHA256(player token, "spies-player-seat/1:<salt>")`` (url-safe base64), with a random
salt kept beside the seat. The server stores the salt and the seat token's hash, never the
seat token, and only the holder of the player token can compute it again: so
``GET /players/me/games`` gives back the very token the creation or join answered (the old
one keeps working because it is the same one), and nobody else's list can hold it. The seat
and its owner are written in one transaction (:class:`~spies_replay.store.records.SeatOwner`
in the creation or the join's append): never one without the other.

A rematch follows its seats: a seat token of the rematch is ``HMAC-SHA256(previous token,
"spies-rematch/1:<next id>:<seat>")`` (:func:`rematch_token`), and when the previous seat
was a player's, the rematch seat its holder creates or claims is recorded as that player's
too, with the salt ``<previous salt>/<next id>``: the player's token gives the previous
seat's token, which gives this one (:func:`owned_seat_token`), down any chain of rematches.

Rules of the header: on ``POST /games`` and the joins, a header that is not
``Bearer player.…`` is ignored as before (a seat token sent there changes nothing); a
``player.`` token the server does not know is 401 ``unknown-player`` (rather than a game
nobody can find again). ``GET /players/me/games`` needs a known player token; any other
token, a seat's included, is 401 ``unknown-player``. A game's own endpoints take seat tokens
only: a player token there is an unknown token (401), as before.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from typing import Any, Final

import structlog

from spies_api.problems.errors import UnauthorizedError
from spies_api.schemas import PlayerCreated, PlayerGame, PlayerGames
from spies_api.service.auth import bearer_token
from spies_api.service.creation import check_name
from spies_api.service.queries import GameQueries
from spies_replay.errors import GameNotFoundError
from spies_replay.store.keyring import KeyDatabase
from spies_replay.store.players import add_player, find_player, owned_seats
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import Clock, SeatOwner, hash_token, utc_now

__all__ = [
    "TOKEN_PREFIX",
    "Player",
    "PlayerService",
    "SeatClaim",
    "SeatClaims",
    "owned_seat_token",
    "player_seat_token",
    "player_token_of",
    "rematch_owner",
    "rematch_token",
]

TOKEN_PREFIX: Final = "player."
"""How a player token begins (``.`` is not in the alphabet of seat tokens)."""
_SEAT_CONTEXT: Final = "spies-player-seat/1"
_REMATCH_CONTEXT: Final = "spies-rematch/1"


def player_seat_token(player_token: str, salt: str) -> str:
    """The token of a player's seat: derived from the player's token and the seat's salt."""
    message = f"{_SEAT_CONTEXT}:{salt}".encode()
    digest = hmac.new(player_token.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def rematch_token(previous_token: str, next_id: str, seat: int) -> str:
    """The token of ``seat`` in the rematch ``next_id``, derived from its previous token."""
    message = f"{_REMATCH_CONTEXT}:{next_id}:{seat}".encode()
    digest = hmac.new(previous_token.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def owned_seat_token(player_token: str, token_salt: str, seat: int) -> str:
    """The token of a player's ``seat`` from its stored salt: the seat token of the first
    salt, then, for each rematch id after a ``/``, that rematch's token of the seat."""
    first, *rematches = token_salt.split("/")
    token = player_seat_token(player_token, first)
    for next_id in rematches:
        token = rematch_token(token, next_id, seat)
    return token


def rematch_owner(owner: SeatOwner, next_id: str) -> SeatOwner:
    """The owner of a player's seat in its rematch ``next_id``: the same player, the salt
    extended by the rematch's id (see :func:`owned_seat_token`)."""
    return SeatOwner(owner.player_id, f"{owner.token_salt}/{next_id}")


def player_token_of(header: str | None) -> str | None:
    """The player token of an ``Authorization`` header, or ``None`` for any other header (a
    seat token, another scheme, a malformed one) or none (no store access)."""
    try:
        token = bearer_token(header)
    except UnauthorizedError:
        return None
    return token if token is not None and token.startswith(TOKEN_PREFIX) else None


@dataclass(frozen=True, slots=True)
class Player:
    """A player known by its token, for one request.

    Attributes:
        player_id: its public id.
        token: its bearer token (in memory for the request only: seat tokens derive from it).
    """

    player_id: str
    token: str = field(repr=False)


@dataclass(frozen=True, slots=True)
class SeatClaim:
    """A seat token made for a player before the seat is taken, and its salt.

    Attributes:
        token: the seat's token (what the answer carries).
        salt: what it was derived from with the player's token (what is stored).
    """

    token: str = field(repr=False)
    salt: str

    def owner(self, player: Player) -> SeatOwner:
        """What the store records with the seat (the salt, never the token)."""
        return SeatOwner(player.player_id, self.salt)


@dataclass(eq=False)
class SeatClaims:
    """The seat tokens made for a player during one creation, by seat.

    Attributes:
        player: whose they are.
        made: each seat's claim, as :meth:`token_for` made it.
    """

    player: Player
    made: dict[int, SeatClaim] = field(default_factory=dict)

    def token_for(self, seat: int) -> tuple[str, SeatOwner]:
        """A new token for ``seat`` and its owner, written with the game (what
        :meth:`~spies_api.service.creation.GameCreator.create` asks for each creator seat)."""
        claim = PlayerService.claim(self.player)
        self.made[seat] = claim
        return claim.token, claim.owner(self.player)


@dataclass(eq=False)
class PlayerService:
    """Players over one store (blocking: run it on a worker thread).

    Args:
        store: the database the players are kept in.
        queries: the reads (who is to act in a game).
        clock: where the time is read.
    """

    store: KeyDatabase
    queries: GameQueries
    clock: Clock = utc_now
    log: Any = field(init=False, repr=False)
    """Bound once, with the logging configuration in force when the app starts."""

    def __post_init__(self) -> None:
        self.log = structlog.get_logger("spies_api").bind()

    @classmethod
    def open(cls, store: EventStore, queries: GameQueries, clock: Clock) -> PlayerService:
        """The players of ``store``'s database.

        Raises:
            TypeError: a store that keeps no players (every backend of this build does).
        """
        if not isinstance(store, KeyDatabase):
            raise TypeError(f"{type(store).__name__} keeps no players")
        return cls(store, queries, clock)

    def create(self, display_name: str | None) -> PlayerCreated:
        """A new player and its token (once).

        Raises:
            InvalidNameError: a display name that is not 1 to 40 printable characters.
        """
        name = None if display_name is None else check_name(display_name)
        player_id = secrets.token_hex(8)
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        add_player(self.store, player_id, hash_token(token), name, self.clock())
        self.log.info("player_created", player_id=player_id)
        return PlayerCreated(player_id=player_id, token=token, display_name=name)

    def authenticate(self, token: str) -> Player:
        """The player of ``token``.

        Raises:
            UnauthorizedError: not a player token the server knows (``unknown-player``).
        """
        found = None
        if token.startswith(TOKEN_PREFIX):
            found = find_player(self.store, hash_token(token))
        if found is None:
            raise UnauthorizedError(
                "this is not a player token of this server (a player token comes from"
                " POST /players; a seat token is not one)",
                code="unknown-player",
            )
        return Player(found.player_id, token)

    def me(self, header: str | None) -> Player:
        """The player of a request that needs one (``GET /players/me/games``).

        Raises:
            UnauthorizedError: no header or a malformed one (``unauthorized``), or a token
                of no player (``unknown-player``).
        """
        token = bearer_token(header)
        if token is None:
            raise UnauthorizedError("this needs a player token: Authorization: Bearer <token>")
        return self.authenticate(token)

    def of_header(self, header: str | None) -> Player | None:
        """The player of a creation or a join, if its header names one; any other header is
        ignored, as it was before players existed.

        Raises:
            UnauthorizedError: a ``player.`` token the server does not know.
        """
        token = player_token_of(header)
        return None if token is None else self.authenticate(token)

    @staticmethod
    def claim(player: Player) -> SeatClaim:
        """A new seat token for ``player``; its seat is recorded as the player's with it
        (:meth:`SeatClaim.owner`)."""
        salt = secrets.token_hex(16)
        return SeatClaim(player_seat_token(player.token, salt), salt)

    def owned(self, player: Player, game_id: str, seats: list[int]) -> None:
        """Log the seats of ``game_id`` a creation or a join recorded as ``player``'s."""
        for seat in seats:
            self.log.info("seat_owned", player_id=player.player_id, game_id=game_id, seat=seat)

    def games(self, player: Player, *, limit: int, offset: int) -> PlayerGames:
        """A page of ``player``'s seats, newest first, each with its token again."""
        seats, total = owned_seats(self.store, player.player_id, limit=limit, offset=offset)
        listed = []
        for owned in seats:
            try:
                record = self.queries.record(owned.game_id)
            except GameNotFoundError:
                continue  # recorded, but the game's own write failed: nothing to go back to
            summary = self.queries.summary_of(record, keep=False)
            listed.append(
                PlayerGame(
                    game_id=summary.id,
                    game=summary.game,
                    seat=owned.seat,
                    status=summary.status,
                    version=summary.version,
                    to_act=summary.to_act,
                    updated_at=summary.updated_at,
                    seat_token=owned_seat_token(player.token, owned.token_salt, owned.seat),
                )
            )
        return PlayerGames(games=listed, total=total, limit=limit, offset=offset)
