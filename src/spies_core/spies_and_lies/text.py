"""Spies & Lies for people: one line per event, a few lines per view."""

from __future__ import annotations

from typing import Final, assert_never

from spies_core.reference import RuleReference
from spies_core.spies_and_lies import events
from spies_core.spies_and_lies.options import DAYS, MAX_BOARD_LENGTH
from spies_core.spies_and_lies.resolution import MARSHAL_SABOTAGE, SOLDIER_POINTS
from spies_core.spies_and_lies.soldiers import CAPTAIN, MARSHAL, TURNS
from spies_core.spies_and_lies.state import INFILTRATION_AT, RANK_NAMES, SIDE_NAMES, PointSource
from spies_core.spies_and_lies.view import MissionView, SideView, SpiesAndLiesView
from spies_core.words import counted

__all__ = ["BOARD_LEGEND", "REFERENCE", "describe_event", "render_view"]

REFERENCE: Final = RuleReference(
    refusals={
        "not-your-turn": "§5.3",
        "illegal-command": "§5",
        "not-deploy-phase": "§5.1",
        "wrong-soldier-count": "§5.1",
        "duplicate-soldier": "§5.1",
        "soldier-not-in-hand": "§5.1",
        "deployment-out-of-order": "§5.1",
        "deployment-not-completable": "§5.1",
        "soldier-exhausted": "§11.1",
        "not-intel-phase": "§5.2",
        "no-sergeant-deployed": "§5.2",
        "sergeant-choice-required": "§5.2",
        "not-guess-step": "§5.3",
        "no-deception-token": "§10.4",
        "outside-deception-window": "§10.4",
        "choice-not-offered": "§9",
        "borrow-not-exhausted": "§9.6",
    },
    endings={"flag-captured": "§12.1", "territory": "§12.2", "infiltration": "§12.2"},
    figures={
        "days": DAYS,
        "guess_turns": TURNS,
        "infiltration_at": INFILTRATION_AT,
        "max_board_length": MAX_BOARD_LENGTH,
        "marshal_points": SOLDIER_POINTS[MARSHAL],
        "marshal_sabotage": MARSHAL_SABOTAGE,
        "captain_points": SOLDIER_POINTS[CAPTAIN],
    },
)
"""Where each refusal and ending is explained; the figures: the days (§5) and a day's
guess-turns (§5.3), the marker that
infiltrates (§7), the longest board the options take, and what the Marshal's two choices and
the Captain give (§9)."""

BOARD_LEGEND: tuple[str, ...] = (
    "legend: Double Agent +N of ±F: its space, 0 the centre, + toward blue's flag (red pushes"
    " it there), - toward red's, ±F a flag;",
    "  [...] a side's missions in order, each its soldier's rank (1-10), ? face down"
    " (hidden from this viewer) or _ no soldier yet;",
    "  after the rank: a face up (revealed), r retreated; T an intel token on the mission,"
    " D a deception token;",
    "  marker: the side's infiltration marker (0-9; at 10 the Double Agent moves and it goes"
    " back to 0); tokens: its deception tokens;",
    "  exhausted: the side's soldiers out for the day; effects: its soldiers' effects running"
    " until the day ends;",
    "  intel {..}: the day's intel card (the ranks it names); old: the cards of earlier days;"
    " reserve: deception tokens left to take; day N {..}: a past day's missions as it ended",
)
"""What the symbols of :func:`render_view`'s board mean (its last lines)."""


def _soldier(rank: int) -> str:
    return f"{RANK_NAMES[rank]} ({rank})"


def _soldiers(ranks: tuple[int, ...]) -> str:
    return "-".join(str(rank) for rank in ranks)


def _card(card: tuple[int, ...]) -> str:
    return "{" + ",".join(str(rank) for rank in card) + "}"


