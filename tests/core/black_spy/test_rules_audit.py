"""Rules of Black Spy that had no test of their own before the rules audit
(``tests/core/black_spy/RULES_AUDIT.md``); each test is named after its rule."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from random import Random
from typing import Any

import pytest

from spies_core.black_spy.cards import DECK
from spies_core.black_spy.commands import PassCards, PlayCard
from spies_core.black_spy.events import (
    BlackSpyCardPlayed,
    BlackSpyCardsExchanged,
    BlackSpyDealScored,
    BlackSpyDealt,
    BlackSpyGameEnded,
    BlackSpyTrickWon,
)
from spies_core.black_spy.state import Phase, State
from tests.core.black_spy.helpers import SPEC, BlackSpy, fixed_deal, position, split_deck


def legal_cards(state: State, seat: int) -> set[str]:
    """The cards of the seat's legal plays."""
    return {c.card for c in SPEC.legal_commands(state, seat) if isinstance(c, PlayCard)}


def test_s4_2_red_1_holder_may_lead_another_non_black_card() -> None:
    """§4.2, §10.6: the red 1's holder leads trick 1 but need not play the red 1."""
    game = BlackSpy.at(
        position(["red-1 blue-5 black-2", "blue-3 red-3", "blue-4 red-4"], first_trick=True)
    )
    events = game.act(0, PlayCard(card="blue-5"))
    assert events == [BlackSpyCardPlayed(seat=0, card="blue-5")]
    assert game.state.trick == ("blue-5",) and "red-1" in game.state.hands[0]


def test_s4_4_first_trick_follower_void_in_both_may_play_black() -> None:
    """§4.4, §10.5: the trick-1 ban is on the led card only; a follower holding neither the
    led colour nor the led rank may play a black card, even a black 7."""
    game = BlackSpy.at(
        position(["red-1 blue-5", "black-7 black-9 green-3", "blue-4 red-4"], first_trick=True)
    )
    game.play(0, "red-1")
    assert legal_cards(game.state, 1) == {"black-7", "black-9", "green-3"}
    game.play(1, "black-7")
    assert game.state.trick == ("red-1", "black-7")


def test_s5_1_play_goes_clockwise_from_the_leader() -> None:
    """§5.1, §2.1: after the leader, each other seat plays once, in seat order (i + 1)."""
    game = BlackSpy.at(
        position(
            ["blue-1 blue-6", "blue-2 blue-7", "blue-3 blue-8", "blue-4 blue-9", "blue-5 blue-10"],
            leader=3,
        )
    )
    seats = []
    for _ in range(5):
        assert game.state.turn is not None
        seats.append(game.state.turn)
        game.play(game.state.turn, game.state.hands[game.state.turn][0])
    assert seats == [3, 4, 0, 1, 2]


def test_s5_2_following_is_to_the_led_card_not_the_previous_card() -> None:
    """§5.2: red 4 led, black 4 followed by rank; the third seat holds black cards but no
    red and no 4, so it may play anything: the previous card's colour (black) binds nobody."""
    game = BlackSpy.at(position(["red-4 blue-1", "black-4 blue-2", "black-9 green-3"], trick=""))
    game.play(0, "red-4")
    game.play(1, "black-4")
    assert legal_cards(game.state, 2) == {"black-9", "green-3"}
    game.act(2, PlayCard(card="green-3"))


def test_s5_3_black_shed_on_a_coloured_lead_never_wins() -> None:
    """§5.3, §5.4: no trumps: a black 11 played by a seat void in red loses to the red 4."""
    game = BlackSpy.at(position(["red-4 blue-1", "black-11 blue-2", "red-2 green-3"]))
    events = game.finish_trick(["red-4", "black-11", "red-2"])
    won = events[-1]
    assert isinstance(won, BlackSpyTrickWon) and won.winner == 0 and won.points == 5


