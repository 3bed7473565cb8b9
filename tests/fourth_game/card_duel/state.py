"""The state of a game of Card Duel, who is to act, its invariants and its bound on events."""

from __future__ import annotations

from enum import StrEnum
from typing import Final

import msgspec

from tests.fourth_game.card_duel.options import CARDS

__all__ = ["MAX_EVENTS", "ROUNDS", "CardDuelPhase", "State", "check_invariants", "to_act"]

ROUNDS: Final = 6
MAX_EVENTS: Final = 1 + 2 + 1 + 2 * ROUNDS + ROUNDS + 1
"""The deal, two bids, their reveal, two cards and a winner per round, and the end."""


class CardDuelPhase(StrEnum):
    """Where the game stands."""

    SETUP = "setup"
    BIDDING = "bidding"
    PLAYING = "playing"
    OVER = "over"


class State(msgspec.Struct, frozen=True, kw_only=True):
    """Everything about one game; hidden parts leave only through ``view``."""

    phase: CardDuelPhase = CardDuelPhase.SETUP
    hands: tuple[tuple[int, ...], ...] = ()
    aside: tuple[int, ...] = ()
    bids: tuple[int | None, ...] = (None, None)
    revealed: bool = False
    leader: int = 0
    round: int = 0
    trick: tuple[int, ...] = ()
    """The cards of the round in progress, the lead first."""
    tricks: tuple[tuple[int, ...], ...] = ()
    won: tuple[int, ...] = (0, 0)
    scores: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()


_ONLY: Final = (frozenset({0}), frozenset({1}))
_NOBODY: Final[frozenset[int]] = frozenset()


def to_act(state: State) -> frozenset[int]:
    """Every seat yet to bid, or the seat to play."""
    if state.phase is CardDuelPhase.BIDDING:
        return frozenset(seat for seat, bid in enumerate(state.bids) if bid is None)
    if state.phase is CardDuelPhase.PLAYING:
        return _ONLY[(state.leader + len(state.trick)) % 2]
    return _NOBODY


def check_invariants(state: State) -> None:
    """Assert that every card is in one place and the hands are as long as the play allows."""
    if state.phase is CardDuelPhase.SETUP:
        return
    places = [*state.aside, *state.trick, *(c for t in state.tricks for c in t)]
    places += [c for hand in state.hands for c in hand]
    assert sorted(places) == list(CARDS), places
    assert sum(state.won) == len(state.tricks) <= ROUNDS
    for seat, hand in enumerate(state.hands):
        assert list(hand) == sorted(hand), hand
        behind = (seat - state.leader) % 2 >= len(state.trick)
        assert len(hand) == ROUNDS - len(state.tricks) - (0 if behind else 1), (seat, hand)
    assert (state.phase is CardDuelPhase.OVER) == bool(state.winners)
