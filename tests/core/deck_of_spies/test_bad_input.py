"""Every refusal of Deck of Spies has its own code, names the card and the spy, and
leaves the state untouched (decide is pure, so nothing can be half applied)."""

from __future__ import annotations

import pytest

from spies_core.deck_of_spies.commands import Assassinate, Command, Counter, Recruit
from spies_core.errors import GameOverError, NotYourTurnError
from tests.core.deck_of_spies.helpers import DeckOfSpies, deal

W1 = deal("5C", "2D 3H 4S 7D AS", draw="9H 9S 9D")


@pytest.mark.parametrize(
    ("command", "code", "named"),
    [
        (Counter(cards=("ZZ",)), "unknown-card", "ZZ"),
        (Counter(cards=("1H",)), "unknown-card", "1H"),
        (Counter(cards=("11S",)), "unknown-card", "11S"),
        (Counter(cards=("KH",)), "card-not-in-hand", "KH"),
        (Counter(cards=("7D", "7D")), "duplicate-card", "7D"),
        (Counter(cards=("3H", "4S", "2D")), "unnecessary-card", "2D"),
        (Counter(cards=("7D", "AS")), "unnecessary-card", "AS"),
        (Counter(cards=("2D",)), "insufficient-value", "5♣"),
        (Counter(cards=()), "insufficient-value", "5♣"),
        (Recruit(cards=("7D",)), "wrong-suit", "7D"),
        (Assassinate(ace="AS"), "assassination-not-allowed", "5♣"),
        (Counter(cards=("7D",), retire=("2D",)), "retire-single-card", "2D"),
        (Counter(cards=("7D",), retire=("2D", "3H")), "retire-mixed-ranks", "2♦ 3♥"),
        (Counter(cards=("7D",), retire=("7D", "AS")), "duplicate-card", "7D"),
    ],
)
def test_refusals_have_codes_and_name_the_card(command: Command, code: str, named: str) -> None:
    game = DeckOfSpies.start(1, W1)
    before = game.state
    refusal = game.refused(0, command)
    assert refusal.code == code
    assert named in refusal.message
    assert game.state == before


def test_card_input_is_normalised_consistently() -> None:
    """Lower case and padding are normalised (cards.parse_card), never half-accepted."""
    game = DeckOfSpies.start(1, W1)
    game.act(0, Counter(cards=(" 7d ",)))
    assert "7D" in game.state.draw_discard


def test_must_assassinate_refuses_counter() -> None:
    """§3.2: with Σ(hand) < v a counter is refused and names the spy."""
    game = DeckOfSpies.start(1, deal("KS", "2C 3C AH", draw="4C 4D"))
    refusal = game.refused(0, Counter(cards=("2C", "3C", "AH")))
    assert refusal.code == "must-assassinate"
    assert "K♠" in refusal.message


def test_assassinate_with_a_non_ace_or_unavailable_ace() -> None:
    """§6.2-6.3: only an owned Ace can be sacrificed."""
    game = DeckOfSpies.start(
        1, deal("KS", "2C 3C AH", draw="4C 4D", removed="AD", spy_discard="AS")
    )
    for ace, code in (
        ("2C", "not-an-ace"),
        ("AD", "ace-not-available"),
        ("AS", "ace-not-available"),
        ("AC", "ace-not-available"),
    ):
        refusal = game.refused(0, Assassinate(ace=ace))
        assert refusal.code == code, ace
        assert ace in refusal.message


def test_recruit_with_the_wrong_double_agent() -> None:
    """I-12: only the spy's own Ace converts cards."""
    game = DeckOfSpies.start(1, deal("9C", "AD 4C 3D 2H 2S"))
    refusal = game.refused(0, Recruit(cards=("AD", "4C", "3D", "2H")))
    assert refusal.code == "wrong-suit"
    assert "AC" in refusal.message


def test_double_agent_unnecessary_other_card() -> None:
    """W3: all five cards recruit nothing: dropping a 2 still reaches 9."""
    game = DeckOfSpies.start(1, deal("9C", "AC 4C 3D 2H 2S"))
    refusal = game.refused(0, Recruit(cards=("AC", "4C", "3D", "2H", "2S")))
    assert refusal.code == "unnecessary-card"


def test_other_seats_and_commands_after_the_end() -> None:
    game = DeckOfSpies.start(1, W1)
    game.refused(1, Counter(cards=("7D",)), NotYourTurnError)
    over = DeckOfSpies.start(1, deal("10H", "3C 2D 2S 2H", removed="AC AD", spy_discard="AH AS"))
    refusal = over.refused(0, Counter(cards=("3C",)), GameOverError)
    assert refusal.code == "game-over"
