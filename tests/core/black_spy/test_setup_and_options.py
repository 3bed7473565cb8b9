"""The deck (§1), the first dealer and the deal (§2), the options (§8.1, §8.2-8.6,
Appendix A, ``options.deal``) and the bound on a game's length."""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

import pytest

from spies_core import fold, parse_options, start_game
from spies_core.black_spy.cards import (
    DECK,
    DISTINCT_CARDS,
    RANK_NAMES,
    Colour,
    parse_card,
    sort_cards,
)
from spies_core.black_spy.events import BlackSpyCardsExchanged, BlackSpyDealt, BlackSpyStarted
from spies_core.black_spy.options import BlackSpyFlags
from spies_core.black_spy.rules import deal_cards
from spies_core.black_spy.state import MAX_EVENTS
from spies_core.decider import shuffled
from spies_core.errors import InvalidOptionsError, RuleError
from spies_core.registry import GAMES
from tests.core.black_spy.helpers import (
    SPEC,
    BlackSpy,
    fixed_deal,
    random_playout,
    split_deck,
)


def test_registered_as_black_spy_for_3_to_6_players() -> None:
    """The game joins the registry (and so the API, replay and conformance)."""
    assert GAMES["black-spy"] is SPEC
    assert (SPEC.title, SPEC.min_players, SPEC.max_players) == ("Black Spy", 3, 6)


def test_deck_has_60_cards_with_six_black_7s() -> None:
    """§1.1-1.4: four colours 1-11, black 1-11 plus five more black 7s."""
    assert len(DECK) == 60
    counts = Counter(DECK)
    assert counts["black-7"] == 6
    assert len(DISTINCT_CARDS) == 55
    for colour in Colour:
        assert sum(1 for c in DECK if c.startswith(colour.value + "-")) == (
            16 if colour is Colour.BLACK else 11
        )
    assert RANK_NAMES[7] == "Spy" and RANK_NAMES[11] == "Director"


def test_card_notation_is_normalised_or_refused() -> None:
    """Card notation: "<colour>-<rank>"; case and surrounding spaces are normalised."""
    assert parse_card(" Red-1 ") == "red-1"
    assert parse_card("BLACK-7") == "black-7"
    for bad in ("red-0", "red-12", "pink-3", "red1", "red 1", "", "7", 7, None):
        with pytest.raises(RuleError) as caught:
            parse_card(bad)
        assert caught.value.code == "unknown-card"


