"""Events of Spies & Lies: the recorded facts a game is folded from.

Fields that some viewers may not see are ``X | None`` and set to ``None`` by ``redact``.
"""

from __future__ import annotations

import msgspec

from spies_core.spies_and_lies.options import SpiesAndLiesOptions
from spies_core.spies_and_lies.soldiers import Rank
from spies_core.spies_and_lies.state import (
    EndReason,
    ForcedBy,
    MarshalOption,
    MoveCause,
    PointSource,
    SoldierEffect,
)

__all__ = [
    "BaseEvent",
    "CaptainChosen",
    "DeceptionDeclined",
    "DeceptionPlayed",
    "DeceptionTokenGained",
    "DoubleAgentMoved",
    "DoubleDamageEarned",
    "Event",
    "FlagCaptured",
    "InfiltrationPointsGained",
    "InfiltrationPointsLost",
    "IntelCardTurned",
    "IntelMarked",
    "IntelTokensRevealed",
    "MarshalChosen",
    "SoldierEffectStarted",
    "SoldierRevealed",
    "SoldiersDeployed",
    "SpiesAndLiesDayEnded",
    "SpiesAndLiesEnded",
    "SpiesAndLiesStarted",
]


class BaseEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of every Spies & Lies event."""


class SpiesAndLiesStarted(BaseEvent, frozen=True, kw_only=True, tag="spies_and_lies_started"):
    """The setup of §4: options, the intel deck, the first exhausted soldiers, the day-1 starter
    (drawn here, made public only when the day-1 mission phase begins, §5.3.1)."""

    players: int
    """The number of seats: 2, or 4 for team play (§14)."""
    options: SpiesAndLiesOptions
    """The options as given; ``deal`` is hidden from every viewer (it holds the deck order)."""
    old_intel: tuple[Rank, ...]
    """The intel card turned up at setup, the first of the old-intel pile (§4.8)."""
    intel_deck: tuple[tuple[Rank, ...], ...] | None
    """The face-down intel deck, top first (hidden from every viewer)."""
    exhausted: tuple[Rank, Rank]
    """Red's and blue's first exhausted soldier, drawn by the opponent (§4.9)."""
    starting_side: int | None
    """The side starting day 1 (§5.3.1), 0 red, 1 blue. The Starting Player card is flipped
    only when the mission phase of day 1 begins, so this is hidden from every viewer
    (``None``); it becomes public with ``intel_tokens_revealed``."""


class SoldiersDeployed(BaseEvent, frozen=True, kw_only=True, tag="soldiers_deployed"):
    """A seat put soldiers face down under its missions (§5.1, §14.4)."""

    seat: int
    """The seat that deployed."""
    side: int
    """Its side, 0 red, 1 blue."""
    first_mission: int
    """1, or 3 for a second teammate."""
    count: int
    """How many soldiers were deployed: 4, or 2 for a teammate (public)."""
    soldiers: tuple[Rank, ...] | None
    """The ranks in mission order; visible to the seat itself and, for missions 1-2 in team
    play, to its teammate (§14.4)."""


class IntelCardTurned(BaseEvent, frozen=True, kw_only=True, tag="intel_card_turned"):
    """The top intel card is the current intel of the day (§5.2.1)."""

    day: int
    """The day, 1 to 3."""
    card: tuple[Rank, ...]
    """The day's intel card: the ranks printed on it."""


class IntelMarked(BaseEvent, frozen=True, kw_only=True, tag="intel_marked"):
    """A seat finished its intel placement (§5.2)."""

    seat: int
    """The seat that finished its intel placement."""
    side: int
    """Its side, 0 red, 1 blue."""
    sergeant_token: bool | None = None
    """The Sergeant mark (``None`` without a Sergeant); visible only to the seat itself
    until the tokens are revealed ([I-13])."""


class IntelTokensRevealed(BaseEvent, frozen=True, kw_only=True, tag="intel_tokens_revealed"):
    """Both sides' intel tokens revealed together (§5.2.4); the mission phase begins."""

    tokens: tuple[tuple[bool, ...], ...]
    """Per side (red, blue), per mission 1-4: an intel token lies on it."""
    starting_side: int | None = None
    """The side that starts this day's guess-turns (§5.3.1); on day 1 this is the coin flip
    of the Starting Player card, public from here on. ``None`` only in logs written before
    the field existed."""


class DeceptionPlayed(BaseEvent, frozen=True, kw_only=True, tag="deception_played"):
    """The defender put a deception token on the target (§6 step 1)."""

    seat: int
    """The defending seat."""
    side: int
    """Its side, 0 red, 1 blue."""
    mission: int
    """The target mission, 1 to 4."""


class DeceptionDeclined(BaseEvent, frozen=True, kw_only=True, tag="deception_declined"):
    """The defender let the guess come without a deception token (§6 step 1)."""

    seat: int
    """The defending seat."""
    side: int
    """Its side, 0 red, 1 blue."""
    mission: int
    """The target mission, 1 to 4."""


class SoldierRevealed(BaseEvent, frozen=True, kw_only=True, tag="soldier_revealed"):
    """A guess and the reveal of the target (§6 steps 2-7)."""

    day: int
    """The day, 1 to 3."""
    turn: int
    """1-8 (§5.3.2)."""
    guesser: int
    """The guessing seat."""
    side: int
    """The side owning the revealed card."""
    mission: int
    """1-4."""
    guess: Rank
    """The rank named by the guesser, 1 to 10."""
    rank: Rank
    """The rank of the revealed soldier, 1 to 10."""
    correct: bool
    """Whether the guess named the revealed rank (§6 step 6)."""
    forced_by: ForcedBy | None = None
    """Set when the card was forced to retreat (§6 step 5)."""


