"""The state of a Spies & Lies game (§3), its vocabularies, the seat arithmetic of §14, who
is to act, the invariants and the bound on a game's events.

Sides are numbers: 0 red, 1 blue. With 2 seats, seat 0 is red and seat 1 blue. With 4 seats
(team play, §14) seats 0 and 2 are red, 1 and 3 blue; the first of each team (seat 0 or 1)
plays missions 1-2, the second (seat 2 or 3) missions 3-4, and the team shares one soldier
deck, marker, deception tokens and exhausted soldiers ([I-20]).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

import msgspec

from spies_core.spies_and_lies.deployment import completions, is_ordered
from spies_core.spies_and_lies.options import DAYS, ReserveRule, SpiesAndLiesOptions
from spies_core.spies_and_lies.soldiers import (
    ALL_RANKS,
    BLUE,
    BOMB,
    CAPTAIN,
    COLONEL,
    GENERAL,
    LIEUTENANT,
    MARSHAL,
    MINER,
    MISSIONS,
    RANK_NAMES,
    RED,
    SCOUT,
    SERGEANT,
    SIDE_NAMES,
    SPY,
    TURNS,
    MarshalOption,
)

__all__ = [
    "ALL_RANKS",
    "BLUE",
    "BOMB",
    "CAPTAIN",
    "COLONEL",
    "EMPTY_MISSIONS",
    "GENERAL",
    "INFILTRATION_AT",
    "LIEUTENANT",
    "MARSHAL",
    "MAX_DECEPTION_TOKENS",
    "MAX_EVENTS",
    "MINER",
    "MISSIONS",
    "RANK_NAMES",
    "RED",
    "SCOUT",
    "SERGEANT",
    "SIDE_NAMES",
    "SPY",
    "TURNS",
    "EndReason",
    "ForcedBy",
    "MarshalOption",
    "Mission",
    "MoveCause",
    "Phase",
    "PointSource",
    "SideState",
    "SoldierEffect",
    "Stage",
    "State",
    "check_invariants",
    "current_seats",
    "deception_window_open",
    "defender_side",
    "guesser_side",
    "mission_owner",
    "seat_missions",
    "sergeant_slot",
    "to_act",
]

INFILTRATION_AT: Final = 10
"""A marker reaching 10 infiltrates (§7)."""
MAX_DECEPTION_TOKENS: Final = 2
"""Holding limit of deception tokens (§10)."""

# MAX_EVENTS (§5, §6, §11): a true upper bound, counted per guess-turn:
#   1 deception decision + 1 reveal + the worst activation, a Captain borrowing a Marshal
#   that sabotages: captain_chosen, marshal_chosen, points (+ Double Agent move), points lost
#   = 5 (a borrowed Spy is as many: captain, points, move, token, effect), then the deception
#   +4 with its move = 2. A correct guess costs less (points, move, double damage).
_EVENTS_PER_TURN: Final = 1 + 1 + 5 + 2
# per day: 4 deployments (team play), the intel card, 4 intel marks, the tokens, 8 turns, day end
_EVENTS_PER_DAY: Final = 4 + 1 + 4 + 1 + TURNS * _EVENTS_PER_TURN + 1
MAX_EVENTS: Final = 1 + DAYS * _EVENTS_PER_DAY + 1
"""Upper bound on the events of a game: the start, three days, and the end (which replaces
a Double Agent move when a flag is captured, so it is counted once on its own)."""


class Phase(StrEnum):
    """Where the game stands (§5)."""

    SETUP = "setup"
    """Not started: the state before the first event."""
    DEPLOY = "deploy"
    """Secret, simultaneous deployment (§5.1)."""
    INTEL = "intel"
    """The intel card is up; sides mark their Sergeant, tokens not yet revealed (§5.2)."""
    MISSION = "mission"
    """The eight guess-turns (§5.3, §6)."""
    OVER = "over"
    """The game has ended (§12)."""


class Stage(StrEnum):
    """The step of the current guess-turn (§6, §6.1)."""

    DECEPTION = "deception"
    """The defender's deception window (§6 step 1); passed over when it holds no token."""
    GUESS = "guess"
    """The guesser names a rank (§6 step 2)."""
    MARSHAL = "marshal"
    """An activated Marshal's owner chooses its option (§9, rank 10)."""
    CAPTAIN = "captain"
    """An activated Captain's owner takes 6 points or borrows an exhausted soldier (§9, rank 6)."""


