"""A command is decoded with its own game's commands: tags are unique within a game only."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api.schemas import command_union
from spies_core.black_spy.commands import PlayCard
from spies_core.registry import GAMES
from tests.support.api import new_game


class PlayTile(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="play_card"):
    """Another game's ``play_card``: same tag as Black Spy's, another shape."""

    tile: int


class Shuffle(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="shuffle"):
    """A tag no registered game uses."""


def _games_with_a_clash() -> dict[str, Any]:
    tiles = replace(GAMES["black-spy"], name="tiles", command_type=PlayTile | Shuffle)
    return {**GAMES, "tiles": tiles}


def _decode(game: str, body: bytes) -> Any:
    request = msgspec.defstruct("Body", [("command", command_union(game, _games_with_a_clash()))])
    return msgspec.json.decode(body, type=request).command


def test_two_games_may_use_the_same_command_tag() -> None:
    body = b'{"command": {"type": "play_card", "card": "red-1"}}'
    assert _decode("black-spy", body) == PlayCard(card="red-1")
    assert _decode("tiles", b'{"command": {"type": "play_card", "tile": 3}}') == PlayTile(tile=3)
    with pytest.raises(msgspec.ValidationError, match="tile"):
        _decode("tiles", body)  # Black Spy's play_card is not this game's


def test_another_game_s_command_still_decodes_to_be_refused_as_that() -> None:
    assert _decode("deck-of-spies", b'{"command": {"type": "shuffle"}}') == Shuffle()
    assert _decode("deck-of-spies", b'{"command": {"type": "play_card", "card": "x"}}') == (
        PlayCard(card="x")
    )


def test_a_command_is_decoded_once_the_game_is_known_and_refused_like_before(
    client: TestClient[Litestar],
) -> None:
    black = new_game(client, "black-spy", 3, seed="per-game")
    command = client.get(black.url("/legal"), headers=black.seats[0]).json()["commands"][0]
    accepted = client.post(
        black.url("/commands"), headers=black.seats[0], json={"command": command}
    )
    assert accepted.status_code == 200, accepted.text
    wrong = client.post(
        black.url("/commands"),
        headers=black.seats[1],
        json={"command": {"type": "counter", "cards": ["AS"]}},
    )
    assert wrong.status_code == 422 and wrong.json()["code"] == "wrong-game-command"
    malformed = client.post(
        black.url("/commands"), headers=black.seats[1], json={"command": {"type": "pass_cards"}}
    )
    assert malformed.status_code == 400 and "`cards`" in malformed.json()["detail"]
    assert "$.command" in malformed.json()["detail"]
    missing = client.post("/games/nope/commands", json={"command": {"type": "pass_cards"}})
    assert missing.status_code == 404 and missing.json()["code"] == "game-not-found"


def test_the_spies_and_lies_view_carries_both_reserve_names(client: TestClient[Litestar]) -> None:
    game = new_game(client, "spies-and-lies", options={"deception_reserve": "per-side"})
    view = client.get(game.url("/view"), headers=game.seats[0]).json()
    assert view["deception_reserve_rule"] == view["reserve_rule"] == "per-side"
    assert view["deception_reserve_left"] == view["deception_reserve"] == 2