class InfiltrationPointsGained(
    BaseEvent, frozen=True, kw_only=True, tag="infiltration_points_gained"
):
    """One gain of infiltration points (§7 ``addPoints``)."""

    side: int
    """The side that gained the points, 0 red, 1 blue."""
    source: PointSource
    """Where the points come from (§7)."""
    rank: Rank | None = None
    """The soldier whose points these are, for ``source = soldier``."""
    amount: int
    """The points gained, before the marker is capped at 10 (§7.1)."""
    infiltrated: bool
    """The marker reached 10: a Double Agent move follows (§7)."""
    carried: int = 0
    """Colonel's points carried past the infiltration (§9, rank 8)."""
    tower: int
    """The marker after the gain."""


class InfiltrationPointsLost(BaseEvent, frozen=True, kw_only=True, tag="infiltration_points_lost"):
    """An enemy Marshal's sabotage: minus 5, not below 0 (§9, rank 10, [I-18])."""

    side: int
    """The side that lost the points, 0 red, 1 blue."""
    amount: int
    """The sabotage's points: always 5 (§9, rank 10); the marker stops at 0 ([I-18]), so
    ``tower`` may have dropped by less."""
    tower: int
    """The side's marker after the loss."""


class DeceptionTokenGained(BaseEvent, frozen=True, kw_only=True, tag="deception_token_gained"):
    """An activated Spy took a deception token from the reserve (§9, rank 1, [I-9])."""

    side: int
    """The side whose Spy took the token, 0 red, 1 blue."""


class SoldierEffectStarted(BaseEvent, frozen=True, kw_only=True, tag="soldier_effect_started"):
    """A round-scoped effect of an activated soldier, until the end of the day (§9)."""

    side: int
    """The side whose soldier was activated, 0 red, 1 blue."""
    effect: SoldierEffect
    """The round effect that starts (§9)."""


class DoubleDamageEarned(BaseEvent, frozen=True, kw_only=True, tag="double_damage_earned"):
    """The bomb-forced card was guessed correctly: 2 exhausted draws at day end (§9, §11)."""

    side: int
    """The side that will draw 2 of the opponent's soldiers, 0 red, 1 blue."""


class MarshalChosen(BaseEvent, frozen=True, kw_only=True, tag="marshal_chosen"):
    """The owner of an activated (or borrowed) Marshal chose its option (§9, rank 10)."""

    seat: int
    """The seat that chose."""
    side: int
    """Its side, 0 red, 1 blue."""
    option: MarshalOption
    """``points`` (10 points) or ``sabotage`` (5 points, the opponent -5)."""


class CaptainChosen(BaseEvent, frozen=True, kw_only=True, tag="captain_chosen"):
    """The owner of an activated Captain took 6 points or borrowed a soldier (§9, rank 6)."""

    seat: int
    """The seat that chose."""
    side: int
    """Its side, 0 red, 1 blue."""
    borrow: Rank | None = None
    """The exhausted soldier borrowed and resolved as if activated ([I-8]); ``null`` when
    the Captain's 6 points were taken."""


class DoubleAgentMoved(BaseEvent, frozen=True, kw_only=True, tag="double_agent_moved"):
    """One move of the Double Agent toward the enemy fortress (§8)."""

    side: int
    """The side moving it."""
    cause: MoveCause
    """What moved it: an infiltration, a Lieutenant or a General (§8.3)."""
    steps: int
    """The steps the move was worth; fewer are taken when it reaches the gate."""
    position: int
    """Where it stands now."""


class FlagCaptured(BaseEvent, frozen=True, kw_only=True, tag="flag_captured"):
    """The Double Agent stood in front of the gate and was moved again (§8, §12.1)."""

    side: int
    """The side that captured the enemy flag."""
    cause: MoveCause
    """The move that captured the flag (§8.5)."""


class SpiesAndLiesDayEnded(BaseEvent, frozen=True, kw_only=True, tag="spies_and_lies_day_ended"):
    """The end of day 1 or 2 (§11): the new exhausted soldiers and the next starter."""

    day: int
    """The day that ended, 1 or 2."""
    exhausted: tuple[tuple[Rank, ...], ...]
    """Per side (red, blue): the soldiers drawn from its four deployed ones (1, or 2 after
    enemy double damage)."""
    next_starting_side: int
    """The side that starts the next day's guess-turns (§11.8), 0 red, 1 blue."""


class SpiesAndLiesEnded(BaseEvent, frozen=True, kw_only=True, tag="spies_and_lies_ended"):
    """The end of the game (§12)."""

    winner: int | None
    """The winning side; ``None`` for a draw."""
    reason: EndReason
    """How the game ended (§12)."""
    draw: bool = False
    """True for a draw (§12.2): then ``winner`` is ``null``."""
    double_agent: int
    """The Double Agent's final position (see the view's ``double_agent``)."""
    towers: tuple[int, ...]
    """The final infiltration markers of red and blue."""


Event = (
    SpiesAndLiesStarted
    | SoldiersDeployed
    | IntelCardTurned
    | IntelMarked
    | IntelTokensRevealed
    | DeceptionPlayed
    | DeceptionDeclined
    | SoldierRevealed
    | InfiltrationPointsGained
    | InfiltrationPointsLost
    | DeceptionTokenGained
    | SoldierEffectStarted
    | DoubleDamageEarned
    | MarshalChosen
    | CaptainChosen
    | DoubleAgentMoved
    | FlagCaptured
    | SpiesAndLiesDayEnded
    | SpiesAndLiesEnded
)
"""Every Spies & Lies event (tagged union on ``type``)."""
