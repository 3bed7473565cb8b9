"""Findings and rules without a test of their own from the rules audit of Deck of Spies
(``tests/core/deck_of_spies/RULES_AUDIT.md``). Each test is named after its rule."""

from __future__ import annotations

from itertools import combinations
from random import Random

import msgspec
import pytest

from spies_core import fold, start_game
from spies_core.cards import ALL_CARDS, RANKS, Suit, card, is_ace, is_face, value
from spies_core.deck_of_spies.commands import Assassinate, Command, Counter, Recruit
from spies_core.deck_of_spies.events import (
    AceZone,
    CardsDrawn,
    DeckOfSpiesEnded,
    DeckOfSpiesStarted,
    DiscardReshuffled,
    DrawDeckShuffled,
    Event,
    Result,
    SpyAssassinated,
)
from spies_core.deck_of_spies.options import DeckOfSpiesFlags
from spies_core.deck_of_spies.state import Phase, State, owned_faces
from spies_core.errors import RuleError
from tests.core.deck_of_spies.helpers import SPEC, DeckOfSpies, deal

W1 = deal("5C", "2D 3H 4S 7D AS", draw="9H 9S 9D")


# --- bad input: every refusal names the card and the spy ----------------------------------


@pytest.mark.parametrize(
    ("command", "code", "card"),
    [
        (Counter(cards=("ZZ",)), "unknown-card", "ZZ"),
        (Counter(cards=("7D",), retire=("1H", "2D")), "unknown-card", "1H"),
        (Assassinate(ace="11S"), "unknown-card", "11S"),
        (Assassinate(ace="2D"), "not-an-ace", "2D"),
        (Assassinate(ace="AS"), "assassination-not-allowed", "AS"),
    ],
)
def test_a_refusal_names_the_card_and_the_spy(command: Command, code: str, card: str) -> None:
    """An unknown card, a non-Ace or an unforced assassination is refused with a
    message naming both the card given and the spy (5♣)."""
    refusal = DeckOfSpies.start(1, W1).refused(0, command)
    assert refusal.code == code
    assert card in refusal.message
    assert "5♣" in refusal.message


def test_must_assassinate_names_the_cards_and_the_spy() -> None:
    """§3.2: a counter refused because the hand is too weak names the cards."""
    game = DeckOfSpies.start(1, deal("KS", "2C 3C AH", draw="4C 4D"))
    refusal = game.refused(0, Counter(cards=("2C", "3C")))
    assert refusal.code == "must-assassinate"
    assert "2C" in refusal.message and "K♠" in refusal.message


def test_a_command_after_the_end_names_the_card_and_the_spy() -> None:
    """§9.3: after a loss with no Ace, a command is refused with ``game-over``,
    naming the card given and the spy that could not be stopped."""
    over = DeckOfSpies.start(1, deal("10H", "3C 2D 2S 2H", removed="AC AD", spy_discard="AH AS"))
    refusal = over.refused(0, Counter(cards=("3C",)))
    assert refusal.code == "game-over"
    assert "3C" in refusal.message and "10♥" in refusal.message


# --- rules that had no test of their own -------------------------------------------------


def test_s1_2_card_values() -> None:
    """§1.2: A = 1, 2-10 their number, J = 11, Q = 12, K = 13; §1.3: J, Q, K are the faces."""
    assert [value(card(r, Suit.HEARTS)) for r in RANKS] == list(range(1, 14))
    assert [c for c in ALL_CARDS if is_face(c)] == [
        card(r, s) for s in Suit for r in ("J", "Q", "K")
    ]
    assert [c for c in ALL_CARDS if is_ace(c)] == ["AC", "AD", "AH", "AS"]


@pytest.mark.parametrize("flags", [{}, {"retire_multiple_ranks": True}])
def test_s2_5_and_s10_4_a_normal_end_comes_after_turn_36(flags: dict[str, bool]) -> None:
    """§2.5, §9.1, §10.4: a game not lost for want of an Ace ends after exactly 36 turns;
    face cards owned + in the spy discard + in the spy deck are always 12; at most the four
    Aces are removed."""
    ends = set()
    for seed in range(40):
        rng = Random(seed)
        game = DeckOfSpies.start(1, flags, rng=rng)
        while game.state.phase is Phase.PLAYING:
            state = game.state
            faces = owned_faces(state) + sum(is_face(c) for c in state.spy_discard + state.spy_deck)
            assert faces == 12
            assert len(state.removed) <= 4
            game.act(0, rng.choice(game.legal()), Random(rng.randrange(99)))
        state = game.state
        ends.add(state.result)
        if state.result is Result.LOST_NO_ACE:
            assert state.spy_deck and state.turn <= 36
        else:
            assert state.turn == 36 and not state.spy_deck
    assert Result.LOST in ends and Result.LOST_NO_ACE in ends


