"""Bad input: each refused with its own code, and nothing applied (decide is pure)."""

from __future__ import annotations

from collections.abc import Callable

import msgspec
import pytest

from spies_core.errors import GameOverError, NotYourTurnError
from spies_core.spies_and_lies.commands import (
    ChooseCaptain,
    ChooseMarshal,
    Command,
    ConfirmIntel,
    Deceive,
    DeclineDeception,
    Deploy,
    Guess,
    MarkSergeant,
)
from spies_core.spies_and_lies.evolve import initial_state
from spies_core.spies_and_lies.state import MarshalOption, Stage
from tests.core.spies_and_lies.helpers import BLUE, RED, SpiesAndLies


def deploy_phase() -> SpiesAndLies:
    """Day 1, nobody deployed; both sides' Marshal (10) is exhausted."""
    return SpiesAndLies.dealt()


def team_after_first() -> SpiesAndLies:
    """Team play; red's first teammate (seat 0) deployed 1-2; both sides' Spy exhausted."""
    game = SpiesAndLies.dealt(players=4, exhausted=(3, 3))
    game.act(0, Deploy(soldiers=(1, 2)))
    return game


def team_fresh() -> SpiesAndLies:
    """Team play, nobody deployed; both sides' Spy (1) exhausted."""
    return SpiesAndLies.dealt(players=4, exhausted=(1, 1))


def intel_phase() -> SpiesAndLies:
    """Red deployed its Sergeant, blue did not."""
    game = SpiesAndLies.dealt(starting=BLUE)
    game.deploy((1, 4, 2, 3), (1, 2, 3, 5))
    return game


def window() -> SpiesAndLies:
    """Guess-turn 1: blue guesses red's Mission 1; red holds a token, its window is open."""
    game = intel_phase()
    game.intel()
    return game


def guess_step() -> SpiesAndLies:
    """Guess-turn 1 after red declined."""
    game = window()
    game.act(RED, DeclineDeception())
    return game


def no_token() -> SpiesAndLies:
    """Guess-turn 1; red holds no deception token, so the window is passed over."""
    game = window()
    game.given_side(RED, deception_tokens=0)
    return game


def captain_choice() -> SpiesAndLies:
    """Red's Captain at Mission 1 was guessed wrong; red's exhausted soldier is the Marshal."""
    game = SpiesAndLies.dealt(starting=BLUE)
    game.day((6, 7, 8, 9), (1, 2, 3, 5))
    game.turn(guess=1)
    assert game.state.stage is Stage.CAPTAIN
    return game


def marshal_choice() -> SpiesAndLies:
    """Red borrowed its exhausted Marshal with its Captain."""
    game = captain_choice()
    game.act(RED, ChooseCaptain(borrow=10))
    assert game.state.stage is Stage.MARSHAL
    return game


