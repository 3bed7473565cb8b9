"""The ``greedy`` bot of Black Spy: fixed rules of thumb, no look-ahead.

Passing (§3): pass the high black cards that win black tricks and the spies in them,
then high cards, first of short colours; keep low cards (they duck), the black 7s (to
drop on other seats' tricks) and the good spies (coloured 7s score -5 for whoever takes
them, §6.2).

Leading: a low coloured card, or a low black card; never a black spy or a high black card
while something else can be led. Following: duck under the trick's best card when
possible, shedding the most penalty points (a black 7 first) and then the highest rank;
when void, dump the high black cards first, then the black 7s, then the worst card held.
The trick is taken when that cannot be avoided, by the last seat when it holds good spies
and no penalty cards, and with a high coloured card (8 or more) when it holds no points
at all, to be rid of that card; always with the highest card that adds no points.

The same play rule drives every seat in the ``expert`` bot's play-outs, on card kinds
(:mod:`spies_bots.black_spy.model`).
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any, Final

from spies_bots.black_spy.model import BLACK, COLOUR, FOLLOW, KIND, NAME, RANK, Kind, Scoring
from spies_bots.black_spy.model import scoring as scoring_of
from spies_core.black_spy.cards import Colour, sort_cards
from spies_core.black_spy.commands import PassCards, PlayCard
from spies_core.black_spy.state import PASS_SIZE
from spies_core.black_spy.view import BlackSpyView

__all__ = ["choose", "choose_pass", "choose_play", "pass_order"]


def _lead_key(kind: Kind) -> int:
    rank = RANK[kind]
    if COLOUR[kind] == BLACK:
        # A low black card draws black cards out of other hands; a black 7 or higher wins
        # a black trick and keeps whatever spies fall on it.
        return 2 * rank + 1 if rank < 7 else 40 + rank
    # A coloured 7 led invites the black 7s by rank (§5.2).
    return 2 * rank + (6 if rank == 7 else 0)


_LEAD_KEY: Final[tuple[int, ...]] = tuple(64 * _lead_key(k) + k for k in range(len(NAME)))
"""Kind -> how little the bot likes leading it (lowest is led); the kind breaks ties, so
the choice never depends on the order of the hand."""


_SHED_FIRST: Final[tuple[int, ...]] = tuple(
    16 * (11 - RANK[k] + 7) if COLOUR[k] == BLACK and RANK[k] > 7 else 0 for k in range(len(NAME))
)
"""Kind -> what raises it above a black 7 when void: the high black cards go first."""


def _lead(hand: list[Kind], first_trick: bool) -> Kind:
    lead = -1
    lead_key = 1 << 30
    coloured_only = first_trick and any(COLOUR[c] != BLACK for c in hand)
    for c in hand:
        if coloured_only and COLOUR[c] == BLACK:
            continue
        key = _LEAD_KEY[c]
        if key < lead_key:
            lead, lead_key = c, key
    return lead


def choose_play(
    hand: list[Kind], trick: list[Kind], first_trick: bool, players: int, rules: Scoring
) -> Kind:
    """The card to play from ``hand`` to ``trick`` (a legal kind, §4.3, §5.2)."""
    if not trick:
        return _lead(hand, first_trick)
    led = trick[0]
    follow = FOLLOW[led]
    legal = [c for c in hand if c in follow]
    void = not legal
    if void:
        legal = hand
    if len(legal) == 1:
        return legal[0]
    colour = COLOUR[led]
    high = 0
    for c in trick:
        if COLOUR[c] == colour and RANK[c] > high:
            high = RANK[c]
    pts = rules.points
    duck = -1
    duck_key = -(1 << 30)
    win = -1
    win_key = 1 << 30
    for c in legal:
        if COLOUR[c] == colour and RANK[c] > high:
            key = 64 * (16 * pts[c] - RANK[c]) + c
            if key < win_key:
                win, win_key = c, key
        else:
            key = 64 * (16 * pts[c] + RANK[c] + (_SHED_FIRST[c] if void else 0)) + c
            if key > duck_key:
                duck, duck_key = c, key
    if win < 0:
        return duck
    if duck < 0:
        return win
    trick_points = sum(pts[c] for c in trick) + pts[win]
    if len(trick) == players - 1 and trick_points < 0:
        return win  # the last seat takes a trick that holds good spies and no penalties
    if trick_points == 0 and colour != BLACK and RANK[win] >= 8:
        return win  # a high card shed on a trick worth nothing
    return duck


def _pass_danger(kind: Kind, short: bool, rules: Scoring) -> int:
    rank = RANK[kind]
    if COLOUR[kind] == BLACK:
        # A black 8-11 wins black tricks and the spies in them; a black 7 is worth keeping
        # to drop on another seat's trick.
        return 50 + rank if rank > 7 else 12 if rank == 7 else rank
    if rules.points[kind] < 0:
        return -10  # a good spy: keep it to take it
    return rank + (20 if rank >= 8 else 0) + (4 if short else 0)


def pass_order(hand: Sequence[Kind], rules: Scoring) -> list[Kind]:
    """``hand`` from the card the bot most wants to pass to the one it most wants to keep."""
    counts = [0] * len(Colour)
    for c in hand:
        counts[COLOUR[c]] += 1
    return sorted(hand, key=lambda c: (-_pass_danger(c, counts[COLOUR[c]] <= 3, rules), c))


def choose_pass(hand: Sequence[Kind], rules: Scoring) -> list[Kind]:
    """The cards to pass (§3.1): the :data:`~spies_core.black_spy.state.PASS_SIZE` the bot
    most wants to pass."""
    return pass_order(hand, rules)[:PASS_SIZE]


def pass_command(cards: Sequence[Kind], legal: Sequence[Any]) -> PassCards:
    """The command of ``legal`` that passes ``cards``."""
    wanted = sort_cards(NAME[c] for c in cards)
    for command in legal:
        if isinstance(command, PassCards) and command.cards == wanted:
            return command
    raise ValueError(f"passing {list(wanted)} is not among the legal commands")


def play_command(card: Kind, legal: Sequence[Any]) -> PlayCard:
    """The command of ``legal`` that plays ``card``."""
    name = NAME[card]
    for command in legal:
        if isinstance(command, PlayCard) and command.card == name:
            return command
    raise ValueError(f"playing {name!r} is not among the legal commands")


def choose(view: BlackSpyView, legal: Sequence[Any], rng: Random) -> Any:
    """The ``greedy`` policy: one of ``legal``, by the rules of thumb above (``rng`` unused)."""
    if len(legal) == 1:
        return legal[0]
    assert view.hand is not None, "a seat's view holds its hand"
    rules = scoring_of(view.flags)
    hand = [KIND[c] for c in view.hand]
    if isinstance(legal[0], PassCards):
        return pass_command(choose_pass(hand, rules), legal)
    trick = [KIND[p.card] for p in view.trick]
    card = choose_play(hand, trick, not view.tricks, view.players, rules)
    return play_command(card, legal)