class SoldierEffect(StrEnum):
    """Round-scoped effects of an activation (§9); they last until the end of the day."""

    SCOUT = "scout"
    """Correct guesses score 4 instead of 2."""
    SPY = "spy"
    """An enemy Marshal revealed in the owner's guess must retreat [I-4]."""
    MINER = "miner"
    """An enemy Bomb revealed in the owner's guess must retreat [I-4]."""
    BOMB = "bomb"
    """The next enemy card the owner reveals retreats (``bombPending``, [I-10])."""


class ForcedBy(StrEnum):
    """Why a revealed card was forced to retreat (§6 step 5)."""

    BOMB = "bomb"
    """Step 5a: the guesser's Bomb was pending."""
    SPY = "spy"
    """Step 5b: the guesser's Spy is active and the card is a Marshal."""
    MINER = "miner"
    """Step 5c: the guesser's Miner is active and the card is a Bomb."""


class PointSource(StrEnum):
    """Where a gain of infiltration points comes from (§7)."""

    GUESS = "guess"
    """A correct guess: 2, or 4 with an active Scout (§6 step 6)."""
    SOLDIER = "soldier"
    """An activated (or borrowed, §9 Captain) soldier's points."""
    DECEPTION = "deception"
    """A successful deception: +4 (§10)."""


class MoveCause(StrEnum):
    """What moved the Double Agent (§8); each is one move [I-3]."""

    INFILTRATION = "infiltration"
    """The marker reached 10: as many steps as the day number (§7)."""
    LIEUTENANT = "lieutenant"
    """An activated Lieutenant: 1 step."""
    GENERAL = "general"
    """An activated General: 2 steps."""


class EndReason(StrEnum):
    """How the game ended (§12)."""

    FLAG_CAPTURED = "flag-captured"
    """The Double Agent was moved onto a flag (§12.1)."""
    TERRITORY = "territory"
    """After day 3 the Double Agent stood in one side's territory (§12.2)."""
    INFILTRATION = "infiltration"
    """After day 3 the Double Agent stood on the centre: the higher marker won, or, when the
    markers are equal, the game is a draw (§12.2, [I-19])."""


class Mission(msgspec.Struct, frozen=True, kw_only=True):
    """One mission card of one side and the soldier under it (§3)."""

    rank: int | None = None
    """The deployed soldier; ``None`` before deployment."""
    face_up: bool = False
    """Revealed in a guess-turn (§6 step 3)."""
    retreated: bool = False
    """Turned 90°: guessed correctly or forced to retreat. Face up and not retreated means
    activated."""
    intel: bool = False
    """An intel token lies on it (§5.2). Before the tokens are revealed only the Sergeant's
    owner's secret mark is stored here."""
    deception: bool = False
    """A deception token was played on it (§10)."""


EMPTY_MISSIONS: Final = (Mission(), Mission(), Mission(), Mission())


class SideState(msgspec.Struct, frozen=True, kw_only=True):
    """One side (a player, or a team in team play: resources are shared, [I-20])."""

    hand: tuple[int, ...]
    """Soldiers in hand, ascending (secret)."""
    exhausted: tuple[int, ...]
    """Exhausted soldiers, ascending (public; 1, or 2 after enemy double damage)."""
    missions: tuple[Mission, ...] = EMPTY_MISSIONS
    tower: int = 0
    """The infiltration marker, 0-9 at rest (§7)."""
    deception_tokens: int = 1
    """Deception tokens held, 0-2 (§10)."""
    reserve_taken: int = 0
    """Reserve tokens this side's Spies have taken (limits it to 1 with a per-side reserve)."""
    scout: bool = False
    spy: bool = False
    miner: bool = False
    bomb: bool = False
    """``bombPending``: the next enemy card this side reveals retreats (§6 step 5a)."""
    double_damage: bool = False
    """This side draws 2 of the opponent's soldiers at the end of the day (§9 Bomb, §11)."""


