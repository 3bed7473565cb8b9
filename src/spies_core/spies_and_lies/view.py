"""What each seat may see of a Spies & Lies game (§3, [I-25], §14.4).

- A side's hand and face-down soldiers are hidden from the other side and from spectators
  until revealed (§3); the intel deck order is hidden from everyone.
- Team play (§14.4): the team's hand is shared ([I-20]); the second teammate (missions 3-4)
  sees the first teammate's two soldiers from the moment they are deployed to the end of the
  day (it needs them to keep the order legal, and the event telling it arrives once; an
  engine cannot make a seat forget, so "look once" means it learns them once and nothing
  more). The first teammate never sees missions 3-4 before they are revealed, and therefore
  stops seeing the team's hand once its teammate has deployed (hand and missions 3-4 would
  betray each other) until the day ends.
- Intel tokens are shown once both sides' tokens are revealed (§5.2.4); a Sergeant mark is
  seen only by the seat that made it until then ([I-13]).
- The day-1 starter is drawn at setup but hidden from everyone until the mission phase of
  day 1 begins, when the Starting Player card is flipped (§5.3.1).
"""

from __future__ import annotations

from random import Random

import msgspec
from msgspec.structs import replace

from spies_core.decider import shuffled
from spies_core.spies_and_lies.deployment import legal_deployments
from spies_core.spies_and_lies.events import (
    Event,
    IntelMarked,
    SoldiersDeployed,
    SpiesAndLiesStarted,
)
from spies_core.spies_and_lies.options import ReserveRule
from spies_core.spies_and_lies.state import (
    MISSIONS,
    SERGEANT,
    SIDE_NAMES,
    EndReason,
    Mission,
    Phase,
    SideState,
    SoldierEffect,
    Stage,
    State,
    current_seats,
    deception_window_open,
    mission_owner,
    to_act,
)

__all__ = [
    "DayRecord",
    "MissionView",
    "SideView",
    "SpiesAndLiesView",
    "hand_visible",
    "redact",
    "scramble",
    "starter_hidden",
    "view",
    "visible_missions",
]


class MissionView(msgspec.Struct, frozen=True, kw_only=True):
    """One mission card of one side as the viewer sees it."""

    mission: int
    """1-4."""
    seat: int
    """The seat that plays it (§14.2)."""
    deployed: bool
    rank: int | None
    """The soldier, when face up or visible to the viewer; otherwise ``None``."""
    face_up: bool
    retreated: bool
    intel: bool | None
    """An intel token; ``None`` until the tokens are revealed."""
    deception: bool


class SideView(msgspec.Struct, frozen=True, kw_only=True):
    """One side as the viewer sees it."""

    side: int
    colour: str
    seats: tuple[int, ...]
    hand: tuple[int, ...] | None
    """The side's hand when the viewer may see it (§3, §14.4)."""
    hand_size: int
    exhausted: tuple[int, ...]
    missions: tuple[MissionView, ...]
    tower: int
    deception_tokens: int
    reserve_taken: int
    """Reserve tokens this side has taken (at most 1 each with a per-side reserve)."""
    effects: tuple[SoldierEffect, ...]
    """Round effects running this day (§9)."""
    double_damage: bool


class DayRecord(msgspec.Struct, frozen=True, kw_only=True):
    """A past day as it lay at its end: every card was face up, so all of it is public."""

    day: int
    intel: tuple[int, ...]
    missions: tuple[tuple[MissionView, ...], ...]
    """Per side (red, blue), missions 1-4."""