def test_s3_2_at_least_one_counter_exists_when_the_hand_reaches_the_spy() -> None:
    """§3.2: Σ(hand) ≥ v always leaves a legal counter, so the player is never stuck; and
    recruiting is never required (W2's recruit set is also a legal counter)."""
    rng = Random(3)
    for _ in range(300):
        cards = list(ALL_CARDS)
        rng.shuffle(cards)
        spy = next(c for c in cards if value(c) >= 5)
        hand = [c for c in cards if c != spy][: rng.randint(1, 5)]
        if sum(map(value, hand)) < value(spy):
            continue
        game = DeckOfSpies.start(1, deal(spy, " ".join(hand)))
        assert any(isinstance(c, Counter) for c in game.legal())
    game = DeckOfSpies.start(1, deal("7H", "3H 5H 2S 4D AC", draw="9C 9D"))
    game.act(0, Counter(cards=("3H", "5H")))
    assert "7H" in game.state.spy_discard and "7H" not in game.state.draw_discard


def test_s3_3_an_assassination_carries_no_retire() -> None:
    """§3.3, §6.6, I-7: retiring exists only with a counter or recruit: ``assassinate``
    has no ``retire`` field, and a body that sends one is refused."""
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert(
            {"type": "assassinate", "ace": "AS", "retire": ["2C", "2H"]}, SPEC.command_type
        )
    assert msgspec.convert({"type": "assassinate", "ace": "AS"}, SPEC.command_type) == (
        Assassinate(ace="AS")
    )


def test_s3_2_and_s7_5_mode_test_on_the_whole_hand_before_retiring() -> None:
    """§3.2, §7.5: 8♦ 2♣ 2♥ against 10♥ sums to 12: the player must counter (the 2s
    count), may not assassinate, and cannot retire the pair it needs."""
    game = DeckOfSpies.start(1, deal("10H", "8D 2C 2H", draw="AS 9C 9D"))
    commands = game.legal()
    assert {(type(c), c.cards, c.retire) for c in commands} == {  # type: ignore[union-attr]
        (Counter, ("2C", "8D"), ()),
        (Counter, ("8D", "2H"), ()),
    }
    assert game.refused(0, Assassinate(ace="AS")).code == "assassination-not-allowed"
    refusal = game.refused(0, Counter(cards=("8D",), retire=("2C", "2H")))
    assert refusal.code == "insufficient-value"


def test_i12_double_agent_gone_once_retired_or_removed() -> None:
    """§5.3, I-12, W10: once A♣ is retired (or removed), clubs have no double agent: 4♣ 3♦
    2♥ cannot recruit 9♣; another suit's Ace converts nothing."""
    for zone in ("spy_discard", "removed"):
        game = DeckOfSpies.start(1, deal("9C", "4C 3D 2H AD", **{zone: "AC"}))  # type: ignore[arg-type]
        assert not [c for c in game.legal() if isinstance(c, Recruit)]
        assert game.refused(0, Recruit(cards=("4C", "3D", "2H"))).code == "wrong-suit"


def test_s6_3_a_draw_deck_ace_shuffles_the_draw_deck_alone() -> None:
    """§6.3, I-18: the Ace taken from the draw deck is removed and the draw deck, and only
    it, is shuffled: the draw discard stays out of it (its cards plus the hand stay face up
    on the discard until a refill needs them)."""
    game = DeckOfSpies.start(
        1, deal("QD", "2C 2H 3S 3D", draw="AS 4C 4D 4H 4S 5C 6C", discard="7C 7D", removed="AC")
    )
    events = game.act(0, Assassinate(ace="AS"))
    after = game.state
    assassinated, shuffled = events[0], events[1]
    assert isinstance(assassinated, SpyAssassinated)
    assert assassinated.ace_zone is AceZone.DRAW_DECK
    assert isinstance(shuffled, DrawDeckShuffled) and shuffled.order is not None
    assert sorted(shuffled.order) == sorted(["4C", "4D", "4H", "4S", "5C", "6C"])
    assert not any(isinstance(e, DiscardReshuffled) for e in events)
    assert set(after.draw_discard) == {"7C", "7D", "2C", "2H", "3S", "3D"}
    assert len(after.hand) == 5 and len(after.draw_deck) == 1  # I-5: refilled
    assert "AS" in after.removed and "QD" in after.spy_discard