def test_s5_6_trick_winner_leads_the_next_trick() -> None:
    """§5.6: the winner takes the trick face down and leads the next one."""
    game = BlackSpy.at(position(["red-4 blue-1", "red-9 blue-2", "red-2 green-3"]))
    events = game.finish_trick(["red-4", "red-9", "red-2"])
    after = game.state
    assert isinstance(events[-1], BlackSpyTrickWon) and events[-1].winner == 1
    assert after.leader == 1 and after.turn == 1 and after.trick == ()
    assert SPEC.to_act(after) == frozenset({1})
    assert legal_cards(after, 1) == {"blue-2"}


def test_s7_1_game_does_not_end_during_a_deal() -> None:
    """§7.1: the end is checked only after a deal's scoring: a seat whose total plus the
    points taken this deal passes the threshold mid-deal plays on."""
    game = BlackSpy.at(
        position(
            ["black-7 black-7 blue-1", "black-7 black-8 blue-2", "black-9 black-10 blue-3"],
            totals=(0, 0, 199),
        )
    )
    game.finish_trick(["black-7", "black-8", "black-9"])
    after = game.state
    assert after.phase is Phase.PLAYING and SPEC.outcome(after) is None
    assert after.totals == (0, 0, 199)  # 199 + 15 taken > 200, but the deal goes on
    assert SPEC.view(after, None).pile_points == (0, 0, 15)


def test_s3_4_receiver_of_the_red_1_sees_it_only_after_every_pass() -> None:
    """§3.4, §4.1: the seat that will lead because it receives the red 1 cannot tell before
    the last pass: its view and the leader are unknown until the exchange."""
    hands = split_deck(4)  # seat 1 holds the red 1 (the canonical deck in blocks)
    game = BlackSpy.start(4, fixed_deal(hands, dealer=3))
    holder = next(s for s in range(4) if "red-1" in game.state.hands[s])
    receiver = (holder + 1) % 4  # the first deal passes left
    before = SPEC.view(game.state, receiver)
    game.act(holder, PassCards(cards=("red-1", *game.state.hands[holder][-2:])))
    assert SPEC.view(game.state, receiver).hand == before.hand
    assert SPEC.view(game.state, receiver).received is None
    for seat in range(4):
        if game.state.passes[seat] is None and seat != receiver:
            game.act(seat, PassCards(cards=game.state.hands[seat][:3]))
    assert game.state.phase is Phase.PASSING
    events = game.act(receiver, PassCards(cards=game.state.hands[receiver][:3]))
    exchanged = events[-1]
    assert isinstance(exchanged, BlackSpyCardsExchanged) and exchanged.leader == receiver
    assert "red-1" in (SPEC.view(game.state, receiver).received or ())


# --- an independent model of §2-§7 and Appendix A, written from the spec alone -----------

_BLACK_VALUES = {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 10, 8: 2, 9: 3, 10: 4, 11: 5}


def _colour(card: str) -> str:
    return card.split("-")[0]


def _rank(card: str) -> int:
    return int(card.split("-")[1])


def _value(card: str, good_spies: bool) -> int:
    """§6.2; §8.1 and Appendix A: coloured 7s score 0."""
    if _colour(card) == "black":
        return _BLACK_VALUES[_rank(card)]
    return -5 if good_spies and _rank(card) == 7 else 0


def _model_legal(hand: Sequence[str], trick: Sequence[str], first_trick: bool) -> set[str]:
    """§9 ``legal_moves`` (with Appendix A's all-black leader edge case)."""
    if not trick:
        coloured = {c for c in hand if _colour(c) != "black"}
        return coloured if first_trick and coloured else set(hand)
    led = trick[0]
    follow = {c for c in hand if _colour(c) == _colour(led) or _rank(c) == _rank(led)}
    return follow or set(hand)


def _model_winner(trick: Sequence[str]) -> int:
    """§9 ``trick_winner``: led colour only, highest rank, earliest on ties."""
    led = _colour(trick[0])
    return min((-_rank(c), i) for i, c in enumerate(trick) if _colour(c) == led)[1]


