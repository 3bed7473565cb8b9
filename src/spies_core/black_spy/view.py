"""What each viewer may see of a game of Black Spy: ``view``, ``redact`` and ``scramble``.

Hidden: every hand but the viewer's own, every pass but the viewer's own, and what a seat
received (the receiver only, and only once every seat has passed, §3.4-3.5). Public: seats,
hand sizes, who has passed, the cards of the current and the completed tricks (every card
is seen when played, §5.9, §10.8), pile sizes and points, scores, whose turn. A spectator
(``None``) sees only public facts.
"""

from __future__ import annotations

from random import Random
from typing import assert_never

import msgspec
from msgspec.structs import replace

from spies_core.black_spy.cards import RED_1, Card, sort_cards
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
    PassDirection,
)
from spies_core.black_spy.options import BlackSpyFlags, threshold
from spies_core.black_spy.state import Phase, State
from spies_core.decider import Seat

__all__ = ["CompletedTrick", "PlayedCard", "BlackSpyView", "redact", "scramble", "view"]


class PlayedCard(msgspec.Struct, frozen=True, kw_only=True):
    """One card of a trick and who played it."""

    seat: int
    card: Card


class CompletedTrick(msgspec.Struct, frozen=True, kw_only=True):
    """A trick taken this deal: public history (§10.8)."""

    number: int
    """1 for the deal's first trick."""
    cards: tuple[PlayedCard, ...]
    """In play order, led card first."""
    winner: int
    points: int


class BlackSpyView(msgspec.Struct, frozen=True, kw_only=True, tag_field="game", tag="black-spy"):
    """A game of Black Spy as one seat (or a spectator) may see it."""

    version: int = 0
    """Filled in by the API."""
    seat: int | None
    """The viewer; ``None`` for a spectator."""
    players: int
    flags: BlackSpyFlags
    phase: Phase
    deal: int
    """The current deal, 1 for the first."""
    dealer: int
    pass_direction: PassDirection
    """This deal's pass direction (§3.3)."""
    pass_to: int | None
    """The seat the viewer passes to this deal."""
    pass_from: int | None
    """The seat the viewer receives from this deal."""
    hand: tuple[Card, ...] | None
    """The viewer's hand, sorted; ``None`` for a spectator."""
    hand_sizes: tuple[int, ...]
    passed: tuple[bool, ...]
    """Which seats have passed this deal."""
    my_pass: tuple[Card, ...] | None
    """The cards the viewer passed this deal, as soon as passed."""
    received: tuple[Card, ...] | None
    """The cards the viewer received, once every seat has passed (§3.4)."""
    trick_number: int
    """The trick in play, 1 for the deal's first; 0 outside trick play."""
    leader: int | None
    """Who led or leads the current trick."""
    trick: tuple[PlayedCard, ...]
    """The current trick in play order."""
    tricks: tuple[CompletedTrick, ...]
    """The completed tricks of this deal."""
    pile_sizes: tuple[int, ...]
    """Cards each seat has taken this deal (face down, but seen when played)."""
    pile_points: tuple[int, ...]
    """Points in each seat's pile this deal, before any moon (§6.4)."""
    totals: tuple[int, ...]
    deal_scores: tuple[tuple[int, ...], ...]
    """Every scored deal's scores per seat."""
    threshold: int
    """The total that ends the game after a deal (§7.2)."""
    turn: int | None
    """The seat to play a card, if any."""
    to_act: tuple[int, ...]
    winners: tuple[int, ...]
    """The seats with the lowest total once the game is over (§7.3, §7.4)."""


