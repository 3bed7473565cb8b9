"""Log-level ("meta") events: the first and the last event of every game's log.

They are tagged like game events (``tag_field="type"``) and live in the same ``events`` table
and hash chain, but they belong to the log, not to a game: every viewer may see them, and the
fold skips them. Their tags, ``game_created`` and ``seed_revealed``, are reserved; no game may
use them.

- seq 1 is always :class:`GameCreated`: what was created and the commitment to the secret
  seed. The game's setup events (from ``start``) follow at seq 2 and on.
- :class:`SeedRevealed` is the final event of a finished game, appended in the same
  transaction as the command whose events made ``outcome(state)`` non-``None``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Final

import msgspec

__all__ = [
    "META_TYPES",
    "GameCreated",
    "MetaEvent",
    "SeedRevealed",
    "SeedSource",
    "describe_meta",
    "is_meta",
]


class SeedSource(StrEnum):
    """Who chose a game's seed."""

    SERVER = "server"
    """Drawn with ``secrets.token_bytes(32)``: nobody knew it before the game ended."""
    CLIENT = "client"
    """Given by the client at creation, which makes the game reproducible (puzzles, tests)."""


class MetaEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of the log-level events."""


class GameCreated(MetaEvent, frozen=True, kw_only=True, tag="game_created"):
    """Seq 1 of every game: what was created, and the public commitment to its seed."""

    game: str
    """The registered game id, e.g. ``deck-of-spies``."""
    players: int
    """The number of seats (the game's minimum when the client gave none)."""
    options: dict[str, Any]
    """The options as the client gave them (``{}`` for none), except ``deal``: an explicit
    deal lays out hidden cards, so it is kept secret like the seed (see ``deal_commitment``)."""
    seed_commitment: str
    """``sha256(seed)`` as lower-case hex; :class:`SeedRevealed` later discloses the seed."""
    seed_source: SeedSource
    """``server`` (secret, random) or ``client`` (given, reproducible)."""
    rng: str
    """The versioned randomness algorithm, :data:`spies_core.rng.ALGORITHM`."""
    created_at: str | None = None
    """When the game was created, ISO 8601 UTC."""
    deal_commitment: str | None = None
    """With ``options.deal``: ``sha256(seed || canonical JSON of the deal)`` as hex. The
    deal itself is revealed with the seed in :class:`SeedRevealed`."""


class SeedRevealed(MetaEvent, frozen=True, kw_only=True, tag="seed_revealed"):
    """The final event of a finished game: the seed, so anyone can re-derive every shuffle."""

    seed: str
    """The seed's bytes as lower-case hex (a client-given seed: the hex of its UTF-8 bytes)."""
    deal: Any = None
    """The ``options.deal`` the game was created with, ``null`` when it had none."""


META_TYPES: Final[frozenset[str]] = frozenset({"game_created", "seed_revealed"})
"""The reserved tags of the meta events."""


def is_meta(event: object) -> bool:
    """Whether ``event`` is a log-level event (public to all, skipped by the fold)."""
    return isinstance(event, MetaEvent)


def describe_meta(event: MetaEvent) -> str:
    """One line of text for a person.

    >>> describe_meta(SeedRevealed(seed="00ff"))
    'seed revealed: 00ff'
    """
    if isinstance(event, GameCreated):
        seats = "1 player" if event.players == 1 else f"{event.players} players"
        options = msgspec.json.encode(event.options).decode() if event.options else "defaults"
        return (
            f"{event.game} created for {seats}, options {options};"
            f" seed commitment {event.seed_commitment[:16]}… ({event.seed_source} seed)"
        )
    if isinstance(event, SeedRevealed):
        return f"seed revealed: {event.seed}"
    raise TypeError(f"not a meta event: {event!r}")
