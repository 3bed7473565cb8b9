"""A game under test, in one style for every game: given a position, when a seat acts, then
its state, its events and its refusals.

*Given*: :meth:`Table.start` starts a game as the core does (its setup events folded), from
options that may fix the deal; :meth:`Table.at` takes a position a test crafted;
:meth:`Table.given` changes a few fields of the state. *When*: :meth:`Table.act` decides a
seat's command and evolves its events, and returns them. *Then*: the test reads
:attr:`Table.state`, :attr:`Table.events` (the whole log) and :meth:`Table.legal`, or
expects a refusal with :meth:`Table.refused`.

Each game's tests subclass :class:`Table` with that game's spec and their own givens and
shorthands (``tests/core/<game>/helpers.py``).
"""

from __future__ import annotations

from random import Random
from typing import Any, ClassVar, Generic, Self, TypeVar

import msgspec
import pytest
from msgspec.structs import replace

from spies_core import fold, start_game
from spies_core.decider import GameSpec, Rng
from spies_core.errors import RuleError

__all__ = ["Table"]

S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E")
X = TypeVar("X", bound=Exception)


class Table(Generic[S, C, E]):
    """A game's state and log, moved on by its rules alone.

    Args:
        state: the position.
        events: the log that led to it (empty for a crafted position).
        rng: one generator drawn from by every command in turn; without it, each command
            draws from a fresh ``Random(0)`` (unless :meth:`act` is given its own).
        checked: check the game's invariants after every command (a crafted position that
            is not a whole game, e.g. a few cards of a deck, passes ``False``).
    """

    SPEC: ClassVar[GameSpec[Any, Any, Any, Any, Any]]
    """The game (set by each game's subclass)."""

    def __init__(
        self,
        state: S,
        events: list[E] | None = None,
        *,
        rng: Rng | None = None,
        checked: bool = True,
    ) -> None:
        self.state = state
        self.events: list[E] = list(events or [])
        self.rng: Rng | None = rng
        self.checked = checked

    # -- given -------------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        players: int | None,
        options: dict[str, Any] | None = None,
        *,
        seed: int = 0,
        rng: Rng | None = None,
        checked: bool = True,
    ) -> Self:
        """Given a new game: ``start_game`` with ``Random(seed)``, folded; or with ``rng``,
        which its commands then go on drawing from."""
        events = start_game(cls.SPEC, players, options or {}, Random(seed) if rng is None else rng)
        return cls(fold(cls.SPEC, events), events, rng=rng, checked=checked)

    @classmethod
    def at(cls, state: S, *, checked: bool = False) -> Self:
        """Given a crafted position (invariants not checked unless asked)."""
        return cls(state, checked=checked)

    def given(self, **changes: Any) -> None:
        """Given the same position with some of the state's fields changed."""
        self.state = replace(self.state, **changes)  # type: ignore[type-var]

    # -- when --------------------------------------------------------------------------------

    def act(self, seat: int, command: C, rng: Rng | None = None) -> list[E]:
        """When ``seat`` sends ``command``: decide it, evolve its events (checking the
        invariants), add them to the log; the events."""
        chance = rng if rng is not None else self.rng if self.rng is not None else Random(0)
        new: list[E] = self.SPEC.decide(self.state, seat, command, chance)
        state = self.state
        for event in new:
            state = self.SPEC.evolve(state, event)
        if self.checked:
            self.SPEC.check_invariants(state)
        self.state = state
        self.events.extend(new)
        return new

    # -- then --------------------------------------------------------------------------------

    def legal(self, seat: int = 0) -> list[C]:
        """The seat's legal commands now."""
        commands: list[C] = self.SPEC.legal_commands(self.state, seat)
        return commands

    def refused(
        self, seat: int, command: C, error: type[X] = RuleError, match: str | None = None
    ) -> X:
        """Then ``command`` of ``seat`` is refused with ``error`` (a message matching
        ``match``): no event, and the state is what it was; the error."""
        before, logged = msgspec.json.encode(self.state), len(self.events)
        with pytest.raises(error, match=match) as refusal:
            self.act(seat, command)
        assert msgspec.json.encode(self.state) == before  # not even changed in place
        assert len(self.events) == logged
        return refusal.value