class SpiesAndLiesView(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="game", tag="spies-and-lies"
):
    """A seat's (or a spectator's) view of a Spies & Lies game."""

    version: int = 0
    seat: int | None
    side: int | None
    """The viewer's side: 0 red, 1 blue."""
    players: int
    board_length: int
    intel_cards: tuple[tuple[int, ...], ...]
    reserve_rule: ReserveRule
    deception_pays_on_forced_retreat: bool
    day: int
    phase: Phase
    stage: Stage | None
    """The step of the current guess-turn (mission phase only)."""
    turn: int | None
    """The current guess-turn, 1-8 (mission phase only)."""
    mission: int | None
    """The target mission of the current guess-turn, 1-4."""
    guesser: int | None
    defender: int | None
    starting_side: int | None
    """The side starting this day's guess-turns; ``None`` on day 1 until the Starting Player
    card is flipped at the start of the mission phase (§5.3.1)."""
    to_act: tuple[int, ...]
    intel_marked: tuple[int, ...]
    double_agent: int
    deception_reserve: int
    old_intel: tuple[tuple[int, ...], ...]
    current_intel: tuple[int, ...] | None
    intel_deck_size: int
    sides: tuple[SideView, ...]
    history: tuple[DayRecord, ...]
    """The days before the current one (§11: revealed cards stay known)."""
    winner: int | None
    end_reason: EndReason | None
    draw: bool


def starter_hidden(state: State) -> bool:
    """The day-1 starter is not known yet: it is flipped when the mission phase of day 1
    begins (§5.3.1); later days' starters follow from the alternation."""
    return state.day == 1 and state.phase in (Phase.DEPLOY, Phase.INTEL)


def visible_missions(state: State, side: int, viewer: int | None) -> range:
    """Mission indices of ``side`` whose face-down soldier ``viewer`` may see (§3, §14.4)."""
    if viewer is None or viewer % 2 != side:
        return range(0)
    if state.players == 2 or viewer >= 2:
        return range(MISSIONS)
    return range(2)


def hand_visible(state: State, side: int, viewer: int | None) -> bool:
    """Whether ``viewer`` may see ``side``'s hand (§3, §14.4; module docstring)."""
    if viewer is None or viewer % 2 != side:
        return False
    if state.players == 2 or viewer >= 2:
        return True
    return state.sides[side].missions[2].rank is None


def _effects(team: SideState) -> tuple[SoldierEffect, ...]:
    return tuple(effect for effect in SoldierEffect if getattr(team, str(effect)))


def _mission_views(
    players: int, side: int, missions: tuple[Mission, ...], visible: range, tokens_out: bool
) -> tuple[MissionView, ...]:
    return tuple(
        MissionView(
            mission=index + 1,
            seat=mission_owner(players, side, index),
            deployed=mission.rank is not None,
            rank=mission.rank if mission.face_up or index in visible else None,
            face_up=mission.face_up,
            retreated=mission.retreated,
            intel=mission.intel if tokens_out and mission.rank is not None else None,
            deception=mission.deception,
        )
        for index, mission in enumerate(missions)
    )


def _history(state: State) -> tuple[DayRecord, ...]:
    return tuple(
        DayRecord(
            day=day,
            intel=state.old_intel[day],
            missions=tuple(
                _mission_views(state.players, side, missions, range(0), True)
                for side, missions in enumerate(sides)
            ),
        )
        for day, sides in enumerate(state.history, start=1)
    )


def _side_view(state: State, side: int, viewer: int | None) -> SideView:
    team = state.sides[side]
    visible = visible_missions(state, side, viewer)
    tokens_out = state.phase in (Phase.MISSION, Phase.OVER)
    missions = _mission_views(state.players, side, team.missions, visible, tokens_out)
    return SideView(
        side=side,
        colour=SIDE_NAMES[side],
        seats=tuple(seat for seat in range(state.players) if seat % 2 == side),
        hand=team.hand if hand_visible(state, side, viewer) else None,
        hand_size=len(team.hand),
        exhausted=team.exhausted,
        missions=missions,
        tower=team.tower,
        deception_tokens=team.deception_tokens,
        reserve_taken=team.reserve_taken,
        effects=_effects(team),
        double_damage=team.double_damage,
    )


