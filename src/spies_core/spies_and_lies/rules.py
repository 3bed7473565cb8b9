"""What happens in Spies & Lies: the setup (§4) and the events of each command, checked
against the rules (``start`` and ``decide``).

Rule numbers refer to ``docs/rules/spies-and-lies.md``. Where it marks an interpretation
[I-n], the code implementing it names it.
"""

from __future__ import annotations

from typing import assert_never

from spies_core.batch import Batch
from spies_core.decider import Rng, shuffled
from spies_core.errors import (
    GameNotStartedError,
    GameOverError,
    InvalidOptionsError,
    NotYourTurnError,
    RuleError,
)
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
from spies_core.spies_and_lies.deployment import completions, is_ordered
from spies_core.spies_and_lies.events import (
    CaptainChosen,
    DeceptionDeclined,
    DeceptionPlayed,
    Event,
    IntelCardTurned,
    IntelMarked,
    IntelTokensRevealed,
    SoldierRevealed,
    SoldiersDeployed,
    SpiesAndLiesStarted,
)
from spies_core.spies_and_lies.evolve import evolve
from spies_core.spies_and_lies.options import Deal, SpiesAndLiesOptions, validate_options
from spies_core.spies_and_lies.resolution import Resolution
from spies_core.spies_and_lies.state import (
    ALL_RANKS,
    BOMB,
    CAPTAIN,
    MARSHAL,
    MISSIONS,
    RANK_NAMES,
    SERGEANT,
    SIDE_NAMES,
    ForcedBy,
    Phase,
    PointSource,
    Stage,
    State,
    current_seats,
    deception_window_open,
    defender_side,
    guesser_side,
    seat_missions,
    sergeant_slot,
    to_act,
)
from spies_core.words import counted, seat_list

__all__ = ["decide", "start"]


def start(options: SpiesAndLiesOptions, players: int, rng: Rng) -> list[Event]:
    """The setup of §4: shuffle the intel deck and turn its top card up (§4.8), draw each
    side's first exhausted soldier at random (§4.9) and the day-1 starter ([I-22]).

    Raises:
        InvalidOptionsError: ``invalid-players`` unless 2 or 4 seats (the 3-player variant of
            §14.5 is out of scope), ``invalid-options`` / ``invalid-deal`` for bad options.
    """
    if players not in (2, 4):
        raise InvalidOptionsError(
            f"spies-and-lies is played by 2 seats, or 4 in team play, not {players}",
            code="invalid-players",
        )
    validate_options(options)
    deal = options.deal or Deal()
    deck = deal.intel if deal.intel is not None else shuffled(rng, options.intel_cards)
    if deal.exhausted is not None:
        exhausted = deal.exhausted
    else:
        # The opponent draws blind from the shuffled soldiers (§4.9).
        exhausted = (shuffled(rng, ALL_RANKS)[0], shuffled(rng, ALL_RANKS)[0])
    starting = deal.starting if deal.starting is not None else rng.randrange(2)
    return [
        SpiesAndLiesStarted(
            players=players,
            options=options,
            old_intel=deck[0],
            intel_deck=tuple(deck[1:]),
            exhausted=exhausted,
            starting_side=starting,
        )
    ]


