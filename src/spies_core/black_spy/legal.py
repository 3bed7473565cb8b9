"""Which commands Black Spy accepts now: every legal play and pass, and the near misses the
suites try."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations
from typing import Final

from spies_core.black_spy.cards import DISTINCT_CARDS, Card, sort_cards
from spies_core.black_spy.commands import Command, PassCards, PlayCard
from spies_core.black_spy.scoring import legal_plays
from spies_core.black_spy.state import PASS_SIZE, Phase, State
from spies_core.decider import Seat

__all__ = ["legal_commands", "probe_commands"]

_PLAY: Final[dict[Card, PlayCard]] = {c: PlayCard(card=c) for c in DISTINCT_CARDS}
"""One shared (immutable) command per card, so listing legal plays allocates nothing."""


def legal_commands(state: State, seat: Seat) -> list[Command]:
    """Exactly the commands ``decide`` accepts from ``seat`` now.

    Plays list each distinct legal card once (one ``"black-7"`` for several). Passes list
    every distinct 3-card multiset of the hand once, cards in canonical (sorted) order;
    ``decide`` accepts the same cards in any order and case, which this list does not repeat.
    """
    if state.phase is Phase.PLAYING:
        if seat != state.turn:
            return []
        plays = legal_plays(state.hands[seat], state.trick, first_trick=not state.tricks)
        return [_PLAY[c] for c in plays]
    if state.phase is Phase.PASSING and 0 <= seat < state.players and state.passes[seat] is None:
        return list(_passes(state.hands[seat]))
    return []


@lru_cache(maxsize=64)
def _passes(hand: tuple[Card, ...]) -> tuple[PassCards, ...]:
    """Every distinct pass of ``hand``, in canonical order: a hand is asked for its passes
    many times while its seat decides (every legal list, every bot's look), and a hand of
    17 cards has several hundred; the (immutable) commands are built once per hand."""
    return tuple(map(_pass_of, dict.fromkeys(combinations(hand, PASS_SIZE))))


_PASSES: Final[dict[tuple[Card, ...], PassCards]] = {}
"""One shared (immutable) command per pass ever listed: at most every 3-card multiset of the
distinct cards, a few thousand."""


def _pass_of(cards: tuple[Card, ...]) -> PassCards:
    found = _PASSES.get(cards)
    if found is None:
        found = _PASSES[cards] = PassCards(cards=cards)
    return found


_JUNK: Final[tuple[str, ...]] = ("purple-3", "red-0", "red-12", "black-77", "", "7")


def probe_commands(state: State, seat: Seat) -> Iterator[Command]:
    """Plausible commands, legal and illegal, for the conformance suite.

    Every card of the deck as a play, unknown cards, and passes of the right and wrong
    sizes, with cards in and out of the hand. Passes are always in canonical order, as
    ``legal_commands`` lists them (the same cards in another order would be accepted).
    """
    yield from _PLAY.values()
    for junk in _JUNK:
        yield PlayCard(card=junk)
        yield PassCards(cards=(junk, "red-1", "red-2"))
    if not state.hands or not 0 <= seat < len(state.hands):
        yield PassCards(cards=("red-1", "red-2", "red-3"))
        return
    hand = state.hands[seat]
    outside = [c for c in DISTINCT_CARDS if c not in hand]
    yield PassCards(cards=())
    yield PassCards(cards=hand[:1])
    yield PassCards(cards=hand[:2])
    yield PassCards(cards=hand[:3])
    yield PassCards(cards=hand[-3:])
    yield PassCards(cards=hand[:4])
    yield PassCards(cards=hand[:1] * 3)
    if outside:
        yield PassCards(cards=sort_cards(hand[:2] + (outside[0],)))
        yield PassCards(cards=sort_cards(outside[:3]))
