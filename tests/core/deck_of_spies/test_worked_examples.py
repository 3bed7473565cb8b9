"""The worked examples W1-W18 of docs/rules/deck-of-spies.md §11, each as its own test.

Each test lays out the example's position with ``options.deal`` and checks the exact legal
sets and the effect the spec gives.
"""

from __future__ import annotations

from spies_core.deck_of_spies.commands import Assassinate, Counter, Recruit
from spies_core.deck_of_spies.events import (
    AceZone,
    CardsDrawn,
    CardsRetired,
    DeckOfSpiesEnded,
    DiscardReshuffled,
    DrawDeckShuffled,
    Result,
    SpyAssassinated,
)
from spies_core.deck_of_spies.state import Phase, State
from tests.core.deck_of_spies.helpers import SPEC, DeckOfSpies, deal, sets


def test_w1_necessity_rule_rulebook_counter_example() -> None:
    """W1, §4.2 / I-1: inclusion-minimal counters against 5♣."""
    game = DeckOfSpies.start(1, deal("5C", "2D 3H 4S 7D AS", draw="9H 9S 9D"))
    assert game.moves(Counter) == sets("7D", "2D 3H", "2D 4S", "3H 4S", "4S AS")
    assert game.moves(Recruit) == set()
    assert game.assassinations() == set()
    events = game.act(0, Counter(cards=("3H", "4S")))
    assert "5C" in game.state.spy_discard
    assert {"3H", "4S"} <= set(game.state.draw_discard)
    drawn = [e for e in events if isinstance(e, CardsDrawn)]
    assert [e.cards for e in drawn] == [("9H", "9S")]
    assert set(game.state.hand) == {"2D", "7D", "AS", "9H", "9S"}


def test_w2_plain_recruit_rulebook_example() -> None:
    """W2, §5.2: only {3♥,5♥} recruits 7♥; the spy joins the draw discard."""
    game = DeckOfSpies.start(1, deal("7H", "3H 5H 2S 4D AC", draw="9C 9D"))
    assert game.moves(Recruit) == sets("3H 5H")
    assert game.moves(Counter) == sets("3H 5H", "3H 4D", "5H 2S", "5H 4D", "2S 4D AC")
    game.act(0, Recruit(cards=("3H", "5H")))
    assert {"3H", "5H", "7H"} <= set(game.state.draw_discard)
    assert set(game.state.hand) == {"2S", "4D", "AC", "9C", "9D"}


def test_w3_double_agent_rulebook_example() -> None:
    """W3, §5.3: A♣ converts off-suit cards; the whole hand is not minimal."""
    game = DeckOfSpies.start(1, deal("9C", "AC 4C 3D 2H 2S", draw="9D 9H 9S 8D"))
    assert game.moves(Recruit) == sets("AC 4C 3D 2H", "AC 4C 3D 2S", "AC 4C 2H 2S")
    assert game.moves(Counter) == sets("4C 3D 2H", "4C 3D 2S", "AC 4C 2H 2S")
    game.act(0, Recruit(cards=("AC", "4C", "3D", "2H")))
    assert {"AC", "4C", "3D", "2H", "9C"} <= set(game.state.draw_discard)
    assert set(game.state.hand) == {"2S", "9D", "9H", "9S", "8D"}


def test_w4_ace_played_although_its_value_is_not_needed() -> None:
    """W4, §5.3 / I-3: the double agent is exempt from necessity when recruiting only."""
    game = DeckOfSpies.start(1, deal("6S", "AS 6H"))
    assert game.moves(Counter) == sets("6H")
    assert game.moves(Recruit) == sets("AS 6H")


def test_w5_ace_value_needed_with_off_suit_cards() -> None:
    """W5, I-2: with the Ace counting, 2♥ is unnecessary in {A♠,6♦,2♥} against 7♠."""
    game = DeckOfSpies.start(1, deal("7S", "AS 6D 2H"))
    assert game.moves(Recruit) == sets("AS 6D")
    assert game.moves(Counter) == sets("AS 6D", "6D 2H")


def test_w5_alternative_reading_of_i2_flag() -> None:
    """W5 under ``ace_counts_in_necessity=false`` (I-2 alternative): the 2♥ becomes legal."""
    game = DeckOfSpies.start(1, deal("7S", "AS 6D 2H", ace_counts_in_necessity=False))
    assert game.moves(Recruit) == sets("AS 6D", "AS 6D 2H")


def test_w6_ace_of_another_suit_converted_into_the_recruit() -> None:
    """W6, I-12: A♦ converted counts 1, so it is necessary only for an exact total."""
    game = DeckOfSpies.start(1, deal("9C", "AC AD 4C 3D 3H"))
    assert game.moves(Recruit) == sets("AC AD 4C 3D", "AC AD 4C 3H", "AC 4C 3D 3H")


