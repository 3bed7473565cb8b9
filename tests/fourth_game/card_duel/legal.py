"""Which commands Card Duel accepts now, and the near misses the suites try."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from spies_core.decider import Seat
from tests.fourth_game.card_duel.commands import CardDuelBid, CardDuelPlayCard, Command
from tests.fourth_game.card_duel.state import ROUNDS, CardDuelPhase, State, to_act

__all__ = ["legal_commands", "probe_commands"]

_BIDS: Final = tuple(CardDuelBid(rounds=n) for n in range(ROUNDS + 1))


def legal_commands(state: State, seat: Seat) -> list[Command]:
    """Exactly the commands ``decide`` accepts from ``seat`` now."""
    if seat not in to_act(state):
        return []
    if state.phase is CardDuelPhase.BIDDING:
        return list(_BIDS)
    return [CardDuelPlayCard(card=card) for card in state.hands[seat]]


def probe_commands(state: State, seat: Seat) -> Iterator[Command]:
    """Every bid from -1 to one above the most rounds, and every card from 0 to 15."""
    yield from (CardDuelBid(rounds=n) for n in range(-1, ROUNDS + 2))
    yield from (CardDuelPlayCard(card=c) for c in range(16))