def _model_scores(piles: list[list[str]], good_spies: bool, moon: bool) -> list[int]:
    """§9 ``deal_score`` (§6.4, §10.9, §10.10)."""
    scores = [sum(_value(c, good_spies) for c in pile) for pile in piles]
    blacks = [sum(_colour(c) == "black" for c in pile) for pile in piles]
    if moon and 16 in blacks:
        shooter = blacks.index(16)
        total = 60 if good_spies else 80
        goods = [sum(_value(c, good_spies) for c in p if _colour(c) != "black") for p in piles]
        return [g + (0 if s == shooter else total) for s, g in enumerate(goods)]
    return scores


def _check_deal_event(event: object, model: dict[str, Any], state: State) -> None:
    n, classic = state.players, model["classic"]
    if isinstance(event, BlackSpyDealt):
        if event.deal > 1:
            assert event.dealer == (model["dealer"] + 1) % n  # §2.4
        model["dealer"] = event.dealer
        cycle = [1] if classic else [1, -1, 2] if n == 4 else [1, -1]  # §3.3, App. A
        assert event.direction.offset == cycle[(event.deal - 1) % len(cycle)]
        assert Counter(c for h in event.hands if h for c in h) == Counter(DECK)  # §2.3
        assert {len(h or ()) for h in event.hands} == {60 // n}
        model["piles"] = [[] for _ in range(n)]
    elif isinstance(event, BlackSpyCardsExchanged):
        holder = next(s for s in range(n) if "red-1" in state.hands[s])
        assert event.leader == ((model["dealer"] + 1) % n if classic else holder)  # §4.1
    elif isinstance(event, BlackSpyTrickWon):
        assert event.winner == (model["leader"] + _model_winner(event.cards)) % n
        assert event.points == sum(_value(c, model["good"]) for c in event.cards)
        model["piles"][event.winner] += event.cards
    elif isinstance(event, BlackSpyDealScored):
        expected = _model_scores(model["piles"], model["good"], moon=not classic)
        assert list(event.scores) == expected
        model["totals"] = [t + s for t, s in zip(model["totals"], expected, strict=True)]
        assert list(event.totals) == model["totals"]
    elif isinstance(event, BlackSpyGameEnded):
        limit = 200 if classic else {3: 200, 4: 150, 5: 120, 6: 100}[n]  # §7.2, App. A
        assert event.threshold == limit and max(event.totals) >= limit
        low = min(event.totals)
        assert event.winners == tuple(s for s, t in enumerate(event.totals) if t == low)


@pytest.mark.parametrize("options", [{}, {"no_good_spies": True}, {"classic": True}])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_s2_to_s7_playouts_match_an_independent_model(
    players: int, options: dict[str, bool]
) -> None:
    """§2-§7, §8.1, Appendix A: in random games every legal list, exchange, first leader,
    trick winner, trick's points, deal score, total, dealer, pass direction and the end
    equal those of a model built from the spec's §9 pseudocode alone."""
    for seed in range(3):
        rng = Random(seed)
        state = BlackSpy.start(players, options, seed=seed).state
        classic = bool(options.get("classic"))
        model: dict[str, Any] = {
            "classic": classic,
            "good": not options,
            "dealer": state.dealer,
            "totals": [0] * players,
            "piles": [[] for _ in range(players)],
        }
        while SPEC.outcome(state) is None:
            seat = rng.choice(sorted(SPEC.to_act(state)))
            if state.phase is Phase.PLAYING:
                first = not state.tricks
                expected = _model_legal(state.hands[seat], state.trick, first)
                assert legal_cards(state, seat) == expected
            model["leader"] = state.leader
            command = rng.choice(SPEC.legal_commands(state, seat))
            events = SPEC.decide(state, seat, command, rng)
            for event in events:
                state = SPEC.evolve(state, event)
                _check_deal_event(event, model, state)