def decide(state: State, seat: int, command: Command, rng: Rng) -> list[Event]:
    """The events a command causes, or the rule it breaks. Never changes ``state``.

    Raises:
        GameOverError: the game has ended.
        NotYourTurnError: the seat is not to act (code ``not-your-turn``), or it is the
            defender holding no deception token (code ``no-deception-token``).
        RuleError: the command breaks a rule; the code names it (``not-deploy-phase``,
            ``wrong-soldier-count``, ``invalid-rank``, ``duplicate-soldier``,
            ``soldier-exhausted``, ``soldier-not-in-hand``, ``deployment-out-of-order``,
            ``deployment-not-completable``, ``not-intel-phase``, ``no-sergeant-deployed``,
            ``sergeant-choice-required``, ``outside-deception-window``, ``not-guess-step``,
            ``choice-not-offered``, ``borrow-not-exhausted``).
    """
    if state.phase is Phase.OVER:
        raise GameOverError(f"the game is over; {type(command).__name__} refused")
    if state.phase is Phase.SETUP:
        raise GameNotStartedError(
            f"the game has not started: {command.__struct_config__.tag} refused",
            code="not-started",
        )
    match command:
        case Deploy():
            return _decide_deploy(state, seat, command)
        case MarkSergeant() | ConfirmIntel():
            return _decide_intel(state, seat, command)
        case Deceive() | DeclineDeception():
            return _decide_deception(state, seat, command)
        case Guess():
            return _decide_guess(state, seat, command, rng)
        case ChooseMarshal():
            return _decide_marshal(state, seat, command, rng)
        case ChooseCaptain():
            return _decide_captain(state, seat, command, rng)
        case _:
            assert_never(command)


def _batch(state: State) -> Batch[State, Event]:
    return Batch(state, evolve)


def _require_turn(state: State, seat: int, what: str) -> None:
    acting = to_act(state)
    if seat not in acting:
        raise NotYourTurnError(
            f"seat {seat} may not {what} now: waiting for {seat_list(acting)}"
            f" (day {state.day}, {state.phase} phase)"
        )


def _check_rank(rank: int, what: str) -> None:
    if not 1 <= rank <= 10:
        raise RuleError(f"{what} {rank} is not a rank 1 to 10", code="invalid-rank")


def _decide_deploy(state: State, seat: int, command: Deploy) -> list[Event]:
    """§5.1 (and §14.4 in team play)."""
    _require_turn(state, seat, "deploy")
    if state.phase is not Phase.DEPLOY:
        raise RuleError(f"deployment is over for day {state.day}", code="not-deploy-phase")
    side = seat % 2
    team = state.sides[side]
    slots = seat_missions(state.players, seat)
    soldiers = command.soldiers
    listed = list(soldiers)
    if len(soldiers) != len(slots):
        raise RuleError(
            f"deploy {listed}: seat {seat} deploys {counted(len(slots), 'soldier')}, under missions"
            f" {slots.start + 1}-{slots.stop}",
            code="wrong-soldier-count",
        )
    for rank in soldiers:
        _check_rank(rank, f"deploy {listed}: soldier")
    if len(set(soldiers)) != len(soldiers):
        raise RuleError(f"deploy {listed}: a soldier is listed twice", code="duplicate-soldier")
    for rank in soldiers:
        if rank in team.exhausted:
            raise RuleError(
                f"deploy {listed}: the {RANK_NAMES[rank]} ({rank}) is exhausted on day"
                f" {state.day} (§5.1.1)",
                code="soldier-exhausted",
            )
        if rank not in team.hand:
            raise RuleError(
                f"deploy {listed}: the {RANK_NAMES[rank]} ({rank}) is not in"
                f" {SIDE_NAMES[side]}'s hand",
                code="soldier-not-in-hand",
            )
    if slots.start == 2:  # second teammate: the whole row must be in order (§14.4)
        row = (team.missions[0].rank or 0, team.missions[1].rank or 0, *soldiers)
    else:
        row = tuple(soldiers)
    if not is_ordered(row):
        raise RuleError(
            f"deploy {listed}: missions 1-4 would read {list(row)}; ranks other than the"
            " Sergeant (4) must increase (§5.1.2)",
            code="deployment-out-of-order",
        )
    if len(slots) == 2 and slots.start == 0:
        remaining = tuple(rank for rank in team.hand if rank not in soldiers)
        if not completions(remaining, tuple(soldiers)):
            raise RuleError(
                f"deploy {listed}: no two of the remaining soldiers {list(remaining)} can"
                " follow them under missions 3-4 in order (§5.1.2, §14.4)",
                code="deployment-not-completable",
            )
    batch = _batch(state)
    batch.emit(
        SoldiersDeployed(
            seat=seat,
            side=side,
            first_mission=slots.start + 1,
            count=len(soldiers),
            soldiers=tuple(soldiers),
        )
    )
    other_done = state.sides[1 - side].missions[MISSIONS - 1].rank is not None
    if slots.stop == MISSIONS and other_done:
        batch.emit(IntelCardTurned(day=state.day, card=state.intel_deck[0]))
    return batch.events