def view(state: State, seat: int | None) -> SpiesAndLiesView:
    """What ``seat`` (or a spectator, ``None``) may see now."""
    in_mission = state.phase is Phase.MISSION
    stage: Stage | None = None
    guesser = defender = None
    if in_mission:
        guesser, defender, _ = current_seats(state)
        stage = state.stage
        if stage is Stage.DECEPTION and not deception_window_open(state):
            stage = Stage.GUESS  # the window is passed over without a token (§6 step 1)
    return SpiesAndLiesView(
        seat=seat,
        side=None if seat is None else seat % 2,
        players=state.players,
        board_length=state.options.board_length,
        intel_cards=state.options.intel_cards,
        reserve_rule=state.options.deception_reserve,
        deception_pays_on_forced_retreat=state.options.deception_pays_on_forced_retreat,
        day=state.day,
        phase=state.phase,
        stage=stage,
        turn=state.turn + 1 if in_mission else None,
        mission=state.turn // 2 + 1 if in_mission else None,
        guesser=guesser,
        defender=defender,
        starting_side=None if starter_hidden(state) else state.starter,
        to_act=tuple(sorted(to_act(state))),
        intel_marked=state.intel_marked,
        double_agent=state.double_agent,
        deception_reserve=state.reserve,
        old_intel=state.old_intel,
        current_intel=state.current_intel,
        intel_deck_size=len(state.intel_deck),
        sides=tuple(_side_view(state, side, seat) for side in range(len(state.sides))),
        history=_history(state),
        winner=state.winner,
        end_reason=state.end_reason,
        draw=state.phase is Phase.OVER and state.winner is None,
    )


def redact(event: Event, seat: int | None) -> Event | None:
    """``event`` as ``seat`` (or a spectator) may see it; nothing is dropped."""
    match event:
        case SpiesAndLiesStarted():
            return replace(
                event,
                intel_deck=None,
                starting_side=None,
                options=replace(event.options, deal=None),
            )
        case SoldiersDeployed():
            if seat == event.seat:
                return event
            teammate = seat is not None and seat % 2 == event.side and event.first_mission == 1
            return event if teammate else replace(event, soldiers=None)
        case IntelMarked():
            return event if seat == event.seat else replace(event, sergeant_token=None)
        case _:
            return event


def scramble(state: State, viewer: int | None, rng: Random) -> State:
    """A state equal in all ``viewer`` may see, with the hidden parts redrawn: the intel deck
    order, the day-1 starter before it is flipped, and each side's hidden soldiers reassigned
    among its hand and hidden missions in a way consistent with everything public (ordering
    rule, intel tokens, revealed cards)."""
    if state.phase is Phase.SETUP:
        return state
    sides = tuple(_scramble_side(state, side, viewer, rng) for side in range(2))
    starter = rng.randrange(2) if starter_hidden(state) else state.starter
    return replace(state, intel_deck=shuffled(rng, state.intel_deck), sides=sides, starter=starter)


def _scramble_side(state: State, side: int, viewer: int | None, rng: Random) -> SideState:
    team = state.sides[side]
    visible = visible_missions(state, side, viewer)
    deployed = [index for index, mission in enumerate(team.missions) if mission.rank is not None]
    hidden = [i for i in deployed if not team.missions[i].face_up and i not in visible]
    if not hidden:
        return team  # the hand is then all that is neither exhausted nor deployed
    card = state.current_intel or ()
    tokens_out = state.phase in (Phase.MISSION, Phase.OVER)
    pool = tuple(rank for rank in range(1, 11) if rank not in team.exhausted)

    def fits(row: tuple[int, ...]) -> bool:
        for index in deployed:
            rank = row[index]
            if index not in hidden:
                if rank != team.missions[index].rank:
                    return False
            elif tokens_out and rank != SERGEANT and (rank in card) != team.missions[index].intel:
                return False
        return True

    candidates = sorted(
        {tuple(row[i] for i in deployed) for row in legal_deployments(pool) if fits(row)}
    )
    chosen = candidates[rng.randrange(len(candidates))]
    missions = list(team.missions)
    for index, rank in zip(deployed, chosen, strict=True):
        if index not in hidden:
            continue
        intel = team.missions[index].intel
        if not tokens_out:
            owner = mission_owner(state.players, side, index)
            marked = state.phase is Phase.INTEL and owner in state.intel_marked
            intel = rng.randrange(2) == 1 if rank == SERGEANT and marked else False
        missions[index] = replace(team.missions[index], rank=rank, intel=intel)
    hand = tuple(rank for rank in pool if rank not in chosen)
    return replace(team, hand=hand, missions=tuple(missions))
