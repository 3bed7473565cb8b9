"""Which commands Spies & Lies accepts now, by phase and stage, and the near misses the
suites try.

Rule numbers refer to ``docs/rules/spies-and-lies.md``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

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
from spies_core.spies_and_lies.deployment import deploy_commands, first_commands, second_commands
from spies_core.spies_and_lies.state import (
    ALL_RANKS,
    MarshalOption,
    Phase,
    Stage,
    State,
    deception_window_open,
    defender_side,
    sergeant_slot,
    to_act,
)

__all__ = ["legal_commands", "probe_commands"]

_GUESSES: Final = tuple(Guess(rank=rank) for rank in ALL_RANKS)
_WINDOW: Final = (Deceive(), DeclineDeception())
_MARSHAL_CHOICES: Final = tuple(ChooseMarshal(option=option) for option in MarshalOption)
_SERGEANT_MARKS: Final = (MarkSergeant(token=True), MarkSergeant(token=False))
_CONFIRM: Final = (ConfirmIntel(),)


def legal_commands(state: State, seat: int) -> list[Command]:
    """Exactly the commands ``decide`` accepts from ``seat`` now (empty when not to act)."""
    if seat not in to_act(state):
        return []
    phase = state.phase
    if phase is Phase.MISSION:
        stage = state.stage
        if stage is Stage.DECEPTION:
            return list(_WINDOW) if deception_window_open(state) else list(_GUESSES)
        if stage is Stage.GUESS:
            return list(_GUESSES)
        if stage is Stage.MARSHAL:
            return list(_MARSHAL_CHOICES)
        exhausted = state.sides[defender_side(state)].exhausted
        return [ChooseCaptain(borrow=None), *(ChooseCaptain(borrow=r) for r in exhausted)]
    if phase is Phase.DEPLOY:
        team = state.sides[seat % 2]
        if state.players == 2:
            return list(deploy_commands(team.hand))
        if seat < 2:
            return list(first_commands(team.hand))
        first = (team.missions[0].rank or 0, team.missions[1].rank or 0)
        return list(second_commands(team.hand, first))
    if phase is Phase.INTEL:
        return list(_CONFIRM if sergeant_slot(state, seat) is None else _SERGEANT_MARKS)
    return []


def probe_commands(state: State, seat: int) -> Iterable[Command]:
    """Plausible commands, legal and illegal, for the conformance suite to try."""
    team = state.sides[seat % 2] if state.sides else None
    probes: list[Command] = [
        Deceive(),
        DeclineDeception(),
        ConfirmIntel(),
        *_SERGEANT_MARKS,
        *_MARSHAL_CHOICES,
        ChooseCaptain(borrow=None),
        *(ChooseCaptain(borrow=rank) for rank in (0, *ALL_RANKS, 11)),
        *(Guess(rank=rank) for rank in (-1, 0, *ALL_RANKS, 11)),
        Deploy(soldiers=()),
        Deploy(soldiers=(1, 2, 3)),
        Deploy(soldiers=(1, 2, 3, 5, 6)),
        Deploy(soldiers=(1, 2, 7, 6)),  # out of order (§5.1.2)
        Deploy(soldiers=(2, 7, 4, 10)),  # E6
        Deploy(soldiers=(0, 2, 3, 5)),
        Deploy(soldiers=(1, 2, 3, 11)),
        Deploy(soldiers=(1, 1, 2, 3)),
        Deploy(soldiers=(9, 10)),
        Deploy(soldiers=(1, 2)),
        Deploy(soldiers=(4, 10)),
    ]
    if team is not None:
        hand = team.hand
        if team.exhausted:
            ex = team.exhausted[0]
            probes.append(Deploy(soldiers=tuple(sorted((ex, *hand[:3])))))
            probes.append(Deploy(soldiers=tuple(sorted((ex, hand[0])))))
        if len(hand) >= 4:
            probes.append(Deploy(soldiers=hand[:4]))
            probes.append(Deploy(soldiers=hand[-4:][::-1]))
            probes.append(Deploy(soldiers=hand[-2:]))
            probes.append(Deploy(soldiers=hand[:2]))
        first = team.missions[0].rank
        if first is not None:
            probes.append(Deploy(soldiers=(first, hand[-1] if hand else 10)))
    probes.extend(legal_commands(state, seat)[:3])
    return probes