class State(msgspec.Struct, frozen=True, kw_only=True):
    """The whole game, hidden parts included (the API never returns it; see ``view``)."""

    players: int = 0
    options: SpiesAndLiesOptions = SpiesAndLiesOptions()
    phase: Phase = Phase.SETUP
    day: int = 0
    starter: int = RED
    """The side that starts the current day's mission phase (§5.3.1)."""
    sides: tuple[SideState, ...] = ()
    intel_deck: tuple[tuple[int, ...], ...] = ()
    """The face-down intel cards, top first (hidden from everyone)."""
    old_intel: tuple[tuple[int, ...], ...] = ()
    current_intel: tuple[int, ...] | None = None
    reserve: int = 2
    """Deception tokens left in the reserve [I-9] (with a per-side reserve, see
    ``SideState.reserve_taken``)."""
    double_agent: int = 0
    """0 centre, +1..+G blue's territory (red attacks +), +(G+1) blue's flag; mirrored (§8)."""
    turn: int = 0
    """Index 0-7 of the current guess-turn of the day (§5.3.2)."""
    stage: Stage = Stage.DECEPTION
    intel_marked: tuple[int, ...] = ()
    """Seats that have sent their intel command this day."""
    history: tuple[tuple[tuple[Mission, ...], ...], ...] = ()
    """The missions of each past day, per side, as they lay at its end (all face up: public)."""
    winner: int | None = None
    """The winning side once over; ``None`` for a draw."""
    end_reason: EndReason | None = None


def guesser_side(state: State) -> int:
    """The side guessing in the current guess-turn (§5.3.2: P, Q, P, Q, ...)."""
    return state.starter if state.turn % 2 == 0 else 1 - state.starter


def defender_side(state: State) -> int:
    """The side whose card is the target of the current guess-turn."""
    return 1 - state.starter if state.turn % 2 == 0 else state.starter


def mission_owner(players: int, side: int, index: int) -> int:
    """The seat that plays mission ``index`` (0-3) of ``side`` (§14.2)."""
    if players == 2 or index < 2:
        return side
    return side + 2


def seat_missions(players: int, seat: int) -> range:
    """Mission indices (0-3) a seat plays: all four, or two in team play (§14.2)."""
    if players == 2:
        return range(MISSIONS)
    return range(0, 2) if seat < 2 else range(2, 4)


_SINGLE: Final = tuple(frozenset({seat}) for seat in range(4))
_NOBODY: Final[frozenset[int]] = frozenset()


def sergeant_slot(state: State, seat: int) -> int | None:
    """The mission (0-3) under which ``seat`` deployed its Sergeant today, if it did (§5.2.3)."""
    missions = state.sides[seat % 2].missions
    for index in seat_missions(state.players, seat):
        if missions[index].rank == SERGEANT:
            return index
    return None


def _deployers(state: State) -> frozenset[int]:
    seats = set()
    for side, team in enumerate(state.sides):
        if team.missions[0].rank is None:
            seats.add(side)
        elif team.missions[3].rank is None:
            seats.add(side + 2)  # team play: the first teammate has deployed (§14.4)
    return frozenset(seats)


def current_seats(state: State) -> tuple[int, int, int]:
    """The guesser's seat, the defender's seat (the owner of the target) and the target index."""
    index = state.turn // 2
    guesser = guesser_side(state)
    players = state.players
    return (
        mission_owner(players, guesser, index),
        mission_owner(players, 1 - guesser, index),
        index,
    )


def deception_window_open(state: State) -> bool:
    """The defender's deception window (§6 step 1) is open: it is passed over when the
    defender holds no token."""
    return (
        state.phase is Phase.MISSION
        and state.stage is Stage.DECEPTION
        and state.sides[defender_side(state)].deception_tokens > 0
    )


