"""Entity tags of a game's summary, a reader's view and a reader's legal commands.

Each of these answers is a function of the game's version, who reads it (a seat, or a
spectator) and, for the summary, the game's rematch link (the one field a version does not
cover). Its tag is a hash of those and of the server's version, so it is computed from the
game's record without folding the game: a request whose ``If-None-Match`` names the current
tag is answered 304, with no body, after one read of the record. The tags are weak (RFC 9110,
8.8.1): the same tag is sent for the answer gzipped or not, and a running clock's
``remaining_ms`` is as of the first answer (its ``deadline`` does not change until the
version does). Another reader's tag never matches: the reader is part of the hash.
"""

from __future__ import annotations

import hashlib
from enum import StrEnum
from importlib.metadata import PackageNotFoundError, version
from typing import Annotated, Any, Final

from litestar import Response
from litestar.params import HeaderParameter

from spies_api.http.cached import matches

__all__ = [
    "IfNoneMatch",
    "Tagged",
    "entity_tag",
    "is_fresh",
    "not_modified",
    "tagged",
]

IfNoneMatch = Annotated[
    str | None,
    HeaderParameter(
        name="If-None-Match",
        max_length=1024,
        description=(
            "The `ETag` of an earlier answer (or several, comma-separated): when the answer"
            " would be the same (same version of the game, same reader), 304 with no body."
        ),
    ),
]


class Tagged(StrEnum):
    """The answers that carry an entity tag."""

    SUMMARY = "summary"
    VIEW = "view"
    LEGAL = "legal"


def _server_version() -> str:
    try:
        return version("spies-engine")
    except PackageNotFoundError:  # pragma: no cover  (a source tree that is not installed)
        return "0.0.0"


_SERVER: Final = _server_version()
"""Part of every tag: another version of the server may answer otherwise."""


def entity_tag(
    kind: Tagged, game_id: str, game_version: int, reader: int | None, extra: str = ""
) -> str:
    """The weak entity tag of ``kind`` of ``game_id`` at ``game_version`` for ``reader`` (a
    seat, ``None`` for a spectator), ``extra`` being what else the answer depends on."""
    basis = "\0".join(
        (_SERVER, str(kind), game_id, str(game_version), "-" if reader is None else str(reader))
    )
    digest = hashlib.sha256(f"{basis}\0{extra}".encode()).hexdigest()[:24]
    return f'W/"{digest}"'


def is_fresh(if_none_match: str | None, tag: str) -> bool:
    """Whether ``If-None-Match`` names ``tag`` (weak comparison, or ``*``)."""
    if if_none_match is None:
        return False
    return matches(if_none_match.encode("latin-1", "replace"), tag.removeprefix("W/").encode())


def _validators(tag: str, *, private: bool) -> dict[str, str]:
    """The headers of an answer and of its 304: the tag; ask again every time (the tag
    makes that cheap); a seat's answer is its own, cached by no one else."""
    return {
        "ETag": tag,
        "Cache-Control": "private, no-cache" if private else "no-cache",
        "Vary": "Authorization",
    }


def tagged(content: Any, tag: str, *, private: bool) -> Response[Any]:
    """A 200 answer of ``content`` with its tag."""
    return Response(content, headers=_validators(tag, private=private))


def not_modified(tag: str, *, private: bool) -> Response[Any]:
    """The 304 answer to a request that named ``tag``: no body."""
    return Response(None, status_code=304, headers=_validators(tag, private=private))
