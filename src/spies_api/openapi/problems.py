"""The problem answers of an operation, built from the errors it raises.

An operation declares what it raises (:func:`problems`): error classes, each standing for
every code of the catalogue (:data:`spies_api.problems.codes.ERROR_CODES`) it carries (a
:class:`~spies_core.errors.RuleError` for every rule's code), or single codes. The statuses,
the titles and what each problem carries besides (``Retry-After``, ``current_version``) are
not written here: they are what the one error table (:func:`spies_api.problems.table.problem_for`)
answers for that code. So an operation's answers are grouped by the status its codes really
get (``game-over`` can only be listed under 422), and each answer lists its codes twice: in its
description, for a person, and as ``x-codes``, for a program and for the test that fails when
the API answers an operation a code its document does not list (``tests/support/answers.py``).

The codes no operation answers, because the server or the router answers them before any
operation runs, are :data:`ANY_REQUEST`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final

from litestar.openapi import ResponseSpec

from spies_api.openapi.examples import BLACK_SPY_ID, GAME_ID, example
from spies_api.problems.codes import ERROR_CODES, ErrorCode, sample_of, status_of
from spies_api.problems.table import PROBLEM_MEDIA_TYPE, problem_document, problem_for
from spies_api.schemas import NAME_MAX, Problem
from spies_api.settings import DEFAULTS
from spies_core.errors import SpiesError, UnknownGameError
from spies_core.registry import get_game

__all__ = [
    "ANY_REQUEST",
    "BODY",
    "EVERY_OPERATION",
    "ON_A_GAME",
    "PARAMETERS",
    "SEAT_CALLER",
    "ProblemSpec",
    "Raised",
    "codes_of",
    "problems",
]

Raised = type[SpiesError] | str
"""What an operation raises: an error class (every code it carries) or one code."""

PARAMETERS: Final[tuple[Raised, ...]] = ("invalid-parameter",)
"""A query, path or header parameter that cannot be used: any operation with one."""
BODY: Final[tuple[Raised, ...]] = ("malformed-body", "invalid-parameter", "body-too-large")
"""The codes of an operation that reads a JSON body (and parameters)."""
ON_A_GAME: Final[tuple[Raised, ...]] = (*PARAMETERS, "game-not-found")
"""The codes of an operation on a game named by the path."""
SEAT_CALLER: Final[tuple[Raised, ...]] = ("unauthorized", "forbidden")
"""Who calls with a seat token (or as a spectator, where none is needed): a token of no seat,
or a malformed ``Authorization``, is 401; a seat token of another game 403."""
EVERY_OPERATION: Final[tuple[Raised, ...]] = (
    "too-many-requests",
    "database-busy",
    "store-unavailable",
)
"""What every operation of the game API may answer: over the rate limit (429), its database
busy or gone away (503)."""

ANY_REQUEST: Final[dict[str, str]] = {
    "bad-request": "a request the HTTP server cannot read",
    "uri-too-long": "a request line past `--max-head-bytes`",
    "headers-too-large": "headers past `--max-head-bytes`",
    "not-found": "no such path",
    "method-not-allowed": "the path does not take this method",
    "not-acceptable": "an `Accept` the API cannot send",
    "unsupported-media-type": "a body of a media type the API cannot read",
    "internal-error": "a bug",
}
"""The codes that any request may get, whatever its operation (answered by the HTTP server or
the router before any operation runs, or a bug), and why: no operation lists them."""

_NOTES: Final[dict[str, str]] = {
    "invalid-parameter": "a query, path or header parameter",
    "malformed-body": "not JSON, a wrong type, a missing or unknown field",
    "unknown-player": "a `player.` token the server does not know",
    "forbidden": "a token of another game",
    "not-your-seat": "a token of another seat",
}
"""What a code means wherever it is listed, unless the operation says more."""


def _refusal_of(game: str) -> str:
    """The detail of an unknown game id, as the one lookup words it."""
    try:
        get_game(game)
    except UnknownGameError as unknown:
        return unknown.message
    raise AssertionError(f"{game!r} is a registered game")


_EXAMPLES: Final[dict[str, tuple[str, dict[str, Any]]]] = {
    "malformed-body": (
        "invalid request body: Object contains unknown field `cardz` - at `$.command`",
        {},
    ),
    "invalid-parameter": (
        "Validation failed for GET /games?limit=0",
        {"errors": [{"message": "Expected `int` >= 1", "key": "limit", "source": "query"}]},
    ),
    "unauthorized": ("this token is not a seat of the game", {}),
    "unknown-player": ("this is not a player token of this server", {}),
    "forbidden": ("this token is a seat of another game", {}),
    "not-your-seat": ("this token is seat 0's, not seat 2's", {}),
    "game-not-found": (f"no game with id {GAME_ID!r}", {}),
    "seat-not-found": (f"game {BLACK_SPY_ID!r} has seats 0 to 3; there is no seat 7", {}),
    "version-conflict": (
        f"game {GAME_ID!r} is at version 7, not 4: another command was recorded first",
        {"current_version": 7, "expected_version": 4},
    ),
    "seat-taken": (f"seat 1 of game {BLACK_SPY_ID!r} is joined, not open", {}),
    "no-open-seat": (f"game {BLACK_SPY_ID!r} has no open seat left", {}),
    "seat-not-handed": (f"no bot plays seat 0 of game {BLACK_SPY_ID!r}", {}),
    "game-not-finished": (f"game {BLACK_SPY_ID!r} is still in progress", {}),
    "commitment-used": (
        "seed commitment 'EeaM4BqMG6VKlmOhs6wtQw' was used already: ask for a new one",
        {},
    ),
    "body-too-large": ("Request Entity Too Large", {}),
    "not-your-turn": ("seat 2 may not act now", {}),
    "game-over": (f"game {BLACK_SPY_ID!r} has finished; its seats cannot change", {}),
    "invalid-name": (
        f"a name is 1 to {NAME_MAX} printable characters and not blank; '' (0 characters) is not",
        {},
    ),
    "unknown-bot": ("unknown bot 'wizard'; known bots: random, greedy, expert", {}),
    "unknown-game": (_refusal_of("chess"), {}),
    "invalid-options": (
        "invalid options for deck-of-spies: Expected `bool`, got `str` - at `$.strict_necessity`",
        {},
    ),
    "too-many-requests": (
        "too many requests from this client; retry after the Retry-After seconds",
        {},
    ),
    "too-many-commitments": (
        "this client holds as many unused seed commitments as it may; use one or retry later",
        {},
    ),
    "database-busy": ("the database is busy with another writer; retry shortly", {}),
    "too-many-streams": (
        f"game {GAME_ID!r} already has {DEFAULTS.max_streams_per_game} spectator event"
        " streams, the most this server allows on one game (a seat's stream, with its token,"
        " is still served); close one or retry later",
        {},
    ),
    "not-ready": (
        "this process is shutting down: send new requests to another one",
        {"reason": "draining"},
    ),
    "storage-full": (
        "the database is out of space: nothing of this request was written; reads still"
        " work, writes again once the operator frees space",
        {},
    ),
}
"""The example problem of a code: its ``detail`` and its other fields (the example of an
answer is that of its first code found here, unless the operation picks another)."""


_CARRIED: Final = ("Retry-After", "current_version", "errors", "reason")
"""What a problem may carry besides its usual fields, said after its code."""


@dataclass
class ProblemSpec(ResponseSpec):
    """A problem answer, with the codes it may carry (rendered as ``x-codes``)."""

    codes: tuple[str, ...] = field(default=())


@cache
def _catalogue() -> dict[str, ErrorCode]:
    return {entry.code: entry for entry in ERROR_CODES}


def codes_of(*raised: Raised) -> tuple[str, ...]:
    """The codes of what an operation raises, in the catalogue's order.

    Raises:
        KeyError: a code the catalogue does not have.
    """
    catalogue = _catalogue()
    wanted = {catalogue[item].code for item in raised if isinstance(item, str)}
    classes = tuple(item for item in raised if not isinstance(item, str))
    return tuple(
        entry.code
        for entry in ERROR_CODES
        if entry.code in wanted
        or (isinstance(entry.source, type) and issubclass(entry.source, classes))
    )


@cache
def _answer(code: str) -> tuple[int, str, tuple[str, ...]]:
    """A code's status, title and what it carries besides its fields (from the table)."""
    entry = _catalogue()[code]
    status, problem, headers = problem_for(sample_of(entry))
    fields = {**headers, **problem}
    carries = tuple(f"`{name}`" for name in _CARRIED if name in fields)
    return status_of(entry), str(problem["title"]), carries


