"""What a seat or a spectator may see of a game of Card Duel."""

from __future__ import annotations

from random import Random

import msgspec

from spies_core.decider import GameView, Seat
from tests.fourth_game.card_duel.events import CardDuelBidMade, CardDuelStarted, Event
from tests.fourth_game.card_duel.state import ROUNDS, CardDuelPhase, State, to_act

__all__ = ["CardDuelView", "redact", "scramble", "view"]


class CardDuelView(GameView, frozen=True, kw_only=True, tag_field="game", tag="card-duel"):
    """The table of Card Duel as one viewer may see it."""

    phase: CardDuelPhase
    """Bidding, playing or over."""
    hand: tuple[int, ...] | None
    """The viewer's hand; ``null`` for a spectator."""
    hand_counts: tuple[int, ...]
    """How many cards each seat holds."""
    bids: tuple[int | None, ...]
    """Each seat's bid: the viewer's own, and both once revealed; ``null`` otherwise."""
    has_bid: tuple[bool, ...]
    """Whether each seat has bid (public even while the bids are hidden)."""
    leader: int
    """The seat that leads the current round."""
    round: int
    """The current round, from 1 to 6."""
    trick: tuple[int, ...]
    """The cards played so far in the current round, in order."""
    tricks: tuple[tuple[int, ...], ...]
    """The cards of each finished round, leader's first."""
    won: tuple[int, ...]
    """Rounds won by each seat."""
    to_act: tuple[int, ...]
    """The seats that may send a command now."""
    scores: tuple[int, ...]
    """Each seat's score once the game is over; empty before."""
    winners: tuple[int, ...]
    """The seats with the highest score once the game is over; empty before."""


def view(state: State, seat: Seat | None) -> CardDuelView:
    """The table as ``seat`` (or a spectator, ``None``) may see it."""
    return CardDuelView(
        seat=seat,
        phase=state.phase,
        hand=state.hands[seat] if seat is not None and state.hands else None,
        hand_counts=tuple(len(hand) for hand in state.hands),
        bids=tuple(
            bid if state.revealed or s == seat else None for s, bid in enumerate(state.bids)
        ),
        has_bid=tuple(bid is not None for bid in state.bids),
        leader=state.leader,
        round=state.round,
        trick=state.trick,
        tricks=state.tricks,
        won=state.won,
        to_act=tuple(sorted(to_act(state))),
        scores=state.scores,
        winners=state.winners,
    )


def redact(event: Event, seat: Seat | None) -> Event | None:
    """``event`` as ``seat`` may see it: other hands, the cards aside and others' bids hidden."""
    match event:
        case CardDuelStarted():
            hands = tuple(hand if s == seat else None for s, hand in enumerate(event.hands))
            return msgspec.structs.replace(event, hands=hands, aside=None)
        case CardDuelBidMade():
            return event if event.seat == seat else msgspec.structs.replace(event, rounds=None)
        case _:
            return event


def scramble(state: State, seat: Seat | None, rng: Random) -> State:
    """A state ``seat`` cannot tell apart: the cards it does not hold dealt again among the
    other hand and the cards aside, and a bid it has not seen made again."""
    if state.phase is CardDuelPhase.SETUP:
        return state
    others = [s for s in range(len(state.hands)) if s != seat]
    pool = [c for s in others for c in state.hands[s]] + list(state.aside)
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        size = len(hands[s])
        hands[s], pool = tuple(sorted(pool[:size])), pool[size:]
    bids = tuple(
        rng.randrange(ROUNDS + 1) if bid is not None and s != seat and not state.revealed else bid
        for s, bid in enumerate(state.bids)
    )
    return msgspec.structs.replace(state, hands=tuple(hands), aside=tuple(sorted(pool)), bids=bids)