@pytest.mark.parametrize("ace", ["AD", "AH"])
def test_s6_3_a_hand_or_discard_ace_shuffles_nothing(ace: str) -> None:
    """§6.3-6.5: an Ace from the hand or the draw discard: no shuffle; the whole rest of
    the hand goes face up to the draw discard; the spy to the spy discard."""
    game = DeckOfSpies.start(
        1, deal("QD", "2C 2H 3S AD 3D", draw="4C 4D 4H 4S 5C 6C", discard="AH")
    )
    draw_before = game.state.draw_deck
    events = game.act(0, Assassinate(ace=ace))
    after = game.state
    assert not any(isinstance(e, DrawDeckShuffled | DiscardReshuffled) for e in events)
    kept = {"2C", "2H", "3S", "3D", "AD", "AH"} - {ace}
    assert set(after.draw_discard) == kept
    assert after.hand == tuple(sorted(draw_before[:5], key=ALL_CARDS.index))
    assert ace in after.removed and "QD" in after.spy_discard


def test_s7_4_the_recruited_spy_cannot_be_retired_the_same_turn() -> None:
    """§7.4: the recruited spy goes to the draw discard, not the hand, so it cannot join a
    retire of its rank in the same turn."""
    game = DeckOfSpies.start(1, deal("7H", "3H 4H 7D 2C 5S", draw="9C 9D"))
    refusal = game.refused(0, Recruit(cards=("3H", "4H"), retire=("7D", "7H")))
    assert refusal.code == "card-not-in-hand" and "7H" in refusal.message
    game.act(0, Recruit(cards=("3H", "4H")))
    assert "7H" in game.state.draw_discard


def test_s8_2_no_reshuffle_when_the_draw_deck_just_runs_out() -> None:
    """§8.2, I-10: the reshuffle is lazy: when the refill takes the draw deck's last card
    nothing is reshuffled; the next refill that needs a card reshuffles the discard, the
    cards just used included."""
    game = DeckOfSpies.start(
        1, deal("5C", "2D 3H 4S 7D AS", draw="9H 9S", discard="8C", spies_after="6C 6D")
    )
    events = game.act(0, Counter(cards=("2D", "3H")))
    assert not any(isinstance(e, DiscardReshuffled) for e in events)
    assert game.state.draw_deck == () and set(game.state.draw_discard) == {"8C", "2D", "3H"}
    events = game.act(0, Counter(cards=("7D",)))
    reshuffled = [e for e in events if isinstance(e, DiscardReshuffled)]
    assert len(reshuffled) == 1 and reshuffled[0].order is not None
    assert set(reshuffled[0].order) == {"8C", "2D", "3H", "7D"}


def test_s8_4_and_w15_small_hand_assassinates_with_the_hand_ace_only() -> None:
    """§8.4, W15: a hand kept below 5 for want of cards plays on; if it cannot reach the
    spy, the assassination's Ace can only come from the hand when no other Ace is owned."""
    game = DeckOfSpies.start(1, deal("9C", "AD 2C 3H", removed="AC AH AS", spies_after="6C"))
    state = game.state
    assert len(state.hand) == 3 and state.draw_deck == () and state.draw_discard == ()
    commands = game.legal()
    assert commands == [Assassinate(ace="AD")]
    game.act(0, Assassinate(ace="AD"))
    assert set(game.state.hand) == {"2C", "3H"} and game.state.draw_discard == ()


def test_i20_no_refill_after_the_last_spy() -> None:
    """§9.1, I-20: the turn of the 36th (last) spy ends the game without a refill."""
    game = DeckOfSpies.start(1, deal("5C", "KC 5D 2C 3C", draw="JH QS QH", spies_after=""))
    events = game.act(0, Counter(cards=("5D",)))
    assert not any(isinstance(e, CardsDrawn | DiscardReshuffled) for e in events)
    assert isinstance(events[-1], DeckOfSpiesEnded) and game.state.phase is Phase.OVER
    assert set(game.state.hand) == {"KC", "2C", "3C"} and len(game.state.draw_deck) == 3


