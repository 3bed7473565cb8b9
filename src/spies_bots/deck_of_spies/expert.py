"""The ``expert`` bot: determinised Monte-Carlo over the greedy's best candidate moves.

For each decision it takes the greedy's top candidates, samples worlds that agree with the
view (:mod:`.worlds`), and in every world plays each candidate and then the greedy to the
end of the game in the compact model (:mod:`.model`). The same worlds and the same
reshuffles serve every candidate (common random numbers), so the comparison measures the
moves and not the luck of the draw. A rollout scores 1 for a win plus a little per owned
face card; the candidate with the best total is played, ties to the greedy's order.

The effort is counted, never timed: about :data:`TURN_BUDGET` simulated turns per decision,
spread over as many worlds as fit (at least :data:`MIN_WORLDS`, at most :data:`MAX_WORLDS`).
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Final, assert_never

from spies_bots.deck_of_spies import greedy
from spies_bots.deck_of_spies.model import (
    ASSASSINATE,
    CARD_INDEX,
    COUNTER,
    RECRUIT,
    WON,
    Move,
    apply,
    play_out,
)
from spies_bots.deck_of_spies.worlds import Sampler
from spies_core.deck_of_spies.commands import Assassinate, Command, Counter, Recruit
from spies_core.deck_of_spies.state import Phase
from spies_core.deck_of_spies.view import DeckOfSpiesView

__all__ = ["choose", "model_move"]

CANDIDATES: Final = 4
"""How many of the greedy's best moves are played out."""
TURN_BUDGET: Final = 4000
"""Simulated turns per decision (candidates × worlds × turns left)."""
MIN_WORLDS: Final = 8
MAX_WORLDS: Final = 200
FACE_WEIGHT: Final = 0.02
"""A rollout's score per owned face card at the end, on top of 1 for a win."""


def model_move(command: Command) -> Move:
    """The model's move for a command."""
    ix = CARD_INDEX
    match command:
        case Counter(cards=cards, retire=retire):
            return (
                COUNTER,
                tuple(sorted(ix[c] for c in cards)),
                tuple(sorted(ix[c] for c in retire)),
            )
        case Recruit(cards=cards, retire=retire):
            return (
                RECRUIT,
                tuple(sorted(ix[c] for c in cards)),
                tuple(sorted(ix[c] for c in retire)),
            )
        case Assassinate(ace=ace):
            return (ASSASSINATE, (ix[ace],), ())
        case _:
            assert_never(command)


def choose(view: DeckOfSpiesView, legal: Sequence[Command], rng: Random) -> Command:
    """The candidate with the best mean rollout result over the sampled worlds."""
    if len(legal) == 1 or view.phase is not Phase.PLAYING:
        return legal[0]
    order = greedy.ranked(view, legal)[:CANDIDATES]
    moves = [model_move(legal[i]) for i in order]
    sampler = Sampler(view)
    worlds = TURN_BUDGET // (len(moves) * max(view.spies_left, 1))
    worlds = max(MIN_WORLDS, min(MAX_WORLDS, worlds))
    totals = [0.0] * len(moves)
    for _ in range(worlds):
        world = sampler.sample(rng)
        seed = rng.getrandbits(64)
        for k, move in enumerate(moves):
            table = world.copy()
            shuffle = Random(seed).shuffle
            apply(table, move, shuffle)
            play_out(table, shuffle)
            totals[k] += (table.result == WON) + FACE_WEIGHT * table.faces
    best = max(range(len(moves)), key=lambda k: (totals[k], -k))
    return legal[order[best]]
