"""The state of a game of Black Spy: hands, passes, the trick, taken tricks and totals; who is
to act, the invariants and the bound on a game's events."""

from __future__ import annotations

from enum import StrEnum
from typing import Final

import msgspec

from spies_core.black_spy.cards import DECK, Card, sort_key
from spies_core.black_spy.events import PassDirection
from spies_core.black_spy.options import CLASSIC_THRESHOLD, MODERN_THRESHOLDS, BlackSpyFlags
from spies_core.black_spy.scoring import DEAL_TOTAL

__all__ = [
    "MAX_EVENTS",
    "PASS_SIZE",
    "Phase",
    "State",
    "Trick",
    "check_invariants",
    "max_events",
    "piles",
    "to_act",
]

PASS_SIZE: Final[int] = 3
"""Cards every seat passes each deal (§3.1)."""


class Phase(StrEnum):
    """Where the game stands."""

    SETUP = "setup"
    """Before the first event."""
    PASSING = "passing"
    """The deal's simultaneous pass (§3): seats that have not passed are to act."""
    PLAYING = "playing"
    """Trick play (§4, §5); after the last trick, until the next deal or the end."""
    OVER = "over"
    """The game has ended (§7)."""


class Trick(msgspec.Struct, frozen=True, kw_only=True):
    """A completed trick of the current deal (public history, §5.9, §10.8)."""

    leader: int
    cards: tuple[Card, ...]
    """In play order: seat ``(leader + i) mod n`` played ``cards[i]``."""
    winner: int
    points: int


class State(msgspec.Struct, frozen=True, kw_only=True):
    """Everything about one game; hidden parts leave only through ``view``."""

    phase: Phase = Phase.SETUP
    players: int = 0
    flags: BlackSpyFlags = BlackSpyFlags()
    deal: int = 0
    """The current deal, 1 for the first; 0 before it."""
    dealer: int = 0
    direction: PassDirection = PassDirection.LEFT
    """This deal's pass direction (§3.3)."""
    hands: tuple[tuple[Card, ...], ...] = ()
    """Sorted hands. During passing a seat's passed cards are out of its hand."""
    passes: tuple[tuple[Card, ...] | None, ...] = ()
    """The cards each seat passed this deal (``None``: not yet); kept after the exchange."""
    leader: int = 0
    """Who led (or leads) the current trick."""
    turn: int | None = None
    """The seat to play; ``None`` outside trick play and between a deal's end and the next."""
    trick: tuple[Card, ...] = ()
    """The current trick in play order, led card first."""
    tricks: tuple[Trick, ...] = ()
    """Completed tricks of the current deal; each winner's pile is its tricks' cards."""
    totals: tuple[int, ...] = ()
    history: tuple[tuple[int, ...], ...] = ()
    """Every scored deal's scores per seat, in order."""
    winners: tuple[int, ...] = ()


def piles(state: State) -> tuple[tuple[Card, ...], ...]:
    """The cards each seat has taken in tricks this deal (face down, §5.6)."""
    taken: list[tuple[Card, ...]] = [() for _ in range(state.players)]
    for t in state.tricks:
        taken[t.winner] += t.cards
    return tuple(taken)


_ONLY: Final[tuple[frozenset[int], ...]] = tuple(frozenset((s,)) for s in range(6))
_NOBODY: Final[frozenset[int]] = frozenset()


def to_act(state: State) -> frozenset[int]:
    """Seats that may submit a command: every seat yet to pass, or the seat to play."""
    if state.phase is Phase.PLAYING:
        return _NOBODY if state.turn is None else _ONLY[state.turn]
    if state.phase is Phase.PASSING:
        return frozenset(s for s, p in enumerate(state.passes) if p is None)
    return _NOBODY


_SORTED_DECK: Final[list[Card]] = sorted(DECK)
"""The 60 cards in one order, to compare a state's cards with: sorting 60 texts costs a tenth
of counting them (``check_invariants`` runs after every batch in verify)."""


