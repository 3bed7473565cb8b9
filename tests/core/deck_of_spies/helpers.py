"""Deck of Spies under test (:class:`tests.support.games.Table`): positions dealt from a
few named zones, the rest filling the spy deck, and the legal sets of a position."""

from __future__ import annotations

from typing import Any

from spies_core import get_game
from spies_core.cards import ALL_CARDS
from spies_core.deck_of_spies.commands import Assassinate, Command, Counter, Recruit
from spies_core.deck_of_spies.events import Event
from spies_core.deck_of_spies.state import State
from tests.support.games import Table

SPEC = get_game("deck-of-spies")


def deal(
    spy: str,
    hand: str | None,
    *,
    draw: str = "",
    discard: str = "",
    spy_discard: str = "",
    removed: str = "",
    spies_after: str | None = None,
    **flags: Any,
) -> dict[str, Any]:
    """Options for a position: ``spy`` on top, the named zones, every other card below
    the spy in the spy deck (or in the spy discard when ``spies_after`` is given)."""
    zones = {
        "hand": (hand or "").split(),
        "draw": draw.split(),
        "discard": discard.split(),
        "spy_discard": spy_discard.split(),
        "removed": removed.split(),
    }
    placed = {c for cards in zones.values() for c in cards} | {spy}
    after = spies_after.split() if spies_after is not None else None
    rest = [c for c in ALL_CARDS if c not in placed and (after is None or c not in after)]
    if after is None:
        spies = [spy, *rest]
    else:
        spies = [spy, *after]
        zones["spy_discard"] += rest
    if hand is None:
        del zones["hand"]
    return {"deal": {"spies": spies, **zones}, **flags}


class DeckOfSpies(Table[State, Command, Event]):
    """A solo game of Deck of Spies: start it from :func:`deal`'s options, then
    ``act(0, command)``."""

    SPEC = SPEC

    def moves(self, kind: type[Counter] | type[Recruit]) -> set[frozenset[str]]:
        """The card sets of every legal command of one kind with no retire."""
        return {frozenset(c.cards) for c in self.legal(0) if isinstance(c, kind) and not c.retire}

    def assassinations(self) -> set[str]:
        """The Aces of every legal assassination."""
        return {c.ace for c in self.legal(0) if isinstance(c, Assassinate)}


def sets(*groups: str) -> set[frozenset[str]]:
    """``sets("7D", "2D 3H")`` -> {{7D}, {2D, 3H}}."""
    return {frozenset(g.split()) for g in groups}