# --- views (§10.1, I-17) -------------------------------------------------------------------


def test_s10_1_player_view_shows_what_the_player_knows() -> None:
    """§10.1: the top spy, the spies still to come (which, not their order), the spy and draw
    discards, the hand, and the draw deck's composition but not its order."""
    state = DeckOfSpies.start(
        1, deal("5C", "2D 3H 4S 7D AS", draw="9H 9S 9D", discard="AC 6H", spy_discard="KS")
    ).state
    v = SPEC.view(state, 0)
    assert v.top_spy == "5C" and v.spies_left == len(state.spy_deck)
    assert v.unseen_spies == tuple(sorted(state.spy_deck[1:], key=ALL_CARDS.index))
    assert v.hand == state.hand and v.hand_total == 17
    assert v.draw_deck_cards == ("9D", "9H", "9S") and v.draw_deck_count == 3
    assert v.draw_discard == ("AC", "6H") and v.spy_discard == ("KS",)
    assert v.owned_faces == 0 and v.to_act == (0,)


def test_s10_1_spectator_view_hides_the_hand_and_face_down_cards() -> None:
    """A spectator sees the table, not the hand, the draw deck's cards or face-down cards
    it never saw (a dealt spy discard, retired cards)."""
    game = DeckOfSpies.start(1, deal("9C", "9D 2C 2H 3C 3H", draw="8C 8D 8H", spy_discard="KS"))
    game.act(0, Counter(cards=("9D",), retire=("2C", "2H")))
    v = SPEC.view(game.state, None)
    assert v.hand is None and v.hand_total is None and v.draw_deck_cards is None
    assert v.owned_faces is None and v.hand_count == 5
    assert v.spy_discard == ("9C",) and v.spy_discard_count == 4
    assert SPEC.view(game.state, 0).spy_discard == ("2C", "9C", "2H", "KS")


def test_i17_views_ignore_the_order_below_the_top_spy_and_of_the_draw_deck() -> None:
    """I-17, §10.1: two positions that differ only in the order of the spies below the top
    and of the draw deck look the same to the player and to a spectator."""
    below = ["6C", "7D", "8H", "JS", "KD"]
    rest = {"2D", "3H", "4S", "7D", "AS", "9H", "9S", "9D", "5C", *below}
    others = [c for c in ALL_CARDS if c not in rest]
    a = {"spies": ["5C", *below], "draw": ["9H", "9S", "9D"], "hand": ["2D", "3H", "4S", "AS"]}
    b = {"spies": ["5C", *reversed(below)], "draw": ["9D", "9H", "9S"], "hand": a["hand"]}
    views = []
    for d in (a, b):
        state = DeckOfSpies.start(1, {"deal": {**d, "spy_discard": others, "discard": []}}).state
        views.append((SPEC.view(state, 0), SPEC.view(state, None)))
    assert views[0] == views[1]


def test_i17_events_never_carry_a_deck_order() -> None:
    """I-17, §10.1: redacted for the player or a spectator, no event carries the spy deck
    or a draw deck order; drawn cards come in canonical order."""
    for seed in range(10):
        events = start_game(SPEC, 1, {}, Random(seed))
        state = fold(SPEC, events)
        rng = Random(seed)
        while state.phase is Phase.PLAYING:
            new = SPEC.decide(state, 0, rng.choice(SPEC.legal_commands(state, 0)), rng)
            for e in new:
                state = SPEC.evolve(state, e)
            events += new
        for event in events:
            for viewer in (0, None):
                seen = SPEC.redact(event, viewer)
                if isinstance(seen, DeckOfSpiesStarted):
                    assert seen.spy_deck is None and seen.draw_deck is None
                if isinstance(seen, DiscardReshuffled | DrawDeckShuffled):
                    assert seen.order is None
                if isinstance(seen, CardsDrawn) and seen.cards is not None:
                    assert list(seen.cards) == sorted(seen.cards, key=ALL_CARDS.index)


# --- independent models (§10.2 and §3-§9), written from the spec alone ------------------


def _model_total(cards: tuple[str, ...]) -> int:
    return sum(map(value, cards))


