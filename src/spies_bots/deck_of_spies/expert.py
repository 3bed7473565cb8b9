"""The ``expert`` bot: determinised Monte-Carlo over the greedy's best candidate moves.

For each decision it takes the greedy's top candidates, samples worlds that agree with the
view (:mod:`.worlds`), and in every world plays each candidate and then the greedy to the
end of the game in the compact model (:mod:`.model`, with the greedy of
:mod:`.fast_greedy`). The same worlds and the same reshuffles serve every candidate
(common random numbers), so the comparison measures the moves and not the luck of the
draw. A rollout scores 1 for a win plus a little per owned face card; the candidate with
the best total is played, ties to the greedy's order.

Worlds are played one after another as a race: every few worlds a candidate that trails
the leader clearly (in paired differences over the same worlds) is dropped, and the search
stops when one candidate is left, when the candidates left have scored exactly alike, or
when the budget is spent. The effort is counted, never timed: at most :data:`TURN_BUDGET`
simulated turns (and :data:`MAX_WORLDS` worlds) per decision, so the bot is deterministic
given its generator and its slowest decision is bounded.

The compact model covers every rule flag, so the bot searches under every option.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Final

from spies_bots.deck_of_spies import greedy
from spies_bots.deck_of_spies.fast_greedy import play_out
from spies_bots.deck_of_spies.model import WON, apply, model_move
from spies_bots.deck_of_spies.worlds import Sampler
from spies_core.deck_of_spies.commands import Command
from spies_core.deck_of_spies.state import Phase
from spies_core.deck_of_spies.view import DeckOfSpiesView

__all__ = ["choose"]

CANDIDATES: Final = 4
"""How many of the greedy's best moves are played out."""
TURN_BUDGET: Final = 6000
"""At most this many simulated turns per decision (a rollout of a world plays every turn
left); the search then stops. Half as many under ``strict_necessity=false``."""
MAX_WORLDS: Final = 400
"""At most this many worlds per decision (late in the game rollouts are short)."""
MIN_WORLDS: Final = 16
"""Worlds played before any candidate may be dropped."""
CHECK_EVERY: Final = 8
"""Worlds between two looks at the race."""
MARGIN: Final = 2.0
"""Standard errors by which the leader must beat a candidate to drop it."""
FACE_WEIGHT: Final = 0.02
"""A rollout's score per owned face card at the end, on top of 1 for a win."""


def choose(view: DeckOfSpiesView, legal: Sequence[Command], rng: Random) -> Command:
    """The candidate with the best mean rollout result over the sampled worlds."""
    if len(legal) == 1 or view.phase is not Phase.PLAYING:
        return legal[0]
    order = greedy.ranked(view, legal)[:CANDIDATES]
    moves = [model_move(legal[i]) for i in order]
    sampler = Sampler(view)
    alive = list(range(len(moves)))
    results: list[list[float]] = [[] for _ in moves]
    spent = 0
    worlds = 0
    # Without the necessity rule (I-15) the game is much easier, and every subset of the
    # hand is a move, which makes the model's turns dearer: half the turns keep the time.
    budget = TURN_BUDGET if view.flags.strict_necessity else TURN_BUDGET // 2
    while len(alive) > 1 and spent < budget and worlds < MAX_WORLDS:
        world = sampler.sample(rng)
        seed = rng.getrandbits(64)
        for k in alive:
            table = world.copy()
            shuffle = Random(seed).shuffle
            apply(table, moves[k], shuffle)
            play_out(table, shuffle)
            spent += table.top - world.top
            results[k].append((table.result == WON) + FACE_WEIGHT * table.faces)
        worlds += 1
        if worlds >= MIN_WORLDS and worlds % CHECK_EVERY == 0:
            alive = _survivors(alive, results)
    best = max(alive, key=lambda k: (sum(results[k]), -k))
    return legal[order[best]]


def _survivors(alive: list[int], results: list[list[float]]) -> list[int]:
    """The candidates still worth playing out (racing, with paired differences).

    A candidate is dropped when the leader beats it by more than :data:`MARGIN` standard
    errors of their paired difference over the same worlds. When the candidates left have
    scored exactly alike in every world so far, they are taken as equal and the search
    stops (the first in the greedy's order is played).
    """
    leader = max(alive, key=lambda k: (sum(results[k]), -k))
    lead = results[leader]
    n = len(lead)
    kept = [leader]
    alike = True
    for k in alive:
        if k == leader:
            continue
        diffs = [a - b for a, b in zip(lead, results[k], strict=True)]
        mean = sum(diffs) / n
        variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean > 0 and mean * mean * n > MARGIN * MARGIN * variance:
            continue
        kept.append(k)
        alike = alike and not any(diffs)
    if alike:
        return [min(kept)]
    return sorted(kept)