@pytest.mark.parametrize(("players", "size"), [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_every_card_is_dealt(players: int, size: int) -> None:
    """§2.3: all 60 cards are dealt, 20/15/12/10 each."""
    game = BlackSpy.start(players, seed=players)
    events = game.events
    dealt = events[1]
    assert isinstance(dealt, BlackSpyDealt)
    assert dealt.hand_size == size and dealt.deal == 1
    assert [len(h) for h in game.state.hands] == [size] * players
    assert Counter(c for h in game.state.hands for c in h) == Counter(DECK)
    SPEC.check_invariants(game.state)


def test_first_dealer_is_random_and_recorded_and_the_deal_rederivable() -> None:
    """§2.2, §10.13: the first dealer is ``rng.randrange(players)``; the deck is
    ``shuffled(rng, DECK)`` dealt one card at a time from the dealer's left (§2.3)."""
    dealers = set()
    for seed in range(40):
        events = start_game(SPEC, 5, {}, Random(seed))
        started, dealt = events
        assert isinstance(started, BlackSpyStarted) and isinstance(dealt, BlackSpyDealt)
        assert started.dealer == dealt.dealer and not started.fixed_deal
        dealers.add(started.dealer)
        rng = Random(seed)
        dealer = rng.randrange(5)
        assert dealer == started.dealer
        assert dealt.hands == deal_cards(shuffled(rng, DECK), dealer, 5)
    assert dealers == set(range(5))


def test_deal_starts_at_the_dealers_left() -> None:
    """§2.3: the first card goes to the dealer's left, then clockwise."""
    hands = deal_cards(DECK, dealer=1, players=3)
    assert DECK[0] in hands[2] and DECK[1] in hands[0] and DECK[2] in hands[1]


def test_deal_rotates_clockwise() -> None:
    """§2.4: each deal's dealer is the previous dealer's left neighbour."""
    for players in (3, 4, 5, 6):
        game = random_playout(players, seed=8)
        dealers = [d.dealer for d in game.deals]
        first = dealers[0]
        assert dealers == [(first + k) % players for k in range(len(dealers))]
        assert [d.deal for d in game.deals] == list(range(1, len(dealers) + 1))


# --- options.deal ------------------------------------------------------------------------------


def test_explicit_deal_fixes_first_dealer_and_hands_only() -> None:
    """``options.deal``: the first dealer and hands as given; later deals are shuffled."""
    hands = split_deck(4)
    options = fixed_deal(hands, dealer=2)
    events = start_game(SPEC, 4, options, Random(1))
    started, dealt = events
    assert isinstance(started, BlackSpyStarted) and started.fixed_deal and started.dealer == 2
    assert isinstance(dealt, BlackSpyDealt)
    assert dealt.hands == tuple(sort_cards(h) for h in hands)
    assert started.flags == BlackSpyFlags()  # the deal itself is not in the first event
    # Later deals: shuffled, dealt by the next seats.
    game = random_playout(4, seed=1, options=options)
    assert game.deals[0].hands == dealt.hands
    assert game.deals[1].dealer == 3
    assert game.deals[1].hands != dealt.hands


def test_explicit_deal_normalises_cards_and_sorts_hands() -> None:
    """Cards in a deal use the same notation, normalised; hands come out sorted."""
    hands = [list(reversed(h)) for h in split_deck(3)]
    hands[0][0] = hands[0][0].upper()
    game = BlackSpy.start(3, fixed_deal(hands))
    assert game.state.hands == tuple(sort_cards(h) for h in split_deck(3))


def bad_deals() -> list[Any]:
    base = split_deck(4)
    swapped = [list(h) for h in base]
    swapped[0][0] = swapped[1][0]  # a card twice, one missing
    short = [list(h) for h in base]
    short[0] = short[0][:-1]
    short[1] = [*short[1], base[0][-1]]
    unknown = [list(h) for h in base]
    unknown[2][0] = "red-13"
    return [
        pytest.param({"dealer": 4, "hands": base}, "dealer 4", id="dealer-out-of-range"),
        pytest.param({"dealer": -1, "hands": base}, "dealer -1", id="negative-dealer"),
        pytest.param({"dealer": 0, "hands": base[:3]}, "3 hands", id="three-hands"),
        pytest.param({"dealer": 0, "hands": swapped}, "missing", id="duplicate-card"),
        pytest.param({"dealer": 0, "hands": short}, "14 cards", id="unequal-sizes"),
        pytest.param({"dealer": 0, "hands": unknown}, "red-13", id="unknown-card"),
        pytest.param({"dealer": 0, "hands": [[], [], [], []]}, "0 cards", id="empty"),
    ]


@pytest.mark.parametrize(("deal", "named"), bad_deals())
def test_explicit_deal_is_validated(deal: dict[str, Any], named: str) -> None:
    """``options.deal`` must hold the 60 cards (six black 7s) in equal hands, dealer a seat."""
    with pytest.raises(InvalidOptionsError) as caught:
        start_game(SPEC, 4, {"deal": deal}, Random(0))
    assert caught.value.code == "invalid-deal"
    assert named in caught.value.message


def test_explicit_deal_with_unknown_field_is_refused() -> None:
    """Options forbid unknown fields, also inside ``deal``."""
    with pytest.raises(InvalidOptionsError) as caught:
        parse_options(SPEC, {"deal": {"dealer": 0, "hands": [], "deck": []}})
    assert caught.value.code == "unknown-option"
    with pytest.raises(InvalidOptionsError) as caught:
        parse_options(SPEC, {"hold_round": True})
    assert caught.value.code == "unknown-option"


# --- variants ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "section"),
    [
        ("capture_or_release", "8.2"),
        ("mole", "8.3"),
        ("call_colour", "8.4"),
        ("follow_rank", "8.5"),
        ("reduce_points", "8.6"),
    ],
)
def test_variants_without_rule_text_are_refused(option: str, section: str) -> None:
    """§8.2-8.6, §10.15: the five variants known by name only are refused at creation."""
    for extra in ({}, {"classic": True}):
        with pytest.raises(InvalidOptionsError) as caught:
            start_game(SPEC, 4, {option: True, **extra}, Random(0))
        assert caught.value.code == "unsupported-variant"
        assert option in caught.value.message and f"§{section}" in caught.value.message
        assert "not supported" in caught.value.message
    start_game(SPEC, 4, {option: False}, Random(0))


def test_flags_are_recorded_in_the_first_event() -> None:
    """Options are recorded in the game's first event (the deal's hands in its own)."""
    for options, flags in (
        ({}, BlackSpyFlags()),
        ({"no_good_spies": True}, BlackSpyFlags(no_good_spies=True)),
        ({"classic": True}, BlackSpyFlags(classic=True)),
    ):
        started = start_game(SPEC, 3, options, Random(0))[0]
        assert isinstance(started, BlackSpyStarted) and started.flags == flags


def test_classic_first_leader_is_the_dealers_left() -> None:
    """Appendix A: the player to the dealer's left leads the first trick of every deal,
    whoever holds the red 1."""
    for dealer in range(4):
        game = BlackSpy.start(4, {"classic": True, **fixed_deal(split_deck(4), dealer=dealer)})
        events = game.pass_all()
        exchanged = events[-1]
        assert isinstance(exchanged, BlackSpyCardsExchanged)
        assert exchanged.leader == (dealer + 1) % 4 == game.state.turn
    game = random_playout(5, seed=4, options={"classic": True})
    leaders = [e.leader for e in game.events if isinstance(e, BlackSpyCardsExchanged)]
    assert leaders == [(d.dealer + 1) % 5 for d in game.deals]


def test_modern_first_leader_holds_the_red_1() -> None:
    """§4.1: in every deal the first leader holds the red 1 after the exchange."""
    game = random_playout(6, seed=6)
    for i, event in enumerate(game.events):
        if isinstance(event, BlackSpyCardsExchanged):
            state = game_state_after(game, i)
            assert "red-1" in state.hands[event.leader]


def game_state_after(game: Any, index: int) -> Any:
    """The state after event ``index`` of a playout (by folding its prefix)."""
    return fold(SPEC, game.events[: index + 1])


# --- bounds ------------------------------------------------------------------------------------


def test_max_events_is_a_true_bound() -> None:
    """Every deal adds at least 60 to the sum of the totals, so the longest game is 6
    players under the classic threshold of 200: 20 deals of 79 events, plus 2."""
    assert MAX_EVENTS == 20 * 79 + 2 == SPEC.max_events
    longest = 0
    for players in (3, 6):
        for options in ({}, {"classic": True}):
            game = random_playout(players, seed=0, options=options)
            longest = max(longest, len(game.events))
    assert longest < MAX_EVENTS
