"""The committed OpenAPI document matches the app, and documents every operation fully."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api.openapi import openapi_document, openapi_text
from spies_core.registry import GAMES
from spies_replay.meta import META_TYPES

from .schema_check import validate

COMMITTED = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"

CONTRACT = {
    ("post", "/games"),
    ("get", "/games"),
    ("get", "/games/{game_id}"),
    ("get", "/games/{game_id}/view"),
    ("get", "/games/{game_id}/legal"),
    ("post", "/games/{game_id}/commands"),
    ("get", "/games/{game_id}/events"),
    ("get", "/games/{game_id}/events/stream"),
    ("get", "/games/{game_id}/replay/{seq}"),
    ("get", "/games/{game_id}/export"),
    ("post", "/games/{game_id}/seats/{seat}/join"),
    ("post", "/games/{game_id}/join"),
    ("post", "/games/{game_id}/seats/{seat}/bot"),
    ("delete", "/games/{game_id}/seats/{seat}/bot"),
    ("post", "/games/{game_id}/rematch"),
    ("get", "/bots"),
}


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return openapi_document()


def operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
    ]


def test_the_committed_document_is_the_apps(document: dict[str, Any]) -> None:
    """Regenerate with: python -m spies_api.openapi > openapi/openapi.json"""
    assert COMMITTED.read_text() == openapi_text(), (
        "openapi/openapi.json drifted from the app; run"
        " `python -m spies_api.openapi > openapi/openapi.json` and commit it"
    )


def test_the_app_serves_the_same_document_and_interactive_docs(
    client: TestClient[Litestar], document: dict[str, Any]
) -> None:
    served = client.get("/schema/openapi.json")
    assert served.status_code == 200
    assert msgspec.json.decode(served.content) == document
    for path in ("/schema", "/schema/swagger"):
        page = client.get(path)
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")


def test_every_path_of_the_contract_is_there(document: dict[str, Any]) -> None:
    assert {(method, path) for method, path, _ in operations(document)} == CONTRACT


def test_every_operation_is_documented_with_id_summary_examples_and_errors(
    document: dict[str, Any],
) -> None:
    ids = set()
    for method, path, operation in operations(document):
        where = f"{method.upper()} {path}"
        assert operation.get("operationId"), where
        ids.add(operation["operationId"])
        assert operation.get("summary") and operation.get("description"), where
        responses = operation["responses"]
        assert any(code.startswith("2") for code in responses), where
        assert any(code.startswith("4") for code in responses), where
        for code, response in responses.items():
            assert response.get("description"), (where, code)
            for media_type, content in (response.get("content") or {}).items():
                assert content.get("examples"), (where, code, media_type)
                if code.startswith("4"):
                    assert media_type == "application/problem+json", (where, code)
                    assert content["schema"] == {"$ref": "#/components/schemas/Problem"}
        if "requestBody" in operation:
            schema = operation["requestBody"]["content"]["application/json"]["schema"]
            assert schema.get("examples"), where
            assert "413" in responses and "400" in responses, where
    assert len(ids) == len(operations(document))


def _union_at(document: dict[str, Any], component: str, *keys: str) -> dict[str, Any]:
    schema: dict[str, Any] = document["components"]["schemas"][component]
    for key in keys:
        schema = schema[key]
    return schema


def test_commands_are_one_union_discriminated_on_type(document: dict[str, Any]) -> None:
    union = _union_at(document, "CommandRequest", "properties", "command")
    tags = {
        member.__struct_config__.tag
        for spec in GAMES.values()
        for member in spec.command_type.__args__
    }
    assert union["discriminator"]["propertyName"] == "type"
    assert set(union["discriminator"]["mapping"]) == tags
    assert len(union["oneOf"]) == len(tags)
    legal = _union_at(document, "LegalCommands", "properties", "commands", "items")
    assert legal == union


def test_events_are_one_union_discriminated_on_type(document: dict[str, Any]) -> None:
    union = _union_at(document, "EventsPage", "properties", "events", "items")
    tags = set(META_TYPES) | {
        member.__struct_config__.tag
        for spec in GAMES.values()
        for member in spec.event_type.__args__
    }
    assert union["discriminator"]["propertyName"] == "type"
    assert set(union["discriminator"]["mapping"]) == tags
    for ref in union["discriminator"]["mapping"].values():
        event = document["components"]["schemas"][ref.rsplit("/", 1)[1]]
        assert {"type", "seq", "recorded_at"} <= set(event["required"]), ref
    assert _union_at(document, "CommandResponse", "properties", "events", "items") == union


def test_views_are_one_union_discriminated_on_game(document: dict[str, Any]) -> None:
    view = document["paths"]["/games/{game_id}/view"]["get"]["responses"]["200"]
    union = view["content"]["application/json"]["schema"]
    assert union["discriminator"]["propertyName"] == "game"
    assert set(union["discriminator"]["mapping"]) == set(GAMES)


def test_seat_tokens_are_a_bearer_security_scheme(document: dict[str, Any]) -> None:
    scheme = document["components"]["securitySchemes"]["seatToken"]
    assert scheme == {
        "type": "http",
        "scheme": "bearer",
        "description": scheme["description"],
    }
    commands = document["paths"]["/games/{game_id}/commands"]["post"]
    assert commands["security"] == [{"seatToken": []}]
    view = document["paths"]["/games/{game_id}/view"]["get"]
    assert {} in view["security"]


def test_every_json_example_matches_its_schema(document: dict[str, Any]) -> None:
    checked = 0
    for method, path, operation in operations(document):
        for code, response in operation["responses"].items():
            for media_type, content in (response.get("content") or {}).items():
                if not media_type.endswith("json") or "ndjson" in media_type:
                    continue
                for name, item in content["examples"].items():
                    validate(item["value"], content["schema"], document, f"{path} {code} {name}")
                    checked += 1
        if "requestBody" in operation:
            schema = operation["requestBody"]["content"]["application/json"]["schema"]
            for value in schema["examples"]:
                validate(value, schema, document, f"{method} {path} request")
                checked += 1
    assert checked > 40
