"""Determinisation: a sampled world agrees with everything the player's view shows."""

from __future__ import annotations

from collections import Counter
from random import Random

from spies_bots.deck_of_spies import model
from spies_bots.deck_of_spies.worlds import Sampler
from spies_core import fold, get_game, start_game
from spies_core.cards import ALL_CARDS, value
from spies_core.deck_of_spies.state import State
from spies_core.deck_of_spies.view import DeckOfSpiesView

SPEC = get_game("deck-of-spies")


def _states(seed: int) -> list[State]:
    """The states of one playout with random legal moves."""
    rng = Random(seed)
    state = fold(SPEC, start_game(SPEC, 1, {}, rng))
    states = []
    while SPEC.outcome(state) is None:
        states.append(state)
        legal = SPEC.legal_commands(state, 0)
        for event in SPEC.decide(state, 0, legal[rng.randrange(len(legal))], rng):
            state = SPEC.evolve(state, event)
    return states


def _names(cards: list[int]) -> Counter[str]:
    return Counter(model.CARDS[c] for c in cards)


def _check_world(view: DeckOfSpiesView, world: model.Table) -> None:
    assert view.hand is not None and view.draw_deck_cards is not None
    shown = {
        "hand": Counter(view.hand),
        "draw_discard": Counter(view.draw_discard),
        "spy_discard": Counter(view.spy_discard),
        "removed": Counter(view.removed),
    }
    sampled = {
        "hand": _names(world.hand),
        "draw_discard": _names(world.discard),
        "spy_discard": _names(world.spy_discard),
        "removed": _names(world.removed),
    }
    assert sampled == shown
    assert model.CARDS[world.spies[world.top]] == view.top_spy
    # The hidden zones hold exactly the cards the view says they hold, and no other.
    assert _names(world.deck) == Counter(view.draw_deck_cards)
    below = world.spies[world.top + 1 :]
    assert _names(below) == Counter(view.unseen_spies)
    every = [*world.spies[world.top :], *world.deck, *world.hand, *world.discard]
    every += [*world.spy_discard, *world.removed]
    assert sorted(model.CARDS[c] for c in every) == sorted(ALL_CARDS)
    # The spies below keep their public value bands: 5-7 above 8-10 above J-K.
    bands = [
        0 if value(model.CARDS[c]) <= 7 else 1 if value(model.CARDS[c]) <= 10 else 2 for c in below
    ]
    assert bands == sorted(bands)
    assert world.owned == view.hand_count + view.draw_deck_count + len(view.draw_discard)
    assert world.faces == view.owned_faces
    assert world.result == model.PLAYING


def test_worlds_agree_with_the_view() -> None:
    for seed in range(12):
        for state in _states(seed)[::3]:
            view = SPEC.view(state, 0)
            sampler = Sampler(view)
            for i in range(3):
                _check_world(view, sampler.sample(Random(i)))


def test_worlds_vary_only_the_hidden_orders() -> None:
    state = _states(3)[0]
    sampler = Sampler(SPEC.view(state, 0))
    rng = Random(5)
    worlds = [sampler.sample(rng) for _ in range(20)]
    assert len({tuple(w.deck) for w in worlds}) > 1
    assert len({tuple(w.spies) for w in worlds}) > 1
    # The same view gives the same worlds for the same generator, whatever the state's
    # hidden orders: the sampler reads nothing else.
    scrambled = SPEC.scramble(state, 0, Random(9))
    assert scrambled.draw_deck != state.draw_deck or scrambled.spy_deck != state.spy_deck
    again = Sampler(SPEC.view(scrambled, 0))
    first = sampler.sample(Random(1))
    second = again.sample(Random(1))
    assert (first.deck, first.spies) == (second.deck, second.spies)