def _model_counter(flags: DeckOfSpiesFlags, s: tuple[str, ...], v: int) -> bool:
    """§4.2 (I-1, I-15): each card's necessity tested one by one, not through min(S)."""
    if _model_total(s) < v:
        return False
    return not flags.strict_necessity or all(_model_total(s) - value(c) < v for c in s)


def _model_recruit(flags: DeckOfSpiesFlags, s: tuple[str, ...], spy: str) -> bool:
    """§5.2 plain, §5.3 with the spy's own Ace (I-2, I-3, I-12)."""
    v, ace = value(spy), "A" + spy[-1]
    if _model_total(s) < v:
        return False
    if ace not in s:
        return all(c[-1] == spy[-1] for c in s) and _model_counter(flags, s, v)
    others = [c for c in s if c != ace]
    base = _model_total(s) - (0 if flags.ace_counts_in_necessity else 1)
    return bool(others) and (not flags.strict_necessity or all(base - value(c) < v for c in others))


def _model_retires(flags: DeckOfSpiesFlags, rest: list[str]) -> set[tuple[str, ...]]:
    """§7.1-7.2 (I-6): none, or groups of two or more cards of one value."""
    found: set[tuple[str, ...]] = {()}
    for size in range(2, len(rest) + 1):
        for r in combinations(rest, size):
            ranks = [value(c) for c in r]
            groups_ok = all(ranks.count(x) >= 2 for x in ranks)
            if groups_ok and (flags.retire_multiple_ranks or len(set(ranks)) == 1):
                found.add(tuple(sorted(r)))
    return found