def check_invariants(state: State) -> None:
    """Assert the rule invariants (tests and verify call it).

    Every one of the 60 cards is in exactly one place: a hand, a pass not yet handed over,
    the current trick or a taken trick. Hands are sorted and as long as the play allows;
    totals are the sums of the deal scores.
    """
    if state.phase is Phase.SETUP:
        return
    n = state.players
    assert 3 <= n <= 6, f"{n} players"
    assert len(state.totals) == n, f"{len(state.totals)} totals for {n} players"
    assert all(len(scores) == n for scores in state.history), "a deal scored for other seats"
    sums = tuple(sum(col) for col in zip(*state.history, strict=True)) or (0,) * n
    assert state.totals == sums, f"totals {state.totals} are not the deal sums {sums}"
    assert 0 <= state.dealer < n, f"dealer {state.dealer}"
    if state.deal == 0:
        return
    assert len(state.hands) == n and len(state.passes) == n, "a seat is missing"
    for seat, hand in enumerate(state.hands):
        assert list(hand) == sorted(hand, key=sort_key), f"hand {seat} is not sorted"
    places: list[Card] = [c for hand in state.hands for c in hand]
    if state.phase is Phase.PASSING:
        for seat, passed in enumerate(state.passes):
            if passed is not None:
                assert len(passed) == 3, f"seat {seat} passed {len(passed)} cards"
                places.extend(passed)
        assert not state.trick and not state.tricks, "a trick before the pass is over"
        assert state.turn is None, "a turn during the pass"
    else:
        assert all(p is not None for p in state.passes), "play began before every pass"
    places.extend(state.trick)
    places.extend(c for t in state.tricks for c in t.cards)
    assert sorted(places) == _SORTED_DECK, "a card is missing, duplicated or foreign"
    assert len(state.trick) < n or state.turn is None, "a full trick with a seat to play"
    for t in state.tricks:
        assert len(t.cards) == n, f"a taken trick of {len(t.cards)} cards"
    if state.phase is Phase.PLAYING:
        played = len(state.tricks) * n + len(state.trick)
        for seat, hand in enumerate(state.hands):
            behind = (seat - state.leader) % n >= len(state.trick)
            expected = len(DECK) // n - len(state.tricks) - (0 if behind else 1)
            assert len(hand) == expected, f"seat {seat} holds {len(hand)} cards, not {expected}"
        assert played <= len(DECK), "more cards played than dealt"
        if state.turn is not None:
            assert state.turn == (state.leader + len(state.trick)) % n, "turn out of order"
    if state.phase is Phase.OVER:
        assert state.winners, "a finished game without winners"


# --- bounds -----------------------------------------------------------------------------------

_MIN_DEAL_SUM: Final[int] = min(DEAL_TOTAL.values())
"""The smallest sum of one deal's scores over all seats, under every option: 60 (a normal
deal with good spies; a moon sums to 60(n-1)-20 >= 100, without good spies 80 or 80(n-1))."""


def max_events() -> int:
    """A true upper bound on the events of one game, over every player count and option.

    One deal is at most ``1 + n + 1 + 60 + 60/n + 1`` events (dealt, n passes, exchange,
    60 plays, 60/n tricks, scored). The game cannot last long despite negative scores: every
    deal adds at least 60 to the sum of the totals, and while the game goes on every total
    is below the threshold ``T``, so after ``d`` unfinished deals ``60 d <= n (T - 1)``. Hence
    at most ``floor(n (T - 1) / 60) + 1`` deals (6 players, classic: 20 deals), plus the
    started and ended events.
    """
    worst = 0
    for n in range(3, 7):
        per_deal = 1 + n + 1 + len(DECK) + len(DECK) // n + 1
        for limit in (MODERN_THRESHOLDS[n], CLASSIC_THRESHOLD):
            deals = n * (limit - 1) // _MIN_DEAL_SUM + 1
            worst = max(worst, per_deal * deals)
    return worst + 2


MAX_EVENTS: Final[int] = max_events()
"""The bound of :func:`max_events` (1582)."""
