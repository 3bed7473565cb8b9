"""The fast greedy chooses, on every view, the command the ``greedy`` policy chooses.

:mod:`spies_bots.deck_of_spies.greedy` scores the core's legal commands of a view;
:mod:`spies_bots.deck_of_spies.fast_greedy` plays the same greedy on the compact model for
the expert's rollouts, from the same weights. Here both decide on the same views: the
greedy from the view and its legal commands, the fast greedy on a world sampled from that
view alone (so it too decides from what the view shows). The views come from seeded
playouts under every combination of the rule flags, driven by the greedy, by random moves
and by a mix, and from explicit positions that hypothesis draws (any spy, any hand, any
owned cards), which reach retires of every size, both recruits and assassinations.
"""

from __future__ import annotations

import itertools
from random import Random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spies_bots.deck_of_spies import fast_greedy, greedy
from spies_bots.deck_of_spies.model import model_move
from spies_bots.deck_of_spies.worlds import Sampler
from spies_core import fold, get_game, start_game
from spies_core.cards import ALL_CARDS, Card, is_ace, value
from spies_core.deck_of_spies.commands import Assassinate, Counter, Recruit
from spies_core.deck_of_spies.state import Phase, State

SPEC = get_game("deck-of-spies")

FLAGS: list[dict[str, bool]] = [
    {"strict_necessity": a, "ace_counts_in_necessity": b, "retire_multiple_ranks": c}
    for a, b, c in itertools.product((True, False), repeat=3)
]
"""Every combination of the three rule flags of §12."""


def _same_choice(state: State, seed: int) -> Any:
    """Both greedies on the player's view of ``state``; return the greedy's command."""
    view = SPEC.view(state, 0)
    legal = SPEC.legal_commands(state, 0)
    chosen = greedy.choose(view, legal, Random(seed))
    world = Sampler(view).sample(Random(seed))
    fast = fast_greedy.greedy_move(world)
    assert fast == model_move(chosen), (
        f"the fast greedy plays {fast}, the greedy {chosen!r}, on {view!r}"
    )
    return chosen


def _playout(options: dict[str, Any], seed: int, random_share: float) -> list[Any]:
    """One seeded game, comparing both greedies at every turn; the greedy's commands."""
    state = fold(SPEC, start_game(SPEC, 1, options, Random(seed)))
    chooser = Random(seed)
    chosen = []
    while state.phase is Phase.PLAYING:
        command = _same_choice(state, seed)
        chosen.append(command)
        if chooser.random() < random_share:
            legal = SPEC.legal_commands(state, 0)
            command = legal[chooser.randrange(len(legal))]
        for event in SPEC.decide(state, 0, command, Random(chooser.getrandbits(32))):
            state = SPEC.evolve(state, event)
    return chosen


def test_both_greedies_choose_alike_along_seeded_playouts() -> None:
    chosen: list[Any] = []
    for index, (flags, share) in enumerate(itertools.product(FLAGS, (0.0, 0.5, 1.0))):
        for seed in range(3):
            chosen += _playout(flags, 100 * index + seed, share)
    kinds = {type(c) for c in chosen}
    assert kinds == {Counter, Recruit, Assassinate}, kinds
    assert any(c.retire for c in chosen if not isinstance(c, Assassinate))
    assert len(chosen) > 2000


@st.composite
def _positions(draw: st.DrawFn) -> dict[str, Any]:
    """An explicit deal and drawn flags. The hand's values are drawn first, so that pairs
    and triples are common; few owned cards are likely, so that the greedy's floor of
    owned cards bounds its retires; the rest of the deck is shuffled into the other zones."""
    cards = list(draw(st.permutations(ALL_CARDS)))
    hand: list[Card] = []
    for wanted in draw(st.lists(st.integers(1, 13), min_size=1, max_size=5)):
        hand += [c for c in cards if value(c) == wanted and c not in hand][:1]
    rest = [c for c in cards if c not in hand]
    aces = [c for c in rest if is_ace(c)]
    removed = aces[: draw(st.integers(0, 3))]
    rest = [c for c in rest if c not in removed]
    owned = draw(st.one_of(st.integers(3, 7), st.integers(0, 16)))
    discard = draw(st.integers(0, owned))
    spies = draw(st.integers(1, len(rest) - owned))
    deal = {
        "hand": hand,
        "discard": rest[:discard],
        "draw": rest[discard:owned],
        "spies": rest[owned : owned + spies],
        "spy_discard": rest[owned + spies :],
        "removed": removed,
    }
    return {"deal": deal} | draw(st.sampled_from(FLAGS))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=_positions(), seed=st.integers(0, 2**32 - 1))
def test_both_greedies_choose_alike_on_drawn_positions(options: dict[str, Any], seed: int) -> None:
    state = fold(SPEC, start_game(SPEC, 1, options, Random(seed)))
    if state.phase is Phase.PLAYING:
        _same_choice(state, seed)


@pytest.mark.parametrize(
    ("spy", "hand", "owned", "flags"),
    [
        # Two pairs to retire, room for one under the floor of owned cards: the lower goes.
        ("8H", "2C 2D 3C 3D 8C", "4C 5C 6C 7C 9C", {"retire_multiple_ranks": True}),
        ("8H", "2C 2D 3C 3D 8C", "4C 5C 6C 7C 9C", {}),
        # Room for both pairs, or for three of the four cards.
        ("8H", "2C 2D 3C 3D 8C", "4C 5C 6C 7C 9C 10C 4D", {"retire_multiple_ranks": True}),
        ("8H", "2C 2D 3C 3D 8C", "4C 5C 6C 7C 9C 10C", {"retire_multiple_ranks": True}),
        # A recruit counts the spy as owned, so it may retire one card more.
        ("8H", "2C 2D 2H 7H AH", "4C 5C 6C 7C 9C", {}),
    ],
)
def test_both_greedies_break_retire_ties_alike(
    spy: str, hand: str, owned: str, flags: dict[str, bool]
) -> None:
    placed = {spy, *hand.split(), *owned.split()}
    spies = [spy, *(c for c in ALL_CARDS if c not in placed)]
    deal = {"spies": spies, "hand": hand.split(), "draw": owned.split()}
    state = fold(SPEC, start_game(SPEC, 1, {"deal": deal} | flags, Random(0)))
    assert _same_choice(state, 0).retire
