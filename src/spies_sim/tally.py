"""The running totals of a run, fed one game at a time, and the report they make.

:meth:`Tally.report` is the object ``spies-sim --json`` prints (and :mod:`spies_sim.text`
renders): per seat the wins, shared wins, draws and losses, the win rate with its Wilson 95%
interval, the mean score, the decisions and their times; per team too when seats share a
side (Spies & Lies with 4 seats); why the games ended, their length, the decision time per
bot, and the run's timing.

Each game counts once per seat, as exactly one of: a **win** (the seat is among the winners
and every winner is on its side: alone, or with its team), a **shared win** (the seat is
among the winners, and so is a seat of another side: a tie the rules allow, such as two
Black Spy seats with the same lowest total), a **draw** (the rules' draw: nobody won) or a
**loss**. The win rate counts a win and a shared win whole and a draw half
(:data:`WIN_RATE_WEIGHTS`), so the win rates of a run with shared wins add up to more than
one. A team's games are counted the same way, by side.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from spies_core.registry import get_game
from spies_replay import redact_location
from spies_sim.games import GameResult, Run
from spies_sim.stats import spread, timing, wilson

__all__ = ["WIN_RATE_WEIGHTS", "Tally"]

WIN_RATE_WEIGHTS: dict[str, float] = {"win": 1.0, "shared_win": 1.0, "draw": 0.5, "loss": 0.0}
"""How much of a win each result counts for in a win rate (the report carries it)."""


@dataclass(slots=True)
class _Record:
    """Wins, shared wins, draws and losses of one seat or team."""

    wins: int = 0
    shared_wins: int = 0
    draws: int = 0
    losses: int = 0
    won_by: Counter[str] = field(default_factory=Counter)
    """Every win, shared or not, by the way the game ended."""

    def add(self, won: bool, shared: bool, draw: bool, reason: str) -> None:
        if draw:
            self.draws += 1
        elif won:
            if shared:
                self.shared_wins += 1
            else:
                self.wins += 1
            self.won_by[reason] += 1
        else:
            self.losses += 1

    def report(self) -> dict[str, Any]:
        games = self.wins + self.shared_wins + self.draws + self.losses
        weight = WIN_RATE_WEIGHTS
        credit = (
            self.wins * weight["win"]
            + self.shared_wins * weight["shared_win"]
            + self.draws * weight["draw"]
            + self.losses * weight["loss"]
        )
        low, high = wilson(credit, games)
        return {
            "wins": self.wins,
            "shared_wins": self.shared_wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": credit / games,
            "ci95": [low, high],
            "won_by": dict(sorted(self.won_by.items())),
        }


class Tally:
    """The running totals of a run, fed one game at a time; :meth:`report` is the report."""

    def __init__(self, run: Run) -> None:
        players = len(run.bots)
        self.run = run
        self.games = 0
        self.seats = [_Record() for _ in range(players)]
        self.scores: list[list[int]] = [[] for _ in range(players)]
        self.times = [array("d") for _ in range(players)]
        self.reasons: Counter[str] = Counter()
        self.commands: list[int] = []
        self.events: list[int] = []
        self.teams: dict[int, tuple[list[int], _Record]] | None = None

    def add(self, result: GameResult) -> None:
        """Count one game."""
        players = len(self.run.bots)
        if self.teams is None:
            self.teams = _teams(result.sides)
        self.games += 1
        self.reasons[result.reason] += 1
        self.commands.append(result.commands)
        self.events.append(result.events)
        shared = _shared(result)
        for seat in range(players):
            self.seats[seat].add(seat in result.winners, shared, result.draw, result.reason)
            self.times[seat].extend(result.times[seat])
        if len(result.scores) == players:
            for seat, score in enumerate(result.scores):
                self.scores[seat].append(score)
        for group, record in self.teams.values():
            won = any(seat in result.winners for seat in group)
            record.add(won, shared, result.draw, result.reason)

    def report(self, seconds: float, played: int | None = None) -> dict[str, Any]:
        """The report, as the JSON object ``--json`` prints.

        Everything but the values under ``timing`` keys depends only on the run's game,
        seats, options, seed and number of games.

        Args:
            seconds: the wall-clock time of this sitting.
            played: the games played in it (default: all; fewer when resumed).
        """
        played = self.games if played is None else played
        run, games = self.run, self.games
        by_bot: dict[str, array[float]] = {}
        for seat, bot in enumerate(run.bots):
            by_bot.setdefault(bot, array("d")).extend(self.times[seat])
        return {
            "game": run.game,
            "players": len(run.bots),
            "seats": list(run.bots),
            "games": games,
            "seed": run.seed,
            "options": run.options,
            "per_seat": [
                {"seat": seat, "bot": bot}
                | self.seats[seat].report()
                | {
                    "score": spread(self.scores[seat]),
                    "decisions": len(self.times[seat]),
                    "timing": timing(self.times[seat]),
                }
                for seat, bot in enumerate(run.bots)
            ],
            "teams": [
                {"side": side, "seats": group, "bots": [run.bots[s] for s in group]}
                | record.report()
                for side, (group, record) in sorted((self.teams or {}).items())
            ],
            "reasons": dict(sorted(self.reasons.items())),
            "length": {"commands": spread(self.commands), "events": spread(self.events)},
            "bots": {
                bot: {"decisions": len(spent), "timing": timing(spent)}
                for bot, spent in by_bot.items()
            },
            "timing": {
                "seconds": seconds,
                "played": played,
                "games_per_second": played / seconds if seconds > 0 and played else None,
                "jobs": run.jobs,
            },
            "record": None if run.record is None else redact_location(run.record),
            "win_rate_weights": WIN_RATE_WEIGHTS,
            "score_name": get_game(run.game).score_name,
        }


def _shared(result: GameResult) -> bool:
    """Whether the game's win is shared: its winners are on more than one side (a seat
    without a side is a side of its own)."""
    sides = {
        ("side", side) if (side := result.sides[seat]) is not None else ("seat", seat)
        for seat in result.winners
    }
    return len(sides) > 1


def _teams(sides: Sequence[int | None]) -> dict[int, tuple[list[int], _Record]]:
    """Seats grouped by side, when some side has several seats (a team game); else none."""
    members: dict[int, list[int]] = {}
    for seat, side in enumerate(sides):
        if side is not None:
            members.setdefault(side, []).append(seat)
    if not any(len(group) > 1 for group in members.values()):
        return {}
    return {side: (group, _Record()) for side, group in members.items()}
