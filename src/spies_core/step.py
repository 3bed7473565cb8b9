"""The pure step: one command, or a game's setup, applied to a state.

Every caller of the core that plays a game forward (the server's command path, the
simulator and the bots' in-memory matches, ``spies-replay verify``) takes the same step:
``decide`` the events, ``evolve`` them into the new state, and ask ``outcome``. It is
written once here, so that no caller folds a command's events by hand and all of them agree
on what a command did.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Generic, NamedTuple, TypeVar

import msgspec

from spies_core.clock import ClockView
from spies_core.decider import (
    AnySpec,
    GameSpec,
    Outcome,
    Rng,
    Seat,
    parse_options,
    start_game,
)
from spies_core.errors import InvalidOptionsError

__all__ = ["Step", "Table", "apply_events", "before_deal", "setup", "step", "view_at"]

S = TypeVar("S")
E = TypeVar("E")


@dataclass(frozen=True, slots=True)
class Step(Generic[S, E]):
    """What one command (or a setup) did.

    Attributes:
        events: the events it caused, in order (empty when it caused none).
        state: the state after them.
        outcome: the outcome when the game is over after them, else ``None``.
    """

    events: tuple[E, ...]
    state: S
    outcome: Outcome | None

    @property
    def finished(self) -> bool:
        """Whether the game is over after this step."""
        return self.outcome is not None


def apply_events(spec: GameSpec[S, Any, E, Any, Any], state: S, events: Sequence[E]) -> Step[S, E]:
    """``events`` applied to ``state`` with ``evolve`` (recorded facts: nothing is checked)."""
    evolve = spec.evolve
    for event in events:
        state = evolve(state, event)
    return Step(tuple(events), state, spec.outcome(state))


def step(
    spec: GameSpec[S, Any, E, Any, Any], state: S, seat: Seat, command: Any, rng: Rng
) -> Step[S, E]:
    """Decide ``command`` of ``seat`` against ``state`` and apply the events it causes.

    Raises:
        RuleError: whatever the game's ``decide`` raises; nothing has changed.
    """
    return apply_events(spec, state, spec.decide(state, seat, command, rng))


def setup(spec: AnySpec, players: int | None, raw_options: object, rng: Rng) -> Step[Any, Any]:
    """Validate a new game's seats and options and apply its setup events to the initial
    state (see :func:`~spies_core.decider.start_game`).

    Raises:
        InvalidOptionsError: a seat count the game is not played by, or bad options.
    """
    events = start_game(spec, players, raw_options, rng)
    return apply_events(spec, spec.initial_state(), events)


class Table(NamedTuple):
    """What a game's creation fixes before anything is dealt (``game_created``)."""

    players: int
    """The number of seats."""
    options: Mapping[str, Any]
    """The public creation options (an explicit deal is not among them)."""
    names: tuple[str | None, ...] = ()
    """Each seat's display name, by seat (the view's ``names``)."""


def before_deal(spec: AnySpec, table: Table) -> Any:
    """The state a view shows before the deal: the game's ``configured`` state for the
    table's seats and options, or its initial state when it has none (or the logged options
    no longer parse: an old log still shows, emptier)."""
    if spec.configured is None:
        return _initial_state(spec)
    try:
        options = parse_options(spec, dict(table.options))
    except InvalidOptionsError:
        return _initial_state(spec)
    return spec.configured(table.players, options)


def view_at(
    spec: AnySpec,
    state: Any,
    seat: Seat | None,
    version: int,
    clock: ClockView | None = None,
    table: Table | None = None,
) -> Any:
    """``spec.view(state, seat)`` with its ``version``, ``clock``, ``dealt`` and (from the
    ``table``) ``names`` set: the view as a client receives it.

    Every game's view is a :class:`~spies_core.decider.GameView`, whose ``version`` the core
    leaves at 0 (the core does not count the log's events), whose ``clock`` it leaves empty
    (the core reads no clock), and whose ``dealt`` says whether any setup event has been
    applied: a state equal to the game's initial state has had none. Such a state knows
    nothing of the table, so with the game's ``table`` the view shows :func:`before_deal`
    instead: the seats, options and what they fix are true, whatever the deal decides is
    empty. The folded state itself stays the initial state, so no event and no snapshot
    depends on it.
    """
    dealt = state != _initial_state(spec)
    view = spec.view(state if dealt or table is None else before_deal(spec, table), seat)
    filled: dict[str, Any] = {"version": version, "dealt": dealt}
    if clock is not None:
        filled["clock"] = clock
    if table is not None and table.names:
        filled["names"] = list(table.names)
    return msgspec.structs.replace(view, **filled)


@lru_cache(maxsize=64)
def _initial_state(spec: AnySpec) -> Any:
    """The game's initial state, built once (states are immutable)."""
    return spec.initial_state()
