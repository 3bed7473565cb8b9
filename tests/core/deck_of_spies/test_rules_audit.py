"""Findings and rules without a test of their own from the rules audit of Deck of Spies
(``tests/core/deck_of_spies/RULES_AUDIT.md``). Each test is named after its rule."""

from __future__ import annotations

from random import Random

import pytest

from spies_core.deck_of_spies.commands import Assassinate, Command, Counter
from spies_core.errors import RuleError
from tests.core.deck_of_spies.position import SPEC, deal, start

W1 = deal("5C", "2D 3H 4S 7D AS", draw="9H 9S 9D")


# --- issue 2, bad input: every refusal names the card and the spy ------------------------


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
def test_issue_2_refusal_names_the_card_and_the_spy(command: Command, code: str, card: str) -> None:
    """Issue 2: an unknown card, a non-Ace or an unforced assassination is refused with a
    message naming both the card given and the spy (5♣)."""
    state, _ = start(W1)
    with pytest.raises(RuleError) as caught:
        SPEC.decide(state, 0, command, Random(0))
    assert caught.value.code == code
    assert card in caught.value.message
    assert "5♣" in caught.value.message


def test_issue_2_must_assassinate_names_the_cards_and_the_spy() -> None:
    """§3.2, issue 2: a counter refused because the hand is too weak names the cards."""
    state, _ = start(deal("KS", "2C 3C AH", draw="4C 4D"))
    with pytest.raises(RuleError) as caught:
        SPEC.decide(state, 0, Counter(cards=("2C", "3C")), Random(0))
    assert caught.value.code == "must-assassinate"
    assert "2C" in caught.value.message and "K♠" in caught.value.message


def test_issue_2_command_after_the_end_names_the_card_and_the_spy() -> None:
    """§9.3, issue 2: after a loss with no Ace, a command is refused with ``game-over``,
    naming the card given and the spy that could not be stopped."""
    over, _ = start(deal("10H", "3C 2D 2S 2H", removed="AC AD", spy_discard="AH AS"))
    with pytest.raises(RuleError) as caught:
        SPEC.decide(over, 0, Counter(cards=("3C",)), Random(0))
    assert caught.value.code == "game-over"
    assert "3C" in caught.value.message and "10♥" in caught.value.message
