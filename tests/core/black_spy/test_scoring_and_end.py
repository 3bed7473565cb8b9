"""Scoring each deal (§6), the moon (§6.4, §8.1, §10.9, §10.10), negative totals (§6.3), the
end of the game (§7, §10.11, §10.12) and the classic preset's scoring (Appendix A)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from spies_core.black_spy.cards import DECK, points
from spies_core.black_spy.events import (
    BlackSpyCardPlayed,
    BlackSpyDealScored,
    BlackSpyDealt,
    BlackSpyGameEnded,
    BlackSpyTrickWon,
    Event,
)
from spies_core.black_spy.options import BlackSpyFlags
from spies_core.black_spy.scoring import score_deal
from spies_core.black_spy.state import Phase, State
from spies_core.decider import Outcome
from tests.core.black_spy.helpers import (
    SPEC,
    BlackSpy,
    last_trick_position,
    random_playout,
)

BLACKS = (
    "black-1 black-2 black-3 black-4 black-5 black-6 black-7 black-7 black-7 black-7"
    " black-7 black-7 black-8 black-9 black-10"
)
"""15 of the 16 black cards: all but the black 11."""


def test_card_values_sum_to_60_per_deal_with_good_spies() -> None:
    """§6.2: 80 in black cards, -20 in coloured 7s: 60 per deal; 80 without good spies."""
    assert sum(points(c, good_spies=True) for c in DECK) == 60
    assert sum(points(c, good_spies=True) for c in DECK if c.startswith("black")) == 80
    assert sum(points(c, good_spies=False) for c in DECK) == 80
    assert [points(f"black-{r}", good_spies=True) for r in range(1, 12)] == [
        1, 1, 1, 1, 1, 1, 10, 2, 3, 4, 5,
    ]  # fmt: skip
    assert {points(f"{c}-7", good_spies=True) for c in ("blue", "yellow", "red", "green")} == {-5}


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize(
    ("options", "normal", "moon"),
    [
        ({}, 60, lambda n: 60 * (n - 1) - 20),
        ({"no_good_spies": True}, 80, lambda n: 80 * (n - 1)),
        ({"classic": True}, 80, None),
    ],
    ids=["modern", "no-good-spies", "classic"],
)
def test_deal_score_checksums(
    players: int, options: dict[str, bool], normal: int, moon: Callable[[int], int] | None
) -> None:
    """§6.5: every deal sums to 60, a moon deal to 60(n-1)-20; §8.1: 80 and 80(n-1);
    Appendix A: 80 and no moon. Totals are the running sums (§6.6)."""
    for seed in range(3):
        game = random_playout(players, seed, options)
        totals = [0] * players
        assert game.scored, "a game has at least one deal"
        for scored in game.scored:
            expected = normal if scored.moon is None or moon is None else moon(players)
            assert sum(scored.scores) == expected, scored
            totals = [t + s for t, s in zip(totals, scored.scores, strict=True)]
            assert list(scored.totals) == totals


def test_trick_points_add_up_to_the_deal_scores_without_a_moon() -> None:
    """§6.1: each seat scores the cards of the tricks it took."""
    game = random_playout(4, seed=11)
    taken = [0] * 4
    for event in game.events:
        if isinstance(event, BlackSpyTrickWon):
            taken[event.winner] += event.points
        if isinstance(event, BlackSpyDealScored):
            if event.moon is None:
                assert list(event.scores) == taken
            taken = [0] * 4


def moon_position(flags: BlackSpyFlags | None = None) -> State:
    """Seat 1 is about to take the black 11 and with it all 16 black cards; seat 1 holds
    the blue 7, seat 0 the red and green 7s, seat 2 the yellow 7 (spec vector 9)."""
    return last_trick_position(
        {
            0: "red-7 green-7 red-2 red-3",
            1: BLACKS + " blue-7 blue-2 blue-3 blue-4 blue-5",
            2: "yellow-7 yellow-2 yellow-3 yellow-4",
        },
        ["green-1", "black-11", "green-2", "green-3"],
        leader=1,
        flags=flags,
    )


LAST = ["black-11", "green-2", "green-3", "green-1"]


def scored_of(events: list[Event]) -> BlackSpyDealScored:
    """The deal's scoring among the events."""
    return next(e for e in events if isinstance(e, BlackSpyDealScored))


