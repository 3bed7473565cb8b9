"""Card Duel as text: one line per event, a few lines per view."""

from __future__ import annotations

from typing import assert_never

from tests.fourth_game.card_duel.events import (
    CardDuelBidMade,
    CardDuelBidsRevealed,
    CardDuelCardPlayed,
    CardDuelEnded,
    CardDuelRoundWon,
    CardDuelStarted,
    Event,
)
from tests.fourth_game.card_duel.view import CardDuelView

__all__ = ["describe_event", "render_view"]


def describe_event(event: Event) -> str:
    """One line for a person."""
    match event:
        case CardDuelStarted(hands=hands):
            return "dealt " + "; ".join(
                f"seat {s}: {'?' if h is None else list(h)}" for s, h in enumerate(hands)
            )
        case CardDuelBidMade(seat=seat, rounds=rounds):
            return f"seat {seat} bids {'?' if rounds is None else rounds}"
        case CardDuelBidsRevealed(bids=bids):
            return f"bids {list(bids)}"
        case CardDuelCardPlayed(seat=seat, card=card):
            return f"seat {seat} plays {card}"
        case CardDuelRoundWon(round=number, winner=winner):
            return f"round {number} to seat {winner}"
        case CardDuelEnded(scores=scores, winners=winners):
            return f"scores {list(scores)}; winners {list(winners)}"
        case _:
            assert_never(event)


def render_view(view: CardDuelView) -> str:
    """A view as a few lines of text for a terminal."""
    who = "spectator" if view.seat is None else f"seat {view.seat}"
    return "\n".join(
        [
            f"card duel, {who}, {view.phase}, round {view.round}",
            f"hand {list(view.hand or ())}, bids {list(view.bids)}, won {list(view.won)}",
            f"trick {list(view.trick)}, to act {list(view.to_act)}",
        ]
    )
