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
- Once the game is over nothing is secret (its log is public): every viewer, a spectator
  included, sees both sides' hands and every face-down soldier.
"""

from __future__ import annotations

from random import Random

import msgspec
from msgspec.structs import replace

from spies_core.decider import GameView, shuffled
from spies_core.spies_and_lies.deployment import legal_deployments
from spies_core.spies_and_lies.events import (
    Event,
    IntelMarked,
    SoldiersDeployed,
    SpiesAndLiesStarted,
)
from spies_core.spies_and_lies.options import ReserveRule
from spies_core.spies_and_lies.soldiers import Rank
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
    """The mission, 1 to 4: the order in which the side's soldiers are guessed (§5.3.2)."""
    seat: int
    """The seat that plays this mission: the side's seat, or in team play the first teammate
    for missions 1-2 and the second for 3-4 (§14.2)."""
    deployed: bool
    """A soldier lies under this mission (false before the side has deployed it this day)."""
    rank: Rank | None
    """The soldier's rank, 1 to 10, when it is face up or this viewer may see it (its own
    side's face-down soldiers, §3, §14.4; every soldier once the game is over); ``null``
    otherwise."""
    face_up: bool
    """The soldier was revealed in a guess-turn (§6 step 3)."""
    retreated: bool
    """Face up and turned 90°: guessed correctly, or forced to retreat (§6 steps 5-7); its
    ability can never be activated. Face up and not retreated means activated."""
    intel: bool | None
    """An intel token lies on the mission: its rank is on the current intel card, except
    that a Sergeant is marked freely (§5.2); ``null`` until both sides' tokens are
    revealed (§5.2.4) and for a mission without a soldier."""
    deception: bool
    """A deception token was played on this soldier in the current guess-turn (§6 step 1,
    §10)."""


class SideView(msgspec.Struct, frozen=True, kw_only=True):
    """One side as the viewer sees it."""

    side: int
    """The side, 0 red, 1 blue."""
    colour: str
    """``red`` or ``blue``."""
    seats: tuple[int, ...]
    """The seats of this side: one, or two teammates in team play (seats 0 and 2 are red, 1
    and 3 blue, §14)."""
    hand: tuple[Rank, ...] | None
    """The side's soldiers in hand, ascending, when this viewer may see them (its own side,
    §3; in team play, see §14.4; every side once the game is over); ``null`` otherwise;
    ``[]`` before the deal (``dealt: false``)."""
    hand_size: int
    """Soldiers in the side's hand (public)."""
    exhausted: tuple[Rank, ...]
    """The side's exhausted soldiers, ascending: 1, or 2 after the enemy's double damage;
    they may not be deployed this day (§4.9, §11.1). Public."""
    missions: tuple[MissionView, ...]
    """Missions 1 to 4 of the side, as this viewer sees them."""
    tower: int
    """The side's infiltration marker, 0 to 9 at rest (§7): reaching 10 moves the Double
    Agent and resets it."""
    deception_tokens: int
    """Deception tokens the side holds, 0 to 2 (§10.2)."""
    reserve_taken: int
    """Reserve deception tokens this side's Spies have taken (at most 1 with a per-side
    reserve, [I-9])."""
    effects: tuple[SoldierEffect, ...]
    """The round effects running for this side until the end of the day (§9)."""
    double_damage: bool
    """This side draws 2 of the opponent's deployed soldiers as exhausted at the end of the
    day instead of 1 (§9 Bomb, §11.1)."""


class DayRecord(msgspec.Struct, frozen=True, kw_only=True):
    """A past day as it lay at its end: every card was face up, so all of it is public."""

    day: int
    """The day, 1 or 2."""
    intel: tuple[Rank, ...]
    """That day's intel card: the ranks printed on it (§5.2.5)."""
    missions: tuple[tuple[MissionView, ...], ...]
    """Per side (red, blue), missions 1-4 as they lay at the end of the day."""


