"""Setup (§4), options (§16) and the fixed deal."""

from __future__ import annotations

import random
from typing import Any

import pytest

from spies_core.decider import fold, parse_options, start_game
from spies_core.errors import InvalidOptionsError
from spies_core.rng import FairRng
from spies_core.spies_and_lies import SPEC
from spies_core.spies_and_lies.events import DoubleAgentMoved, FlagCaptured, SpiesAndLiesStarted
from spies_core.spies_and_lies.options import (
    DEFAULT_INTEL_CARDS,
    Deal,
    ReserveRule,
    SpiesAndLiesOptions,
)
from spies_core.spies_and_lies.state import MoveCause, Phase
from spies_core.spies_and_lies.view import redact, view
from tests.core.spies_and_lies.helpers import BLUE, INTEL_ORDER, RED, SpiesAndLies


def test_setup_shuffles_the_intel_deck_draws_exhausted_soldiers_and_the_starter() -> None:
    """§4.8-§4.10, [I-22]: one old-intel card up, the rest face down; each side's exhausted
    soldier drawn at random; 9 cards in hand; the day-1 starter drawn; all recorded."""
    starters, exhausted = set(), set()
    for seed in range(60):
        (started,) = start_game(SPEC, 2, {}, FairRng(seed.to_bytes(32, "big"), 0))
        assert isinstance(started, SpiesAndLiesStarted)
        assert started.options == SpiesAndLiesOptions()
        assert started.intel_deck is not None
        deck = sorted((started.old_intel, *started.intel_deck))
        assert deck == sorted(DEFAULT_INTEL_CARDS)
        starters.add(started.starting_side)
        exhausted.update(started.exhausted)
        state = fold(SPEC, [started])
        for side, team in enumerate(state.sides):
            assert team.exhausted == (started.exhausted[side],) and len(team.hand) == 9
            assert (team.tower, team.deception_tokens) == (0, 1)
        assert (state.day, state.phase, state.double_agent, state.reserve) == (
            1,
            Phase.DEPLOY,
            0,
            2,
        )
        assert state.old_intel == (started.old_intel,) and state.current_intel is None
    assert starters == {0, 1} and exhausted == set(range(1, 11))


def test_the_same_seed_gives_the_same_setup() -> None:
    seed = bytes(range(32))
    assert start_game(SPEC, 2, {}, FairRng(seed, 0)) == start_game(SPEC, 2, {}, FairRng(seed, 0))


def test_a_deal_fixes_deck_exhausted_soldiers_and_starter() -> None:
    """``options.deal``: the whole deck top first, red's and blue's exhausted, the starter."""
    game = SpiesAndLies.dealt(exhausted=(3, 8), starting=BLUE)
    (started,) = game.events[:1]
    assert isinstance(started, SpiesAndLiesStarted)
    assert started.old_intel == (1, 2, 3, 4)
    assert started.intel_deck == tuple(tuple(card) for card in INTEL_ORDER[1:])
    assert (started.exhausted, started.starting_side) == ((3, 8), BLUE)
    assert started.options.deal == Deal(
        intel=tuple(tuple(card) for card in INTEL_ORDER), exhausted=(3, 8), starting=BLUE
    )


def test_a_partial_deal_draws_the_rest() -> None:
    events = start_game(SPEC, 2, {"deal": {"starting": 1}}, random.Random(4))
    started = events[0]
    assert isinstance(started, SpiesAndLiesStarted) and started.starting_side == 1


def test_the_started_event_hides_the_deck_and_the_deal_from_every_viewer() -> None:
    """The intel deck order is hidden until each card is turned (§3)."""
    game = SpiesAndLies.dealt()
    started = game.events[0]
    for viewer in (RED, BLUE, None):
        seen = redact(started, viewer)
        assert isinstance(seen, SpiesAndLiesStarted)
        assert seen.intel_deck is None and seen.options.deal is None
        assert seen.old_intel == (1, 2, 3, 4) and seen.exhausted == (10, 10)
        assert view(game.state, viewer).intel_deck_size == 5


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"board_length": 0}, "invalid-options"),
        ({"board_length": 21}, "invalid-options"),
        ({"intel_cards": [[1, 2], [3, 4], [5, 6]]}, "invalid-options"),
        ({"intel_cards": [[1, 2], [3, 4], [5, 6], [7, 11]]}, "invalid-options"),
        ({"intel_cards": [[1, 1], [3, 4], [5, 6], [7, 8]]}, "invalid-options"),
        ({"intel_cards": [[], [3, 4], [5, 6], [7, 8]]}, "invalid-options"),
        ({"deal": {"intel": [[1, 2, 3, 4]]}}, "invalid-deal"),
        ({"deal": {"exhausted": [0, 3]}}, "invalid-deal"),
        ({"deal": {"exhausted": [3, 11]}}, "invalid-deal"),
        ({"deal": {"starting": 2}}, "invalid-deal"),
        ({"board": 3}, "unknown-option"),
        ({"deal": {"hands": []}}, "unknown-option"),
        ({"board_length": "long"}, "invalid-options"),
        ({"deception_reserve": "mine"}, "invalid-options"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], code: str) -> None:
    with pytest.raises(InvalidOptionsError) as error:
        start_game(SPEC, 2, options, random.Random(0))
    assert error.value.code == code


@pytest.mark.parametrize("players", [1, 3, 5])
def test_only_two_or_four_seats(players: int) -> None:
    with pytest.raises(InvalidOptionsError) as error:
        start_game(SPEC, players, {}, random.Random(0))
    assert error.value.code == "invalid-players"


def test_options_parse_with_their_defaults() -> None:
    """§16: G = 3, intel cards 2x {1-4}, 2x {4-7}, 2x {7-10}, [I-5] on, shared reserve."""
    options = parse_options(SPEC, {})
    assert options.deception_reserve is ReserveRule.SHARED
    assert options.board_length == 3
    assert options.intel_cards == DEFAULT_INTEL_CARDS
    assert options.deception_pays_on_forced_retreat is True and options.deal is None


def test_board_length_moves_the_gate() -> None:
    """[U-1]: with G = 1 the first space is in front of Blue's gate; the next move takes the
    flag."""
    game = SpiesAndLies.dealt(starting=BLUE, exhausted=(1, 1), board_length=1)
    game.day((5, 9, 10, 4), (2, 3, 5, 6))
    events = game.turn(guess=1)  # Red's Lieutenant
    assert events[-1] == DoubleAgentMoved(side=RED, cause=MoveCause.LIEUTENANT, steps=1, position=1)
    game.turn()
    events = game.turn(guess=1)  # Red's General
    assert FlagCaptured(side=RED, cause=MoveCause.GENERAL) in events
    assert game.state.double_agent == 2 and game.state.phase is Phase.OVER


def test_custom_intel_cards_set_the_tokens() -> None:
    """[U-2]: the intel cards are data; tokens follow whatever ranks the card lists."""
    cards = [[1], [2, 9], [3], [5]]
    game = SpiesAndLies.dealt(intel=cards, intel_cards=cards)
    game.day((2, 3, 5, 9), (1, 2, 3, 9))
    assert game.state.current_intel == (2, 9)
    red, blue = view(game.state, None).sides
    assert [m.intel for m in red.missions] == [True, False, False, True]
    assert [m.intel for m in blue.missions] == [False, True, False, True]