def view(state: State, seat: Seat | None) -> BlackSpyView:
    """What ``seat`` (or a spectator, ``None``) may see now."""
    n = state.players
    me = seat if seat is not None and 0 <= seat < n and state.hands else None
    offset = state.direction.offset
    passes = state.passes or (None,) * n
    exchanged = state.phase is not Phase.PASSING and state.deal > 0
    pile_sizes = [0] * n
    pile_points = [0] * n
    for t in state.tricks:
        pile_sizes[t.winner] += len(t.cards)
        pile_points[t.winner] += t.points
    playing = state.phase is Phase.PLAYING and state.turn is not None
    return BlackSpyView(
        seat=seat,
        players=n,
        flags=state.flags,
        phase=state.phase,
        deal=state.deal,
        dealer=state.dealer,
        pass_direction=state.direction,
        pass_to=None if me is None else (me + offset) % n,
        pass_from=None if me is None else (me - offset) % n,
        hand=None if me is None else state.hands[me],
        hand_sizes=tuple(len(h) for h in state.hands) or (0,) * n,
        passed=tuple(p is not None for p in passes),
        my_pass=None if me is None else passes[me],
        received=None if me is None or not exchanged else passes[(me - offset) % n],
        trick_number=len(state.tricks) + 1 if playing else 0,
        leader=state.leader if state.phase is Phase.PLAYING else None,
        trick=tuple(
            PlayedCard(seat=(state.leader + i) % n, card=c) for i, c in enumerate(state.trick)
        ),
        tricks=tuple(
            CompletedTrick(
                number=i + 1,
                cards=tuple(
                    PlayedCard(seat=(t.leader + j) % n, card=c) for j, c in enumerate(t.cards)
                ),
                winner=t.winner,
                points=t.points,
            )
            for i, t in enumerate(state.tricks)
        ),
        pile_sizes=tuple(pile_sizes),
        pile_points=tuple(pile_points),
        totals=state.totals,
        deal_scores=state.history,
        threshold=threshold(state.flags, n) if n else 0,
        turn=state.turn,
        to_act=tuple(sorted(_to_act(state))),
        winners=state.winners,
    )


def _to_act(state: State) -> list[int]:
    if state.phase is Phase.PASSING:
        return [s for s, p in enumerate(state.passes) if p is None]
    if state.phase is Phase.PLAYING and state.turn is not None:
        return [state.turn]
    return []


def redact(event: Event, seat: Seat | None) -> Event | None:
    """``event`` as ``seat`` (or a spectator) may see it: other seats' cards become ``None``."""
    match event:
        case BlackSpyDealt():
            return replace(event, hands=_only(event.hands, seat))
        case BlackSpyCardsPassed():
            return event if seat == event.seat else replace(event, cards=None)
        case BlackSpyCardsExchanged():
            return replace(event, received=_only(event.received, seat))
        case (
            BlackSpyStarted()
            | BlackSpyCardPlayed()
            | BlackSpyTrickWon()
            | BlackSpyDealScored()
            | BlackSpyGameEnded()
        ):
            return event
        case _:
            assert_never(event)


def _only(
    per_seat: tuple[tuple[Card, ...] | None, ...], seat: Seat | None
) -> tuple[tuple[Card, ...] | None, ...]:
    return tuple(cards if s == seat else None for s, cards in enumerate(per_seat))


def scramble(state: State, viewer: Seat | None, rng: Random) -> State:
    """A state the viewer cannot tell from ``state``: the cards of the other hands (and of
    their passes not yet handed over) are dealt among them again, sizes kept.

    The red 1 stays where it is, so the first leader still holds it (§4.1).
    """
    if state.phase not in (Phase.PASSING, Phase.PLAYING):
        return state
    others = [s for s in range(state.players) if s != viewer]
    pending = state.phase is Phase.PASSING
    pool: list[Card] = []
    for s in others:
        pool.extend(c for c in state.hands[s] if c != RED_1)
        passed = state.passes[s]
        if pending and passed is not None:
            pool.extend(c for c in passed if c != RED_1)
    rng.shuffle(pool)
    hands = list(state.hands)
    passes = list(state.passes)

    def refill(cards: tuple[Card, ...]) -> tuple[Card, ...]:
        keep = tuple(c for c in cards if c == RED_1)
        fresh = [pool.pop() for _ in range(len(cards) - len(keep))]
        return sort_cards((*keep, *fresh))

    for s in others:
        hands[s] = refill(hands[s])
        passed = passes[s]
        if pending and passed is not None:
            passes[s] = refill(passed)
    return replace(state, hands=tuple(hands), passes=tuple(passes))