CASES: list[tuple[str, Callable[[], SpiesAndLies], int, Command, str]] = [
    ("count", deploy_phase, RED, Deploy(soldiers=(1, 2, 3)), "wrong-soldier-count"),
    ("count-5", deploy_phase, RED, Deploy(soldiers=(1, 2, 3, 5, 6)), "wrong-soldier-count"),
    ("rank-0", deploy_phase, RED, Deploy(soldiers=(0, 2, 3, 5)), "invalid-rank"),
    ("rank-11", deploy_phase, RED, Deploy(soldiers=(1, 2, 3, 11)), "invalid-rank"),
    ("duplicate", deploy_phase, RED, Deploy(soldiers=(1, 1, 2, 3)), "duplicate-soldier"),
    ("exhausted", deploy_phase, RED, Deploy(soldiers=(2, 3, 5, 10)), "soldier-exhausted"),
    ("order", deploy_phase, RED, Deploy(soldiers=(1, 2, 7, 6)), "deployment-out-of-order"),
    ("deploy-guess", deploy_phase, RED, Guess(rank=3), "not-guess-step"),
    ("deploy-mark", deploy_phase, RED, MarkSergeant(token=True), "not-intel-phase"),
    ("deploy-deceive", deploy_phase, RED, Deceive(), "outside-deception-window"),
    ("deploy-marshal", deploy_phase, RED, ChooseMarshal(option=MarshalOption.POINTS),
     "choice-not-offered"),
    ("deploy-twice", lambda: _deployed_red(), RED, Deploy(soldiers=(1, 2, 3, 5)), "not-your-turn"),
    ("team-count", team_fresh, 0, Deploy(soldiers=(2, 3, 5, 6)), "wrong-soldier-count"),
    ("team-first-stuck", team_fresh, 0, Deploy(soldiers=(9, 10)), "deployment-not-completable"),
    ("team-first-order", team_fresh, 0, Deploy(soldiers=(5, 3)), "deployment-out-of-order"),
    ("team-second-early", team_fresh, 2, Deploy(soldiers=(9, 10)), "not-your-turn"),
    ("team-not-in-hand", team_after_first, 2, Deploy(soldiers=(2, 9)), "soldier-not-in-hand"),
    ("team-second-order", team_after_first, 2, Deploy(soldiers=(6, 5)), "deployment-out-of-order"),
    ("team-second-low", team_after_first, 2, Deploy(soldiers=(3, 9)), "soldier-exhausted"),
    ("mark-no-sergeant", intel_phase, BLUE, MarkSergeant(token=True), "no-sergeant-deployed"),
    ("confirm-sergeant", intel_phase, RED, ConfirmIntel(), "sergeant-choice-required"),
    ("intel-deploy", intel_phase, RED, Deploy(soldiers=(1, 2, 3, 5)), "not-deploy-phase"),
    ("intel-guess", intel_phase, RED, Guess(rank=2), "not-guess-step"),
    ("guess-in-window", window, BLUE, Guess(rank=2), "not-your-turn"),
    ("defender-guess", window, RED, Guess(rank=2), "not-guess-step"),
    ("guesser-deceive", window, BLUE, Deceive(), "not-your-turn"),
    ("rank-low", guess_step, BLUE, Guess(rank=0), "invalid-rank"),
    ("rank-high", guess_step, BLUE, Guess(rank=11), "invalid-rank"),
    ("guess-out-of-turn", guess_step, RED, Guess(rank=2), "not-your-turn"),
    ("deceive-late", guess_step, RED, Deceive(), "outside-deception-window"),
    ("decline-late", guess_step, RED, DeclineDeception(), "outside-deception-window"),
    ("guesser-decline", guess_step, BLUE, DeclineDeception(), "outside-deception-window"),
    ("mission-deploy", guess_step, BLUE, Deploy(soldiers=(1, 2, 3, 5)), "not-deploy-phase"),
    ("deceive-no-token", no_token, RED, Deceive(), "no-deception-token"),
    ("decline-no-token", no_token, RED, DeclineDeception(), "no-deception-token"),
    ("no-choice", guess_step, BLUE, ChooseCaptain(borrow=None), "choice-not-offered"),
    ("borrow-unexhausted", captain_choice, RED, ChooseCaptain(borrow=5), "borrow-not-exhausted"),
    ("borrow-rank", captain_choice, RED, ChooseCaptain(borrow=0), "invalid-rank"),
    ("captain-marshal", captain_choice, RED, ChooseMarshal(option=MarshalOption.POINTS),
     "choice-not-offered"),
    ("captain-deceive", captain_choice, RED, Deceive(), "outside-deception-window"),
    ("captain-other-seat", captain_choice, BLUE, ChooseCaptain(borrow=None), "not-your-turn"),
    ("marshal-captain", marshal_choice, RED, ChooseCaptain(borrow=None), "choice-not-offered"),
    ("marshal-guess", marshal_choice, RED, Guess(rank=1), "not-guess-step"),
    ("marshal-other-seat", marshal_choice, BLUE, ChooseMarshal(option=MarshalOption.POINTS),
     "not-your-turn"),
]  # fmt: skip


def _deployed_red() -> SpiesAndLies:
    game = SpiesAndLies.dealt()
    game.act(RED, Deploy(soldiers=(1, 2, 3, 5)))
    return game


@pytest.mark.parametrize(
    ("situation", "seat", "command", "code"),
    [
        pytest.param(setup, seat, command, code, id=name)
        for name, setup, seat, command, code in CASES
    ],
)
def test_bad_input_is_refused_with_its_code_and_nothing_applied(
    situation: Callable[[], SpiesAndLies], seat: int, command: Command, code: str
) -> None:
    game = situation()
    before = msgspec.json.encode(game.state)
    error = game.refused(seat, command)
    assert error.code == code, error.message
    assert msgspec.json.encode(game.state) == before
    if code in ("not-your-turn", "no-deception-token"):
        assert isinstance(error, NotYourTurnError)


def test_every_command_is_refused_after_the_end() -> None:
    """§12: once the game is over nothing is accepted (``game-over``)."""
    game = SpiesAndLies.dealt(starting=BLUE)
    game.day((5, 6, 7, 8), (1, 2, 3, 5))
    game.given(double_agent=3)
    game.turn(guess=1)  # the Lieutenant captures Blue's flag
    for seat in (RED, BLUE):
        for command in (Guess(rank=1), Deploy(soldiers=(1, 2, 3, 5)), Deceive()):
            game.refused(seat, command, GameOverError)


def test_a_game_not_started_refuses_commands() -> None:
    error = SpiesAndLies.at(initial_state()).refused(RED, Guess(rank=1))
    assert error.code == "not-started"


def test_error_messages_name_the_input_and_the_situation() -> None:
    game = deploy_phase()
    error = game.refused(RED, Deploy(soldiers=(2, 3, 5, 10)))
    assert "Marshal (10)" in error.message and "day 1" in error.message
