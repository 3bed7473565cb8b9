"""What an event does to a game of Spies & Lies: the initial state, ``evolve`` (which trusts
the log), and what a state says: its outcome (§12), a forfeit on time and its seats.

Rule numbers refer to ``docs/rules/spies-and-lies.md``.
"""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from spies_core.decider import Outcome
from spies_core.errors import CorruptLogError
from spies_core.spies_and_lies.events import (
    CaptainChosen,
    DeceptionDeclined,
    DeceptionPlayed,
    DeceptionTokenGained,
    DoubleAgentMoved,
    DoubleDamageEarned,
    Event,
    FlagCaptured,
    InfiltrationPointsGained,
    InfiltrationPointsLost,
    IntelCardTurned,
    IntelMarked,
    IntelTokensRevealed,
    MarshalChosen,
    SoldierEffectStarted,
    SoldierRevealed,
    SoldiersDeployed,
    SpiesAndLiesDayEnded,
    SpiesAndLiesEnded,
    SpiesAndLiesStarted,
)
from spies_core.spies_and_lies.options import SpiesAndLiesOptions
from spies_core.spies_and_lies.state import (
    ALL_RANKS,
    CAPTAIN,
    EMPTY_MISSIONS,
    MARSHAL,
    RED,
    ForcedBy,
    Mission,
    Phase,
    SideState,
    Stage,
    State,
    sergeant_slot,
)

__all__ = ["configured", "evolve", "forfeit", "initial_state", "outcome", "players"]


def initial_state() -> State:
    """The state before the first event."""
    return State()


def configured(players: int, options: SpiesAndLiesOptions) -> State:
    """The table before its deal: the seats, the options (board, intel cards, reserve rule)
    and both sides with their starting deception token (§4) are set; the intel deck, the
    first exhausted soldiers, the hands and the day-1 starter are the deal's, so still
    empty (the starter hidden, see ``view.starter_hidden``). An explicit deal stays out."""
    side = SideState(hand=(), exhausted=())
    return State(players=players, options=replace(options, deal=None), sides=(side, side))


def players(state: State) -> int:
    """Number of seats: 2, or 4 in team play (§14)."""
    return state.players


def _set_side(state: State, side: int, team: SideState) -> tuple[SideState, ...]:
    return (team, state.sides[1]) if side == RED else (state.sides[0], team)


def _set_mission(team: SideState, index: int, mission: Mission) -> SideState:
    missions = list(team.missions)
    missions[index] = mission
    return replace(team, missions=tuple(missions))


def _next_turn(state: State, **changes: object) -> State:
    return replace(state, turn=state.turn + 1, stage=Stage.DECEPTION, **changes)


def evolve(state: State, event: Event) -> State:  # noqa: C901  (one case per event)
    """Apply a recorded fact. Never validates user input.

    Raises:
        CorruptLogError: the event cannot follow this state.
    """
    match event:
        case SpiesAndLiesStarted():
            return _evolve_started(state, event)
        case SoldiersDeployed():
            team = state.sides[event.side]
            soldiers = event.soldiers
            if soldiers is None:
                raise CorruptLogError("soldiers_deployed without soldiers in the game's own log")
            missions = list(team.missions)
            for offset, rank in enumerate(soldiers):
                missions[event.first_mission - 1 + offset] = Mission(rank=rank)
            hand = tuple(rank for rank in team.hand if rank not in soldiers)
            team = replace(team, hand=hand, missions=tuple(missions))
            return replace(state, sides=_set_side(state, event.side, team))
        case IntelCardTurned():
            if not state.intel_deck or state.intel_deck[0] != event.card:
                raise CorruptLogError(f"intel_card_turned {list(event.card)} is not the top card")
            return replace(
                state,
                phase=Phase.INTEL,
                current_intel=event.card,
                intel_deck=state.intel_deck[1:],
                intel_marked=(),
            )
        case IntelMarked():
            marked = tuple(sorted((*state.intel_marked, event.seat)))
            if event.sergeant_token is None:
                return replace(state, intel_marked=marked)
            slot = sergeant_slot(state, event.seat)
            if slot is None:
                raise CorruptLogError(f"intel_marked: seat {event.seat} has no Sergeant")
            team = state.sides[event.side]
            mission = replace(team.missions[slot], intel=event.sergeant_token)
            team = _set_mission(team, slot, mission)
            return replace(state, intel_marked=marked, sides=_set_side(state, event.side, team))
        case IntelTokensRevealed():
            if event.starting_side not in (None, state.starter):
                raise CorruptLogError(
                    f"intel_tokens_revealed names side {event.starting_side} as the starter of"
                    f" day {state.day}, the log says side {state.starter}"
                )
            sides = tuple(
                replace(
                    team,
                    missions=tuple(
                        replace(mission, intel=token)
                        for mission, token in zip(team.missions, row, strict=True)
                    ),
                )
                for team, row in zip(state.sides, event.tokens, strict=True)
            )
            return replace(state, sides=sides, phase=Phase.MISSION, turn=0, stage=Stage.DECEPTION)
        case DeceptionPlayed():
            team = state.sides[event.side]
            index = event.mission - 1
            team = _set_mission(team, index, replace(team.missions[index], deception=True))
            team = replace(team, deception_tokens=team.deception_tokens - 1)
            return replace(state, sides=_set_side(state, event.side, team), stage=Stage.GUESS)
        case DeceptionDeclined():
            return replace(state, stage=Stage.GUESS)
        case SoldierRevealed():
            return _evolve_revealed(state, event)
        case InfiltrationPointsGained() | InfiltrationPointsLost():
            team = replace(state.sides[event.side], tower=event.tower)
            return replace(state, sides=_set_side(state, event.side, team))
        case DeceptionTokenGained():
            team = state.sides[event.side]
            team = replace(
                team,
                deception_tokens=team.deception_tokens + 1,
                reserve_taken=team.reserve_taken + 1,
            )
            return replace(
                state, sides=_set_side(state, event.side, team), reserve=state.reserve - 1
            )
        case SoldierEffectStarted():
            team = replace(state.sides[event.side], **{str(event.effect): True})
            return replace(state, sides=_set_side(state, event.side, team))
        case DoubleDamageEarned():
            team = replace(state.sides[event.side], double_damage=True)
            return replace(state, sides=_set_side(state, event.side, team))
        case MarshalChosen():
            return _next_turn(state)
        case CaptainChosen():
            if event.borrow == MARSHAL:
                return replace(state, stage=Stage.MARSHAL)
            return _next_turn(state)
        case DoubleAgentMoved():
            return replace(state, double_agent=event.position)
        case FlagCaptured():
            flag = state.options.board_length + 1
            return replace(state, double_agent=flag if event.side == RED else -flag)
        case SpiesAndLiesDayEnded():
            return _evolve_day_ended(state, event)
        case SpiesAndLiesEnded():
            return replace(state, phase=Phase.OVER, winner=event.winner, end_reason=event.reason)
        case _:
            assert_never(event)