def _decide_intel(state: State, seat: int, command: MarkSergeant | ConfirmIntel) -> list[Event]:
    """§5.2: tokens are automatic except on the Sergeant [I-13]; every seat answers, so the
    order of answers tells nobody where a Sergeant lies."""
    name = "mark_sergeant" if isinstance(command, MarkSergeant) else "confirm_intel"
    _require_turn(state, seat, name)
    if state.phase is not Phase.INTEL:
        raise RuleError(f"{name}: not in the intel phase", code="not-intel-phase")
    slot = sergeant_slot(state, seat)
    token: bool | None = None
    if isinstance(command, MarkSergeant):
        if slot is None:
            raise RuleError(
                f"mark_sergeant: seat {seat} has no Sergeant deployed; send confirm_intel",
                code="no-sergeant-deployed",
            )
        token = command.token
    elif slot is not None:
        raise RuleError(
            f"confirm_intel: seat {seat}'s Sergeant is under mission {slot + 1}; choose its"
            " token with mark_sergeant (§5.2.3)",
            code="sergeant-choice-required",
        )
    batch = _batch(state)
    batch.emit(IntelMarked(seat=seat, side=seat % 2, sergeant_token=token))
    if len(state.intel_marked) + 1 == state.players:
        # The mission phase begins: on day 1 the Starting Player card is flipped now (§5.3.1).
        tokens = _tokens(state, slot, seat, token)
        batch.emit(IntelTokensRevealed(tokens=tokens, starting_side=state.starter))
    return batch.events


def _tokens(
    state: State, slot: int | None, seat: int, token: bool | None
) -> tuple[tuple[bool, ...], ...]:
    """§5.2.2: a token on every card whose rank is on the intel card, except the Sergeant,
    which carries its owner's choice."""
    card = state.current_intel or ()
    rows = []
    for side, team in enumerate(state.sides):
        row = []
        for index, mission in enumerate(team.missions):
            if mission.rank == SERGEANT:
                own = side == seat % 2 and index == slot
                row.append(bool(token) if own else mission.intel)
            else:
                row.append(mission.rank in card)
        rows.append(tuple(row))
    return tuple(rows)


def _decide_deception(state: State, seat: int, command: Deceive | DeclineDeception) -> list[Event]:
    """§6 step 1: the defender's window, passed over when it holds no token.

    A deception outside the window is refused with ``outside-deception-window`` (as a
    ``NotYourTurnError`` when the seat is not to act), by a defender holding no token with
    ``no-deception-token``; while the window is open, only the defender may answer.
    """
    name = "deceive" if isinstance(command, Deceive) else "decline_deception"
    if deception_window_open(state):
        _require_turn(state, seat, name)
        side = defender_side(state)
        mission = state.turn // 2 + 1
        if isinstance(command, Deceive):
            return [DeceptionPlayed(seat=seat, side=side, mission=mission)]
        return [DeceptionDeclined(seat=seat, side=side, mission=mission)]
    if state.phase is Phase.MISSION and state.stage is Stage.DECEPTION:
        _, defender, index = current_seats(state)
        if seat == defender:
            raise NotYourTurnError(
                f"{name}: {SIDE_NAMES[seat % 2]} holds no deception token for mission {index + 1}",
                code="no-deception-token",
            )
    error = RuleError if seat in to_act(state) else NotYourTurnError
    raise error(
        f"{name}: no deception window is open (day {state.day}, {state.phase} phase, §6 step 1)",
        code="outside-deception-window",
    )


