"""Card notation in the document: each game's ``pattern`` is derived from its own cards and
holds exactly them, and its input pattern exactly what its ``parse_card`` accepts; the
document gives them to the card fields (the input one to commands and options), and a Spies
& Lies rank the bounds of the game's ranks; a malformed card or rank in a command is still
refused by the rules (422 ``unknown-card``, ``invalid-rank``), not by the schema."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api.openapi.document import openapi_document
from spies_core import cards as dos_cards
from spies_core.black_spy import cards as bs_cards
from spies_core.errors import RuleError
from spies_core.spies_and_lies.soldiers import ALL_RANKS
from tests.support.api import assert_problem, new_game

DOS_CANDIDATES = {
    rank + suit
    for rank in ("A", "a", "T", "0", "1", *map(str, range(2, 15)), "J", "Q", "K", "q")
    for suit in ("C", "D", "H", "S", "h", "X", "")
}
BS_CANDIDATES = {
    f"{colour}-{rank}"
    for colour in ("blue", "yellow", "red", "green", "black", "Red", "purple", "")
    for rank in range(-1, 14)
} | {"red 1", "red-01", "red-1 ", " red-1"}


@pytest.mark.parametrize(
    ("pattern", "candidates", "deck"),
    [
        (dos_cards.CARD_PATTERN, DOS_CANDIDATES, dos_cards.ALL_CARDS),
        (bs_cards.CARD_PATTERN, BS_CANDIDATES | set(bs_cards.DECK), bs_cards.DECK),
    ],
    ids=["deck-of-spies", "black-spy"],
)
def test_a_game_s_card_pattern_matches_exactly_its_cards(
    pattern: str, candidates: set[str], deck: tuple[str, ...]
) -> None:
    # JSON Schema's ``pattern`` searches (it is not anchored unless the pattern is)
    matched = {text for text in candidates | set(deck) if re.search(pattern, text)}
    assert matched == set(deck)


def _accepts(parse: Callable[[object], str], text: str) -> bool:
    try:
        parse(text)
    except RuleError:
        return False
    return True


@pytest.mark.parametrize(
    ("pattern", "candidates", "parse"),
    [
        (dos_cards.CARD_INPUT_PATTERN, DOS_CANDIDATES, dos_cards.parse_card),
        (bs_cards.CARD_INPUT_PATTERN, BS_CANDIDATES, bs_cards.parse_card),
    ],
    ids=["deck-of-spies", "black-spy"],
)
def test_a_game_s_card_input_pattern_matches_what_it_accepts(
    pattern: str, candidates: set[str], parse: Callable[[object], str]
) -> None:
    variants = {
        variant
        for text in candidates
        for variant in (text, text.lower(), text.upper(), f" {text}\t", f"\n{text}", f"{text}x")
    }
    accepted = {text for text in variants if _accepts(parse, text)}
    assert {text for text in variants if re.search(pattern, text)} == accepted
    assert len(accepted) > 200


def _patterns(value: Any) -> set[str]:
    if isinstance(value, dict):
        found = {value["pattern"]} if "pattern" in value else set()
        return found.union(*(_patterns(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(_patterns(item) for item in value))
    return set()


@pytest.mark.parametrize(
    ("component", "field", "pattern"),
    [
        ("DeckOfSpiesView", "hand", dos_cards.CARD_PATTERN),
        ("DeckOfSpiesSpyRevealed", "spy", dos_cards.CARD_PATTERN),
        ("DeckOfSpiesCounter", "cards", dos_cards.CARD_INPUT_PATTERN),
        ("DeckOfSpiesAssassinate", "ace", dos_cards.CARD_INPUT_PATTERN),
        ("DeckOfSpiesDeal", "spies", dos_cards.CARD_INPUT_PATTERN),
        ("BlackSpyView", "hand", bs_cards.CARD_PATTERN),
        ("BlackSpyPlayedCard", "card", bs_cards.CARD_PATTERN),
        ("BlackSpyDealt", "hands", bs_cards.CARD_PATTERN),
        ("BlackSpyPassCards", "cards", bs_cards.CARD_INPUT_PATTERN),
        ("BlackSpyDeal", "hands", bs_cards.CARD_INPUT_PATTERN),
    ],
)
def test_the_document_gives_card_fields_their_game_s_pattern(
    component: str, field: str, pattern: str
) -> None:
    schema = openapi_document()["components"]["schemas"][component]["properties"][field]
    assert _patterns(schema) == {pattern}


@pytest.mark.parametrize(
    ("component", "field"),
    [
        ("SpiesAndLiesDeploy", "soldiers"),
        ("SpiesAndLiesGuess", "rank"),
        ("SpiesAndLiesChooseCaptain", "borrow"),
        ("SpiesAndLiesSoldierRevealed", "rank"),
        ("SpiesAndLiesSideView", "hand"),
        ("SpiesAndLiesView", "intel_cards"),
        ("SpiesAndLiesStarted", "exhausted"),
    ],
)
def test_the_document_bounds_spies_and_lies_ranks(component: str, field: str) -> None:
    schema = openapi_document()["components"]["schemas"][component]["properties"][field]
    text = str(schema)
    assert f"'minimum': {ALL_RANKS[0]}" in text and f"'maximum': {ALL_RANKS[-1]}" in text


def test_a_malformed_card_in_a_command_is_still_refused_by_the_rules(
    client: TestClient[Litestar],
) -> None:
    deck = new_game(client, "deck-of-spies", seed="notation")
    counter = {"type": "counter", "cards": ["1H"]}
    answer = client.post(deck.url("/commands"), headers=deck.seats[0], json={"command": counter})
    assert_problem(answer, 422, "unknown-card")
    black = new_game(client, "black-spy", 3, seed="notation")
    passed = {"type": "pass_cards", "cards": ["purple-3", "red-1", "red-2"]}
    answer = client.post(black.url("/commands"), headers=black.seats[0], json={"command": passed})
    assert_problem(answer, 422, "unknown-card")
    lies = new_game(client, "spies-and-lies", 2, seed="notation")
    deploy = {"type": "deploy", "soldiers": [1, 2, 3, 11]}
    answer = client.post(lies.url("/commands"), headers=lies.seats[0], json={"command": deploy})
    assert_problem(answer, 422, "invalid-rank")
