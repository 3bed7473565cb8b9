"""The ``expert`` bot of Spies & Lies: determinised Monte-Carlo over the greedy bot.

For a decision with several sensible answers, the bot draws worlds consistent with its view
(:func:`.belief.determinise`: the opponent's hidden soldiers among the deployments its ranks,
tokens and revealed cards allow, the intel deck among the cards not yet seen), plays each
candidate in every world through the rules core, lets :mod:`.greedy` play every seat to the
end of the day (the end of the game on the last day), and keeps the candidate with the best
mean result. The same worlds and the same dice serve every candidate, so that candidates
differ by their own effect and not by luck.

The opponent is read from the view: how often it has found the bot's soldiers, and how well
its tokens and revealed cards today fit the deployments the greedy bot would choose, weigh a
random opponent against a greedy one. That weight picks who plays the opponent's seats in a
playout and how likely each of its possible deployments is drawn.

The work is budgeted by counts, never by a clock: at most :data:`ROLLOUTS` playouts per
decision, over the greedy bot's best few candidates.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from random import Random
from typing import Any, Final

from spies_bots.spies_and_lies import greedy
from spies_bots.spies_and_lies.belief import (
    Prior,
    Row,
    consistent_rows,
    determinise,
    pool,
    public_row,
    tokens_out,
)
from spies_bots.spies_and_lies.board import point_value
from spies_bots.spies_and_lies.guesser import deployment_scores, guess_scores
from spies_core.spies_and_lies.commands import (
    ChooseCaptain,
    ChooseMarshal,
    Command,
    Deceive,
    DeclineDeception,
    Deploy,
    Guess,
    MarkSergeant,
)
from spies_core.spies_and_lies.deployment import legal_deployments
from spies_core.spies_and_lies.evolve import evolve
from spies_core.spies_and_lies.legal import legal_commands
from spies_core.spies_and_lies.options import DAYS
from spies_core.spies_and_lies.rules import decide
from spies_core.spies_and_lies.state import Phase, State, to_act
from spies_core.spies_and_lies.view import SpiesAndLiesView, view

__all__ = ["ROLLOUTS", "choose", "evaluate", "opponent_prior", "playout", "wild_chance"]

ROLLOUTS: Final = 40
"""Playouts per decision, shared among the candidates."""
MIN_WORLDS: Final = 4
"""Worlds per candidate at least, however many candidates there are."""
DEPLOY_CANDIDATES: Final = 3
"""The greedy bot's best deployments that are played out."""
DEPLOY_ROLLOUTS: Final = 15
"""Playouts for a deployment, which start a whole day and cost the most."""
GUESS_CANDIDATES: Final = 4
"""The likeliest-scoring guesses that are played out."""
_PRIOR_SPREAD: Final = 0.15
"""How far below the best a deployment's worth may lie and still look likely (steps)."""
_PRIOR_FLOOR: Final = 0.1
"""The share of the greedy bot's deployment weights spread over all deployments alike."""
_WILD_PRIOR: Final = 0.3
"""The chance, before any evidence, that the opponent plays at random."""
_WILD_FINDS: Final = 0.15
"""The share of one's revealed soldiers that retreat against a random guesser."""
_TAME_FINDS: Final = 0.35
"""The same against the greedy guesser."""
_STEP_CAP: Final = 200
"""A bound on the commands of one playout (a day takes about 20)."""


def evaluate(state: State, side: int) -> float:
    """The worth of ``state`` to ``side``, in steps of the Double Agent toward its enemy's
    flag: a finished game counts as beyond the flag, won or lost (§12)."""
    gate = state.options.board_length
    if state.phase is Phase.OVER:
        if state.winner is None:
            return 0.0
        return (gate + 3.0) * (1 if state.winner == side else -1)
    position = state.double_agent if side == 0 else -state.double_agent
    ours, theirs = state.sides[side], state.sides[1 - side]
    unit = point_value(min(state.day + 1, DAYS))
    return (
        position
        + unit * (ours.tower - theirs.tower)
        + unit * 2.0 * (ours.deception_tokens - theirs.deception_tokens)
    )


def _play(state: State, seat: int, command: Command, rng: Random) -> State:
    for event in decide(state, seat, command, rng):
        state = evolve(state, event)
    return state


def playout(state: State, seat: int, command: Command, rng: Random, wild: bool = False) -> float:
    """Play ``command`` for ``seat`` in ``state``, then the greedy bot for every seat to the
    end of the day (or game); the worth of the end to ``seat``'s side. With ``wild`` the
    opponent's seats play uniformly at random instead."""
    day = state.day
    side = seat % 2
    state = _play(state, seat, command, rng)
    for _ in range(_STEP_CAP):
        if state.phase is Phase.OVER or state.day != day:
            break
        mover = min(to_act(state))
        legal = legal_commands(state, mover)
        if wild and mover % 2 != side:
            answer = legal[rng.randrange(len(legal))]
        else:
            answer = greedy.choose(view(state, mover), legal, rng)
        state = _play(state, mover, answer, rng)
    return evaluate(state, side)


