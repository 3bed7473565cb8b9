"""A compact, mutable model of one Black Spy deal, for the fast play-outs of the search bot.

Cards are *kinds*, small integers: the index of the card in
:data:`spies_core.black_spy.cards.DISTINCT_CARDS` (the six black 7s share one kind). Every
table here is derived from the core's own tables (colour, rank, points, followers), and the
rules of play, trick winner and scoring mirror :mod:`spies_core.black_spy.scoring`; a
differential test plays seeded deals through both and checks that they agree card for card.

A :class:`Deal` is the full information of one (real or sampled) deal: every hand, the
trick in play and each seat's pile so far. :func:`play_out` plays it to its end with one
policy for every seat and returns the deal's scores.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from spies_core.black_spy.cards import (
    BLACK_CARD_COUNT,
    COLOUR_OF,
    DISTINCT_CARDS,
    FOLLOWERS,
    RANK_OF,
    RED_1,
    Card,
    Colour,
    points_table,
)
from spies_core.black_spy.options import BlackSpyFlags, good_spies, moon_applies
from spies_core.black_spy.scoring import DEAL_TOTAL

__all__ = [
    "BLACK",
    "COLOUR",
    "FOLLOW",
    "KIND",
    "Kind",
    "NAME",
    "RANK",
    "RED_1_KIND",
    "Deal",
    "PlayChooser",
    "Scoring",
    "exchange",
    "first_leader",
    "play_out",
    "scoring",
    "trick_winner",
]

Kind = int
"""A card kind: its index in ``DISTINCT_CARDS`` (0-54)."""

KIND: Final[dict[Card, Kind]] = {c: i for i, c in enumerate(DISTINCT_CARDS)}
"""Card notation -> kind."""
NAME: Final[tuple[Card, ...]] = DISTINCT_CARDS
"""Kind -> card notation."""
_COLOURS: Final[tuple[Colour, ...]] = tuple(Colour)
COLOUR: Final[tuple[int, ...]] = tuple(_COLOURS.index(COLOUR_OF[c]) for c in DISTINCT_CARDS)
"""Kind -> colour index (the order of :class:`Colour`)."""
BLACK: Final[int] = _COLOURS.index(Colour.BLACK)
"""The colour index of black."""
RANK: Final[tuple[int, ...]] = tuple(RANK_OF[c] for c in DISTINCT_CARDS)
"""Kind -> rank, 1 to 11."""
FOLLOW: Final[tuple[frozenset[Kind], ...]] = tuple(
    frozenset(KIND[f] for f in FOLLOWERS[c]) for c in DISTINCT_CARDS
)
"""Led kind -> the kinds that follow it (same colour or rank, §5.2)."""
RED_1_KIND: Final[Kind] = KIND[RED_1]

PlayChooser = Callable[[list[Kind], list[Kind], bool, int, "Scoring"], Kind]
"""``choose(hand, trick, first_trick, players, scoring) -> kind``: a play-out policy.

It returns a kind of ``hand`` that the rules let it play to ``trick`` (§4.3, §5.2: one of
:func:`spies_core.black_spy.scoring.legal_plays`); it must not change its arguments.
"""


@dataclass(frozen=True, slots=True)
class Scoring:
    """What the rule flags change in play and scoring (§6, §8.1, Appendix A)."""

    points: tuple[int, ...]
    """Kind -> penalty points (§6.2)."""
    moon: bool
    """Whether taking all 16 black cards shoots the moon (§6.4)."""
    deal_total: int
    """Points in one deal: what a moon pays every other seat (§10.9)."""


_SCORINGS: Final[dict[tuple[bool, bool], Scoring]] = {
    (good, moon): Scoring(
        points=tuple(points_table(good_spies=good)[c] for c in DISTINCT_CARDS),
        moon=moon,
        deal_total=DEAL_TOTAL[good],
    )
    for good in (True, False)
    for moon in (True, False)
}


def scoring(flags: BlackSpyFlags) -> Scoring:
    """The scoring of a game with these rule flags."""
    return _SCORINGS[good_spies(flags), moon_applies(flags)]


def trick_winner(trick: Sequence[Kind]) -> int:
    """The play index of the winning card: highest of the led colour, first of equals (§5.4-5.5)."""
    colour = COLOUR[trick[0]]
    best = 0
    best_rank = RANK[trick[0]]
    for i in range(1, len(trick)):
        c = trick[i]
        if COLOUR[c] == colour and RANK[c] > best_rank:
            best, best_rank = i, RANK[c]
    return best


def exchange(
    hands: Sequence[Sequence[Kind]], passes: Sequence[Sequence[Kind]], offset: int
) -> list[list[Kind]]:
    """The hands after every seat passed ``passes[seat]`` to seat ``seat + offset`` (§3)."""
    n = len(hands)
    after = []
    for s, hand in enumerate(hands):
        kept = list(hand)
        for c in passes[s]:
            kept.remove(c)
        kept.extend(passes[(s - offset) % n])
        after.append(kept)
    return after


def first_leader(hands: Sequence[Sequence[Kind]], flags: BlackSpyFlags, dealer: int) -> int:
    """Who leads the first trick after the pass: the red 1's holder (§4.1); classic: the
    dealer's left (Appendix A)."""
    if flags.classic:
        return (dealer + 1) % len(hands)
    return next(s for s, hand in enumerate(hands) if RED_1_KIND in hand)


