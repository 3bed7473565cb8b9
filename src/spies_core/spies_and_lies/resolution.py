"""Resolving a guess-turn (§6) with the abilities of §9, points of §7 and moves of §8.

``decide`` builds a :class:`Resolution` over the command's :class:`~spies_core.batch.Batch`,
which applies each event as it is emitted; the resolution keeps local copies of the numbers
that its events change (markers, tokens, reserve, Double Agent, round effects), so that each
later event of the same command is computed from the effects of the earlier ones, exactly as
``evolve`` applies them.
"""

from __future__ import annotations

from spies_core.batch import Batch
from spies_core.decider import Rng, shuffled
from spies_core.spies_and_lies.events import (
    DeceptionTokenGained,
    DoubleAgentMoved,
    DoubleDamageEarned,
    Event,
    FlagCaptured,
    InfiltrationPointsGained,
    InfiltrationPointsLost,
    MarshalChosen,
    SoldierEffectStarted,
    SpiesAndLiesDayEnded,
    SpiesAndLiesEnded,
)
from spies_core.spies_and_lies.options import DAYS, ReserveRule
from spies_core.spies_and_lies.state import (
    BLUE,
    BOMB,
    CAPTAIN,
    COLONEL,
    GENERAL,
    INFILTRATION_AT,
    LIEUTENANT,
    MARSHAL,
    MAX_DECEPTION_TOKENS,
    MINER,
    RED,
    SCOUT,
    SPY,
    TURNS,
    EndReason,
    MarshalOption,
    MoveCause,
    PointSource,
    SideState,
    SoldierEffect,
    Stage,
    State,
)

__all__ = ["DECEPTION_BONUS", "MARSHAL_SABOTAGE", "SOLDIER_POINTS", "Resolution"]

DECEPTION_BONUS = 4
"""A successful deception's points (§10)."""
MARSHAL_SABOTAGE = 5
"""Option (b) of the Marshal: gain 5, the opponent loses 5 (§9)."""

SOLDIER_POINTS = (0, 1, 2, 3, 4, 0, 6, 0, 8, 0, 10)
"""Infiltration points of an activated soldier by rank (§9); Marshal option (a)."""
_ROUND_EFFECTS = {
    SPY: SoldierEffect.SPY,
    SCOUT: SoldierEffect.SCOUT,
    MINER: SoldierEffect.MINER,
    BOMB: SoldierEffect.BOMB,
}


