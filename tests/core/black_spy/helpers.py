"""Black Spy under test (:class:`tests.support.games.Table`): games from fixed deals,
crafted positions, playouts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any

from spies_core import get_game
from spies_core.black_spy.cards import DECK, Card, sort_cards
from spies_core.black_spy.commands import Command, PassCards, PlayCard
from spies_core.black_spy.events import (
    BlackSpyDealScored,
    BlackSpyDealt,
    Event,
)
from spies_core.black_spy.options import BlackSpyFlags
from spies_core.black_spy.state import Phase, State, Trick
from spies_core.decider import GameSpec
from tests.support.games import Table

SPEC: GameSpec[State, Command, Event, Any, Any] = get_game("black-spy")


def cards(text: str) -> tuple[Card, ...]:
    """``"red-1 blue-5"`` -> the sorted tuple of those cards."""
    return sort_cards(text.split())


class BlackSpy(Table[State, Command, Event]):
    """A game of Black Spy: ``start`` it (a fixed deal with :func:`fixed_deal`), or take a
    crafted position ``at`` (:func:`position`, :func:`last_trick_position`: not a whole
    deck, so no invariant is checked there)."""

    SPEC = SPEC

    def play(self, seat: int, card: str) -> list[Event]:
        """When ``seat`` plays one card."""
        return self.act(seat, PlayCard(card=card))

    def pass_all(self, passes: dict[int, str] | None = None) -> list[Event]:
        """When every seat passes (the given cards, or its first three), seats in order."""
        events: list[Event] = []
        for seat in range(self.state.players):
            hand = self.state.hands[seat]
            chosen = cards(passes[seat]) if passes and seat in passes else hand[:3]
            events += self.act(seat, PassCards(cards=chosen))
        return events

    def finish_trick(self, order: Sequence[str]) -> list[Event]:
        """When ``order`` is played from the seat to play on; all the events."""
        events: list[Event] = []
        for card in order:
            assert self.state.turn is not None
            events += self.play(self.state.turn, card)
        return events


def split_deck(players: int) -> list[list[Card]]:
    """The canonical deck dealt in blocks: seat 0 gets the first 60/n cards, and so on."""
    size = len(DECK) // players
    return [list(DECK[i * size : (i + 1) * size]) for i in range(players)]


def fixed_deal(hands: Sequence[Sequence[str]], dealer: int = 0) -> dict[str, Any]:
    """``options.deal`` for these hands."""
    return {"deal": {"dealer": dealer, "hands": [list(h) for h in hands]}}


def position(
    hands: Sequence[str],
    *,
    leader: int = 0,
    trick: str = "",
    first_trick: bool = False,
    flags: BlackSpyFlags | None = None,
    totals: Sequence[int] | None = None,
) -> State:
    """A crafted trick-play position (not a whole deck: for rule tests only).

    ``hands`` are given per seat as text; ``trick`` is the current trick's cards, played in
    order from ``leader``. Unless ``first_trick``, one earlier trick is recorded, so the
    first-trick lead ban does not apply.
    """
    n = len(hands)
    played = trick.split()
    done = () if first_trick else (Trick(leader=0, cards=("blue-1",) * n, winner=0, points=0),)
    start_totals = tuple(totals) if totals is not None else (0,) * n
    return State(
        phase=Phase.PLAYING,
        players=n,
        flags=flags or BlackSpyFlags(),
        deal=1,
        hands=tuple(cards(h) for h in hands),
        passes=((),) * n,
        leader=leader,
        turn=(leader + len(played)) % n,
        trick=tuple(played),
        tricks=done,
        totals=start_totals,
        history=(start_totals,) if any(start_totals) else (),
    )


def last_trick_position(
    piles: dict[int, str],
    final: Sequence[str],
    *,
    leader: int,
    flags: BlackSpyFlags | None = None,
    totals: Sequence[int] | None = None,
) -> State:
    """A consistent position before the last trick of a deal: the 60 cards each in one place.

    ``piles`` gives cards taken by some seats (multiples of ``n``); ``final`` is the one card
    each seat, in seat order, holds for the last trick. Every other card of the deck is put
    in the last seat's pile.
    """
    n = len(final)
    placed = [c for text in piles.values() for c in text.split()] + list(final)
    rest = list(DECK)
    for c in placed:
        rest.remove(c)
    taken = {seat: text.split() for seat, text in piles.items()}
    filler = iter(rest)
    tricks: list[Trick] = []
    for seat in range(n):
        pile = taken.get(seat, [])
        for i in range(0, len(pile), n):
            tricks.append(Trick(leader=seat, cards=tuple(pile[i : i + n]), winner=seat, points=0))
    while sum(len(t.cards) for t in tricks) < len(DECK) - n:
        chunk = tuple(next(filler) for _ in range(n))
        tricks.append(Trick(leader=n - 1, cards=chunk, winner=n - 1, points=0))
    assert next(filler, None) is None, "piles do not fit the deck"
    start_totals = tuple(totals) if totals is not None else (0,) * n
    return State(
        phase=Phase.PLAYING,
        players=n,
        flags=flags or BlackSpyFlags(),
        deal=1,
        hands=tuple((c,) for c in final),
        passes=((),) * n,
        leader=leader,
        turn=leader,
        tricks=tuple(tricks),
        totals=start_totals,
        history=(start_totals,) if any(start_totals) else (),
    )


@dataclass
class Playout:
    """One finished random game and what happened in it."""

    players: int
    events: list[Event] = field(default_factory=list)
    states: list[State] = field(default_factory=list)
    """The state after each command (the setup state first)."""

    def of_type(self, kind: type[Any]) -> list[Any]:
        """The events of one class."""
        return [e for e in self.events if isinstance(e, kind)]

    @property
    def deals(self) -> list[BlackSpyDealt]:
        """Every deal's dealt event."""
        return self.of_type(BlackSpyDealt)

    @property
    def scored(self) -> list[BlackSpyDealScored]:
        """Every deal's scoring."""
        return self.of_type(BlackSpyDealScored)


def random_playout(players: int, seed: int, options: dict[str, Any] | None = None) -> Playout:
    """Play a whole game with a seeded random agent (any seat to act, any legal command)."""
    rng = Random(seed)
    game = BlackSpy.start(players, options, seed=seed)
    result = Playout(players=players, events=list(game.events), states=[game.state])
    while SPEC.outcome(game.state) is None:
        seat = rng.choice(sorted(SPEC.to_act(game.state)))
        result.events += game.act(seat, rng.choice(game.legal(seat)), rng)
        result.states.append(game.state)
    return result


def end_of_game(players: int = 3, seed: int = 0) -> State:
    """The final state of a random game."""
    return random_playout(players, seed).states[-1]