def test_moon_pays_60_and_coloured_7s_still_count_for_everyone() -> None:
    """§6.4, §10.10: the shooter scores 0 for black plus -5 per coloured 7 taken; the
    others 60 minus 5 per coloured 7 taken."""
    events = BlackSpy.at(moon_position()).finish_trick(LAST)
    scored = scored_of(events)
    assert scored.scores == (50, -5, 55, 60)
    assert scored.moon == 1


def test_moon_under_no_good_spies_pays_the_round_total_80() -> None:
    """§8.1, §10.9: without good spies the shooter scores 0 and every other seat 80."""
    events = BlackSpy.at(moon_position(BlackSpyFlags(no_good_spies=True))).finish_trick(LAST)
    scored = scored_of(events)
    assert scored.scores == (80, 0, 80, 80)
    assert scored.moon == 1
    assert sum(scored.scores) == 80 * 3


def test_classic_has_no_moon_the_taker_of_all_black_scores_80() -> None:
    """Appendix A: shooting the moon is not part of the classic preset; coloured 7s score 0."""
    events = BlackSpy.at(moon_position(BlackSpyFlags(classic=True))).finish_trick(LAST)
    scored = scored_of(events)
    assert scored.scores == (0, 80, 0, 0)
    assert scored.moon is None


def test_moon_needs_all_16_black_cards() -> None:
    """§6.4: 15 black cards are no moon."""
    piles = [BLACKS.split(), ["black-11"], [], []]
    assert score_deal(piles, good_spies=True, moon=True) == ((75, 5, 0, 0), None)


def test_negative_deal_scores_and_totals() -> None:
    """§6.3: a seat that takes coloured 7s and no black card goes below zero."""
    game = BlackSpy.at(
        last_trick_position(
            {0: "red-7 green-7 yellow-7 blue-7", 1: BLACKS + " blue-1 blue-2 blue-3 blue-4 blue-5"},
            ["green-11", "black-11", "green-2", "green-3"],
            leader=0,
            totals=(-10, 20, 30, 40),
        )
    )
    # Seat 0 leads the green 11 and wins; seat 1 sheds the black 11 on it (void in green).
    events = game.finish_trick(["green-11", "black-11", "green-2", "green-3"])
    after = game.state
    scored = scored_of(events)
    assert scored.scores == (-20 + 5, 75, 0, 0)
    assert after.totals == (-25, 95, 30, 40)
    assert after.phase is Phase.PASSING  # nobody reached 150: the next deal is dealt


def end_position(totals: tuple[int, ...]) -> State:
    """Before the last trick of a 4-player deal that will score 75, -10, 0, -5: seat 0 took
    15 black cards, seat 1 the black 11 and three coloured 7s, seat 3 the blue 7 and wins
    the last trick (green 1, 2, 3, 4 led by seat 0)."""
    return last_trick_position(
        {
            0: BLACKS + " blue-1 blue-2 blue-3 blue-4 blue-5",
            1: "black-11 red-7 green-7 yellow-7",
        },
        ["green-1", "green-2", "green-3", "green-4"],
        leader=0,
        totals=totals,
    )


LAST_GREEN = ["green-1", "green-2", "green-3", "green-4"]


def test_end_position_scores() -> None:
    """The helper position above scores 75, -10, 0, -5 (sum 60, §6.5)."""
    events = BlackSpy.at(end_position((0, 0, 0, 0))).finish_trick(LAST_GREEN)
    assert scored_of(events).scores == (75, -10, 0, -5)