def _model_moves(
    flags: DeckOfSpiesFlags, hand: tuple[str, ...], spy: str, aces: list[str]
) -> set[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    """§10.2 by brute force over every subset of the hand; §3.2/§6.1 on the whole hand."""
    if _model_total(hand) < value(spy):
        return {("assassinate", (a,), ()) for a in aces}
    moves = set()
    for size in range(1, len(hand) + 1):
        for s in combinations(hand, size):
            rest = [c for c in hand if c not in s]
            for kind, ok in (
                ("counter", _model_counter(flags, s, value(spy))),
                ("recruit", _model_recruit(flags, s, spy)),
            ):
                if ok:
                    moves |= {(kind, tuple(sorted(s)), r) for r in _model_retires(flags, rest)}
    return moves


def _as_move(command: Command) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    if isinstance(command, Assassinate):
        return ("assassinate", (command.ace,), ())
    kind = "counter" if isinstance(command, Counter) else "recruit"
    return (kind, tuple(sorted(command.cards)), tuple(sorted(command.retire)))


def test_s10_2_legal_commands_equal_an_independent_enumeration() -> None:
    """§10.2, §3.2, §4.2, §5.2-5.3, §6.1-6.2, §7 and the flags I-2, I-6, I-15: over random
    positions (hands of 0-5 cards, any spy of value 5 or more, random flags) the legal list
    is exactly the brute-force set, with no duplicate; ``decide`` accepts every listed
    command and refuses every other counter, recruit and assassination of the hand."""
    rng = Random(11)
    for trial in range(1500):
        flags = DeckOfSpiesFlags(
            strict_necessity=rng.random() < 0.8,
            ace_counts_in_necessity=rng.random() < 0.5,
            retire_multiple_ranks=rng.random() < 0.5,
        )
        cards = list(ALL_CARDS)
        rng.shuffle(cards)
        spy = next(c for c in cards if value(c) >= 5)
        cards.remove(spy)
        size = rng.randint(0, 5)
        hand = tuple(sorted(cards[:size], key=ALL_CARDS.index))
        draw = tuple(cards[size : size + 4])
        discard = tuple(sorted(cards[size + 4 : size + 7], key=ALL_CARDS.index))
        state = State(
            phase=Phase.PLAYING,
            flags=flags,
            spy_deck=(spy, *cards[size + 7 :]),
            draw_deck=draw,
            hand=hand,
            draw_discard=discard,
            turn=1,
        )
        aces = sorted((c for c in hand + draw + discard if is_ace(c)), key=ALL_CARDS.index)
        expected = _model_moves(flags, hand, spy, aces)
        listed = [_as_move(c) for c in SPEC.legal_commands(state, 0)]
        assert len(listed) == len(set(listed)) and set(listed) == expected, (spy, hand, flags)
        if trial % 15:
            continue
        for size_used in range(len(hand) + 1):
            for used in combinations(hand, size_used):
                rest = [c for c in hand if c not in used]
                for r in [(), *combinations(rest, 2), *combinations(rest, 3)]:
                    for kind in (Counter, Recruit):
                        command = kind(cards=used, retire=r)
                        try:
                            SPEC.decide(state, 0, command, Random(0))
                            accepted = True
                        except RuleError:
                            accepted = False
                        assert accepted == (_as_move(command) in expected), command
        for ace in ("AC", "AD", "AH", "AS"):
            try:
                SPEC.decide(state, 0, Assassinate(ace=ace), Random(0))
                accepted = True
            except RuleError:
                accepted = False
            assert accepted == (("assassinate", (ace,), ()) in expected)


def _model_turn(state: State, command: Command, events: list[Event]) -> tuple[list[str], ...]:
    """One turn by §4.3, §5.4, §6.3-6.6, §7 and §8 (I-5, I-9, I-10, I-20); the orders of the
    shuffles are read from the events, everything else follows from the spec."""
    spies, draw, hand = list(state.spy_deck), list(state.draw_deck), list(state.hand)
    discard, spy_discard, removed = list(state.draw_discard), list(state.spy_discard), []
    orders = iter(e.order for e in events if isinstance(e, DiscardReshuffled | DrawDeckShuffled))
    spy = spies.pop(0)
    if isinstance(command, Assassinate):
        ace = command.ace
        for zone in (hand, draw, discard):
            if ace in zone:
                zone.remove(ace)
                if zone is draw and draw:  # §6.3: the draw deck alone is shuffled
                    order = next(orders)
                    assert order is not None and sorted(order) == sorted(draw)
                    draw = list(order)
                break
        removed.append(ace)
        spy_discard.append(spy)
        discard += hand
        hand = []
    else:
        for c in (*command.cards, *command.retire):
            hand.remove(c)
        discard += command.cards
        (discard if isinstance(command, Recruit) else spy_discard).append(spy)
        spy_discard += command.retire
    if spies:  # I-20: no refill after the last spy
        while len(hand) < 5:
            if not draw:
                if not discard:
                    break  # I-9
                order = next(orders)  # I-10: lazy, just-used cards included
                assert order is not None and sorted(order) == sorted(discard)
                draw, discard = list(order), []
            hand.append(draw.pop(0))
    assert next(orders, None) is None, "a shuffle the spec does not call for"
    return spies, draw, sorted(hand), sorted(discard), sorted(spy_discard), removed


@pytest.mark.parametrize(
    "flags",
    [
        {},
        {"strict_necessity": False},
        {"ace_counts_in_necessity": False},
        {"retire_multiple_ranks": True},
    ],
)
def test_s3_to_s9_turns_match_an_independent_model(flags: dict[str, bool]) -> None:
    """§3-§9: random games where every turn's zones equal an independent model's, and every
    end is the one §9 gives: 36 turns then ≥ 7 owned faces to win (§9.2), or a forced
    assassination with no owned Ace (§6.2, §9.3) scored with the faces owned (I-14)."""
    for seed in range(60):
        rng = Random(seed)
        state = fold(SPEC, start_game(SPEC, 1, flags, rng))
        while state.phase is Phase.PLAYING:
            command = rng.choice(SPEC.legal_commands(state, 0))
            events = SPEC.decide(state, 0, command, rng)
            spies, draw, hand, discard, spy_discard, removed = _model_turn(state, command, events)
            before_removed = list(state.removed)
            for event in events:
                state = SPEC.evolve(state, event)
            assert list(state.spy_deck) == spies and list(state.draw_deck) == draw
            assert sorted(state.hand) == hand and sorted(state.draw_discard) == discard
            assert sorted(state.spy_discard) == spy_discard
            assert sorted(state.removed) == sorted(before_removed + removed)
        owned = state.hand + state.draw_deck + state.draw_discard
        faces = sum(map(is_face, owned))
        assert state.final_owned_faces == faces
        if state.spy_deck:
            assert sum(map(value, state.hand)) < value(state.spy_deck[0])
            assert not any(map(is_ace, owned)) and state.result is Result.LOST_NO_ACE
        else:
            assert state.turn == 36
            assert state.result is (Result.WON if faces >= 7 else Result.LOST)
