"""Database locations: which backend a location names, and how to show it safely."""

from __future__ import annotations

from pathlib import Path
from typing import Final

__all__ = ["is_postgres_url", "redact"]

_POSTGRES_SCHEMES: Final = ("postgresql://", "postgres://")


def is_postgres_url(location: str | Path) -> bool:
    """Whether a location names a PostgreSQL database (``postgresql://`` or ``postgres://``)."""
    return str(location).startswith(_POSTGRES_SCHEMES)


def redact(location: str | Path) -> str:
    """A location fit for logs and messages: a URL's password replaced by ``***``."""
    text = str(location)
    scheme, sep, rest = text.partition("://")
    if not sep or "@" not in rest:
        return text
    credentials, at, host = rest.rpartition("@")
    user, colon, _password = credentials.partition(":")
    return f"{scheme}://{user}{':***' if colon else ''}{at}{host}"