def test_game_ends_when_a_total_reaches_the_threshold_exactly() -> None:
    """§7.2, §10.11: 150 reached (not exceeded) ends a 4-player game after the scoring."""
    game = BlackSpy.at(end_position((75, 10, 20, 30)))
    events = game.finish_trick(LAST_GREEN)
    after = game.state
    assert after.totals == (150, 0, 20, 25)
    assert isinstance(events[-1], BlackSpyGameEnded)
    assert after.phase is Phase.OVER
    assert SPEC.outcome(after) == Outcome(
        winners=(1,), reason="threshold-reached", scores=(150, 0, 20, 25)
    )
    assert SPEC.to_act(after) == frozenset()


def test_game_goes_on_one_point_below_the_threshold() -> None:
    """§7.1: at 149 a new deal is dealt by the same command, the dealer rotated (§2.4)."""
    before = end_position((74, 10, 20, 30))
    game = BlackSpy.at(before)
    events = game.finish_trick(LAST_GREEN)
    after = game.state
    assert after.totals == (149, 0, 20, 25)
    dealt = events[-1]
    assert isinstance(dealt, BlackSpyDealt)
    assert dealt.dealer == (before.dealer + 1) % 4
    assert dealt.deal == before.deal + 1
    assert after.phase is Phase.PASSING
    assert SPEC.outcome(after) is None
    assert SPEC.to_act(after) == frozenset(range(4))


def test_tied_lowest_totals_share_the_win() -> None:
    """§7.4, §10.12: every seat with the lowest total wins."""
    game = BlackSpy.at(end_position((100, 30, 20, 25)))
    events = game.finish_trick(LAST_GREEN)
    after = game.state
    ended = events[-1]
    assert isinstance(ended, BlackSpyGameEnded)
    assert ended.totals == (175, 20, 20, 20)
    assert ended.winners == (1, 2, 3)
    outcome = SPEC.outcome(after)
    assert outcome is not None and outcome.winners == (1, 2, 3)


def test_a_seat_that_reaches_the_threshold_may_win() -> None:
    """§7.5: reaching the threshold is no penalty; when every total ends high, the lowest
    still wins, even at exactly the threshold."""
    game = BlackSpy.at(
        last_trick_position(
            {
                0: "black-1 red-2 red-3 red-4",
                1: "black-2 black-3 red-5 red-6",
                2: "black-4 black-5 black-6 red-8",
            },
            LAST_GREEN,
            leader=0,
            totals=(149, 149, 149, 100),
        )
    )
    events = game.finish_trick(LAST_GREEN)
    after = game.state
    assert scored_of(events).scores == (1, 2, 3, 54)
    assert after.totals == (150, 151, 152, 154)
    assert isinstance(events[-1], BlackSpyGameEnded)
    assert events[-1].winners == (0,)


def test_end_is_checked_only_after_the_deal_is_scored() -> None:
    """§7.1: the game ends only right after a deal's scoring, with every deal complete."""
    game = random_playout(6, seed=2)
    ends = [i for i, e in enumerate(game.events) if isinstance(e, BlackSpyGameEnded)]
    assert ends == [len(game.events) - 1]
    assert isinstance(game.events[-2], BlackSpyDealScored)
    played = [e for e in game.events if isinstance(e, BlackSpyCardPlayed)]
    assert len(played) == 60 * len(game.scored)


@pytest.mark.parametrize(("players", "limit"), [(3, 200), (4, 150), (5, 120), (6, 100)])
def test_threshold_depends_on_player_count(players: int, limit: int) -> None:
    """§7.2: 200/150/120/100; the game ends at the first deal where a total reaches it,
    and the lowest total wins (§7.3)."""
    game = random_playout(players, seed=players)
    final = game.scored[-1].totals
    assert max(final) >= limit
    assert all(max(s.totals) < limit for s in game.scored[:-1])
    ended = game.events[-1]
    assert isinstance(ended, BlackSpyGameEnded)
    assert ended.threshold == limit
    assert ended.winners == tuple(s for s, t in enumerate(final) if t == min(final))


def test_classic_threshold_is_200_for_every_count() -> None:
    """Appendix A: 200 points, whatever the player count."""
    game = random_playout(6, seed=1, options={"classic": True})
    assert max(game.scored[-1].totals) >= 200
    assert all(max(s.totals) < 200 for s in game.scored[:-1])