def describe_event(event: events.Event) -> str:  # noqa: C901  (one case per event)
    """One line of text for a person."""
    match event:
        case events.SpiesAndLiesStarted():
            red, blue = event.exhausted
            starter = (
                "the day-1 starter is flipped when the mission phase begins"
                if event.starting_side is None
                else f"{SIDE_NAMES[event.starting_side]} starts day 1"
            )
            return (
                f"Spies & Lies for {event.players} seats, G={event.options.board_length}:"
                f" old intel {_card(event.old_intel)}, exhausted red {_soldier(red)}, blue"
                f" {_soldier(blue)}; {starter}"
            )
        case events.SoldiersDeployed():
            what = "hidden" if event.soldiers is None else _soldiers(event.soldiers)
            last = event.first_mission + event.count - 1
            return (
                f"seat {event.seat} ({SIDE_NAMES[event.side]}) deployed missions"
                f" {event.first_mission}-{last}: {what}"
            )
        case events.IntelCardTurned():
            return f"day {event.day} intel: {_card(event.card)}"
        case events.IntelMarked():
            mark = {None: "", True: ": Sergeant token", False: ": Sergeant without token"}
            return f"seat {event.seat} placed its intel{mark[event.sergeant_token]}"
        case events.IntelTokensRevealed():
            rows = [
                f"{SIDE_NAMES[side]} " + "".join("T" if token else "." for token in row)
                for side, row in enumerate(event.tokens)
            ]
            starts = (
                "" if event.starting_side is None else f"; {SIDE_NAMES[event.starting_side]} starts"
            )
            return "intel tokens: " + ", ".join(rows) + starts
        case events.DeceptionPlayed():
            return f"{SIDE_NAMES[event.side]} played a deception token on mission {event.mission}"
        case events.DeceptionDeclined():
            return f"{SIDE_NAMES[event.side]} played no deception on mission {event.mission}"
        case events.SoldierRevealed():
            verdict = "correct" if event.correct else "wrong"
            forced = f", forced to retreat ({event.forced_by})" if event.forced_by else ""
            return (
                f"turn {event.turn}: seat {event.guesser} guessed {_soldier(event.guess)} at"
                f" {SIDE_NAMES[event.side]}'s mission {event.mission}: {_soldier(event.rank)},"
                f" {verdict}{forced}"
            )
        case events.InfiltrationPointsGained():
            source = (
                _soldier(event.rank)
                if event.source is PointSource.SOLDIER and event.rank
                else str(event.source)
            )
            tail = ", an infiltration" if event.infiltrated else ""
            carry = f" ({counted(event.carried, 'point')} carried over)" if event.carried else ""
            return (
                f"{SIDE_NAMES[event.side]} gains {counted(event.amount, 'infiltration point')}"
                f" ({source}){tail}: marker at {event.tower}{carry}"
            )
        case events.InfiltrationPointsLost():
            return (
                f"{SIDE_NAMES[event.side]} loses {counted(event.amount, 'infiltration point')}:"
                f" marker at {event.tower}"
            )
        case events.DeceptionTokenGained():
            return f"{SIDE_NAMES[event.side]} took a deception token from the reserve"
        case events.SoldierEffectStarted():
            return f"{SIDE_NAMES[event.side]}'s {event.effect} effect runs until the day ends"
        case events.DoubleDamageEarned():
            return f"{SIDE_NAMES[event.side]} earned double damage"
        case events.MarshalChosen():
            return f"{SIDE_NAMES[event.side]}'s Marshal: {event.option}"
        case events.CaptainChosen():
            if event.borrow is None:
                return f"{SIDE_NAMES[event.side]}'s Captain takes 6 infiltration points"
            return f"{SIDE_NAMES[event.side]}'s Captain borrows the {_soldier(event.borrow)}"
        case events.DoubleAgentMoved():
            return (
                f"{SIDE_NAMES[event.side]} moved the Double Agent {counted(event.steps, 'step')}"
                f" ({event.cause}): now at {event.position:+d}"
            )
        case events.FlagCaptured():
            return f"{SIDE_NAMES[event.side]} captured the enemy flag ({event.cause})!"
        case events.SpiesAndLiesDayEnded():
            red_out, blue_out = event.exhausted
            return (
                f"day {event.day} ended: exhausted red {_soldiers(red_out)}, blue"
                f" {_soldiers(blue_out)};"
                f" {SIDE_NAMES[event.next_starting_side]} starts next"
            )
        case events.SpiesAndLiesEnded():
            if event.winner is None:
                return f"draw ({event.reason})"
            return f"{SIDE_NAMES[event.winner]} wins ({event.reason})"
        case _:
            assert_never(event)


def _mission_text(mission: MissionView) -> str:
    if not mission.deployed:
        return "  _ "
    rank = "?" if mission.rank is None else str(mission.rank)
    state = "r" if mission.retreated else ("a" if mission.face_up else " ")
    marks = ("T" if mission.intel else "") + ("D" if mission.deception else "")
    return f"{rank:>3}{state}{marks}"


def _side_text(side: SideView) -> str:
    hand = "hidden" if side.hand is None else _soldiers(side.hand) or "-"
    missions = " ".join(_mission_text(mission) for mission in side.missions)
    effects = ",".join(str(effect) for effect in side.effects) or "-"
    return (
        f"{side.colour:<4} [{missions}] marker {side.tower} tokens {side.deception_tokens}"
        f" exhausted {_soldiers(side.exhausted)} hand {hand} effects {effects}"
    )


def render_view(view: SpiesAndLiesView) -> str:
    """A view as a few lines of text for a terminal."""
    head = f"day {view.day} {view.phase}"
    if view.turn is not None:
        head += f" turn {view.turn} mission {view.mission} {view.stage}"
    if view.winner is not None or view.draw:
        head += " - draw" if view.draw else f" - {SIDE_NAMES[view.winner or 0]} wins"
    track = f"Double Agent {view.double_agent:+d} of ±{view.board_length + 1}"
    intel = "-" if view.current_intel is None else _card(view.current_intel)
    old = " ".join(_card(card) for card in view.old_intel)
    past = [
        f"day {record.day} {_card(record.intel)}: "
        + " / ".join(
            f"{SIDE_NAMES[side]} " + " ".join(_mission_text(m) for m in missions)
            for side, missions in enumerate(record.missions)
        )
        for record in view.history
    ]
    return "\n".join(
        [
            f"{head}; to act {list(view.to_act)}",
            f"{track}; intel {intel}; old {old}; reserve {view.deception_reserve_left}",
            *(_side_text(side) for side in view.sides),
            *past,
            *BOARD_LEGEND,
        ]
    )
