"""How the ``greedy`` bot of Spies & Lies reads the opponent as a guesser who knows what is
public: the guess such a guesser makes (§6), and what a deployment is worth against it,
averaged over the intel cards still to come (§5.1, §5.2).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from spies_bots.spies_and_lies.belief import (
    Row,
    consistent_rows,
    intel_left,
    marginal,
    pool,
    public_row,
)
from spies_bots.spies_and_lies.board import Board, activation_values, forced_retreat
from spies_core.spies_and_lies.deployment import legal_deployments
from spies_core.spies_and_lies.resolution import DECEPTION_BONUS
from spies_core.spies_and_lies.state import MISSIONS, SERGEANT, SoldierEffect
from spies_core.spies_and_lies.view import SpiesAndLiesView

__all__ = [
    "Flags",
    "deployment_scores",
    "flag_variants",
    "guess_scores",
    "guesser_table",
    "row_value",
]


def guess_scores(view: SpiesAndLiesView) -> list[tuple[float, int, float]]:
    """``(score, rank, chance)`` of each rank the target may be, best first.

    The score is the chance that the current target is that rank times what a correct guess
    of it gains the guesser: its points and the activation it denies (§6).
    """
    assert view.defender is not None and view.mission is not None
    guesser = 1 - view.defender % 2
    defender = view.sides[1 - guesser]
    attacker = view.sides[guesser]
    index = view.mission - 1
    known, tokens = public_row(defender.missions, out=True)
    rows = consistent_rows(pool(defender.exhausted), known, tokens, view.current_intel or ())
    mine = Board.of(view, guesser)
    theirs = Board.of(view, 1 - guesser)
    values = activation_values(theirs, defender.exhausted)
    correct = mine.points(4 if SoldierEffect.SCOUT in attacker.effects else 2)
    deceived = defender.missions[index].deception
    pays = view.deception_pays_on_forced_retreat
    bonus = theirs.points(DECEPTION_BONUS) if deceived else 0.0
    scored = []
    for rank, chance in marginal(rows, index):
        forced = forced_retreat(rank, attacker.effects)
        denied = 0.0 if forced else values[rank]
        if pays or not forced:
            denied += bonus
        scored.append((chance * (correct + denied), rank, chance))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return scored


Flags = tuple[int, ...]


def flag_variants(row: Row, card: tuple[int, ...]) -> list[Flags]:
    flags = [int(rank in card) for rank in row]
    if SERGEANT not in row:
        return [tuple(flags)]
    at = row.index(SERGEANT)
    variants = []
    for token in (0, 1):
        flags[at] = token
        variants.append(tuple(flags))
    return variants


@lru_cache(maxsize=256)
def _pattern_counts(
    ranks: tuple[int, ...], card: tuple[int, ...]
) -> tuple[tuple[tuple[Flags, Row], dict[int, float]], ...]:
    """For every intel-token pattern and ranks already turned up, the chance of each rank at
    the next mission when every legal deployment of ``ranks`` is as likely."""
    counts: dict[tuple[Flags, Row], dict[int, int]] = {}
    for row in legal_deployments(ranks):
        for flags in flag_variants(row, card):
            for index in range(MISSIONS):
                key = (flags, row[:index])
                counter = counts.get(key)
                if counter is None:
                    counter = counts[key] = {}
                rank = row[index]
                counter[rank] = counter.get(rank, 0) + 1
    found = []
    for key, counter in counts.items():
        total = sum(counter.values())
        found.append((key, {rank: count / total for rank, count in counter.items()}))
    return tuple(found)


@lru_cache(maxsize=512)
def guesser_table(
    ranks: tuple[int, ...], card: tuple[int, ...], values: tuple[float, ...], correct: float
) -> dict[tuple[Flags, Row], tuple[int, dict[int, float]]]:
    """:func:`_pattern_counts` with the guess of a guesser who knows only that: the best
    chance times stake, as :func:`guess_scores`."""
    table = {}
    for key, chances in _pattern_counts(ranks, card):
        guess = max(chances, key=lambda r: (chances[r] * (correct + values[r]), -r))
        table[key] = (guess, chances)
    return table


def row_value(
    row: Row,
    flags: Flags,
    table: dict[tuple[Flags, Row], tuple[int, dict[int, float]]],
    values: tuple[float, ...],
    correct: float,
) -> float:
    """The worth of ``row`` to its owner against the modelled guesser: each card either is
    found (the guesser gains ``correct``) or activates (§6). Half the guessers are taken to
    play the table's guess, half to guess in proportion to the chances."""
    total = 0.0
    for index in range(MISSIONS):
        guess, chances = table[flags, row[:index]]
        rank = row[index]
        found = 0.5 * (guess == rank) + 0.5 * chances.get(rank, 0.0)
        total += (1 - found) * values[rank] - found * correct
    return total


def _best_flags_value(
    row: Row,
    card: tuple[int, ...],
    table: dict[tuple[Flags, Row], tuple[int, dict[int, float]]],
    values: tuple[float, ...],
    correct: float,
) -> float:
    return max(row_value(row, f, table, values, correct) for f in flag_variants(row, card))


@lru_cache(maxsize=256)
def _all_scores(
    ranks: tuple[int, ...],
    values: tuple[float, ...],
    correct: float,
    deck: tuple[tuple[tuple[int, ...], int], ...],
) -> dict[Row, float]:
    total = sum(count for _, count in deck)
    scores = dict.fromkeys(legal_deployments(ranks), 0.0)
    for card, count in deck:
        table = guesser_table(ranks, card, values, correct)
        weight = count / total
        for row in scores:
            scores[row] += weight * _best_flags_value(row, card, table, values, correct)
    return scores


def deployment_scores(
    view: SpiesAndLiesView, rows: Sequence[Row], side: int | None = None
) -> list[float]:
    """The worth of each full deployment in ``rows`` to ``side`` (the viewer's by default),
    averaged over the intel cards it could not see when deploying (§5.2), against a guesser
    reading it from what is public."""
    if side is None:
        assert view.side is not None
        side = view.side
    team = view.sides[side]
    board = Board.of(view, side)
    values = activation_values(board, team.exhausted)
    correct = round(Board.of(view, 1 - side).points(2), 2)
    left = intel_left(view)
    if view.current_intel is not None:
        left[tuple(view.current_intel)] += 1
    deck = tuple(sorted(left.items()))
    scores = _all_scores(pool(team.exhausted), values, correct, deck)
    return [scores[row] for row in rows]