def _listed(code: str, note: str | None) -> str:
    _, _, carries = _answer(code)
    said = note if note is not None else _NOTES.get(code)
    within = ", ".join(carries)
    if within:
        within = f"with {within}" + (f": {said}" if said else "")
    else:
        within = said or ""
    return f"`{code}`" + (f" ({within})" if within else "")


def problems(
    *raised: Raised,
    notes: Mapping[str, str] | None = None,
    examples: Mapping[int, str] | None = None,
    every: tuple[Raised, ...] = EVERY_OPERATION,
) -> dict[int, ResponseSpec]:
    """The problem answers of an operation that raises ``raised`` (and ``every``), by status.

    Args:
        raised: the error classes and codes the operation answers, besides ``every``.
        notes: what a code means here, by code (said after it in the description).
        examples: the code of a status's example, when not its first code with one.
        every: the codes every such operation answers (:data:`EVERY_OPERATION`).

    Raises:
        ValueError: an example code the status does not list, or a status without one.
    """
    by_status: dict[int, list[str]] = {}
    for code in codes_of(*raised, *every):
        by_status.setdefault(_answer(code)[0], []).append(code)
    specs: dict[int, ResponseSpec] = {}
    for status, codes in sorted(by_status.items()):
        chosen = (examples or {}).get(status)
        if chosen is None:
            chosen = next((code for code in codes if code in _EXAMPLES), None)
        if chosen not in codes or chosen not in _EXAMPLES:
            raise ValueError(f"no example among the {status} codes {codes} (or not listed)")
        titles = list(dict.fromkeys(_answer(code)[1] for code in codes))
        listed = ", ".join(_listed(code, (notes or {}).get(code)) for code in codes)
        detail, extra = _EXAMPLES[chosen]
        title = _answer(chosen)[1]
        specs[status] = ProblemSpec(
            data_container=Problem,
            media_type=PROBLEM_MEDIA_TYPE,
            description=f"{'; '.join(titles)}. Codes: {listed}.",
            generate_examples=False,
            examples=[example(title, problem_document(status, chosen, title, detail, extra))],
            codes=tuple(codes),
        )
    return specs
