"""What the document says of each operation, keyed by its operation id.

The controllers say what a route does (its path, its body, its dependencies) and take the
rest from here with :func:`documented`: the summary, the description, who may call it, and
every answer with its codes and examples. So a handler reads as what it does, and the
document's prose is in one place: one module per resource (:mod:`.games`, :mod:`.play`,
:mod:`.events`, :mod:`.seats`, :mod:`.server`), what they share in :mod:`.common`.
"""

from __future__ import annotations

from typing import Any, Final

from spies_api.openapi.operations.common import (
    EXPORT_MEDIA_TYPE,
    OPTIONAL_SEAT_TOKEN,
    SEAT_TOKEN_REQUIRED,
    Operation,
)
from spies_api.openapi.operations.events import EVENTS_OPERATIONS
from spies_api.openapi.operations.games import GAMES_OPERATIONS
from spies_api.openapi.operations.play import PLAY_OPERATIONS
from spies_api.openapi.operations.players import PLAYERS_OPERATIONS
from spies_api.openapi.operations.seats import SEATS_OPERATIONS
from spies_api.openapi.operations.server import SERVER_OPERATIONS

__all__ = [
    "EXPORT_MEDIA_TYPE",
    "OPERATIONS",
    "OPTIONAL_SEAT_TOKEN",
    "SEAT_TOKEN_REQUIRED",
    "Operation",
    "documented",
]

OPERATIONS: Final[dict[str, Operation]] = {
    **GAMES_OPERATIONS,
    **PLAY_OPERATIONS,
    **EVENTS_OPERATIONS,
    **SEATS_OPERATIONS,
    **SERVER_OPERATIONS,
    **PLAYERS_OPERATIONS,
}
"""Every operation of the API, by operation id."""


def documented(operation_id: str) -> dict[str, Any]:
    """The keyword arguments of a route decorator that document ``operation_id``.

    Raises:
        KeyError: an operation this module does not describe (every route must be).
    """
    found = OPERATIONS[operation_id]
    keywords: dict[str, Any] = {
        "operation_id": operation_id,
        "summary": found.summary,
        "description": found.description,
        "responses": found.responses,
    }
    if found.security is not None:
        keywords["security"] = found.security
    return keywords