class Deal:
    """One deal in full information, from some point of trick play to its end.

    Mutable on purpose: a play-out changes it in place, so callers play out a :meth:`copy`.
    """

    __slots__ = ("blacks", "black_points", "hands", "leader", "points", "tricks_done", "trick")

    def __init__(
        self,
        hands: list[list[Kind]],
        leader: int,
        trick: list[Kind] | None = None,
        tricks_done: int = 0,
        points: list[int] | None = None,
        blacks: list[int] | None = None,
        black_points: list[int] | None = None,
    ) -> None:
        n = len(hands)
        self.hands = hands
        """Every seat's cards (order free)."""
        self.leader = leader
        """The seat that led (or leads) the trick in play."""
        self.trick = trick if trick is not None else []
        """The trick in play, led card first."""
        self.tricks_done = tricks_done
        """Completed tricks of this deal."""
        self.points = points if points is not None else [0] * n
        """Penalty points in each seat's pile (before any moon)."""
        self.blacks = blacks if blacks is not None else [0] * n
        """Black cards in each seat's pile."""
        self.black_points = black_points if black_points is not None else [0] * n
        """Points of the black cards in each seat's pile."""

    def copy(self) -> Deal:
        """An independent copy to play out."""
        return Deal(
            [list(h) for h in self.hands],
            self.leader,
            list(self.trick),
            self.tricks_done,
            list(self.points),
            list(self.blacks),
            list(self.black_points),
        )

    def play(self, card: Kind, rules: Scoring) -> None:
        """The seat to act plays ``card`` (trusted to be legal); a full trick is taken."""
        trick = self.trick
        n = len(self.hands)
        self.hands[(self.leader + len(trick)) % n].remove(card)
        trick.append(card)
        if len(trick) == n:
            self._take(trick, rules)

    def _take(self, trick: list[Kind], rules: Scoring) -> None:
        n = len(trick)
        winner = (self.leader + trick_winner(trick)) % n
        pts = rules.points
        self.points[winner] += sum(pts[c] for c in trick)
        for c in trick:
            if COLOUR[c] == BLACK:
                self.blacks[winner] += 1
                self.black_points[winner] += pts[c]
        self.leader = winner
        self.trick = []
        self.tricks_done += 1

    def scores(self, rules: Scoring) -> list[int]:
        """The deal's scores once every card is played, moon included (§6.1-6.4)."""
        if rules.moon and BLACK_CARD_COUNT in self.blacks:
            shooter = self.blacks.index(BLACK_CARD_COUNT)
            return [
                p - b + (0 if s == shooter else rules.deal_total)
                for s, (p, b) in enumerate(zip(self.points, self.black_points, strict=True))
            ]
        return list(self.points)


def play_out(deal: Deal, choose: PlayChooser, rules: Scoring) -> list[int]:
    """Play ``deal`` to its end in place, every seat by ``choose``; return the deal's scores."""
    hands = deal.hands
    n = len(hands)
    pts = rules.points
    points = deal.points
    blacks = deal.blacks
    black_points = deal.black_points
    trick = deal.trick
    leader = deal.leader
    done = deal.tricks_done
    while True:
        hand = hands[(leader + len(trick)) % n]
        if not hand:
            break
        card = choose(hand, trick, done == 0, n, rules)
        hand.remove(card)
        trick.append(card)
        if len(trick) == n:
            winner = (leader + trick_winner(trick)) % n
            for c in trick:
                points[winner] += pts[c]
                if COLOUR[c] == BLACK:
                    blacks[winner] += 1
                    black_points[winner] += pts[c]
            leader = winner
            trick = []
            done += 1
    deal.trick = trick
    deal.leader = leader
    deal.tricks_done = done
    return deal.scores(rules)