def _decide_guess(state: State, seat: int, command: Guess, rng: Rng) -> list[Event]:
    """§6 steps 2-8."""
    _require_turn(state, seat, "guess")
    due = state.phase is Phase.MISSION and state.stage in (Stage.DECEPTION, Stage.GUESS)
    if not due or deception_window_open(state):
        raise RuleError("guess: no guess is due now", code="not-guess-step")
    _check_rank(command.rank, "guess")
    guesser = guesser_side(state)
    defender = 1 - guesser
    index = state.turn // 2
    attacker = state.sides[guesser]
    target = state.sides[defender].missions[index]
    rank = target.rank
    assert rank is not None
    forced: ForcedBy | None = None  # §6 step 5
    if attacker.bomb:
        forced = ForcedBy.BOMB
    elif attacker.spy and rank == MARSHAL:
        forced = ForcedBy.SPY  # [I-4]
    elif attacker.miner and rank == BOMB:
        forced = ForcedBy.MINER  # [I-4]
    correct = command.rank == rank
    resolution = Resolution(_batch(state))
    resolution.emit(
        SoldierRevealed(
            day=state.day,
            turn=state.turn + 1,
            guesser=seat,
            side=defender,
            mission=index + 1,
            guess=command.rank,
            rank=rank,
            correct=correct,
            forced_by=forced,
        )
    )
    if correct:  # §6 step 6, [I-6]
        resolution.gain(guesser, 4 if attacker.scout else 2, PointSource.GUESS)
        if forced is ForcedBy.BOMB:
            resolution.double_damage_earned(guesser)
        resolution.end_turn(rng)
    elif forced is not None:  # §6 step 7: retreat, no activation; [I-5]
        pays = state.options.deception_pays_on_forced_retreat
        resolution.close_wrong_guess(defender, target.deception and pays, rng)
    elif resolution.activate(defender, rank) is None:
        resolution.close_wrong_guess(defender, target.deception, rng)
    return resolution.events


def _decide_marshal(state: State, seat: int, command: ChooseMarshal, rng: Rng) -> list[Event]:
    """§9, rank 10; [I-16] the deception +4 follows."""
    _require_turn(state, seat, "choose_marshal")
    if state.phase is not Phase.MISSION or state.stage is not Stage.MARSHAL:
        raise RuleError("choose_marshal: no Marshal choice is offered", code="choice-not-offered")
    defender = defender_side(state)
    resolution = Resolution(_batch(state))
    resolution.marshal(seat, defender, command.option)
    target = state.sides[defender].missions[state.turn // 2]
    resolution.close_wrong_guess(defender, target.deception, rng)
    return resolution.events


def _decide_captain(state: State, seat: int, command: ChooseCaptain, rng: Rng) -> list[Event]:
    """§9, rank 6; [I-8]: borrow only one's own exhausted soldiers; nothing moves."""
    _require_turn(state, seat, "choose_captain")
    if state.phase is not Phase.MISSION or state.stage is not Stage.CAPTAIN:
        raise RuleError("choose_captain: no Captain choice is offered", code="choice-not-offered")
    defender = defender_side(state)
    team = state.sides[defender]
    borrow = command.borrow
    if borrow is not None:
        _check_rank(borrow, "choose_captain: borrow")
        if borrow not in team.exhausted:
            raise RuleError(
                f"choose_captain: the {RANK_NAMES[borrow]} ({borrow}) is not among"
                f" {SIDE_NAMES[defender]}'s exhausted soldiers {list(team.exhausted)}",
                code="borrow-not-exhausted",
            )
    resolution = Resolution(_batch(state))
    resolution.emit(CaptainChosen(seat=seat, side=defender, borrow=borrow))
    if borrow is None:
        resolution.gain(defender, 6, PointSource.SOLDIER, CAPTAIN)
    elif resolution.activate(defender, borrow) is not None:
        return resolution.events  # a borrowed Marshal waits for its choice
    target = team.missions[state.turn // 2]
    resolution.close_wrong_guess(defender, target.deception, rng)
    return resolution.events