def _evolve_started(state: State, event: SpiesAndLiesStarted) -> State:
    if state.phase is not Phase.SETUP or event.intel_deck is None or event.starting_side is None:
        raise CorruptLogError(
            "spies_and_lies_started must come first, with its intel deck and day-1 starter"
        )
    sides = tuple(
        SideState(hand=tuple(r for r in ALL_RANKS if r != rank), exhausted=(rank,))
        for rank in event.exhausted
    )
    return State(
        players=event.players,
        options=event.options,
        phase=Phase.DEPLOY,
        day=1,
        starter=event.starting_side,
        sides=sides,
        intel_deck=event.intel_deck,
        old_intel=(event.old_intel,),
    )


def _evolve_revealed(state: State, event: SoldierRevealed) -> State:
    if state.phase is not Phase.MISSION or event.turn != state.turn + 1:
        raise CorruptLogError(
            f"soldier_revealed for guess-turn {event.turn} during guess-turn {state.turn + 1}"
        )
    index = event.mission - 1
    defender = state.sides[event.side]
    activated = not event.correct and event.forced_by is None
    mission = replace(defender.missions[index], face_up=True, retreated=not activated)
    defender = _set_mission(defender, index, mission)
    attacker = state.sides[1 - event.side]
    if event.forced_by is ForcedBy.BOMB:
        attacker = replace(attacker, bomb=False)  # §6 step 5a: consumed by this reveal
    sides = (defender, attacker) if event.side == RED else (attacker, defender)
    if activated and event.rank == MARSHAL:
        return replace(state, sides=sides, stage=Stage.MARSHAL)
    if activated and event.rank == CAPTAIN:
        return replace(state, sides=sides, stage=Stage.CAPTAIN)
    return _next_turn(state, sides=sides)


def _evolve_day_ended(state: State, event: SpiesAndLiesDayEnded) -> State:
    """§11: new exhausted soldiers, the rest back in hand, tokens and flags cleared."""
    sides = tuple(
        replace(
            team,
            hand=tuple(rank for rank in ALL_RANKS if rank not in exhausted),
            exhausted=exhausted,
            missions=EMPTY_MISSIONS,
            scout=False,
            spy=False,
            miner=False,
            bomb=False,
            double_damage=False,
        )
        for team, exhausted in zip(state.sides, event.exhausted, strict=True)
    )
    current = () if state.current_intel is None else (state.current_intel,)
    return replace(
        state,
        history=(*state.history, tuple(team.missions for team in state.sides)),
        sides=sides,
        old_intel=state.old_intel + current,
        current_intel=None,
        day=state.day + 1,
        starter=event.next_starting_side,
        phase=Phase.DEPLOY,
        turn=0,
        stage=Stage.DECEPTION,
        intel_marked=(),
    )


def outcome(state: State) -> Outcome | None:
    """``None`` while the game goes on; the winners are every seat of the winning side."""
    if state.phase is not Phase.OVER or state.end_reason is None:
        return None
    seats = range(state.players)
    winners = () if state.winner is None else tuple(s for s in seats if s % 2 == state.winner)
    return Outcome(
        winners=winners,
        reason=str(state.end_reason),
        draw=state.winner is None,
        scores=tuple(state.sides[s % 2].tower for s in seats),
    )


def forfeit(state: State, seat: int) -> Outcome:
    """``seat`` ran out of time with ``forfeit`` as its time control's rule: its side loses
    and the other side wins (a team's both seats), whatever the score."""
    seats = range(state.players)
    return Outcome(
        winners=tuple(s for s in seats if s % 2 != seat % 2),
        reason="timeout",
        scores=tuple(state.sides[s % 2].tower for s in seats) if state.sides else (),
    )
