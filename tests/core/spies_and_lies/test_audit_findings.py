"""Findings of the rules audit (``RULES_AUDIT.md``): each bug first as a failing test, then
fixed; the test names cite the rule that was broken."""

from __future__ import annotations

from spies_core.spies_and_lies.events import IntelTokensRevealed, SpiesAndLiesStarted
from spies_core.spies_and_lies.state import Phase
from spies_core.spies_and_lies.view import redact, view
from tests.core.spies_and_lies.helpers import BLUE, RED, SpiesAndLies


def test_s5_3_1_day_1_starter_is_flipped_only_when_the_mission_phase_begins() -> None:
    """§5.3.1 (S0 "3. Mission: Die Startkarte wird wie eine Münze in die Luft geworfen"):
    the day-1 starter is decided at the start of the mission phase, after both sides have
    deployed and marked their intel. Nobody may know it while deploying (it changes what a
    soldier is worth at a mission, e.g. a Bomb under Mission 4 can only force a reveal for
    the side that does not start). The draw is recorded at setup, hidden from every viewer,
    and made public with the intel tokens."""
    seen: dict[int, set[str]] = {RED: set(), BLUE: set()}
    for starting in (RED, BLUE):
        game = SpiesAndLies.dealt(starting=starting, exhausted=(10, 10))
        started = game.events[0]
        assert isinstance(started, SpiesAndLiesStarted) and started.starting_side == starting
        for viewer in (RED, BLUE, None):
            seen_started = redact(started, viewer)
            assert isinstance(seen_started, SpiesAndLiesStarted)
            assert seen_started.starting_side is None
            assert view(game.state, viewer).starting_side is None
        game.deploy((1, 2, 3, 5), (1, 2, 3, 6))
        assert game.state.phase is Phase.INTEL
        for viewer in (RED, BLUE):
            assert view(game.state, viewer).starting_side is None
            seen[viewer].add(repr(view(game.state, viewer)))
        events = game.intel()
        assert isinstance(events[-1], IntelTokensRevealed)
        assert events[-1].starting_side == starting
        assert redact(events[-1], None) == events[-1]
        for viewer in (RED, BLUE, None):
            assert view(game.state, viewer).starting_side == starting
    assert all(len(views) == 1 for views in seen.values())  # no view tells the starters apart


def test_s5_3_1_later_days_starters_are_known_before_deployment() -> None:
    """§5.3.1: day 2 and day 3 starters follow from the alternation and are public."""
    game = SpiesAndLies.dealt(starting=BLUE)
    game.play_to_day(2)
    assert game.state.phase is Phase.DEPLOY
    for viewer in (RED, BLUE, None):
        assert view(game.state, viewer).starting_side == RED
