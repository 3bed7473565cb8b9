"""What one seat's view tells about the hidden hands, and deals sampled to agree with it.

From a :class:`~spies_core.black_spy.view.BlackSpyView` alone:

- the unseen cards: the deck less the viewer's hand and every card played this deal;
- the cards the viewer passed this deal are in the receiver's hand, unless it has played
  them since (§3.5: the passer knows them);
- the red 1, unless seen, is in the hand of the seat that led the first trick (§4.1;
  not in the classic preset, where the dealer's left leads);
- a seat that played neither the led colour nor the led rank holds no card of either
  (§5.2): a known void;
- each seat's hand size; while passing, every other seat holds a full hand.

:func:`sample` deals the unseen cards to the other seats at random, within those limits.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from random import Random
from typing import Final

from spies_bots.black_spy.model import (
    BLACK,
    COLOUR,
    FOLLOW,
    KIND,
    RED_1_KIND,
    Deal,
    Kind,
    Scoring,
)
from spies_core.black_spy.cards import DECK
from spies_core.black_spy.state import Phase
from spies_core.black_spy.view import BlackSpyView

__all__ = ["Knowledge", "deal_of", "knowledge", "sample"]

_TRIES: Final[int] = 8
"""Random tries at dealing within the known voids before the voids are dropped."""


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The viewer's knowledge of the hidden hands, in card kinds."""

    seat: int
    """The viewer."""
    hand: tuple[Kind, ...]
    """The viewer's hand."""
    sizes: tuple[int, ...]
    """Cards each seat holds (in the deal to sample)."""
    known: tuple[tuple[Kind, ...], ...]
    """Cards known to be in each other seat's hand (empty for the viewer)."""
    voids: tuple[frozenset[Kind], ...]
    """Kinds each seat is known not to hold."""
    unseen: tuple[Kind, ...]
    """The cards to share among the other seats besides the known ones."""


def knowledge(view: BlackSpyView) -> Knowledge:
    """What ``view`` tells about the other hands; the view must be a seat's, in a deal."""
    me = view.seat
    assert me is not None and view.hand is not None, "a seat's view holds its hand"
    n = view.players
    hand = tuple(KIND[c] for c in view.hand)
    known: list[Counter[Kind]] = [Counter() for _ in range(n)]
    voids: list[frozenset[Kind]] = [frozenset()] * n
    seen: Counter[Kind] = Counter(hand)
    if view.phase is Phase.PASSING:
        full = len(DECK) // n
        sizes = tuple(len(hand) if s == me else full for s in range(n))
    else:
        sizes = view.hand_sizes
        tricks = [t.cards for t in view.tricks]
        if view.trick:
            tricks.append(view.trick)
        played_by: list[Counter[Kind]] = [Counter() for _ in range(n)]
        for cards in tricks:
            follow = FOLLOW[KIND[cards[0].card]]
            for played in cards:
                kind = KIND[played.card]
                seen[kind] += 1
                played_by[played.seat][kind] += 1
                if kind not in follow:
                    voids[played.seat] |= follow
        if view.my_pass is not None and view.pass_to is not None:
            given = Counter(KIND[c] for c in view.my_pass)
            known[view.pass_to] += given - played_by[view.pass_to]
        first_leader = view.tricks[0].cards[0].seat if view.tricks else view.leader
        if (
            not view.flags.classic
            and first_leader is not None
            and seen[RED_1_KIND] == 0
            and known[first_leader][RED_1_KIND] == 0
        ):
            known[first_leader][RED_1_KIND] = 1
    unseen = Counter(KIND[c] for c in DECK) - seen
    for held in known:
        unseen -= held
    return Knowledge(
        seat=me,
        hand=hand,
        sizes=sizes,
        known=tuple(tuple(sorted(held.elements())) for held in known),
        voids=tuple(voids),
        unseen=tuple(sorted(unseen.elements())),
    )


def sample(know: Knowledge, rng: Random) -> list[list[Kind]]:
    """Every seat's hand in one deal that agrees with ``know``, drawn at random.

    The unseen cards are dealt to the other seats so that each gets its known cards and
    its hand size, and, whenever a few random tries find a way, none of its void kinds.
    """
    n = len(know.sizes)
    others = [s for s in range(n) if s != know.seat]
    need = [0 if s == know.seat else know.sizes[s] - len(know.known[s]) for s in range(n)]
    cards = list(know.unseen)
    if any(know.voids[s] for s in others):
        for _ in range(_TRIES):
            rng.shuffle(cards)
            hands = _deal_within_voids(cards, know, need, others, rng)
            if hands is not None:
                return hands
        hands = _match_within_voids(cards, know, need, others)
        if hands is not None:
            return hands
    rng.shuffle(cards)
    hands = []
    at = 0
    for s in range(n):
        if s == know.seat:
            hands.append(list(know.hand))
        else:
            hands.append([*know.known[s], *cards[at : at + need[s]]])
            at += need[s]
    return hands


def _deal_within_voids(
    cards: list[Kind], know: Knowledge, need: list[int], others: list[int], rng: Random
) -> list[list[Kind]] | None:
    """Deal ``cards`` (shuffled) most constrained first, each to an open seat chosen with
    chances proportional to its free places; ``None`` on a dead end."""
    voids = know.voids
    options = {c: [s for s in others if c not in voids[s]] for c in set(cards)}
    cards.sort(key=lambda c: len(options[c]))
    free = list(need)
    hands = [list(know.hand) if s == know.seat else list(know.known[s]) for s in range(len(need))]
    for c in cards:
        open_seats = [s for s in options[c] if free[s]]
        if not open_seats:
            return None
        pick = rng.randrange(sum(free[s] for s in open_seats))
        for s in open_seats:
            pick -= free[s]
            if pick < 0:
                break
        hands[s].append(c)
        free[s] -= 1
    return hands


def _match_within_voids(
    cards: list[Kind], know: Knowledge, need: list[int], others: list[int]
) -> list[list[Kind]] | None:
    """Deal ``cards`` within the voids by bipartite matching of cards to free places
    (augmenting paths): it finds a deal whenever one exists; ``None`` otherwise."""
    places = [s for s in others for _ in range(need[s])]
    holder: list[int | None] = [None] * len(places)  # place -> index into cards
    voids = know.voids

    def seat(i: int, tried: set[int]) -> bool:
        for p, s in enumerate(places):
            if p in tried or cards[i] in voids[s]:
                continue
            tried.add(p)
            other = holder[p]
            if other is None or seat(other, tried):
                holder[p] = i
                return True
        return False

    if not all(seat(i, set()) for i in range(len(cards))):
        return None
    hands = [list(know.hand) if s == know.seat else list(know.known[s]) for s in range(len(need))]
    for p, i in enumerate(holder):
        assert i is not None
        hands[places[p]].append(cards[i])
    return hands


def deal_of(view: BlackSpyView, hands: list[list[Kind]], rules: Scoring) -> Deal:
    """The deal in trick play that ``view`` shows, with these hands filled in."""
    deal = Deal(hands, view.leader if view.leader is not None else 0)
    for t in view.tricks:
        for p in t.cards:
            kind = KIND[p.card]
            deal.points[t.winner] += rules.points[kind]
            if COLOUR[kind] == BLACK:
                deal.blacks[t.winner] += 1
                deal.black_points[t.winner] += rules.points[kind]
    deal.tricks_done = len(view.tricks)
    deal.trick = [KIND[p.card] for p in view.trick]
    return deal
