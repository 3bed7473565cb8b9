"""The ``random`` bot: a uniformly random legal command, in every registered game.

Version 2 (:func:`choose`) puts the legal commands in their canonical order first (the order
of their canonical JSON bytes, docs/protocol.md, "Bot moves"), so that a verifier needs only
the *set* of legal commands the rules allow, not this build's order of listing them; version
1 (:func:`choose_as_listed`) drew from the list as the game's ``legal_commands`` gives it.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any, Final

import msgspec

from spies_core.registry import GAMES

__all__ = ["POLICIES", "POLICIES_1", "canonical_order", "choose", "choose_as_listed"]

_canonical: Final = msgspec.json.Encoder(order="sorted").encode
"""A command's canonical bytes: its JSON with every object's keys in ascending order, no white
space. A command holds no float and its keys are ASCII, so these are its RFC 8785 bytes too."""


def canonical_order(legal: Sequence[Any]) -> list[Any]:
    """The set of ``legal`` sorted by each command's canonical bytes, compared bytewise
    ascending (a command listed twice counts once: the protocol speaks of the set)."""
    by_bytes = {_canonical(command): command for command in legal}
    return [by_bytes[key] for key in sorted(by_bytes)]


def choose(view: Any, legal: Sequence[Any], rng: Random) -> Any:
    """Return one of ``legal``, each with the same chance: ``canonical_order(legal)[
    rng.randrange(len(legal))]`` (version 2); the view is not read."""
    ordered = canonical_order(legal)
    return ordered[rng.randrange(len(ordered))]


def choose_as_listed(view: Any, legal: Sequence[Any], rng: Random) -> Any:
    """Version 1's choice: ``legal[rng.randrange(len(legal))]``, in the order given."""
    return legal[rng.randrange(len(legal))]


POLICIES = dict.fromkeys(GAMES, choose)
"""The same policy for every registered game."""

POLICIES_1 = dict.fromkeys(GAMES, choose_as_listed)
"""Version 1's policy for every registered game (kept to re-run old logs)."""
