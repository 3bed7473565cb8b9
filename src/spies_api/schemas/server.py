"""The server's own answers: its bots, its health and readiness, and a problem document."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

__all__ = ["BotInfo", "BotList", "Health", "Problem", "Readiness"]


class BotInfo(msgspec.Struct, frozen=True, kw_only=True):
    """A registered bot."""

    name: str
    """The bot's name, as given in a ``bot`` seat or ``POST /games/{id}/seats/{seat}/bot``."""
    games: list[str]
    """The game ids it plays."""
    description: str
    """How it plays, in a sentence."""


class Health(msgspec.Struct, frozen=True, kw_only=True):
    """Answer to ``GET /healthz``: the process is alive and its event loop answers (the
    database is not asked)."""

    status: Literal["ok"] = "ok"
    """Always ``ok``."""


class Readiness(msgspec.Struct, frozen=True, kw_only=True):
    """Answer to ``GET /readyz`` when this process may be sent traffic: its database
    answers and its schema is current."""

    status: Literal["ready"] = "ready"
    """Always ``ready`` (a process that is not ready answers 503 ``not-ready``)."""
    backend: Literal["sqlite", "postgresql"]
    """The kind of database the process uses."""


class BotList(msgspec.Struct, frozen=True, kw_only=True):
    """Answer to ``GET /bots``."""

    bots: list[BotInfo]
    """Every registered bot, by name."""


class Problem(msgspec.Struct, frozen=True, kw_only=True):
    """An RFC 9457 problem document; branch on ``code``."""

    type: str
    """A URI naming the kind of problem: ``urn:spies:problem:`` and the ``code``."""
    title: str
    """A short, fixed title of the kind of problem, e.g. ``Command refused by the rules``."""
    status: int
    """The HTTP status code, repeated."""
    detail: str
    """One line for a person: what is wrong and what to send instead."""
    code: str
    """Stable, kebab-case: ``not-your-turn``, ``version-conflict``, ``malformed-body``, ..."""
    current_version: int | None | msgspec.UnsetType = msgspec.UNSET
    """409 ``version-conflict`` (and a command past its deadline): the game's version now;
    absent otherwise."""
    expected_version: int | None | msgspec.UnsetType = msgspec.UNSET
    """409 ``version-conflict``: the version the request expected; absent otherwise."""
    errors: list[dict[str, Any]] | None | msgspec.UnsetType = msgspec.UNSET
    """400 for a bad parameter: the offending parameters, each with ``key``, ``source`` and
    ``message``; absent otherwise."""
