"""What the document says of each operation, keyed by its operation id.

The controllers say what a route does (its path, its body, its dependencies) and take the
rest from here with :func:`documented`: the summary, the description, who may call it, and
every answer with its codes and examples. So a handler reads as what it does, and the
document's prose is in one place: one module per resource (:mod:`.games`, :mod:`.play`,
:mod:`.events`, :mod:`.seats`, :mod:`.server`), what they share in :mod:`.common`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Final

from litestar.openapi.spec import OpenAPIResponse, Reference, Schema
from litestar.openapi.spec import Operation as OpenAPIOperation

from spies_api.openapi.operations.common import (
    EXPORT_MEDIA_TYPE,
    OPTIONAL_SEAT_TOKEN,
    RETRY_AFTER,
    RETRY_LATER_STATUSES,
    SEAT_TOKEN_REQUIRED,
    Operation,
)
from spies_api.openapi.operations.events import EVENTS_OPERATIONS
from spies_api.openapi.operations.games import GAMES_OPERATIONS
from spies_api.openapi.operations.play import PLAY_OPERATIONS
from spies_api.openapi.operations.players import PLAYERS_OPERATIONS
from spies_api.openapi.operations.seats import SEATS_OPERATIONS
from spies_api.openapi.operations.server import SERVER_OPERATIONS
from spies_api.openapi.problems import ProblemSpec

__all__ = [
    "EXPORT_MEDIA_TYPE",
    "DocumentedOperation",
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


def _without_null(schema: Schema | Reference | None) -> None:
    """A header's schema without the ``null`` that Litestar adds for a ``None`` default: a
    header is absent or a string (Litestar reads ``null`` in a query as ``None``, so query
    parameters keep it; a header's text ``null`` is only a string)."""
    if not isinstance(schema, Schema) or not schema.one_of:
        return
    kept = [m for m in schema.one_of if not (isinstance(m, Schema) and m.type == "null")]
    if len(kept) == len(schema.one_of):
        return
    if len(kept) == 1 and isinstance(kept[0], Schema):
        schema.type, schema.one_of = kept[0].type, None
        schema.format = schema.format or kept[0].format
    else:
        schema.one_of = kept


@dataclass
class CodedResponse(OpenAPIResponse):
    """A problem answer with the codes it may carry, as ``x-codes``."""

    codes: list[str] | None = field(default=None, metadata={"alias": "x-codes"})


def _coded(response: OpenAPIResponse, spec: object) -> OpenAPIResponse:
    """``response`` with the codes of ``spec``, when it is a problem answer."""
    if not isinstance(spec, ProblemSpec):
        return response
    kept = {item.name: getattr(response, item.name) for item in fields(OpenAPIResponse)}
    return CodedResponse(**kept, codes=list(spec.codes))


@dataclass
class DocumentedOperation(OpenAPIOperation):
    """An operation as Litestar builds it, completed with what its declarations cannot say:
    the codes of its problem answers (``x-codes``, from
    :func:`~spies_api.openapi.problems.problems`), the headers of its answers
    (:attr:`Operation.headers`, and ``Retry-After`` on every 429, 503 and 507), and its
    headers without ``null``."""

    def __post_init__(self) -> None:
        found = OPERATIONS.get(self.operation_id or "")
        listed = found.headers if found is not None else {}
        specs = found.responses if found is not None else {}
        for status, response in list((self.responses or {}).items()):
            if not isinstance(response, OpenAPIResponse):
                continue
            response = _coded(response, specs.get(int(status)))
            self.responses[status] = response  # type: ignore[index]
            headers = dict(listed.get(int(status), {}))
            if int(status) in RETRY_LATER_STATUSES:
                headers["Retry-After"] = RETRY_AFTER
            if headers:
                response.headers = {**(response.headers or {}), **headers}
        for parameter in self.parameters or ():
            if not isinstance(parameter, Reference) and parameter.param_in == "header":
                _without_null(parameter.schema)


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
        "operation_class": DocumentedOperation,
    }
    if found.security is not None:
        keywords["security"] = found.security
    return keywords