class Resolution:
    """The events of one command, computed step by step (§6-§11)."""

    __slots__ = (
        "batch",
        "day",
        "double_agent",
        "double_damage",
        "effects",
        "gate",
        "over",
        "per_side",
        "reserve",
        "taken",
        "state",
        "tokens",
        "towers",
    )

    def __init__(self, batch: Batch[State, Event]) -> None:
        """Start from the batch of a command that has emitted nothing yet."""
        state = batch.state
        self.state = state
        """The state before the command; the numbers below follow the events."""
        self.batch = batch
        red, blue = state.sides
        self.towers = [red.tower, blue.tower]
        self.tokens = [red.deception_tokens, blue.deception_tokens]
        self.double_damage = [red.double_damage, blue.double_damage]
        self.effects = [_active_effects(red), _active_effects(blue)]
        self.reserve = state.reserve
        self.taken = [red.reserve_taken, blue.reserve_taken]
        self.per_side = state.options.deception_reserve is ReserveRule.PER_SIDE
        self.double_agent = state.double_agent
        self.gate = state.options.board_length
        self.day = state.day
        self.over = False

    @property
    def events(self) -> list[Event]:
        """The command's events so far."""
        return self.batch.events

    def emit(self, event: Event) -> None:
        """Record one event."""
        self.batch.emit(event)

    def gain(self, side: int, amount: int, source: PointSource, rank: int | None = None) -> None:
        """``addPoints`` (§7): one gain; at 10 the side infiltrates, moves the Double Agent
        ``day`` steps and resets its marker; only the Colonel carries the excess (§9)."""
        total = self.towers[side] + amount
        if total < INFILTRATION_AT:
            self.towers[side] = total
            self.emit(
                InfiltrationPointsGained(
                    side=side,
                    source=source,
                    rank=rank,
                    amount=amount,
                    infiltrated=False,
                    tower=total,
                )
            )
            return
        excess = total - INFILTRATION_AT
        # The carry happens only if the move does not end the game (§7 reference procedure).
        captures = self.double_agent == self._gate_of(side)
        carried = (
            excess if rank == COLONEL and source is PointSource.SOLDIER and not captures else 0
        )
        self.towers[side] = carried
        self.emit(
            InfiltrationPointsGained(
                side=side,
                source=source,
                rank=rank,
                amount=amount,
                infiltrated=True,
                carried=carried,
                tower=carried,
            )
        )
        self.move(side, self.day, MoveCause.INFILTRATION)

    def lose(self, side: int, amount: int) -> None:
        """``losePoints`` (§7): the marker drops, not below 0 ([I-18])."""
        self.towers[side] = max(0, self.towers[side] - amount)
        self.emit(InfiltrationPointsLost(side=side, amount=amount, tower=self.towers[side]))

    def _gate_of(self, side: int) -> int:
        return self.gate if side == RED else -self.gate

    def move(self, side: int, steps: int, cause: MoveCause) -> None:
        """``moveDoubleAgent`` (§8): one move; the gate rule stops it in front of the gate,
        and a move that starts there captures the flag [I-3]."""
        gate = self._gate_of(side)
        if self.double_agent == gate:
            self.emit(FlagCaptured(side=side, cause=cause))
            self.double_agent = gate + (1 if side == RED else -1)
            self.end_game(side, EndReason.FLAG_CAPTURED)
            return
        step = 1 if side == RED else -1
        position = self.double_agent
        for _ in range(steps):
            position += step
            if position == gate:
                break
        self.double_agent = position
        self.emit(DoubleAgentMoved(side=side, cause=cause, steps=steps, position=position))

    def effect(self, side: int, effect: SoldierEffect) -> None:
        """Start a round-scoped effect (§9) unless it already runs."""
        if effect not in self.effects[side]:
            self.effects[side].add(effect)
            self.emit(SoldierEffectStarted(side=side, effect=effect))

    def activate(self, side: int, rank: int) -> Stage | None:
        """Resolve a soldier's ability (§9) for its owner ``side``, activated or borrowed by a
        Captain [I-8]; return the choice it waits for, if any."""
        if rank == CAPTAIN:
            return Stage.CAPTAIN
        if rank == MARSHAL:
            return Stage.MARSHAL
        if rank == LIEUTENANT:
            self.move(side, 1, MoveCause.LIEUTENANT)
        elif rank == GENERAL:
            self.move(side, 2, MoveCause.GENERAL)
        elif rank != BOMB:  # the Bomb scores nothing [I-10]
            self.gain(side, SOLDIER_POINTS[rank], PointSource.SOLDIER, rank)
        if self.over:
            return None
        if rank == SPY and self.tokens[side] < MAX_DECEPTION_TOKENS and self._reserve_for(side):
            self.tokens[side] += 1
            self.reserve -= 1
            self.taken[side] += 1
            self.emit(DeceptionTokenGained(side=side))
        effect = _ROUND_EFFECTS.get(rank)
        if effect is not None:
            self.effect(side, effect)
        return None

    def _reserve_for(self, side: int) -> bool:
        """A reserve token is there for ``side`` ([I-9], [U-6])."""
        if self.per_side:
            return self.taken[side] < 1
        return self.reserve > 0

    def marshal(self, seat: int, side: int, option: MarshalOption) -> None:
        """The Marshal's option (§9, rank 10): 10 points, or 5 and the opponent -5."""
        self.emit(MarshalChosen(seat=seat, side=side, option=option))
        if option is MarshalOption.POINTS:
            self.gain(side, SOLDIER_POINTS[MARSHAL], PointSource.SOLDIER, MARSHAL)
            return
        self.gain(side, MARSHAL_SABOTAGE, PointSource.SOLDIER, MARSHAL)
        if not self.over:
            self.lose(1 - side, MARSHAL_SABOTAGE)

    def double_damage_earned(self, side: int) -> None:
        """The bomb-forced card was guessed correctly (§6 step 6, §9 Bomb)."""
        if not self.over:
            self.double_damage[side] = True
            self.emit(DoubleDamageEarned(side=side))

    def close_wrong_guess(self, defender: int, deception: bool, rng: Rng) -> None:
        """§6 step 7: after the activation (if any) is fully resolved, a deception token pays
        +4 as a separate gain [I-16]; then the guess-turn ends."""
        if deception and not self.over:
            self.gain(defender, DECEPTION_BONUS, PointSource.DECEPTION)
        self.end_turn(rng)

    def end_turn(self, rng: Rng) -> None:
        """After guess-turn 8 the day ends (§5.3.4, §11) or, after day 3, the game (§12)."""
        if self.over or self.state.turn != TURNS - 1:
            return
        if self.day >= DAYS:
            self._final_result()
            return
        state = self.state
        drawn = []
        for side, team in enumerate(state.sides):
            deployed = tuple(mission.rank for mission in team.missions if mission.rank)
            count = 2 if self.double_damage[1 - side] else 1  # §11.1, [I-11]
            drawn.append(tuple(sorted(shuffled(rng, deployed)[:count])))
        self.emit(
            SpiesAndLiesDayEnded(
                day=self.day, exhausted=tuple(drawn), next_starting_side=1 - state.starter
            )
        )

    def _final_result(self) -> None:
        """§12.2: territory, else the higher marker, else a draw ([I-19])."""
        position = self.double_agent
        red, blue = self.towers
        if position != 0:
            self.end_game(RED if position > 0 else BLUE, EndReason.TERRITORY)
        elif red != blue:
            self.end_game(RED if red > blue else BLUE, EndReason.INFILTRATION)
        else:
            self.end_game(None, EndReason.INFILTRATION)

    def end_game(self, winner: int | None, reason: EndReason) -> None:
        """Record the end of the game (§12)."""
        self.over = True
        self.emit(
            SpiesAndLiesEnded(
                winner=winner,
                reason=reason,
                draw=winner is None,
                double_agent=self.double_agent,
                towers=tuple(self.towers),
            )
        )


def _active_effects(team: SideState) -> set[SoldierEffect]:
    active = set()
    if team.spy:
        active.add(SoldierEffect.SPY)
    if team.scout:
        active.add(SoldierEffect.SCOUT)
    if team.miner:
        active.add(SoldierEffect.MINER)
    if team.bomb:
        active.add(SoldierEffect.BOMB)
    return active
