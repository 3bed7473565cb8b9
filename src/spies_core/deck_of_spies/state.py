"""The state of a game of Deck of Spies: the six zones of §1.4 and the turn, who is to act,
the invariants and the bound on a game's events."""

from __future__ import annotations

from enum import StrEnum
from typing import Final

import msgspec

from spies_core.cards import ALL_CARDS, Card, is_ace, is_face
from spies_core.deck_of_spies.events import Result
from spies_core.deck_of_spies.options import DeckOfSpiesFlags
from spies_core.deck_of_spies.piles import sorted_cards

__all__ = [
    "HAND_SIZE",
    "MAX_EVENTS",
    "SPY_BANDS",
    "WIN_FACES",
    "Phase",
    "State",
    "check_invariants",
    "owned",
    "owned_aces",
    "owned_faces",
    "to_act",
]

SPY_BANDS: Final = ((5, 7), (8, 10), (11, 13))
"""Value bands of the spy deck, top band first (§2.1-2.2)."""

HAND_SIZE: Final = 5
"""Refill target and upper bound of the hand (§8)."""

WIN_FACES: Final = 7
"""Owned face cards needed to win: more than half of the 12 (§9.2)."""

MAX_EVENTS: Final = 36 * 8 + 4
"""An upper bound on the events of one game (292), explicit deals included.

Setup writes at most 5 events before the first turn (started, draw, reshuffle, draw,
spy); a turn at most 5 (action, draw, reshuffle, draw, next spy) plus one retire or one
draw-deck shuffle (§6.3); the game one end. A retire sends at least 2 of the 52 cards to
the spy discard for good, so there are at most 26 retires, and at most 4 draw-deck
shuffles (one per Ace). An explicit deal may hold more than 36 spies, but at most 51 can
be faced (a hand card lies outside the spy deck), so a game has at most
``5 + 5 * 51 + 26 + 4 + 1 = 291`` events; 292 (the bound first derived from 36 turns of at
most 8 events) remains a true bound.
"""


class Phase(StrEnum):
    """Where the game stands."""

    SETUP = "setup"
    """Before the first event."""
    PLAYING = "playing"
    """A spy is on top and the player must act."""
    OVER = "over"
    """The game has ended."""


class State(msgspec.Struct, frozen=True, kw_only=True):
    """Every card's zone (§1.4). Decks are top first; the other zones are sorted."""

    phase: Phase = Phase.SETUP
    flags: DeckOfSpiesFlags = DeckOfSpiesFlags()
    spy_deck: tuple[Card, ...] = ()
    draw_deck: tuple[Card, ...] = ()
    hand: tuple[Card, ...] = ()
    draw_discard: tuple[Card, ...] = ()
    spy_discard: tuple[Card, ...] = ()
    face_down: tuple[Card, ...] = ()
    """The part of ``spy_discard`` a spectator never saw: retired cards and a dealt pile."""
    removed: tuple[Card, ...] = ()
    turn: int = 0
    """The turn in progress: 1 while the first spy is faced, 0 before."""
    result: Result | None = None
    final_owned_faces: int = 0


def owned(state: State) -> tuple[Card, ...]:
    """Owned cards (§1.5): hand, draw deck and draw discard."""
    return state.hand + state.draw_deck + state.draw_discard


def owned_faces(state: State) -> int:
    """Number of J, Q and K among the owned cards (§9.2)."""
    return sum(1 for c in owned(state) if is_face(c))


def owned_aces(state: State) -> tuple[Card, ...]:
    """The owned Aces (§1.5), sorted: those an assassination may sacrifice (§6.2)."""
    return sorted_cards(c for c in owned(state) if is_ace(c))


_PLAYER: Final = frozenset((0,))
_NOBODY: Final[frozenset[int]] = frozenset()


def to_act(state: State) -> frozenset[int]:
    """The player, while the game is in play."""
    return _PLAYER if state.phase is Phase.PLAYING else _NOBODY


def check_invariants(state: State) -> None:
    """Assert the invariants of §10.4 (tests and verify call it)."""
    if state.phase is Phase.SETUP:
        return
    zones = (
        state.spy_deck
        + state.draw_deck
        + state.hand
        + state.draw_discard
        + state.spy_discard
        + state.removed
    )
    assert len(zones) == 52, f"the zones hold {len(zones)} cards, not 52"
    assert sorted(zones) == sorted(ALL_CARDS), "a card is missing or duplicated"
    assert all(is_ace(c) for c in state.removed), f"non-Ace removed: {state.removed}"
    assert len(state.hand) <= HAND_SIZE, f"hand of {len(state.hand)} cards"
    assert set(state.face_down) <= set(state.spy_discard), "face-down cards outside the spy discard"
