"""The card-level rules of spec §9, as pure functions on cards: which cards may be played,
who wins a trick and what a deal scores. ``rules`` calls them; the §9 test vectors test them.
"""

from __future__ import annotations

from collections.abc import Sequence

from spies_core.black_spy.cards import (
    BLACK_CARD_COUNT,
    COLOUR_OF,
    FOLLOWERS,
    RANK_OF,
    Card,
    Colour,
    points_table,
)

__all__ = ["DEAL_TOTAL", "legal_plays", "score_deal", "trick_points", "trick_winner"]

_BLACK = Colour.BLACK

DEAL_TOTAL = {True: 60, False: 80}
"""Points in one deal (§6.2): 60 with good spies, 80 without (§8.1, Appendix A)."""


def legal_plays(
    hand: Sequence[Card], trick: Sequence[Card], *, first_trick: bool
) -> tuple[Card, ...]:
    """The distinct cards of ``hand`` that may be played to ``trick`` (§4.3, §5.2).

    Leading: anything (§5.8), except that the first trick of a deal may not be led black
    (§4.3). A leader holding only black cards may lead black: that is the classic preset's
    edge case (Appendix A); under the modern rules it cannot happen, since the first leader
    holds the red 1 (§4.1). Following: cards of the led card's colour or rank, free choice
    between them (§5.2); anything when holding neither. The ban on black applies only to
    the led card: followers in trick 1 follow the normal rule (§4.4, §10.5).

    ``hand`` is sorted, so equal cards (black 7s) are adjacent and returned once.
    """
    if trick:
        follow = FOLLOWERS[trick[0]]
        able = [c for c in hand if c in follow]
        if able:
            return tuple(dict.fromkeys(able))
    elif first_trick:
        coloured = [c for c in hand if COLOUR_OF[c] is not _BLACK]
        if coloured:
            return tuple(dict.fromkeys(coloured))
    return tuple(dict.fromkeys(hand))


def trick_winner(cards: Sequence[Card]) -> int:
    """The play index of the card that wins a trick (§5.4, §5.5).

    Only cards of the led colour can win (no trumps, §5.3); the highest rank wins, and of
    equal ranks (black 7s, the only duplicates) the one played first.
    """
    led_colour = COLOUR_OF[cards[0]]
    best = 0
    best_rank = RANK_OF[cards[0]]
    for i in range(1, len(cards)):
        c = cards[i]
        if COLOUR_OF[c] is led_colour and RANK_OF[c] > best_rank:
            best, best_rank = i, RANK_OF[c]
    return best


def trick_points(cards: Sequence[Card], *, good_spies: bool) -> int:
    """The penalty points in a trick (§6.2), before any moon (§6.4)."""
    table = points_table(good_spies=good_spies)
    return sum(table[c] for c in cards)


def score_deal(
    piles: Sequence[Sequence[Card]], *, good_spies: bool, moon: bool
) -> tuple[tuple[int, ...], int | None]:
    """Score a deal from the piles each seat took (§6).

    Every seat scores the points of its own pile (§6.1, §6.2). When ``moon`` applies and
    one seat took all 16 black cards (§6.4), that seat scores nothing for them and every
    other seat scores the deal total instead (60; 80 without good spies, §10.9), while the
    coloured 7s still count -5 for whoever took them, the shooter included (§10.10).

    Returns:
        The deal score per seat, and the seat that shot the moon or ``None``.
    """
    table = points_table(good_spies=good_spies)
    black_points: list[int] = []
    good_points: list[int] = []
    shooter: int | None = None
    for seat, pile in enumerate(piles):
        black = [c for c in pile if COLOUR_OF[c] is _BLACK]
        black_points.append(sum(table[c] for c in black))
        good_points.append(sum(table[c] for c in pile if COLOUR_OF[c] is not _BLACK))
        if len(black) == BLACK_CARD_COUNT:
            shooter = seat
    if moon and shooter is not None:
        total = DEAL_TOTAL[good_spies]
        scores = tuple(
            good + (0 if seat == shooter else total) for seat, good in enumerate(good_points)
        )
        return scores, shooter
    return tuple(b + g for b, g in zip(black_points, good_points, strict=True)), None
