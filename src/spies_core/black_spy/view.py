"""What each viewer may see of a game of Black Spy: ``view``, ``redact`` and ``scramble``.

Hidden: every hand but the viewer's own, every pass but the viewer's own, and what a seat
received (the receiver only, and only once every seat has passed, §3.4-3.5). Public: seats,
hand sizes, who has passed, the cards of the current and the completed tricks (every card
is seen when played, §5.9, §10.8), pile sizes and points, scores, whose turn. A spectator
(``None``) sees only public facts. Once the game is over nothing is secret: every viewer
sees every seat's pass of the last deal (every hand is empty then, every card played).
"""

from __future__ import annotations

from functools import lru_cache
from random import Random
from typing import assert_never

import msgspec
from msgspec.structs import replace

from spies_core.black_spy.cards import RED_1, Card, CardNotation, sort_cards
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
from spies_core.black_spy.state import Phase, State, Trick
from spies_core.decider import GameView, Seat

__all__ = ["CompletedTrick", "PlayedCard", "BlackSpyView", "redact", "scramble", "view"]


class PlayedCard(msgspec.Struct, frozen=True, kw_only=True):
    """One card of a trick and who played it."""

    seat: int
    """The seat that played the card."""
    card: CardNotation
    """The card, e.g. ``"red-1"`` or ``"black-7"``."""


class CompletedTrick(msgspec.Struct, frozen=True, kw_only=True):
    """A trick taken this deal: public history (§10.8)."""

    number: int
    """1 for the deal's first trick."""
    cards: tuple[PlayedCard, ...]
    """In play order, led card first: one card per seat."""
    winner: int
    """The seat that took the trick: the highest card of the led colour (§5.4, §5.5)."""
    points: int
    """The trick's penalty points under this game's rules (§6.2), before any moon (§6.4)."""


class BlackSpyView(GameView, frozen=True, kw_only=True, tag_field="game", tag="black-spy"):
    """A game of Black Spy as one seat (or a spectator) may see it."""

    players: int
    """The number of seats, 3 to 6."""
    flags: BlackSpyFlags
    """The rule flags chosen at creation (§8.1, Appendix A)."""
    phase: Phase
    """``passing`` while seats choose their three cards (§3), ``playing`` during trick play
    (§4, §5), ``over`` once the game has ended (§7); ``setup`` before the deal (``dealt:
    false``: a table waiting for its open seats). Before the deal only ``players``,
    ``flags``, ``threshold`` and the zero ``totals`` are meaningful; what the deal decides
    is empty (``deal`` and ``dealer`` 0, ``hand_sizes`` 0, ``hand`` ``null``)."""
    deal: int
    """The current deal, 1 for the first; 0 before the first deal."""
    dealer: int
    """The seat that dealt this deal (§2.2, §2.4); 0 before the deal (``dealt: false``)."""
    pass_direction: PassDirection
    """This deal's pass direction (§3.3): ``left`` (clockwise, to seat + 1), ``right`` or,
    with 4 players, ``across``."""
    pass_to: int | None
    """The seat the viewer passes its three cards to this deal; ``null`` for a spectator."""
    pass_from: int | None
    """The seat whose three cards the viewer receives this deal; ``null`` for a spectator."""
    hand: tuple[CardNotation, ...] | None
    """The viewer's hand, sorted; ``null`` for a spectator. Other hands are never shown,
    only their sizes."""
    hand_sizes: tuple[int, ...]
    """Cards in each seat's hand, by seat (public)."""
    passed: tuple[bool, ...]
    """Whether each seat has passed this deal, by seat (public; what was passed is not)."""
    my_pass: tuple[CardNotation, ...] | None
    """The three cards the viewer passed this deal, as soon as passed; ``null`` before it
    has passed, and for a spectator."""
    received: tuple[CardNotation, ...] | None
    """The three cards the viewer received this deal, shown once every seat has passed
    (§3.4); ``null`` before then, and for a spectator."""
    passes: tuple[tuple[CardNotation, ...] | None, ...]
    """The three cards each seat passed this deal, by seat: the viewer's own as soon as
    passed (as ``my_pass``), another seat's never while the game goes on (``null``), and
    every seat's, to every viewer, once the game is over (§7: nothing is secret then)."""
    trick_number: int
    """The trick in play, 1 for the deal's first; 0 outside trick play."""
    leader: int | None
    """The seat that led (or is to lead) the current trick; ``null`` outside trick play."""
    trick: tuple[PlayedCard, ...]
    """The cards of the current trick, in play order, led card first (public, §5.9)."""
    tricks: tuple[CompletedTrick, ...]
    """The completed tricks of this deal, first first (public history, §5.9, §10.8)."""
    pile_sizes: tuple[int, ...]
    """Cards each seat has taken this deal, by seat (face down, but every card was seen when
    played)."""
    pile_points: tuple[int, ...]
    """Penalty points in each seat's pile this deal, by seat, before any moon (§6.2, §6.4)."""
    totals: tuple[int, ...]
    """Each seat's running total of penalty points over the scored deals, by seat (§6.6);
    may be negative (§6.3). The lowest total wins (§7.3)."""
    deal_scores: tuple[tuple[int, ...], ...]
    """Every scored deal's scores, first deal first, each by seat (§6); a seat's total is
    the sum of its scores."""
    threshold: int
    """The total that ends the game once a seat reaches it after a deal (§7.2): 200, 150,
    120 or 100 for 3, 4, 5 or 6 players; 200 in the classic preset."""
    turn: int | None
    """The seat that plays the next card of the trick; ``null`` outside trick play (while
    passing every seat that has not passed acts at once: see ``to_act``)."""
    to_act: tuple[int, ...]
    """Every seat that may send a command now: the seats that have not passed while passing,
    the seat in ``turn`` during trick play, none once the game is over."""
    winners: tuple[int, ...]
    """The seats with the lowest total once the game is over (§7.3); several share the win
    on a tie (§7.4); ``[]`` while it goes on."""


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
        passes=passes if state.phase is Phase.OVER else _only(passes, me),
        trick_number=len(state.tricks) + 1 if playing else 0,
        leader=state.leader if state.phase is Phase.PLAYING else None,
        trick=tuple(
            PlayedCard(seat=(state.leader + i) % n, card=c) for i, c in enumerate(state.trick)
        ),
        tricks=_completed(state.tricks, n),
        pile_sizes=tuple(pile_sizes),
        pile_points=tuple(pile_points),
        totals=state.totals,
        deal_scores=state.history,
        threshold=threshold(state.flags, n) if n else 0,
        turn=state.turn,
        to_act=tuple(sorted(_to_act(state))),
        winners=state.winners,
    )


@lru_cache(maxsize=256)
def _completed(tricks: tuple[Trick, ...], n: int) -> tuple[CompletedTrick, ...]:
    """The deal's tricks as every view shows them (the same for every seat): built once per
    state, not once per viewer."""
    return tuple(
        CompletedTrick(
            number=i + 1,
            cards=tuple(PlayedCard(seat=(t.leader + j) % n, card=c) for j, c in enumerate(t.cards)),
            winner=t.winner,
            points=t.points,
        )
        for i, t in enumerate(tricks)
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
