"""Deployment (§5.1, §14.4): validity against the ordering rule, and secrecy."""

from __future__ import annotations

from itertools import permutations
from math import comb

import pytest

from spies_core.errors import RuleError
from spies_core.spies_and_lies.commands import Deploy, MarkSergeant
from spies_core.spies_and_lies.events import Event, SoldiersDeployed
from spies_core.spies_and_lies.state import Phase
from spies_core.spies_and_lies.view import SpiesAndLiesView, redact, view
from tests.core.spies_and_lies.helpers import BLUE, RED, SpiesAndLies


def _ordered(row: tuple[int, ...]) -> bool:
    """§5.1.2 written independently of the engine: drop the Sergeant, the rest ascends."""
    rest = [rank for rank in row if rank != 4]
    return rest == sorted(rest) and len(set(rest)) == len(rest)


def _accepts(game: SpiesAndLies, seat: int, row: tuple[int, ...]) -> tuple[bool, str | None]:
    try:
        SpiesAndLies.at(game.state).act(seat, Deploy(soldiers=row))
    except RuleError as error:
        return False, error.code
    return True, None


@pytest.mark.parametrize(
    ("exhausted", "expected"),
    [
        ((10,), comb(8, 4) + 4 * comb(8, 3)),  # 9 in hand with the Sergeant: 294
        ((4,), comb(9, 4)),  # the Sergeant exhausted: 126
        ((4, 7), comb(8, 4)),  # after enemy double damage, 8 in hand: 70
        ((2, 9), comb(7, 4) + 4 * comb(7, 3)),
    ],
)
def test_every_legal_deployment_keeps_the_order_and_every_other_is_refused(
    exhausted: tuple[int, ...], expected: int
) -> None:
    """§5.1: over all 5,040 ordered 4-tuples of ranks, decide accepts exactly those from
    the hand that keep the order, and ``legal_commands`` lists exactly those."""
    game = SpiesAndLies.dealt()
    hand = tuple(rank for rank in range(1, 11) if rank not in exhausted)
    game.given_side(RED, hand=hand, exhausted=exhausted)
    legal = set(game.rows(RED))
    assert len(legal) == expected
    for row in permutations(range(1, 11), 4):
        accepted, code = _accepts(game, RED, row)
        valid = set(row) <= set(hand) and _ordered(row)
        assert accepted == valid == (row in legal), row
        if not valid:
            assert code == (
                "soldier-exhausted" if set(row) - set(hand) else "deployment-out-of-order"
            )


def test_team_first_teammate_may_deploy_exactly_the_completable_pairs() -> None:
    """§14.4: missions 1-2 must leave a legal completion for missions 3-4."""
    game = SpiesAndLies.dealt(players=4, exhausted=(6, 6))
    hand = game.state.sides[RED].hand
    legal = set(game.rows(0))
    for pair in permutations(range(1, 11), 2):
        rest = [rank for rank in hand if rank not in pair]
        completable = set(pair) <= set(hand) and any(
            _ordered((*pair, *more)) for more in permutations(rest, 2)
        )
        accepted, code = _accepts(game, 0, pair)
        assert accepted == completable == (pair in legal), pair
        if set(pair) <= set(hand) and _ordered(pair) and not completable:
            assert code == "deployment-not-completable"


def test_team_second_teammate_completes_the_order_of_the_first() -> None:
    """§14.4: missions 3-4 extend the first teammate's missions 1-2 in order."""
    game = SpiesAndLies.dealt(players=4, exhausted=(1, 1))
    game.act(0, Deploy(soldiers=(3, 6)))
    game.act(1, Deploy(soldiers=(2, 3)))
    hand = game.state.sides[RED].hand
    legal = set(game.rows(2))
    for pair in permutations(range(1, 11), 2):
        valid = set(pair) <= set(hand) and _ordered((3, 6, *pair))
        accepted, _ = _accepts(game, 2, pair)
        assert accepted == valid == (pair in legal), pair
    assert (4, 10) in legal and (10, 4) in legal and (5, 7) not in legal


def _red_sees(
    game: SpiesAndLies, events: list[Event]
) -> tuple[SpiesAndLiesView, SpiesAndLiesView, list[object]]:
    return (
        view(game.state, RED),
        view(game.state, None),
        [redact(event, RED) for event in events] + [redact(event, None) for event in events],
    )


def test_a_sides_view_is_the_same_whatever_the_other_side_deployed() -> None:
    """§5.1.1, §3: until revealed, Red's view, the spectator's view and the events they are
    sent are identical for every legal deployment and Sergeant mark of Blue."""
    seen = set()
    probe = SpiesAndLies.dealt(exhausted=(10, 1))
    rows = probe.rows(BLUE)
    assert len(rows) == 294
    for row in rows:
        for mark in (False, True) if 4 in row else (False,):
            game = SpiesAndLies.dealt(exhausted=(10, 1))
            game.act(RED, Deploy(soldiers=(1, 3, 6, 9)))
            events = game.act(BLUE, Deploy(soldiers=row))
            assert game.state.phase is Phase.INTEL
            if 4 in row:
                events += game.act(BLUE, MarkSergeant(token=mark))
            else:
                events += game.intel_of(BLUE)
            seen.add(repr(_red_sees(game, events)))
    assert len(seen) == 1


def test_team_first_teammate_sees_nothing_of_missions_3_4_nor_the_hand_after() -> None:
    """§14.4: "the first teammate does not know Missions 3-4"; the second sees 1-2."""
    seen = set()
    probe = SpiesAndLies.dealt(players=4, exhausted=(1, 1))
    probe.act(0, Deploy(soldiers=(2, 5)))
    pairs = probe.rows(2)
    assert len(pairs) > 10
    for pair in pairs:
        game = SpiesAndLies.dealt(players=4, exhausted=(1, 1))
        first = game.act(0, Deploy(soldiers=(2, 5)))
        assert view(game.state, 0).sides[RED].hand is not None
        second = game.act(2, Deploy(soldiers=pair))
        first_view = view(game.state, 0)
        assert first_view.sides[RED].hand is None
        assert [m.rank for m in first_view.sides[RED].missions] == [2, 5, None, None]
        assert redact(second[0], 0) == SoldiersDeployed(
            seat=2, side=RED, first_mission=3, count=2, soldiers=None
        )
        seen.add(repr((first_view, view(game.state, BLUE), view(game.state, 3))))
        second_view = view(game.state, 2)
        assert [m.rank for m in second_view.sides[RED].missions] == [2, 5, *pair]
        assert redact(first[0], 2) == first[0]  # the teammate's look at missions 1-2
        assert redact(first[0], 1) == SoldiersDeployed(
            seat=0, side=RED, first_mission=1, count=2, soldiers=None
        )
    assert len(seen) == 1
