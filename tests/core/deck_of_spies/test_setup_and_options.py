"""Setup (§2), the explicit deal, and the option flags of §12."""

from __future__ import annotations

from random import Random

import pytest

from spies_core import fold, start_game
from spies_core.cards import ALL_CARDS, value
from spies_core.deck_of_spies.commands import Counter
from spies_core.deck_of_spies.events import CardsDrawn, DeckOfSpiesStarted, SpyRevealed
from spies_core.deck_of_spies.options import DeckOfSpiesFlags
from spies_core.errors import InvalidOptionsError
from tests.core.deck_of_spies.helpers import SPEC, DeckOfSpies, deal, sets


@pytest.mark.parametrize("seed", range(20))
def test_setup_bands_and_first_hand(seed: int) -> None:
    """§2.1-2.4: spies 5-7 over 8-10 over J-K, draw deck A-4, five cards drawn."""
    events = start_game(SPEC, None, {}, Random(seed))
    first = events[0]
    assert isinstance(first, DeckOfSpiesStarted) and first.spy_deck and first.draw_deck
    bands = [(value(c) - 5) // 3 if value(c) <= 10 else 2 for c in first.spy_deck]
    assert bands == sorted(bands) and len(first.spy_deck) == 36
    assert sorted(value(c) for c in first.draw_deck) == sorted(
        value(c) for c in ALL_CARDS if value(c) <= 4
    )
    assert isinstance(events[1], CardsDrawn) and events[1].cards is not None
    assert set(events[1].cards) == set(first.draw_deck[:5])
    assert events[2] == SpyRevealed(spy=first.spy_deck[0], turn=1)
    state = fold(SPEC, events)
    assert len(state.hand) == 5 and len(state.draw_deck) == 11


def test_setup_shuffles_depend_on_the_rng() -> None:
    orders = {start_game(SPEC, None, {}, Random(s))[0].spy_deck for s in range(10)}  # type: ignore[union-attr]
    assert len(orders) == 10


def test_flags_are_recorded_in_the_first_event() -> None:
    """§12 flags are chosen at creation and recorded in the first event."""
    options = {"strict_necessity": False, "retire_multiple_ranks": True}
    first = start_game(SPEC, 1, options, Random(0))[0]
    assert isinstance(first, DeckOfSpiesStarted)
    assert first.flags == DeckOfSpiesFlags(strict_necessity=False, retire_multiple_ranks=True)


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"strict": True}, "unknown-option"),
        ({"strict_necessity": "yes"}, "invalid-options"),
        ({"deal": {"spies": ["5C"], "draw": []}}, "invalid-deal"),
        (deal("5C", "2C 3C 4C 2D 3D 4D"), "invalid-deal"),
        (deal("5C", "2C", removed="KS"), "invalid-deal"),
        ({"deal": {"spies": ["5C", "5c", *ALL_CARDS[1:]], "draw": []}}, "invalid-deal"),
        ({"deal": {"spies": ["ZZ", *ALL_CARDS], "draw": []}}, "invalid-deal"),
        ({"deal": {"spies": list(ALL_CARDS), "draw": [], "extra": []}}, "unknown-option"),
    ],
)
def test_invalid_options_are_refused(options: dict[str, object], code: str) -> None:
    with pytest.raises(InvalidOptionsError) as caught:
        start_game(SPEC, 1, options, Random(0))
    assert caught.value.code == code


def test_solo_game_refuses_more_players() -> None:
    with pytest.raises(InvalidOptionsError) as caught:
        start_game(SPEC, 2, {}, Random(0))
    assert caught.value.code == "invalid-players"


def test_deal_without_hand_draws_five_from_the_top() -> None:
    """An explicit deal without ``hand``: the first five of ``draw`` are drawn as usual."""
    game = DeckOfSpies.start(1, deal("5C", None, draw="AC 2C 3C 4C AD 2D"))
    assert set(game.state.hand) == {"AC", "2C", "3C", "4C", "AD"}
    assert game.state.draw_deck == ("2D",)


def test_strict_necessity_off_allows_any_sufficient_set() -> None:
    """I-15 flag: with ``strict_necessity=false`` unnecessary cards may be dumped."""
    game = DeckOfSpies.start(1, deal("5C", "2D 3H 4S 7D AS", strict_necessity=False))
    assert frozenset({"2D", "3H", "4S", "7D", "AS"}) in game.moves(Counter)
    assert frozenset({"AS"}) not in game.moves(Counter)


def test_retire_multiple_ranks_flag() -> None:
    """I-6 flag: one retire may hold a pair of 2s and a pair of 3s."""
    options = deal("9C", "9D 2C 2H 3C 3H", retire_multiple_ranks=True)
    game = DeckOfSpies.start(1, options)
    retires = {c.retire for c in game.legal() if c.cards == ("9D",)}  # type: ignore[union-attr]
    assert ("2C", "3C", "2H", "3H") in retires
    game.act(0, Counter(cards=("9D",), retire=("2C", "2H", "3C", "3H")))
    assert {"2C", "2H", "3C", "3H"} <= set(game.state.spy_discard)
    default = DeckOfSpies.start(1, deal("9C", "9D 2C 2H 3C 3H"))
    assert default.moves(Counter) >= sets("9D")
    assert all(
        len({value(c) for c in cmd.retire}) <= 1  # type: ignore[union-attr]
        for cmd in default.legal()
    )


@pytest.mark.parametrize(
    "flags",
    [{}, {"strict_necessity": False}, {"ace_counts_in_necessity": False}],
)
def test_legal_list_matches_the_legality_predicates(flags: dict[str, bool]) -> None:
    """§10.2: the fast legal-move generator agrees with is_legal_counter/is_legal_recruit
    on every subset of the hand, over many random positions."""
    from itertools import combinations

    from spies_core.deck_of_spies.commands import Recruit
    from spies_core.deck_of_spies.legal import is_legal_counter, is_legal_recruit

    rng = Random(7)
    for _ in range(60):
        game = DeckOfSpies.start(1, flags, rng=rng)
        while game.state.result is None:
            state = game.state
            spy = state.spy_deck[0]
            listed = {
                (type(c), c.cards)  # type: ignore[union-attr]
                for c in game.legal()
                if isinstance(c, Counter | Recruit) and not c.retire
            }
            if sum(value(c) for c in state.hand) >= value(spy):
                expected = {
                    (kind, used)
                    for size in range(1, len(state.hand) + 1)
                    for used in combinations(state.hand, size)
                    for kind, legal in (
                        (Counter, is_legal_counter(state.flags, used, spy)),
                        (Recruit, is_legal_recruit(state.flags, used, spy)),
                    )
                    if legal
                }
                assert listed == expected
            game.act(0, rng.choice(game.legal()), Random(rng.randrange(99)))
