"""The ordering rule of §5.1.2 and the legal deployments it allows, cached per hand.

Reading missions 1 to 4, the ranks of all deployed soldiers except the Sergeant (4) strictly
increase; the Sergeant may stand anywhere. A hand of 9 holding the Sergeant allows 294 legal
deployments (70 without the Sergeant, 56 x 4 with it), so they are enumerated once per hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations, permutations

from spies_core.spies_and_lies.commands import Deploy
from spies_core.spies_and_lies.soldiers import MISSIONS, SERGEANT

__all__ = [
    "completions",
    "deploy_commands",
    "first_commands",
    "first_pairs",
    "is_ordered",
    "legal_deployments",
    "second_commands",
]


def is_ordered(soldiers: Sequence[int]) -> bool:
    """The ordering rule (§5.1.2): non-Sergeant ranks strictly increase in mission order.

    >>> is_ordered((2, 7, 4, 10)), is_ordered((1, 2, 7, 6)), is_ordered((4, 1, 2, 3))
    (True, False, True)
    """
    last = 0
    for rank in soldiers:
        if rank == SERGEANT:
            continue
        if rank <= last:
            return False
        last = rank
    return True


@lru_cache(maxsize=512)
def legal_deployments(available: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every legal deployment of four soldiers from ``available`` (ascending), sorted."""
    others = [rank for rank in available if rank != SERGEANT]
    found: list[tuple[int, ...]] = list(combinations(others, MISSIONS))
    if SERGEANT in available:
        for combo in combinations(others, MISSIONS - 1):
            found.extend(combo[:at] + (SERGEANT,) + combo[at:] for at in range(MISSIONS))
    return tuple(sorted(found))


@lru_cache(maxsize=512)
def first_pairs(available: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Team play (§14.4): the pairs for missions 1-2 that some pair for missions 3-4 of the
    same hand completes to a legal deployment."""
    return tuple(sorted({deployment[:2] for deployment in legal_deployments(available)}))


@lru_cache(maxsize=2048)
def completions(remaining: tuple[int, ...], first: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Team play (§14.4): the pairs from ``remaining`` for missions 3-4 after ``first``."""
    return tuple(sorted(pair for pair in permutations(remaining, 2) if is_ordered((*first, *pair))))


@lru_cache(maxsize=512)
def deploy_commands(available: tuple[int, ...]) -> tuple[Deploy, ...]:
    """The legal ``deploy`` commands of a side deploying all four missions."""
    return tuple(Deploy(soldiers=soldiers) for soldiers in legal_deployments(available))


@lru_cache(maxsize=512)
def first_commands(available: tuple[int, ...]) -> tuple[Deploy, ...]:
    """The legal ``deploy`` commands of a first teammate (missions 1-2)."""
    return tuple(Deploy(soldiers=pair) for pair in first_pairs(available))


@lru_cache(maxsize=2048)
def second_commands(remaining: tuple[int, ...], first: tuple[int, ...]) -> tuple[Deploy, ...]:
    """The legal ``deploy`` commands of a second teammate (missions 3-4)."""
    return tuple(Deploy(soldiers=pair) for pair in completions(remaining, first))
