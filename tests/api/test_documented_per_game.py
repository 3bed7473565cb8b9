"""Answers documented per game, the wire as it was: ``GameSummary`` is ``oneOf`` each game's
summary, told apart by ``game``, with that game's own options; ``LegalCommands`` is ``anyOf``
each game's legal commands (the answer does not name its game), with that game's commands."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api.openapi.document import openapi_document
from spies_api.openapi.plugins import game_prefix
from spies_api.schemas import GameSummary, LegalCommands
from spies_core.registry import GAMES
from tests.support.api import new_game
from tests.support.schema_check import SchemaError, validate


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return openapi_document()


def test_a_summary_is_one_of_the_games_summaries_told_apart_by_game(
    document: dict[str, Any],
) -> None:
    schemas = document["components"]["schemas"]
    summary = schemas["GameSummary"]
    assert summary["discriminator"]["propertyName"] == "game"
    mapping = summary["discriminator"]["mapping"]
    assert mapping == {game: f"#/components/schemas/{game_prefix(game)}Summary" for game in GAMES}
    fields = {field.encode_name for field in msgspec.structs.fields(GameSummary)}
    for game, spec in GAMES.items():
        own = schemas[f"{game_prefix(game)}Summary"]
        assert set(own["properties"]) == fields and set(own["required"]) == fields
        assert own["properties"]["game"]["const"] == game
        (options,) = own["properties"]["options"]["allOf"]
        assert options == {"$ref": f"#/components/schemas/{game_prefix(game)}SummaryOptions"}
        shown = schemas[f"{game_prefix(game)}SummaryOptions"]
        assert set(shown["properties"]) == set(spec.options_type.__struct_fields__)
        assert shown["required"] == []  # an option left out at creation is absent


def _only_its_games(value: Any, game: str, suffix: str, document: dict[str, Any]) -> None:
    """``value`` matches ``game``'s schema ``<Game><suffix>`` and no other game's."""
    for other in GAMES:
        schema = {"$ref": f"#/components/schemas/{game_prefix(other)}{suffix}"}
        if other == game:
            validate(value, schema, document)
        else:
            with pytest.raises(SchemaError):
                validate(value, schema, document)


def test_each_games_summary_matches_its_own_schema_only(
    client: TestClient[Litestar], document: dict[str, Any]
) -> None:
    for game, spec in GAMES.items():
        sent = client.get(new_game(client, game, spec.min_players).url()).json()
        validate(sent, {"$ref": "#/components/schemas/GameSummary"}, document)
        _only_its_games(sent, game, "Summary", document)


def test_the_options_a_summary_shows_are_the_ones_given(
    client: TestClient[Litestar], document: dict[str, Any]
) -> None:
    given = {"board_length": 4, "deception_reserve": "per-side"}
    sent = client.get(new_game(client, "spies-and-lies", options=given).url()).json()
    assert sent["options"] == given
    validate(sent["options"], {"$ref": "#/components/schemas/SpiesAndLiesSummaryOptions"}, document)
    with pytest.raises(SchemaError):  # a value the game's options do not take
        validate(
            {**given, "board_length": "long"},
            {"$ref": "#/components/schemas/SpiesAndLiesSummaryOptions"},
            document,
        )


def test_legal_commands_are_any_of_the_games_each_with_its_own_commands(
    client: TestClient[Litestar], document: dict[str, Any]
) -> None:
    schemas = document["components"]["schemas"]
    assert schemas["LegalCommands"]["anyOf"] == [
        {"$ref": f"#/components/schemas/{game_prefix(game)}LegalCommands"} for game in GAMES
    ]
    fields = {field.encode_name for field in msgspec.structs.fields(LegalCommands)}
    for game, spec in GAMES.items():
        own = schemas[f"{game_prefix(game)}LegalCommands"]
        assert set(own["properties"]) == fields
        commands = own["properties"]["commands"]["items"]
        assert commands == {"$ref": f"#/components/schemas/{game_prefix(game)}Command"}
        played = new_game(client, game, spec.min_players)
        legal = client.get(played.url("/legal"), headers=played.seats[0]).json()
        assert legal["commands"], game  # seat 0 acts first in every game
        _only_its_games(legal, game, "LegalCommands", document)