def test_w7_forced_counter_no_voluntary_assassination() -> None:
    """W7, §3.2 / I-4: with Σ(hand) ≥ v only counters; the whole hand is not minimal."""
    game = DeckOfSpies.start(1, deal("KS", "4D 4C 3H 2D AH", draw="9C 9D 9H 9S"))
    commands = game.legal()
    assert len(commands) == 1
    assert {frozenset(c.cards) for c in commands} == sets("4D 4C 3H 2D")  # type: ignore[union-attr]
    assert all(isinstance(c, Counter) and not c.retire for c in commands)
    assert game.assassinations() == set()
    game.act(0, Counter(cards=("4D", "4C", "3H", "2D")))
    assert "KS" in game.state.spy_discard
    assert set(game.state.hand) == {"AH", "9C", "9D", "9H", "9S"}


def test_w8_retire_rulebook_example() -> None:
    """W8, §7.1-7.2: after countering with 9♦, retire two or all three 2s."""
    game = DeckOfSpies.start(1, deal("7H", "2C 2H 2S 3S 9D", draw="8C 8D 8H 8S"))
    assert game.moves(Counter) == sets("9D", "2C 2H 3S", "2C 2S 3S", "2H 2S 3S")
    assert game.moves(Recruit) == set()
    retires = {
        frozenset(c.retire) for c in game.legal() if isinstance(c, Counter) and c.cards == ("9D",)
    }
    assert retires == {frozenset(), *sets("2C 2H", "2C 2S", "2H 2S", "2C 2H 2S")}
    after_small = {
        c.retire
        for c in game.legal()
        if isinstance(c, Counter) and set(c.cards) == {"2C", "2H", "3S"}
    }
    assert after_small == {()}
    events = game.act(0, Counter(cards=("9D",), retire=("2C", "2H", "2S")))
    assert {"2C", "2H", "2S", "7H"} <= set(game.state.spy_discard)
    assert "9D" in game.state.draw_discard
    assert [e.count for e in events if isinstance(e, CardsDrawn)] == [4]
    assert set(game.state.hand) == {"3S", "8C", "8D", "8H", "8S"}


def test_w9_retiring_face_cards_is_legal_but_bad() -> None:
    """W9, §7.3: retired Jacks go to the spy discard for good and count for the spies."""
    game = DeckOfSpies.start(1, deal("6H", "JS JD 4H 2H 3C", draw="9C 9D 9H 9S"))
    game.act(0, Recruit(cards=("4H", "2H"), retire=("JS", "JD")))
    assert {"JS", "JD"} <= set(game.state.spy_discard)
    assert "6H" in game.state.draw_discard


def test_w10_retiring_aces_is_legal() -> None:
    """W10, §7.3 / I-8: retired Aces are gone as lives and double agents."""
    game = DeckOfSpies.start(1, deal("5H", "AC AD 5S 2H 3H"))
    game.act(0, Recruit(cards=("2H", "3H"), retire=("AC", "AD")))
    assert {"AC", "AD"} <= set(game.state.spy_discard)
    assert set(game.state.removed) == set()


def test_w11_assassination_and_the_choice_of_ace() -> None:
    """W11, §6.3 / I-18: three Aces in three zones; only the draw deck's is reshuffled."""
    options = deal(
        "QD",
        "2C 2H 3S AD 3D",
        draw="AS 4C 4D 4H 4S 5C",
        discard="AH",
        removed="AC",
    )
    game = DeckOfSpies.start(1, options)
    assert game.assassinations() == {"AD", "AS", "AH"}
    assert not [c for c in game.legal() if not isinstance(c, Assassinate)]

    a = DeckOfSpies.start(1, options)
    events = a.act(0, Assassinate(ace="AD"))
    assert isinstance(events[0], SpyAssassinated) and events[0].ace_zone is AceZone.HAND
    assert set(events[0].discarded) == {"2C", "2H", "3S", "3D"}
    assert not any(isinstance(e, DrawDeckShuffled) for e in events)

    b = DeckOfSpies.start(1, options)
    events = b.act(0, Assassinate(ace="AS"))
    assert isinstance(events[0], SpyAssassinated) and events[0].ace_zone is AceZone.DRAW_DECK
    assert set(events[0].discarded) == {"2C", "2H", "3S", "AD", "3D"}
    assert isinstance(events[1], DrawDeckShuffled)

    c = DeckOfSpies.start(1, options)
    events = c.act(0, Assassinate(ace="AH"))
    assert isinstance(events[0], SpyAssassinated) and events[0].ace_zone is AceZone.DRAW_DISCARD
    assert set(events[0].discarded) == {"2C", "2H", "3S", "AD", "3D"}
    assert not any(isinstance(e, DrawDeckShuffled) for e in events)

    for after, ace in ((a.state, "AD"), (b.state, "AS"), (c.state, "AH")):
        assert "QD" in after.spy_discard
        assert ace in after.removed and ace not in after.draw_discard + after.draw_deck
        assert len(after.hand) == 5  # I-5: draw 5
    for ace in ("AD", "AS", "AH"):  # no retire in an assassination turn
        events = DeckOfSpies.start(1, options).act(0, Assassinate(ace=ace))
        assert not any(isinstance(e, CardsRetired) for e in events)


