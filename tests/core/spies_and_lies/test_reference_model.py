"""An independent model of §5-§12 and §14, written from the spec's pseudocode (§6 steps 1-8,
§7 ``addPoints``, §8 ``moveDoubleAgent``, §9 abilities, §10, §11, §12) without the engine's
code, run side by side with the engine over random games of 2 and 4 seats under every option.

The model takes from the engine only the setup (``spies_and_lies_started``) and the outcome of
each blind exhausted draw (``spies_and_lies_day_ended``); after every command the public and
hidden numbers of both must agree: markers, Double Agent, tokens, reserve, round flags, the
mission cards, hands, exhausted soldiers, day, starter, who is to act and the result.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from spies_core.decider import fold, start_game
from spies_core.spies_and_lies import SPEC
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
from spies_core.spies_and_lies.events import Event, SpiesAndLiesDayEnded, SpiesAndLiesStarted
from spies_core.spies_and_lies.state import MarshalOption, Phase, State, defender_side

RANKS = frozenset(range(1, 11))


@dataclass
class Card:
    rank: int
    face_up: bool = False
    retreated: bool = False
    deception: bool = False
    intel: bool = False


@dataclass
class Side:
    hand: set[int]
    exhausted: set[int]
    missions: list[Card | None] = field(default_factory=lambda: [None] * 4)
    tower: int = 0
    tokens: int = 1
    taken: int = 0
    scout: bool = False
    spy: bool = False
    miner: bool = False
    bomb: bool = False
    double_damage: bool = False


class Model:
    """The spec, step by step (names follow §3)."""

    def __init__(self, started: SpiesAndLiesStarted) -> None:
        assert started.intel_deck is not None and started.starting_side is not None
        self.players = started.players
        self.gate = started.options.board_length
        self.pays_forced = started.options.deception_pays_on_forced_retreat
        self.per_side = str(started.options.deception_reserve) == "per-side"
        self.sides = [Side(set(RANKS) - {rank}, {rank}) for rank in started.exhausted]
        self.deck = list(started.intel_deck)
        self.old = [started.old_intel]
        self.current: tuple[int, ...] | None = None
        self.day = 1
        self.starter = started.starting_side
        self.double_agent = 0
        self.reserve = 2
        self.phase = "deploy"
        self.answered: set[int] = set()
        self.marks: dict[int, bool] = {}
        self.turn = 0
        self.window_done = False
        self.pending: str | None = None
        self.over = False
        self.winner: int | None = None

    # seats (§14.2) ----------------------------------------------------------------------
    def owner(self, side: int, index: int) -> int:
        return side if self.players == 2 or index < 2 else side + 2

    def guesser(self) -> int:
        return self.starter if self.turn % 2 == 0 else 1 - self.starter

    def to_act(self) -> set[int]:
        if self.over:
            return set()
        if self.phase == "deploy":
            seats = set()
            for side, team in enumerate(self.sides):
                if team.missions[0] is None:
                    seats.add(side)
                elif team.missions[3] is None:
                    seats.add(side + 2)
            return seats
        if self.phase == "intel":
            return set(range(self.players)) - self.answered
        g, index = self.guesser(), self.turn // 2
        if self.pending is not None:
            return {self.owner(1 - g, index)}
        if not self.window_done and self.sides[1 - g].tokens > 0:
            return {self.owner(1 - g, index)}
        return {self.owner(g, index)}

    # §7, §8 --------------------------------------------------------------------------------
    def move(self, side: int, steps: int) -> None:
        direction = 1 if side == 0 else -1
        gate = direction * self.gate
        if self.double_agent == gate:
            self.double_agent = gate + direction
            self.over, self.winner = True, side
            return
        for _ in range(steps):
            self.double_agent += direction
            if self.double_agent == gate:
                return

    def add(self, side: int, points: int, carry: bool = False) -> None:
        total = self.sides[side].tower + points
        if total < 10:
            self.sides[side].tower = total
            return
        self.sides[side].tower = 0
        self.move(side, self.day)
        if not self.over and carry:
            self.sides[side].tower = total - 10

    # §9 ------------------------------------------------------------------------------------
    def activate(self, side: int, rank: int) -> None:
        team = self.sides[side]
        if rank in (1, 2, 3, 4):
            self.add(side, rank)
        if self.over:  # the points took the flag: nothing more happens ([I-24])
            return
        in_reserve = team.taken < 1 if self.per_side else self.reserve > 0
        if rank == 1 and team.tokens < 2 and in_reserve:  # §10, [I-9]
            team.tokens += 1
            team.taken += 1
            self.reserve -= 1
        if rank == 1:
            team.spy = True
        elif rank == 2:
            team.scout = True
        elif rank == 3:
            team.miner = True
        elif rank == 5:
            self.move(side, 1)
        elif rank == 6:
            self.pending = "captain"
        elif rank == 7:
            team.bomb = True
        elif rank == 8:
            self.add(side, 8, carry=True)
        elif rank == 9:
            self.move(side, 2)
        elif rank == 10:
            self.pending = "marshal"

    # §6 ------------------------------------------------------------------------------------
    def target(self) -> Card:
        card = self.sides[1 - self.guesser()].missions[self.turn // 2]
        assert card is not None
        return card

    def close_wrong(self) -> None:
        defender = 1 - self.guesser()
        if self.target().deception and not self.over:
            self.add(defender, 4)
        self.next_turn()

    def guess(self, named: int) -> None:
        g = self.guesser()
        attacker, card = self.sides[g], self.target()
        card.face_up = True
        forced = None
        if attacker.bomb:
            forced, attacker.bomb = "bomb", False
        elif attacker.spy and card.rank == 10:
            forced = "spy"
        elif attacker.miner and card.rank == 7:
            forced = "miner"
        if named == card.rank:
            card.retreated = True
            self.add(g, 4 if attacker.scout else 2)
            if forced == "bomb" and not self.over:
                attacker.double_damage = True
            self.next_turn()
        elif forced is not None:
            card.retreated = True
            if card.deception and self.pays_forced and not self.over:
                self.add(1 - g, 4)
            self.next_turn()
        else:
            self.activate(1 - g, card.rank)
            if self.pending is None:
                self.close_wrong()

    def next_turn(self) -> None:
        if self.over:
            return
        self.turn += 1
        self.window_done = False
        if self.turn == 8:
            self.phase = "day-end"

    # §11, §12 ------------------------------------------------------------------------------
    def end_day(self, drawn: tuple[tuple[int, ...], ...] | None) -> None:
        if self.day == 3:
            self.over = True
            if self.double_agent != 0:
                self.winner = 0 if self.double_agent > 0 else 1
            elif self.sides[0].tower != self.sides[1].tower:
                self.winner = 0 if self.sides[0].tower > self.sides[1].tower else 1
            return
        assert drawn is not None
        counts = [2 if self.sides[1 - side].double_damage else 1 for side in (0, 1)]
        for side, team in enumerate(self.sides):
            deployed = {card.rank for card in team.missions if card is not None}
            new = set(drawn[side])
            assert new <= deployed and len(new) == counts[side]  # 1 or 2 of the 4 deployed
            team.exhausted, team.hand = new, set(RANKS) - new
            team.missions = [None] * 4
            team.scout = team.spy = team.miner = team.bomb = team.double_damage = False
        assert self.current is not None
        self.old.append(self.current)
        self.current = None
        self.day += 1
        self.starter = 1 - self.starter
        self.phase, self.turn, self.window_done = "deploy", 0, False

    # commands ------------------------------------------------------------------------------
    def apply(self, seat: int, command: Command, events: list[Event]) -> None:  # noqa: C901
        assert seat in self.to_act()
        side = seat % 2
        match command:
            case Deploy(soldiers=soldiers):
                first = 0 if self.players == 2 or seat < 2 else 2
                for offset, rank in enumerate(soldiers):
                    self.sides[side].missions[first + offset] = Card(rank)
                    self.sides[side].hand.remove(rank)
                if all(card is not None for team in self.sides for card in team.missions):
                    self.current = self.deck.pop(0)
                    self.phase, self.answered, self.marks = "intel", set(), {}
            case MarkSergeant(token=token):
                self.answered.add(seat)
                self.marks[side] = token
            case ConfirmIntel():
                self.answered.add(seat)
            case Deceive():
                team = self.sides[1 - self.guesser()]
                team.tokens -= 1
                self.target().deception = True
                self.window_done = True
            case DeclineDeception():
                self.window_done = True
            case Guess(rank=rank):
                self.guess(rank)
            case ChooseCaptain(borrow=borrow):
                self.pending = None
                defender = 1 - self.guesser()
                if borrow is None:
                    self.add(defender, 6)
                else:
                    self.activate(defender, borrow)
                if self.pending is None:
                    self.close_wrong()
            case ChooseMarshal(option=option):
                self.pending = None
                defender = 1 - self.guesser()
                if option is MarshalOption.POINTS:
                    self.add(defender, 10)
                else:
                    self.add(defender, 5)
                    if not self.over:
                        opponent = self.sides[1 - defender]
                        opponent.tower = max(0, opponent.tower - 5)
                self.close_wrong()
        if self.phase == "intel" and len(self.answered) == self.players:
            assert self.current is not None
            for side_no, team in enumerate(self.sides):
                for card in team.missions:
                    assert card is not None
                    card.intel = (
                        self.marks.get(side_no, False)
                        if card.rank == 4
                        else card.rank in self.current
                    )
            self.phase, self.turn, self.window_done = "mission", 0, False
        if self.phase == "day-end":
            ended = [event for event in events if isinstance(event, SpiesAndLiesDayEnded)]
            self.end_day(ended[0].exhausted if ended else None)

    # comparison ----------------------------------------------------------------------------
    def check(self, state: State) -> None:
        assert (state.phase is Phase.OVER) == self.over
        if self.over:
            assert state.winner == self.winner
        else:
            assert (state.day, state.starter) == (self.day, self.starter)
            assert state.phase.value == self.phase
            assert state.current_intel == self.current and list(state.old_intel) == self.old
        assert state.double_agent == self.double_agent
        assert state.reserve == self.reserve
        assert set(SPEC.to_act(state)) == self.to_act()
        for team, mine in zip(state.sides, self.sides, strict=True):
            assert team.tower == mine.tower
            assert team.deception_tokens == mine.tokens
            assert set(team.hand) == mine.hand and set(team.exhausted) == mine.exhausted
            flags = (team.scout, team.spy, team.miner, team.bomb, team.double_damage)
            assert flags == (mine.scout, mine.spy, mine.miner, mine.bomb, mine.double_damage)
            for mission, card in zip(team.missions, mine.missions, strict=True):
                if card is None:
                    assert mission.rank is None
                    continue
                assert (mission.rank, mission.face_up, mission.retreated, mission.deception) == (
                    card.rank,
                    card.face_up,
                    card.retreated,
                    card.deception,
                )
                if self.phase == "mission" or self.over:
                    assert mission.intel == card.intel


def _choose(state: State, seat: int, rng: random.Random) -> Command:
    """A random legal command, with correct guesses and deceptions made more likely."""
    legal = SPEC.legal_commands(state, seat)
    if isinstance(legal[0], Guess) and rng.random() < 0.35:
        rank = state.sides[defender_side(state)].missions[state.turn // 2].rank
        return Guess(rank=rank or 1)
    if Deceive() in legal and rng.random() < 0.5:
        return Deceive()
    return rng.choice(legal)


OPTIONS = [
    {},
    {"board_length": 1},
    {"board_length": 2, "deception_pays_on_forced_retreat": False},
    {"deception_reserve": "per-side"},
    {"board_length": 5, "deception_reserve": "per-side"},
]


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
def test_the_engine_agrees_with_an_independent_model_of_the_spec(
    players: int, options: dict[str, object]
) -> None:
    """§5-§12, §14 and [I-3]-[I-20]: the model and the engine agree after every command."""
    endings = set()
    for seed in range(30):
        rng = random.Random(seed * 7 + players)
        events = start_game(SPEC, players, options, rng)
        started = events[0]
        assert isinstance(started, SpiesAndLiesStarted)
        state = fold(SPEC, events)
        model = Model(started)
        model.check(state)
        while SPEC.outcome(state) is None:
            seat = rng.choice(sorted(SPEC.to_act(state)))
            command = _choose(state, seat, rng)
            new = SPEC.decide(state, seat, command, rng)
            for event in new:
                state = SPEC.evolve(state, event)
            model.apply(seat, command, new)
            model.check(state)
        result = SPEC.outcome(state)
        assert result is not None
        endings.add(result.reason)
    assert "flag-captured" in endings
