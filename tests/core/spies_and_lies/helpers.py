"""Spies & Lies under test (:class:`tests.support.games.Table`): games from a fixed deal,
advanced by scripted commands."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from spies_core.spies_and_lies import SPEC
from spies_core.spies_and_lies.commands import (
    Command,
    ConfirmIntel,
    Deceive,
    DeclineDeception,
    Deploy,
    Guess,
    MarkSergeant,
)
from spies_core.spies_and_lies.events import Event
from spies_core.spies_and_lies.legal import legal_commands
from spies_core.spies_and_lies.state import (
    Phase,
    SideState,
    State,
    current_seats,
    deception_window_open,
    defender_side,
    to_act,
)
from tests.support.games import Table

INTEL_ORDER = [[1, 2, 3, 4], [4, 5, 6, 7], [7, 8, 9, 10], [1, 2, 3, 4], [4, 5, 6, 7], [7, 8, 9, 10]]
"""A fixed intel deck: old intel {1-4}; day 1 {4-7}, day 2 {7-10}, day 3 {1-4}."""

RED, BLUE = 0, 1


class SpiesAndLies(Table[State, Command, Event]):
    """A game of Spies & Lies from a fixed deal (:meth:`dealt`), its commands drawing from
    one generator; the shorthands script whole phases, days and guess-turns."""

    SPEC = SPEC

    @classmethod
    def dealt(
        cls,
        players: int = 2,
        *,
        exhausted: tuple[int, int] = (10, 10),
        starting: int = RED,
        intel: list[list[int]] | None = None,
        seed: int = 0,
        **options: Any,
    ) -> SpiesAndLies:
        """Given a game dealt ``intel`` (:data:`INTEL_ORDER` by default), the ``exhausted``
        soldiers and the ``starting`` side, with ``Random(seed)`` for the start and every
        command after it."""
        deal = {"intel": intel or INTEL_ORDER, "exhausted": list(exhausted), "starting": starting}
        return cls.start(players, {"deal": deal, **options}, rng=random.Random(seed))

    def deploy(self, red: tuple[int, ...], blue: tuple[int, ...]) -> list[Event]:
        """Both sides deploy all four missions (2 seats)."""
        return self.act(RED, Deploy(soldiers=red)) + self.act(BLUE, Deploy(soldiers=blue))

    def deploy_teams(self, red: tuple[int, ...], blue: tuple[int, ...]) -> list[Event]:
        """Team play: each teammate deploys its two missions, first teammates first."""
        events = self.act(0, Deploy(soldiers=red[:2])) + self.act(1, Deploy(soldiers=blue[:2]))
        return (
            events + self.act(2, Deploy(soldiers=red[2:])) + self.act(3, Deploy(soldiers=blue[2:]))
        )

    def intel(self, marks: dict[int, bool] | None = None) -> list[Event]:
        """Every seat answers the intel phase; Sergeant owners mark as ``marks`` says."""
        events: list[Event] = []
        for seat in sorted(to_act(self.state)):
            events += self.intel_of(seat, (marks or {}).get(seat, False))
        return events

    def intel_of(self, seat: int, mark: bool = False) -> list[Event]:
        """One seat answers the intel phase."""
        if legal_commands(self.state, seat) == [ConfirmIntel()]:
            return self.act(seat, ConfirmIntel())
        return self.act(seat, MarkSergeant(token=mark))

    def day(self, red: tuple[int, ...], blue: tuple[int, ...]) -> None:
        """Deploy and pass the intel phase."""
        if self.state.players == 2:
            self.deploy(red, blue)
        else:
            self.deploy_teams(red, blue)
        self.intel()
        assert self.state.phase is Phase.MISSION

    def pick_all(self, seat: int) -> list[Command]:
        """The legal commands of ``seat`` now."""
        return legal_commands(self.state, seat)

    def rows(self, seat: int) -> list[tuple[int, ...]]:
        """The soldiers of every legal ``deploy`` of ``seat`` now."""
        return [c.soldiers for c in legal_commands(self.state, seat) if isinstance(c, Deploy)]

    def pick(self, seat: int, wanted: Callable[[tuple[int, ...]], bool]) -> tuple[int, ...]:
        """The first legal deployment of ``seat`` that ``wanted`` accepts."""
        for command in legal_commands(self.state, seat):
            assert isinstance(command, Deploy)
            if wanted(command.soldiers):
                return command.soldiers
        raise AssertionError(f"no legal deployment of seat {seat} fits")

    def day_where(
        self,
        red: Callable[[tuple[int, ...]], bool] = lambda soldiers: True,
        blue: Callable[[tuple[int, ...]], bool] = lambda soldiers: True,
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Deploy (2 seats) the first legal rows that fit, pass the intel phase."""
        rows = (self.pick(RED, red), self.pick(BLUE, blue))
        self.day(*rows)
        return rows

    def play_to_day(self, day: int) -> None:
        """Play whole days (first legal rows, correct guesses) until ``day`` begins."""
        while self.state.day < day:
            self.day_where()
            self.finish_day()

    def play_to_turn(self, turn: int) -> None:
        """Play correct guess-turns until guess-turn ``turn`` (1-8) is due."""
        while self.state.turn + 1 < turn:
            self.turn()

    @property
    def target(self) -> int:
        """The rank of the current guess-turn's target."""
        rank = self.state.sides[defender_side(self.state)].missions[self.state.turn // 2].rank
        assert rank is not None
        return rank

    def pick_guess(self, *, wrong: bool = False) -> Guess:
        """The correct guess now, or a wrong one."""
        rank = self.target
        return Guess(rank=(rank % 10) + 1 if wrong else rank)

    def turn(self, guess: int | None = None, *, deceive: bool = False) -> list[Event]:
        """One guess-turn: the defender's window (when open), then the guess (the target's
        true rank unless ``guess`` is given)."""
        guesser, defender, _ = current_seats(self.state)
        events: list[Event] = []
        if deception_window_open(self.state):
            events += self.act(defender, Deceive() if deceive else DeclineDeception())
        else:
            assert not deceive, "the defender holds no deception token"
        return events + self.act(guesser, Guess(rank=self.target if guess is None else guess))

    def finish_day(self) -> None:
        """Play the remaining guess-turns of the day with correct guesses."""
        day = self.state.day
        while self.state.phase is Phase.MISSION and self.state.day == day:
            self.turn()

    def given_side(self, side: int, **changes: Any) -> None:
        """Set up a situation for one side (marker, tokens, effects...)."""
        team: SideState = replace(self.state.sides[side], **changes)
        sides = (team, self.state.sides[1]) if side == RED else (self.state.sides[0], team)
        self.state = replace(self.state, sides=sides)