def test_w12_legal_recruit_but_not_legal_counter() -> None:
    """W12, §5.5 / I-3: {9♦,A♦,4♣} recruits Q♦ but does not counter it."""
    game = DeckOfSpies.start(1, deal("QD", "9D 3D AD 2S 4C"))
    assert game.moves(Recruit) == sets("9D 3D", "9D 3D AD", "9D AD 2S", "9D AD 4C")
    assert game.moves(Counter) == sets("9D 3D", "9D 4C", "9D AD 2S")


def test_w13_face_card_recruit_with_ten_and_ace() -> None:
    """W13: J♥ recruited with 10♥ and A♥ or 2♥; all three is not minimal."""
    game = DeckOfSpies.start(1, deal("JH", "10H AH 2H 3C 4D"))
    assert game.moves(Recruit) == sets("10H AH", "10H 2H")
    assert game.moves(Counter) == sets("10H AH", "10H 2H", "10H 3C", "10H 4D")


def test_w14_refill_with_a_mid_draw_reshuffle() -> None:
    """W14, §8.1-8.2 / I-10: draw 1, reshuffle the 6 discards (just-used included), draw 2."""
    game = DeckOfSpies.start(1, deal("9C", "2C 3C 4C 5D 6D", draw="7D", discard="8D 8H 8S"))
    events = game.act(0, Counter(cards=("2C", "3C", "4C")))
    assert len(game.state.hand) == 5
    kinds = [type(e) for e in events]
    assert kinds[1:4] == [CardsDrawn, DiscardReshuffled, CardsDrawn]
    assert events[1].count == 1  # type: ignore[union-attr]
    assert events[2].count == 6  # type: ignore[union-attr]
    assert events[3].count == 2  # type: ignore[union-attr]
    assert (len(game.state.hand), len(game.state.draw_deck), len(game.state.draw_discard)) == (
        5,
        4,
        0,
    )


def test_w15_both_piles_run_out() -> None:
    """W15, I-9: shuffle the 2 discards, draw both, and play on with 3 cards."""
    game = DeckOfSpies.start(1, deal("5C", "2C 3C 4H", spies_after="5D 6D"))
    events = game.act(0, Counter(cards=("2C", "3C")))
    assert [type(e) for e in events][1:3] == [DiscardReshuffled, CardsDrawn]
    assert (len(game.state.hand), len(game.state.draw_deck), len(game.state.draw_discard)) == (
        3,
        0,
        0,
    )
    assert game.state.phase is Phase.PLAYING


def test_w16_losing_by_running_out_of_aces() -> None:
    """W16, §6.2 / §9.3: forced assassination with no Ace left loses at once."""
    options = deal(
        "10H",
        "3C 2D 2S 2H",
        draw="KC KD KH KS QC QD QH",
        removed="AC AD",
        spy_discard="AH AS",
    )
    game = DeckOfSpies.start(1, options)
    events = game.events
    assert isinstance(events[-1], DeckOfSpiesEnded)
    assert events[-1].result is Result.LOST_NO_ACE
    assert game.legal() == []
    outcome = SPEC.outcome(game.state)
    assert outcome is not None and outcome.winners == () and outcome.reason == "no-ace-left"
    assert outcome.scores == (7,)  # I-14: owned faces at the loss, however many


def test_w17_final_count_seven_faces_win() -> None:
    """W17, §9.2: seven owned face cards after turn 36 win."""
    state = _w17(retired_one=False)
    outcome = SPEC.outcome(state)
    assert outcome is not None and outcome.winners == (0,) and outcome.scores == (7,)
    assert state.result is Result.WON


def test_w17_final_count_six_six_is_a_loss() -> None:
    """W17, §9.2: had one of the seven been retired earlier, 6-6 is a loss."""
    state = _w17(retired_one=True)
    outcome = SPEC.outcome(state)
    assert outcome is not None and outcome.winners == () and outcome.scores == (6,)
    assert state.result is Result.LOST


def _w17(*, retired_one: bool) -> State:
    faces_spies = "JD JS QC QD KH"
    discard = "JC KD KS"
    if retired_one:
        discard = "JC KD"
        faces_spies += " KS"
    options = deal(
        "5C",
        "KC 5D 2C 3C",
        draw="JH QS QH",
        discard=discard,
        spies_after="",
        spy_discard=faces_spies,
    )
    game = DeckOfSpies.start(1, options)
    events = game.act(0, Counter(cards=("5D",)))
    assert isinstance(events[-1], DeckOfSpiesEnded)
    assert game.state.phase is Phase.OVER
    return game.state


def test_w18_last_spy_assassinated_then_scored_normally() -> None:
    """W18, §9.1: the last spy may be assassinated; the game is then scored by §9.2."""
    options = deal("KD", "2C 3C 4C", draw="AH", spies_after="")
    game = DeckOfSpies.start(1, options)
    assert game.assassinations() == {"AH"}
    events = game.act(0, Assassinate(ace="AH"))
    assert "KD" in game.state.spy_discard
    assert isinstance(events[-1], DeckOfSpiesEnded)
    assert events[-1].result is Result.LOST  # scored by faces, not lost_no_ace
