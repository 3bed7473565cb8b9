"""One game between bots, played in memory exactly as the server would record it.

Chance is drawn as the server draws it (:mod:`spies_core.rng`): the setup from
``FairRng(seed, 0)`` and each command from ``FairRng(seed, version)``, where ``version`` is the
game's version before the command as the replay log counts it: its first event
(``game_created``) is seq 1, the setup events follow, then each command's events. A game played
here from the seed bytes ``b`` and a game the server creates with the client seed whose bytes
are ``b`` therefore deal the same cards, and submitting :attr:`Match.commands` to the server one
by one rebuilds this game event for event.

At each decision the lowest seat among those to act moves (the seats of a simultaneous phase
move one after the other, in seat order). It gets its view as the API serves it (``version``
filled in), its legal commands and its own rng; what it returns must be one of those commands.

A game with a time control (``clocked``) counts, as the log does, the ``clocks_updated`` event
the server appends after the setup and after each command (no timeout happens here: bots
decide in milliseconds), so its nonces, and so its deal, are the clocked game's.

No clock is read here: pass ``clock`` (e.g. ``time.perf_counter``) to have every decision and
every ``legal_commands`` call timed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from spies_bots.base import Policy
from spies_core.decider import AnySpec, Outcome
from spies_core.errors import SpiesError
from spies_core.rng import FairRng
from spies_core.step import setup, step, view_at

__all__ = ["Decision", "IllegalBotCommandError", "Match", "play_match"]

_CREATED_EVENTS = 1
"""Events the replay log writes before the setup (``game_created``): the first nonce of a
command is this plus the number of setup events."""


class IllegalBotCommandError(SpiesError, ValueError):
    """A policy returned something that is not one of the legal commands it was given."""

    default_code = "illegal-bot-command"


@dataclass(frozen=True, slots=True)
class Decision:
    """One command a bot chose.

    Attributes:
        seat: the seat that moved.
        command: the command it returned (one of its legal commands).
        phase: the view's ``phase`` as text, for games whose view has one, else ``None``.
        seconds: how long the policy took, when a clock was given.
        legal_seconds: how long the core took to list the legal commands (a baseline for
            ``seconds``), when a clock was given.
    """

    seat: int
    command: Any
    phase: str | None = None
    seconds: float | None = None
    legal_seconds: float | None = None


@dataclass(frozen=True, slots=True)
class Match:
    """A finished game between bots.

    Attributes:
        game: the game id.
        players: the number of seats.
        outcome: how it ended.
        decisions: every command, in the order played.
        setup_events: the number of events of the setup.
        events: the number of game events, setup included (the log's meta events
            ``game_created`` and ``seed_revealed`` are not counted).
        sides: each seat's ``side`` as its final view gives it, for games whose view has one
            (seats on the same side are a team), else ``None`` per seat.
    """

    game: str
    players: int
    outcome: Outcome
    decisions: tuple[Decision, ...]
    setup_events: int
    events: int
    sides: tuple[int | None, ...]

    @property
    def commands(self) -> tuple[tuple[int, Any], ...]:
        """``(seat, command)`` per decision: what to submit to replay the game elsewhere."""
        return tuple((d.seat, d.command) for d in self.decisions)


def play_match(
    spec: AnySpec,
    policies: Sequence[Policy],
    *,
    seed: bytes,
    rngs: Sequence[Random],
    options: object = None,
    clock: Callable[[], float] | None = None,
    clocked: bool = False,
) -> Match:
    """Play one game of ``spec``, seat ``i`` choosing with ``policies[i]`` and ``rngs[i]``.

    Args:
        spec: the game.
        policies: one policy per seat; their number is the number of players.
        seed: the game's seed bytes (the server's ``seed_from_client`` of a seed string).
        rngs: one generator per seat, each bot's own.
        options: the raw creation options, as a client would send them (``None``: defaults).
        clock: a monotonic clock in seconds; when given, decisions are timed.
        clocked: the game has a time control: each command's events (and the setup's) are
            followed by the log's ``clocks_updated``, which the nonces count.

    Returns:
        The finished game.

    Raises:
        InvalidOptionsError: the game refuses this number of players or these options.
        IllegalBotCommandError: a policy returned a command that is not legal.
        RuntimeError: the game did not end within its bound on events.
    """
    players = len(policies)
    if len(rngs) != players:
        raise ValueError(f"{players} policies but {len(rngs)} rngs; give one per seat")
    started = setup(spec, players, {} if options is None else options, FairRng(seed, 0))
    state, outcome = started.state, started.outcome
    # a clocked game's setup is followed by clocks_updated, as is each command's events
    per_clock = 1 if clocked else 0
    version = _CREATED_EVENTS + len(started.events) + (per_clock if outcome is None else 0)
    events = len(started.events)
    decisions: list[Decision] = []
    while outcome is None:
        if events > spec.max_events or len(decisions) > spec.max_events:
            raise RuntimeError(f"{spec.name} did not end within {spec.max_events} events")
        seat = min(spec.to_act(state))
        view = view_at(spec, state, seat, version)
        phase = getattr(view, "phase", None)
        if clock is None:
            legal = spec.legal_commands(state, seat)
            command = policies[seat](view, legal, rngs[seat])
            decision = Decision(seat, command, None if phase is None else str(phase))
        else:
            begin = clock()
            legal = spec.legal_commands(state, seat)
            listed = clock()
            command = policies[seat](view, legal, rngs[seat])
            chosen = clock()
            decision = Decision(
                seat,
                command,
                None if phase is None else str(phase),
                seconds=chosen - listed,
                legal_seconds=listed - begin,
            )
        if command not in legal:
            raise IllegalBotCommandError(
                f"the policy of seat {seat} in {spec.name} returned {command!r},"
                f" which is not one of its {len(legal)} legal commands"
            )
        decisions.append(decision)
        moved = step(spec, state, seat, command, FairRng(seed, version))
        state, outcome = moved.state, moved.outcome
        version += len(moved.events) + per_clock
        events += len(moved.events)
    sides = tuple(getattr(spec.view(state, seat), "side", None) for seat in range(players))
    return Match(
        game=spec.name,
        players=players,
        outcome=outcome,
        decisions=tuple(decisions),
        setup_events=len(started.events),
        events=events,
        sides=sides,
    )
