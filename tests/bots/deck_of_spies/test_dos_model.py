"""The compact model plays every seeded game card for card as ``spies_core`` does.

Both are started from the same table and driven by the same moves, with the same shuffles
(the core's own ``shuffled`` on a generator seeded per turn). After every turn they must
hold the same cards in every zone (decks in order), the same owned count and outcome; and
the fast greedy must choose on the model's table the move that the ``greedy`` policy
chooses from the core's legal commands. Games are driven by the greedy, by random legal
moves, or by a mix of both (which reach retires of Aces and face cards, assassinations and
lost games), under every rule flag of §12.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

import pytest

from spies_bots.deck_of_spies import fast_greedy, greedy, model
from spies_core import fold, get_game, start_game
from spies_core.cards import ALL_CARDS, Card, is_face, sort_key
from spies_core.decider import shuffled
from spies_core.deck_of_spies.events import Result
from spies_core.deck_of_spies.state import State

SPEC = get_game("deck-of-spies")
GAMES = 60
"""Seeded games per flag setting and driver (4 settings × 2 drivers × 60 = 480 games)."""

FLAGS: list[dict[str, bool]] = [
    {},
    {"strict_necessity": False},
    {"ace_counts_in_necessity": False},
    {"retire_multiple_ranks": True},
]

_RESULTS = {
    None: model.PLAYING,
    Result.WON: model.WON,
    Result.LOST: model.LOST,
    Result.LOST_NO_ACE: model.LOST_NO_ACE,
}


def _shuffle(rng: Random) -> Callable[[list[int]], None]:
    """The model's shuffle, made with the core's own Fisher-Yates on the same generator."""

    def shuffle(cards: list[int]) -> None:
        cards[:] = shuffled(rng, cards)

    return shuffle


def _cards(cards: list[int]) -> list[Card]:
    return [model.CARDS[c] for c in cards]


def _canonical(cards: list[int] | tuple[Card, ...]) -> list[Card]:
    named = [model.CARDS[c] if isinstance(c, int) else c for c in cards]
    return sorted(named, key=sort_key)


def _zones(table: model.Table) -> dict[str, Any]:
    return {
        "spy_deck": _cards(table.spies[table.top :]),
        "draw_deck": _cards(table.deck),
        "hand": _canonical(table.hand),
        "draw_discard": _canonical(table.discard),
        "spy_discard": _canonical(table.spy_discard),
        "removed": _canonical(table.removed),
        "owned": table.owned,
        "owned_faces": table.faces,
        "result": table.result,
    }


def _core_zones(state: State) -> dict[str, Any]:
    owned = state.hand + state.draw_deck + state.draw_discard
    return {
        "spy_deck": list(state.spy_deck),
        "draw_deck": list(state.draw_deck),
        "hand": _canonical(state.hand),
        "draw_discard": _canonical(state.draw_discard),
        "spy_discard": _canonical(state.spy_discard),
        "removed": _canonical(state.removed),
        "owned": len(owned),
        "owned_faces": sum(1 for c in owned if is_face(c)),
        "result": _RESULTS[state.result],
    }


def _table(state: State) -> model.Table:
    return model.new_table(
        state.flags,
        spies=state.spy_deck,
        deck=state.draw_deck,
        hand=state.hand,
        discard=state.draw_discard,
        spy_discard=state.spy_discard,
        removed=state.removed,
    )


def _random_deal(rng: Random) -> dict[str, Any]:
    """An explicit position with every card somewhere (spies of any value, Aces removed)."""
    cards = list(ALL_CARDS)
    rng.shuffle(cards)
    aces = [c for c in cards if c.startswith("A")]
    removed = aces[: rng.randrange(3)]
    rest = [c for c in cards if c not in removed]
    spies = rng.randrange(8, 30)
    discard = rng.randrange(0, 8)
    spy_discard = rng.randrange(0, 8)
    return {
        "deal": {
            "spies": rest[:spies],
            "discard": rest[spies : spies + discard],
            "spy_discard": rest[spies + discard : spies + discard + spy_discard],
            "draw": rest[spies + discard + spy_discard :],
            "removed": removed,
        }
    }


def _play(options: dict[str, Any], seed: int, random_share: float) -> tuple[int, int]:
    """Play one game in both, comparing after every turn, a random legal move instead of
    the greedy's with chance ``random_share``; return the number of turns and the result."""
    state = fold(SPEC, start_game(SPEC, 1, options, Random(seed)))
    table = _table(state)
    chooser = Random(seed + 1)
    turns = 0
    while True:
        assert _zones(table) == _core_zones(state), f"seed {seed}, turn {turns}"
        if state.result is not None:
            return turns, table.result
        legal = SPEC.legal_commands(state, 0)
        choice = greedy.choose(SPEC.view(state, 0), legal, Random(0))
        fast = fast_greedy.greedy_move(table)
        assert fast == model.model_move(choice), f"seed {seed}, turn {turns}"
        if chooser.random() < random_share:
            choice = legal[chooser.randrange(len(legal))]
        turn_seed = seed * 1000 + turns
        for event in SPEC.decide(state, 0, choice, Random(turn_seed)):
            state = SPEC.evolve(state, event)
        model.apply(table, model.model_move(choice), _shuffle(Random(turn_seed)))
        turns += 1


@pytest.mark.parametrize("random_share", [0.0, 0.5], ids=["greedy", "mixed"])
@pytest.mark.parametrize("flags", FLAGS, ids=lambda f: ",".join(f) or "defaults")
def test_model_plays_seeded_games_as_the_core(flags: dict[str, bool], random_share: float) -> None:
    turns = [_play(flags, seed, random_share)[0] for seed in range(GAMES)]
    assert sum(turns) > 30 * GAMES


def test_model_plays_dealt_positions_as_the_core() -> None:
    rng = Random(2024)
    for seed in range(40):
        options = _random_deal(rng) | FLAGS[seed % len(FLAGS)]
        _play(options, seed, random_share=0.5)


def test_model_reaches_every_ending() -> None:
    """Random play and the greedy reach a win, a loss and a loss with no Ace left."""
    endings = {_play({}, seed, share)[1] for seed in range(GAMES) for share in (0.0, 1.0)}
    assert endings == {model.WON, model.LOST, model.LOST_NO_ACE}


def test_fast_greedy_plays_out_to_the_end() -> None:
    """The rollout of the ``expert`` ends every game, won or lost."""
    endings = set()
    for seed in range(GAMES):
        table = _table(fold(SPEC, start_game(SPEC, 1, {}, Random(seed))))
        fast_greedy.play_out(table, Random(seed).shuffle)
        endings.add(table.result)
    assert model.PLAYING not in endings and model.WON in endings
