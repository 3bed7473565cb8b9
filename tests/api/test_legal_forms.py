"""``GET /games/{id}/legal?form=compact``: a Black Spy pass (every 3 cards of the hand) is one
choice that stands for exactly the full list; lists that are not a whole choice stay as they
are; ``full`` (the default) is unchanged."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from litestar import Litestar
from litestar.testing import TestClient

from spies_api.service.choices import compact
from spies_core.black_spy.commands import PassCards, PlayCard
from tests.support.api import new_game


def _expand(choice: dict[str, Any]) -> set[tuple[str, ...]]:
    """Every command a choice stands for, as its list of items."""
    return set(combinations(choice["of"], choice["choose"]))


def test_a_black_spy_pass_is_one_choice_of_3_cards_of_the_hand(
    client: TestClient[Litestar],
) -> None:
    game = new_game(client, "black-spy", 3, seed="measure")  # a hand with several black 7s
    headers = game.seats[0]
    full = client.get(game.url("/legal"), headers=headers).json()
    assert full == client.get(game.url("/legal?form=full"), headers=headers).json()
    assert "choices" not in full and len(full["commands"]) > 600  # as it always was
    short = client.get(game.url("/legal?form=compact"), headers=headers).json()
    assert short["commands"] == [] and short["version"] == full["version"]
    [choice] = short["choices"]
    assert choice["command"] == {"type": "pass_cards"} and choice["field"] == "cards"
    assert choice["choose"] == 3
    assert _expand(choice) == {tuple(c["cards"]) for c in full["commands"]}
    chosen = choice["of"][-3:]  # the last three, in the order of `of`
    response = client.post(
        game.url("/commands"),
        headers=headers,
        json={"command": {**choice["command"], choice["field"]: chosen}},
    )
    assert response.status_code == 200, response.text


def test_a_list_without_a_choice_is_the_same_in_both_forms(client: TestClient[Litestar]) -> None:
    game = new_game(client, "deck-of-spies", seed="forms")
    headers = game.seats[0]
    full = client.get(game.url("/legal"), headers=headers).json()
    short = client.get(game.url("/legal?form=compact"), headers=headers).json()
    assert full["commands"] and short == {**full, "choices": []}


def test_each_form_has_its_own_tag(client: TestClient[Litestar]) -> None:
    game = new_game(client, "black-spy", 3, seed="forms-tags")
    headers = game.seats[0]
    full = client.get(game.url("/legal"), headers=headers).headers["etag"]
    short = client.get(game.url("/legal?form=compact"), headers=headers)
    assert short.headers["etag"] != full
    again = client.get(game.url("/legal?form=compact"), headers={**headers, "If-None-Match": full})
    assert again.status_code == 200 and again.json() == short.json()


def test_only_a_whole_choice_is_compacted() -> None:
    hand = ("a", "b", "c", "d")
    every = [PassCards(cards=combo) for combo in combinations(hand, 3)]
    commands, choices = compact([PlayCard(card="a"), *every])
    assert commands == [PlayCard(card="a")]
    assert [(c.choose, c.of, c.command) for c in choices] == [
        (3, list(hand), {"type": "pass_cards"})
    ]
    for partial in (every[1:], every[:1], [*every[:2], PassCards(cards=("b", "a", "c"))]):
        assert compact(partial) == (partial, [])  # one missing, alone, or out of order
    twice = [PassCards(cards=("a", "a", "b")), PassCards(cards=("a", "a", "c"))]
    assert compact(twice)[1] == []  # "a b c" is a choice of the same items, not listed
    both = [*twice, PassCards(cards=("a", "b", "c"))]
    assert [c.of for c in compact(both)[1]] == [["a", "a", "b", "c"]]  # a card held twice