class SpiesAndLiesView(GameView, frozen=True, kw_only=True, tag_field="game", tag="spies-and-lies"):
    """A seat's (or a spectator's) view of a Spies & Lies game."""

    side: int | None
    """The viewer's side, 0 red, 1 blue (seat mod 2); ``null`` for a spectator."""
    players: int
    """The number of seats: 2, or 4 for team play (§14)."""
    board_length: int
    """G, the spaces from the centre to the space in front of each gate (§8.1, [U-1]); the
    creation option ``board_length``."""
    intel_cards: tuple[tuple[Rank, ...], ...]
    """The intel cards of this game, each the ranks printed on it (§5.2.5, [I-1]); the
    creation option ``intel_cards``."""
    reserve_rule: ReserveRule
    """Deprecated: use ``deception_reserve_rule`` (the same value). Who may take the two
    reserve deception tokens: ``shared`` or ``per-side`` ([U-6], [I-9])."""
    deception_reserve_rule: ReserveRule
    """Who may take the two reserve deception tokens: ``shared`` (one side's Spies may take
    both) or ``per-side`` (one each) ([U-6], [I-9]); the creation option
    ``deception_reserve``."""
    deception_pays_on_forced_retreat: bool
    """Whether a deception token on a wrongly guessed card that was forced to retreat still
    pays +4 ([I-5]); the creation option of that name."""
    day: int
    """The day, 1 to 3 (§5); 0 before the deal (``dealt: false``)."""
    phase: Phase
    """``deploy``, ``intel``, ``mission`` (the day's three phases, §5), or ``over``; ``setup``
    before the deal (``dealt: false``: a table waiting for its open seats). Before the deal
    only ``players``, the options (``board_length``, ``intel_cards``, the reserve rule,
    ``deception_pays_on_forced_retreat``), each side's seats, starting deception token and
    the reserve are meaningful; what the deal draws is empty (``old_intel``, ``exhausted``,
    ``hand``: ``[]``; ``intel_deck_size``: 0; ``starting_side``: ``null``)."""
    stage: Stage | None
    """The step of the current guess-turn (§6.1): ``deception`` (the defender may play a
    token), ``guess``, ``marshal`` or ``captain`` (an activated soldier's owner chooses);
    ``null`` outside the mission phase."""
    turn: int | None
    """The current guess-turn of the day, 1 to 8 (§5.3.2); ``null`` outside the mission
    phase."""
    mission: int | None
    """The target mission of the current guess-turn, 1 to 4 (§5.3.2); ``null`` outside the
    mission phase."""
    guesser: int | None
    """The seat that names a rank in the current guess-turn (§5.3.2); ``null`` outside the
    mission phase."""
    defender: int | None
    """The seat whose soldier is the target of the current guess-turn (it may play a
    deception token, §6 step 1); ``null`` outside the mission phase."""
    starting_side: int | None
    """The side starting this day's guess-turns, 0 red, 1 blue; ``null`` on day 1 until the
    Starting Player card is flipped at the start of the mission phase (§5.3.1)."""
    to_act: tuple[int, ...]
    """The seats that may send a command now: every seat still to deploy or to mark intel
    (simultaneous phases), else the one seat the guess-turn waits for; ``[]`` once the
    game is over."""
    intel_marked: tuple[int, ...]
    """The seats that have finished their intel placement this day (``mark_sergeant`` or
    ``confirm_intel``, §5.2); ascending."""
    double_agent: int
    """The Double Agent's position on the board (§8.1): 0 the neutral centre; 1 to G blue's
    territory (red pushes it up) with G in front of blue's gate and G + 1 blue's flag; -1
    to -G red's territory, -(G + 1) red's flag."""
    deception_reserve: int
    """Deprecated: use ``deception_reserve_left`` (the same value). Deception tokens left in
    the reserve, 0 to 2 ([I-9])."""
    deception_reserve_left: int
    """Deception tokens left in the reserve, 0 to 2, for activated Spies to take (§9 rank 1,
    [I-9]); who may take them is ``deception_reserve_rule``."""
    old_intel: tuple[tuple[Rank, ...], ...]
    """The old-intel pile, first first: the card turned up at setup (§4.8), then each past
    day's intel card (§11.3). Public."""
    current_intel: tuple[Rank, ...] | None
    """This day's intel card, the ranks printed on it (§5.2.1); ``null`` before it is turned
    up in the intel phase."""
    intel_deck_size: int
    """Intel cards left face down in the intel deck."""
    sides: tuple[SideView, ...]
    """Red (0) and blue (1), as this viewer sees them."""
    history: tuple[DayRecord, ...]
    """The days before the current one (§11: revealed cards stay known)."""
    winner: int | None
    """The winning side once the game is over, 0 red, 1 blue; ``null`` while it goes on and
    for a draw (see ``draw``)."""
    end_reason: EndReason | None
    """How the game ended (§12); ``null`` while it goes on."""
    draw: bool
    """True when the game ended in a draw: the Double Agent on the centre and equal markers
    after day 3 (§12.2)."""


def starter_hidden(state: State) -> bool:
    """The day-1 starter is not known yet: it is drawn with the deal and flipped when the
    mission phase of day 1 begins (§5.3.1); later days' starters follow from the
    alternation."""
    return state.phase is Phase.SETUP or (
        state.day == 1 and state.phase in (Phase.DEPLOY, Phase.INTEL)
    )


def visible_missions(state: State, side: int, viewer: int | None) -> range:
    """Mission indices of ``side`` whose face-down soldier ``viewer`` may see (§3, §14.4):
    every one, by everyone, once the game is over (nothing is secret then)."""
    if state.phase is Phase.OVER:
        return range(MISSIONS)
    if viewer is None or viewer % 2 != side:
        return range(0)
    if state.players == 2 or viewer >= 2:
        return range(MISSIONS)
    return range(2)


def hand_visible(state: State, side: int, viewer: int | None) -> bool:
    """Whether ``viewer`` may see ``side``'s hand (§3, §14.4; module docstring): anyone may
    once the game is over."""
    if state.phase is Phase.OVER:
        return True
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
        deception_reserve_rule=state.options.deception_reserve,
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
        deception_reserve_left=state.reserve,
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
    rule, intel tokens, revealed cards). Before the deal and after the end nothing is hidden."""
    if state.phase in (Phase.SETUP, Phase.OVER):
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
