"""The texts people read count in English: "1 point", "2 points", never "1 points",
"step(s)" or "seat(s)".

The common counted texts are checked for 1 and 2 (event lines of the log, refusals of the
rules, the create answer's seat check, the simulator's report), and no string of the source
writes a plural as "(s)".
"""

from __future__ import annotations

import re
from pathlib import Path
from random import Random
from typing import Any

import pytest

from spies_core.black_spy.commands import PassCards, PlayCard
from spies_core.black_spy.events import BlackSpyTrickWon
from spies_core.decider import fold, start_game
from spies_core.errors import SpiesError
from spies_core.registry import GAMES
from spies_core.spies_and_lies import events as sl
from spies_core.spies_and_lies.state import MoveCause, PointSource
from spies_core.spies_and_lies.text import BOARD_LEGEND
from spies_core.words import counted, listed, seat_list
from spies_sim.text import render
from tests.core.black_spy.helpers import BlackSpy

SRC = Path(__file__).resolve().parents[2] / "src"


def test_counted_nouns_and_seat_lists() -> None:
    assert counted(1, "point") == "1 point" and counted(-1, "point") == "-1 point"
    assert counted(2, "point") == "2 points" and counted(0, "step") == "0 steps"
    assert counted(1, "entry", "entries") == "1 entry"
    assert counted(3, "entry", "entries") == "3 entries"
    assert listed([]) == "none" and listed([1]) == "1" and listed([1, 2]) == "1 and 2"
    assert listed([0, 2, 3]) == "0, 2 and 3"
    assert seat_list([2]) == "seat 2" and seat_list([3, 1]) == "seats 1 and 3"
    assert seat_list([]) == "no seat"


@pytest.mark.parametrize(("amount", "word"), [(1, "point"), (2, "points")])
def test_spies_and_lies_log_lines_count_points_and_steps(amount: int, word: str) -> None:
    describe = GAMES["spies-and-lies"].describe_event
    gained = sl.InfiltrationPointsGained(
        side=0, source=PointSource.GUESS, amount=amount, infiltrated=False, tower=amount
    )
    assert describe(gained) == f"red gains {amount} infiltration {word} (guess): marker at {amount}"
    infiltrated = sl.InfiltrationPointsGained(
        side=1,
        source=PointSource.DECEPTION,
        amount=4,
        infiltrated=True,
        tower=amount,
        carried=amount,
    )
    line = describe(infiltrated)
    assert line == (
        f"blue gains 4 infiltration points (deception), an infiltration: marker at {amount}"
        f" ({amount} {word} carried over)"
    )
    assert "!." not in line and "!:" not in line
    lost = sl.InfiltrationPointsLost(side=0, amount=amount, tower=0)
    assert describe(lost) == f"red loses {amount} infiltration {word}: marker at 0"
    moved = sl.DoubleAgentMoved(side=0, cause=MoveCause.LIEUTENANT, steps=amount, position=amount)
    step = "step" if amount == 1 else "steps"
    assert describe(moved) == (
        f"red moved the Double Agent {amount} {step} (lieutenant): now at +{amount}"
    )


@pytest.mark.parametrize(("points", "word"), [(1, "point"), (2, "points"), (-1, "point")])
def test_a_black_spy_trick_counts_its_points(points: int, word: str) -> None:
    won = BlackSpyTrickWon(trick=3, winner=1, cards=("red-1", "red-2", "red-3"), points=points)
    assert GAMES["black-spy"].describe_event(won).endswith(f"({points} {word})")


def test_black_spy_waits_for_one_seat_or_for_seats() -> None:
    game = BlackSpy.start(3, seed=1)
    for seat in (0, 1):
        game.act(seat, PassCards(cards=game.state.hands[seat][:3]))
    one = game.refused(0, PlayCard(card=game.state.hands[0][0]), SpiesError)
    assert "waiting for seat 2" in one.message and "(s)" not in one.message
    fresh = BlackSpy.start(3, seed=1)
    three = fresh.refused(0, PlayCard(card=fresh.state.hands[0][0]), SpiesError)
    assert "waiting for seats 0, 1 and 2" in three.message


def test_spies_and_lies_board_has_a_legend() -> None:
    spec = GAMES["spies-and-lies"]
    state = fold(spec, start_game(spec, 2, {}, Random(3)))
    text = spec.render_view(spec.view(state, None))
    assert text.endswith("\n".join(BOARD_LEGEND))
    for symbol in ("?", " a ", " r ", " T ", " D ", "marker", "tokens", "intel", "reserve"):
        assert symbol in "\n".join(BOARD_LEGEND), symbol


def _report(games: int, decisions: int) -> dict[str, Any]:
    seat = {
        "seat": 0,
        "bot": "random",
        "wins": games,
        "shared_wins": 0,
        "draws": 0,
        "losses": 0,
        "win_rate": 1.0,
        "ci95": [0.2, 1.0],
        "score": None,
        "decisions": decisions,
        "timing": {"median_ms": 0.1, "worst_ms": 0.2},
        "won_by": {"owned-faces": games},
    }
    return {
        "game": "deck-of-spies",
        "games": games,
        "seed": "0",
        "seats": ["random"],
        "options": {},
        "score_name": "owned face cards",
        "per_seat": [seat],
        "teams": [],
        "win_rate_weights": {"win": 1.0, "shared_win": 1.0, "draw": 0.5, "loss": 0.0},
        "reasons": {"owned-faces": games},
        "length": {
            "commands": {"mean": 1.0, "min": 1, "max": 1},
            "events": {"mean": 2.0, "min": 2, "max": 2},
        },
        "bots": {"random": {"decisions": decisions, "timing": {"median_ms": 0.1, "worst_ms": 0.2}}},
        "timing": {"games_per_second": 1.0, "jobs": 1, "played": games, "seconds": 1.0},
        "record": "games.db",
    }


@pytest.mark.parametrize(
    ("count", "games", "decisions"), [(1, "1 game", "1 decision"), (2, "2 games", "2 decisions")]
)
def test_the_simulator_counts_games_and_decisions(count: int, games: str, decisions: str) -> None:
    text = "\n".join(render(_report(count, count)))
    assert f"deck-of-spies: {games} from seed" in text
    assert f"over {decisions}" in text and f"({games} in" in text
    assert f"recorded: {games} in games.db" in text
    if count == 1:
        assert "1 games" not in text and "1 decisions" not in text


_PLURAL_SLIP = re.compile(r"""["'][^"'\n]*\w\(s\)[^"'\n]*["']""")


def test_no_string_of_the_source_writes_a_plural_as_s_in_brackets() -> None:
    found = [
        f"{path.relative_to(SRC)}:{number}: {line.strip()}"
        for path in sorted(SRC.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _PLURAL_SLIP.search(line)
    ]
    assert found == []


def test_a_late_move_names_its_game_s_path() -> None:
    from spies_replay.errors import DeadlinePassedError

    late = DeadlinePassedError("abc", 1, "2026-12-01T12:00:14.000000Z", 9)
    assert "see GET /games/abc for the game after it" in late.message
    assert "{id}" not in late.message
