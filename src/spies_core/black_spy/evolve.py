"""What an event does to a game of Black Spy: the initial state, ``evolve`` (which trusts the
log), and what a state says: its outcome (§7) and its seats."""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from msgspec.structs import replace

from spies_core.black_spy.cards import Card, sort_cards
from spies_core.black_spy.events import (
    BlackSpyCardPlayed,
    BlackSpyCardsExchanged,
    BlackSpyCardsPassed,
    BlackSpyDealScored,
    BlackSpyDealt,
    BlackSpyGameEnded,
    BlackSpyStarted,
    BlackSpyTrickWon,
    Event,
)
from spies_core.black_spy.options import BlackSpyOptions
from spies_core.black_spy.state import Phase, State, Trick
from spies_core.decider import Outcome
from spies_core.errors import CorruptLogError

__all__ = ["configured", "evolve", "initial_state", "outcome", "players"]


def initial_state() -> State:
    """The empty state the first event applies to."""
    return State()


def configured(players: int, options: BlackSpyOptions) -> State:
    """The table before its deal: the seats, the flags (hence the threshold) and totals of
    0 are set; the first dealer and every hand are the deal's, so still empty."""
    return State(players=players, flags=options.flags(), totals=(0,) * players)


def players(state: State) -> int:
    """Number of seats in the game."""
    return state.players


def _put(
    items: tuple[tuple[Card, ...], ...], i: int, item: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    return items[:i] + (item,) + items[i + 1 :]


def _without(hand: tuple[Card, ...], cards: Sequence[Card]) -> tuple[Card, ...]:
    rest = list(hand)
    try:
        for c in cards:
            rest.remove(c)
    except ValueError:
        raise CorruptLogError(f"cards {list(cards)} are not all in hand {list(hand)}") from None
    return tuple(rest)


def _hidden(what: str) -> CorruptLogError:
    return CorruptLogError(f"{what} is hidden in this event: a redacted log cannot be folded")


def _exchanged(state: State, event: BlackSpyCardsExchanged) -> State:
    hands: list[tuple[Card, ...]] = []
    for s, hand in enumerate(state.hands):
        got = event.received[s]
        if got is None:
            raise _hidden(f"what seat {s} received")
        hands.append(sort_cards(hand + got))
    return replace(
        state, phase=Phase.PLAYING, hands=tuple(hands), leader=event.leader, turn=event.leader
    )


def _dealt_state(state: State, event: BlackSpyDealt) -> State:
    hands: list[tuple[Card, ...]] = []
    for s, hand in enumerate(event.hands):
        if hand is None:
            raise _hidden(f"seat {s}'s hand")
        hands.append(hand)
    return replace(
        state,
        phase=Phase.PASSING,
        deal=event.deal,
        dealer=event.dealer,
        direction=event.direction,
        hands=tuple(hands),
        passes=(None,) * state.players,
        leader=0,
        turn=None,
        trick=(),
        tricks=(),
    )


def evolve(state: State, event: Event) -> State:
    """Apply a recorded fact; never validates user input."""
    match event:
        case BlackSpyCardPlayed(seat=seat, card=card):
            hand = state.hands[seat]
            try:
                i = hand.index(card)
            except ValueError:
                raise CorruptLogError(f"seat {seat} played {card!r}, not in its hand") from None
            trick = state.trick + (card,)
            n = state.players
            return replace(
                state,
                hands=_put(state.hands, seat, hand[:i] + hand[i + 1 :]),
                trick=trick,
                turn=(seat + 1) % n if len(trick) < n else None,
            )
        case BlackSpyTrickWon(winner=winner, cards=cards, points=points):
            done = Trick(leader=state.leader, cards=cards, winner=winner, points=points)
            return replace(
                state,
                trick=(),
                tricks=state.tricks + (done,),
                leader=winner,
                turn=winner if state.hands[winner] else None,
            )
        case BlackSpyCardsPassed(seat=seat, cards=cards):
            if cards is None:
                raise _hidden(f"seat {seat}'s pass")
            return replace(
                state,
                hands=_put(state.hands, seat, _without(state.hands[seat], cards)),
                passes=tuple(cards if s == seat else p for s, p in enumerate(state.passes)),
            )
        case BlackSpyCardsExchanged():
            return _exchanged(state, event)
        case BlackSpyDealScored(scores=scores, totals=totals):
            return replace(state, totals=totals, history=state.history + (scores,))
        case BlackSpyDealt():
            return _dealt_state(state, event)
        case BlackSpyStarted(players=n, flags=flags, dealer=dealer):
            return State(players=n, flags=flags, dealer=dealer, totals=(0,) * n)
        case BlackSpyGameEnded(winners=winners, totals=totals):
            return replace(state, phase=Phase.OVER, winners=winners, totals=totals, turn=None)
        case _:
            assert_never(event)


def outcome(state: State) -> Outcome | None:
    """The end of the game (§7): lowest total wins, ties share; ``None`` while it goes on."""
    if state.phase is not Phase.OVER:
        return None
    return Outcome(winners=state.winners, reason="threshold-reached", scores=state.totals)
