"""What an event does to a game of Card Duel: the initial state, ``evolve``, the outcome and
the seats."""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from spies_core.decider import Outcome
from spies_core.errors import CorruptLogError
from tests.fourth_game.card_duel.events import (
    CardDuelBidMade,
    CardDuelBidsRevealed,
    CardDuelCardPlayed,
    CardDuelEnded,
    CardDuelRoundWon,
    CardDuelStarted,
    Event,
)
from tests.fourth_game.card_duel.state import CardDuelPhase, State

__all__ = ["evolve", "initial_state", "outcome", "players"]


def initial_state() -> State:
    """The empty table before the first event."""
    return State()


def players(state: State) -> int:
    """Always two seats."""
    return 2


def evolve(state: State, event: Event) -> State:
    """Apply a recorded fact."""
    match event:
        case CardDuelStarted(hands=hands, aside=aside):
            if aside is None or any(hand is None for hand in hands):
                raise CorruptLogError("a redacted deal cannot be applied")
            return replace(
                state,
                phase=CardDuelPhase.BIDDING,
                hands=tuple(hand for hand in hands if hand is not None),
                aside=aside,
                round=1,
            )
        case CardDuelBidMade(seat=seat, rounds=rounds):
            if rounds is None:
                raise CorruptLogError("a redacted bid cannot be applied")
            bids = tuple(rounds if s == seat else b for s, b in enumerate(state.bids))
            return replace(state, bids=bids)
        case CardDuelBidsRevealed(bids=bids):
            return replace(state, phase=CardDuelPhase.PLAYING, bids=bids, revealed=True)
        case CardDuelCardPlayed(seat=seat, card=card):
            hands = tuple(
                tuple(c for c in hand if c != card) if s == seat else hand
                for s, hand in enumerate(state.hands)
            )
            return replace(state, hands=hands, trick=(*state.trick, card))
        case CardDuelRoundWon(winner=winner):
            won = tuple(n + (s == winner) for s, n in enumerate(state.won))
            return replace(
                state,
                tricks=(*state.tricks, state.trick),
                trick=(),
                won=won,
                leader=winner,
                round=state.round + 1,
            )
        case CardDuelEnded(scores=scores, winners=winners):
            return replace(state, phase=CardDuelPhase.OVER, scores=scores, winners=winners)
        case _:
            assert_never(event)


def outcome(state: State) -> Outcome | None:
    """The highest score wins; a tie shares the win."""
    if state.phase is not CardDuelPhase.OVER:
        return None
    return Outcome(winners=state.winners, reason="rounds-and-bids", scores=state.scores)