def to_act(state: State) -> frozenset[int]:
    """Seats that owe a command now; several in the deploy and intel phases."""
    phase = state.phase
    if phase is Phase.MISSION:
        guesser, defender, _ = current_seats(state)
        stage = state.stage
        if stage is Stage.DECEPTION:
            if state.sides[defender_side(state)].deception_tokens > 0:
                return _SINGLE[defender]
            return _SINGLE[guesser]
        if stage is Stage.GUESS:
            return _SINGLE[guesser]
        return _SINGLE[defender]
    if phase is Phase.DEPLOY:
        return _deployers(state)
    if phase is Phase.INTEL:
        marked = state.intel_marked
        return frozenset(seat for seat in range(state.players) if seat not in marked)
    return _NOBODY


def check_invariants(state: State) -> None:  # noqa: C901  (a list of independent checks)
    """Raise ``AssertionError`` when the state breaks a rule invariant."""
    if state.phase is Phase.SETUP:
        return
    gate = state.options.board_length
    assert state.players in (2, 4), state.players
    assert 1 <= state.day <= DAYS, state.day
    assert -gate - 1 <= state.double_agent <= gate + 1, state.double_agent
    if abs(state.double_agent) == gate + 1:
        assert state.end_reason is EndReason.FLAG_CAPTURED, "a flag is taken only at the end"
    held = 0
    played = 0
    for side, team in enumerate(state.sides):
        deployed = [m.rank for m in team.missions if m.rank is not None]
        places = [*team.hand, *team.exhausted, *deployed]
        # §4.9, §5.1, §11: each of the side's 10 soldiers is in exactly one place.
        assert sorted(places) == sorted(ALL_RANKS), (SIDE_NAMES[side], places)
        assert list(team.hand) == sorted(team.hand) and list(team.exhausted) == sorted(
            team.exhausted
        )
        assert 1 <= len(team.exhausted) <= 2, team.exhausted
        assert 0 <= team.tower < INFILTRATION_AT, team.tower
        assert 0 <= team.deception_tokens <= MAX_DECEPTION_TOKENS, team.deception_tokens
        held += team.deception_tokens
        filled = [m.rank is not None for m in team.missions]
        assert filled in ([False] * 4, [True] * 2 + [False] * 2, [True] * 4), filled
        if len(deployed) == MISSIONS:
            assert is_ordered(deployed), deployed  # §5.1.2
        elif deployed:
            assert state.players == 4 and completions(team.hand, tuple(deployed))
        for index, mission in enumerate(team.missions):
            played += mission.deception
            assert mission.face_up or not mission.retreated
            if state.phase in (Phase.MISSION, Phase.OVER) and mission.rank != SERGEANT:
                assert mission.intel == (mission.rank in (state.current_intel or ())), index
    assert 0 <= state.reserve <= 2 and held + state.reserve + played <= 4, (held, state.reserve)
    taken = [team.reserve_taken for team in state.sides]
    assert sum(taken) == 2 - state.reserve, (taken, state.reserve)
    if state.options.deception_reserve is ReserveRule.PER_SIDE:
        assert max(taken) <= 1, taken
    if state.phase is Phase.DEPLOY:
        assert len(state.intel_deck) >= DAYS - state.day + 1
    if state.phase is Phase.MISSION:
        assert 0 <= state.turn < TURNS
        face_up = sum(m.face_up for team in state.sides for m in team.missions)
        pending = state.stage in (Stage.MARSHAL, Stage.CAPTAIN)
        assert face_up == state.turn + pending, (face_up, state.turn, state.stage)
    assert (state.phase is Phase.OVER) == (state.end_reason is not None)
    assert len(state.old_intel) == state.day, (len(state.old_intel), state.day)
    assert len(state.history) == state.day - 1, (len(state.history), state.day)
    for past in state.history:
        assert all(m.face_up for missions in past for m in missions), "past days are revealed"