def wild_chance(view_: SpiesAndLiesView) -> float:
    """The chance that the opponent guesses at random rather than as the greedy bot does,
    from how often it has found the viewer's soldiers so far (a card it finds, or forces,
    retreats; how often each kind of guesser finds them is ``_WILD_FINDS`` and
    ``_TAME_FINDS``)."""
    assert view_.side is not None
    side = view_.side
    revealed = [m for m in view_.sides[side].missions if m.face_up]
    for record in view_.history:
        revealed.extend(record.missions[side])
    found = sum(m.retreated for m in revealed)
    missed = len(revealed) - found
    wild = _WILD_PRIOR * _WILD_FINDS**found * (1 - _WILD_FINDS) ** missed
    tame = (1 - _WILD_PRIOR) * _TAME_FINDS**found * (1 - _TAME_FINDS) ** missed
    return wild / (wild + tame)


def _tame_weights(view_: SpiesAndLiesView, side: int) -> dict[Row, float]:
    """How likely the greedy bot would have deployed each legal deployment of ``side``'s
    pool today (summing to 1): near-best ones alike, worse ones fading, a floor for all."""
    rows = legal_deployments(pool(view_.sides[side].exhausted))
    scores = deployment_scores(view_, rows, side)
    top = max(scores)
    tame = [math.exp((score - top) / _PRIOR_SPREAD) for score in scores]
    total = sum(tame)
    floor = _PRIOR_FLOOR / len(rows)
    return {
        row: floor + (1 - _PRIOR_FLOOR) * weight / total
        for row, weight in zip(rows, tame, strict=True)
    }


def opponent_prior(view_: SpiesAndLiesView, wild: float) -> Prior:
    """The opponent's deployments weighed as likely as the greedy bot would choose them,
    blended with all alike by the chance that it plays at random.

    What is public of the opponent's deployment today (its tokens and revealed cards) is
    evidence too: it updates ``wild`` by how likely it is under either way of deploying.
    """
    assert view_.side is not None
    rival = 1 - view_.side
    side = view_.sides[rival]
    if not any(m.deployed for m in side.missions):
        return lambda _side, _rows: None
    tame = _tame_weights(view_, rival)
    known, tokens = public_row(side.missions, tokens_out(view_))
    seen = consistent_rows(pool(side.exhausted), known, tokens, view_.current_intel or ())
    tame_mass = sum(tame[row] for row in seen)
    wild_mass = len(seen) / len(tame)
    wild = wild * wild_mass / (wild * wild_mass + (1 - wild) * tame_mass)

    def weigh(of: int, rows: tuple[Row, ...]) -> list[float] | None:
        if of != rival:
            return None
        total = sum(tame[row] for row in rows)
        return [wild / len(rows) + (1 - wild) * tame[row] / total for row in rows]

    return weigh


def _candidates(view_: SpiesAndLiesView, legal: Sequence[Command], rng: Random) -> list[Command]:
    """The commands worth playing out, best-looking first."""
    first = legal[0]
    match first:
        case Deploy():
            deploys = [c for c in legal if isinstance(c, Deploy)]
            return [c for _, c in greedy.deploy_candidates(view_, deploys)[:DEPLOY_CANDIDATES]]
        case Guess():
            scored = guess_scores(view_)
            return [Guess(rank=rank) for _, rank, _ in scored[:GUESS_CANDIDATES]]
        case MarkSergeant() | Deceive() | DeclineDeception() | ChooseMarshal() | ChooseCaptain():
            best = greedy.decide(view_, legal, rng)
            return [best, *(c for c in legal if c != best)]
    return [first]


def decide_expert(view_: SpiesAndLiesView, legal: Sequence[Command], rng: Random) -> Command:
    """The candidate with the best mean playout over worlds drawn from ``view_``."""
    candidates = [c for c in _candidates(view_, legal, rng) if c in legal] or [legal[0]]
    budget = DEPLOY_ROLLOUTS if isinstance(candidates[0], Deploy) else ROLLOUTS
    if len(candidates) == 1 or not budget:
        return candidates[0]
    assert view_.seat is not None
    worlds = max(MIN_WORLDS, budget // len(candidates))
    totals = [0.0] * len(candidates)
    wild = wild_chance(view_)
    prior = opponent_prior(view_, wild)
    for _ in range(worlds):
        world = determinise(view_, rng, prior)
        seed = rng.getrandbits(64)
        opponent = rng.random() < wild
        for at, command in enumerate(candidates):
            totals[at] += playout(world, view_.seat, command, Random(seed), opponent)
    best = max(range(len(candidates)), key=lambda at: (totals[at], -at))
    return candidates[best]


def choose(view_: Any, legal: Sequence[Any], rng: Random) -> Any:
    """The ``expert`` policy: :func:`decide_expert`, kept to ``legal``."""
    command = decide_expert(view_, legal, rng)
    return command if command in legal else legal[0]
