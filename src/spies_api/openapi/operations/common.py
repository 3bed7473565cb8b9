"""What every operation's documentation is made of: :class:`Operation`, a success answer
(:func:`ok`), who may call it, and the codes several operations share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from litestar.openapi import ResponseSpec

from spies_api.openapi.examples import PARAMETER_CODES, example

__all__ = [
    "EXPORT_MEDIA_TYPE",
    "GAME_NOT_FOUND",
    "OPTIONAL_PLAYER_TOKEN",
    "OPTIONAL_SEAT_TOKEN",
    "PLAYER_TOKEN_REQUIRED",
    "SEAT_TOKEN_REQUIRED",
    "Operation",
    "ok",
]

EXPORT_MEDIA_TYPE: Final = "application/x-ndjson"
"""The media type of a game's export (JSON Lines)."""

OPTIONAL_SEAT_TOKEN: Final[list[dict[str, list[str]]]] = [{"seatToken": []}, {}]
"""Security of endpoints open to spectators: a seat token, or none."""
SEAT_TOKEN_REQUIRED: Final[list[dict[str, list[str]]]] = [{"seatToken": []}]
"""Security of endpoints that need a seat."""
PLAYER_TOKEN_REQUIRED: Final[list[dict[str, list[str]]]] = [{"playerToken": []}]
"""Security of endpoints that need a player."""
OPTIONAL_PLAYER_TOKEN: Final[list[dict[str, list[str]]]] = [{"playerToken": []}, {}]
"""Security of the endpoints where a player token records the seats as the player's."""


@dataclass(frozen=True, slots=True)
class Operation:
    """One operation as the document describes it.

    Attributes:
        summary: a line.
        description: what it does, for a client's author.
        responses: every answer, by status.
        security: who may call it (``None``: anyone, no token).
    """

    summary: str
    description: str
    responses: dict[int, ResponseSpec] = field(default_factory=dict)
    security: list[dict[str, list[str]]] | None = None


def ok(container: Any, description: str, *examples: tuple[str, Any]) -> ResponseSpec:
    """A success answer: its body's type, what it is, and named examples of it."""
    return ResponseSpec(
        data_container=container,
        description=description,
        generate_examples=False,
        examples=[example(summary, value) for summary, value in examples],
    )


GAME_NOT_FOUND: Final = {400: PARAMETER_CODES, 404: "`game-not-found`"}
"""The codes of an operation on a game named by the path."""
