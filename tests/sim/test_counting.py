"""How ``spies-sim`` counts: a shared win apart from a win, and the score named per game.

A Black Spy game ends in a shared win when two seats tie for the lowest total (Black Spy
§7): both are winners, and the report must say so rather than count two wins in one game.
"""

from __future__ import annotations

import io
from array import array
from typing import Any

import msgspec
import pytest

from spies_core import GAMES
from spies_sim.cli import _parser, main
from spies_sim.games import GameResult, Run, play_game
from spies_sim.tally import Tally

SHARED = ["black-spy", "--seats", "random,random,random", "--games", "1", "--seed", "100"]
"""A run of one game that two seats win together: seats 0 and 2 tie for the lowest total."""


def sim(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main([*argv, "--jobs", "1"], stdout=out, stderr=io.StringIO())
    return status, out.getvalue()


def test_the_seeded_game_is_a_shared_win() -> None:
    run = Run(game="black-spy", bots=("random",) * 3, games=1, seed="100", jobs=1, options={})
    result = play_game(run, 0)
    assert result.winners == (0, 2) and not result.draw
    assert result.scores[0] == result.scores[2] < result.scores[1]


def test_a_shared_win_is_its_own_column_not_one_more_win() -> None:
    status, out = sim(*SHARED, "--json")
    assert status == 0
    report = msgspec.json.decode(out)
    rows = [
        (seat["wins"], seat["shared_wins"], seat["draws"], seat["losses"])
        for seat in report["per_seat"]
    ]
    assert rows == [(0, 1, 0, 0), (0, 0, 0, 1), (0, 1, 0, 0)]
    # one game, one winner's worth of outright wins at most: here none, the win is shared
    assert sum(seat["wins"] for seat in report["per_seat"]) == 0
    assert [seat["win_rate"] for seat in report["per_seat"]] == [1.0, 0.0, 1.0]
    assert report["win_rate_weights"] == {
        "win": 1.0,
        "shared_win": 1.0,
        "draw": 0.5,
        "loss": 0.0,
    }
    assert report["per_seat"][0]["won_by"] == {"threshold-reached": 1}


def test_the_text_report_shows_the_shared_column_and_says_how_it_counts() -> None:
    status, out = sim(*SHARED)
    assert status == 0
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("seat"))
    assert header.split()[2:6] == ["wins", "shared", "draws", "losses"]
    seat0 = next(line for line in lines if line.startswith("   0"))
    assert seat0.split()[2:6] == ["0", "1", "0", "0"]
    assert any(line.startswith("shared: a tie for the win") for line in lines)
    assert "win rate: (wins + shared + draws/2) / games" in out


def test_help_says_how_a_shared_win_and_a_draw_count() -> None:
    help_text = " ".join(_parser().format_help().split())
    assert "shared win (a tie for the win with another seat or team" in help_text
    assert "(wins + shared + draws/2) / games, so a shared win counts as a whole win" in help_text
    for spec in GAMES.values():
        assert f"{spec.name}: {spec.score_name}" in help_text


@pytest.mark.parametrize("game", list(GAMES))
def test_the_score_column_is_named_for_what_the_game_scores(game: str) -> None:
    seats = ",".join(["random"] * min(GAMES[game].seat_counts))
    status, out = sim(game, "--seats", seats, "--games", "1")
    assert status == 0
    header = next(line for line in out.splitlines() if line.startswith("seat"))
    name = GAMES[game].score_name
    assert f"  {name}  " in header and " score " not in f"{header} "
    assert f"{name}: each seat's mean at the end of a game" in out


def _result(winners: tuple[int, ...], sides: tuple[int | None, ...], draw: bool = False) -> Any:
    return GameResult(
        index=0,
        winners=winners,
        draw=draw,
        reason="test",
        scores=(),
        commands=1,
        events=1,
        sides=sides,
        times=tuple(array("d", [0.001]) for _ in sides),
    )


def _tally(players: int, *results: GameResult) -> dict[str, Any]:
    run = Run(
        game="spies-and-lies", bots=("random",) * players, games=1, seed="s", jobs=1, options={}
    )
    tally = Tally(run)
    for result in results:
        tally.add(result)
    return tally.report(1.0)


def _counts(row: dict[str, Any]) -> tuple[int, int, int, int]:
    return row["wins"], row["shared_wins"], row["draws"], row["losses"]


def test_two_winners_of_one_team_win_outright() -> None:
    report = _tally(4, _result((0, 2), (0, 1, 0, 1)))
    assert [_counts(seat) for seat in report["per_seat"]] == [(1, 0, 0, 0), (0, 0, 0, 1)] * 2
    assert [_counts(team) for team in report["teams"]] == [(1, 0, 0, 0), (0, 0, 0, 1)]


def test_winners_of_two_sides_share_the_win_and_so_do_their_teams() -> None:
    report = _tally(4, _result((0, 1), (0, 1, 0, 1)), _result((), (0, 1, 0, 1), draw=True))
    seats = [_counts(seat) for seat in report["per_seat"]]
    assert seats == [(0, 1, 1, 0), (0, 1, 1, 0), (0, 0, 1, 1), (0, 0, 1, 1)]
    assert [_counts(team) for team in report["teams"]] == [(0, 1, 1, 0), (0, 1, 1, 0)]
    assert report["per_seat"][0]["win_rate"] == (1 + 0.5) / 2
    assert report["per_seat"][2]["win_rate"] == 0.5 / 2


def test_seats_without_sides_share_a_win_with_any_other_winner() -> None:
    report = _tally(2, _result((0,), (None, None)), _result((0, 1), (None, None)))
    assert [_counts(seat) for seat in report["per_seat"]] == [(1, 1, 0, 0), (0, 1, 0, 1)]
    assert report["teams"] == []
