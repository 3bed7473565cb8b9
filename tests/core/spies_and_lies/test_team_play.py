"""Team play with 4 seats (§14, [I-20]): seats 0 and 2 red, 1 and 3 blue; the first of each
team plays missions 1-2, the second 3-4; hand, marker, tokens and exhausted soldiers shared."""

from __future__ import annotations

import random

import pytest

from spies_core.decider import fold, start_game
from spies_core.errors import InvalidOptionsError, NotYourTurnError
from spies_core.spies_and_lies import SPEC
from spies_core.spies_and_lies.commands import (
    ChooseCaptain,
    ConfirmIntel,
    Deceive,
    Deploy,
    MarkSergeant,
)
from spies_core.spies_and_lies.events import DeceptionPlayed, IntelMarked, SoldierRevealed
from spies_core.spies_and_lies.evolve import outcome
from spies_core.spies_and_lies.legal import legal_commands
from spies_core.spies_and_lies.state import Phase, Stage, current_seats, to_act
from spies_core.spies_and_lies.view import redact, view
from tests.core.spies_and_lies.helpers import BLUE, RED, SpiesAndLies


def test_team_deployment_goes_first_teammates_then_second_teammates() -> None:
    """§14.4: the first teammate chooses missions 1-2, then the second missions 3-4."""
    game = SpiesAndLies.dealt(players=4, exhausted=(1, 1))
    assert to_act(game.state) == {0, 1}
    game.act(0, Deploy(soldiers=(2, 5)))
    assert to_act(game.state) == {1, 2}
    game.act(2, Deploy(soldiers=(6, 9)))
    assert to_act(game.state) == {1}
    game.act(1, Deploy(soldiers=(3, 4)))
    game.act(3, Deploy(soldiers=(7, 10)))
    assert game.state.phase is Phase.INTEL and to_act(game.state) == {0, 1, 2, 3}
    assert [m.rank for m in game.state.sides[RED].missions] == [2, 5, 6, 9]
    assert game.state.sides[RED].hand == (3, 4, 7, 8, 10)


def test_team_guess_turns_pair_the_players_of_the_same_missions() -> None:
    """§14.2: each teammate guesses and is guessed by the opponent holding its missions."""
    game = SpiesAndLies.dealt(players=4, starting=BLUE, exhausted=(1, 1))
    game.day((2, 3, 5, 6), (2, 3, 5, 6))
    pairs = []
    while game.state.phase is Phase.MISSION and game.state.day == 1:
        guesser, defender, index = current_seats(game.state)
        pairs.append((index + 1, guesser, defender))
        game.turn()
    assert pairs == [
        (1, 1, 0), (1, 0, 1), (2, 1, 0), (2, 0, 1),
        (3, 3, 2), (3, 2, 3), (4, 3, 2), (4, 2, 3),
    ]  # fmt: skip


def test_team_decisions_belong_to_the_owner_of_the_mission() -> None:
    """[I-20]: deception and activation choices are made by the teammate owning the mission;
    the team's tokens are shared."""
    game = SpiesAndLies.dealt(players=4, starting=BLUE, exhausted=(9, 1))
    game.day((1, 2, 6, 7), (2, 3, 5, 6))
    game.turn(guess=5)  # Red's Spy (seat 0) activated: the team now holds 2 tokens
    assert game.state.sides[RED].deception_tokens == 2
    game.play_to_turn(5)
    assert to_act(game.state) == {2}  # the window on Mission 3 is seat 2's
    assert game.act(2, Deceive()) == [DeceptionPlayed(seat=2, side=RED, mission=3)]
    events = game.act(3, game.pick_guess(wrong=True))
    assert isinstance(events[-1], SoldierRevealed) and game.state.stage is Stage.CAPTAIN
    assert to_act(game.state) == {2}
    game.refused(0, ChooseCaptain(borrow=9), NotYourTurnError)
    assert legal_commands(game.state, 2) == [ChooseCaptain(borrow=None), ChooseCaptain(borrow=9)]
    game.act(2, ChooseCaptain(borrow=9))
    assert game.state.double_agent == 2 and game.state.sides[RED].deception_tokens == 1


def test_team_intel_every_seat_answers_and_the_sergeant_mark_stays_secret() -> None:
    """§5.2, [I-13]: the Sergeant's owner marks it; every other seat confirms; the mark is
    seen only by its owner until the tokens are revealed together."""
    game = SpiesAndLies.dealt(players=4, exhausted=(1, 1))
    game.deploy_teams((2, 3, 4, 9), (2, 3, 5, 6))
    assert legal_commands(game.state, 2) == [MarkSergeant(token=True), MarkSergeant(token=False)]
    for seat in (0, 1, 3):
        assert legal_commands(game.state, seat) == [ConfirmIntel()]
    marked = game.act(2, MarkSergeant(token=True))
    assert marked == [IntelMarked(seat=2, side=RED, sergeant_token=True)]
    for viewer in (0, 1, 3, None):
        assert redact(marked[0], viewer) == IntelMarked(seat=2, side=RED, sergeant_token=None)
        assert all(
            m.intel is None for side in view(game.state, viewer).sides for m in side.missions
        )
    for seat in (0, 1, 3):
        game.act(seat, ConfirmIntel())
    assert [m.intel for m in view(game.state, 1).sides[RED].missions] == [False, False, True, False]


def test_team_play_full_games_end_with_both_teammates_winning() -> None:
    """§14, §12: random team games run to the end; the winners are a whole team."""
    results = set()
    for seed in range(40):
        rng = random.Random(seed)
        game = SpiesAndLies.start(4, rng=rng)
        while (result := outcome(game.state)) is None:
            seat = rng.choice(sorted(to_act(game.state)))
            game.act(seat, rng.choice(game.legal(seat)))  # the invariants checked after each
        assert fold(SPEC, game.events) == game.state
        assert result.winners in ((), (0, 2), (1, 3))
        assert result.scores == (game.state.sides[0].tower, game.state.sides[1].tower) * 2
        results.add(result.reason)
    assert results == {"flag-captured", "territory", "infiltration"}


def test_three_players_are_refused() -> None:
    """The game is offered for 2 or 4 seats; the 3-player variant of §14.5 is out of scope."""
    with pytest.raises(InvalidOptionsError) as error:
        start_game(SPEC, 3, {}, random.Random(0))
    assert error.value.code == "invalid-players"
