"""The committed OpenAPI document matches the app, and documents every operation fully."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api.openapi.document import openapi_document, openapi_text
from spies_api.openapi.plugins import field_docs, game_prefix
from spies_core.registry import GAMES
from spies_core.spies_and_lies.state import EndReason
from spies_replay.meta import META_TYPES
from spies_replay.transfer import read_export
from tests.support.schema_check import validate

GOLDEN = sorted((Path(__file__).parents[1] / "fixtures" / "golden").glob("*.jsonl"))

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
    ("post", "/games/{game_id}/seats/{seat}/stream-ticket"),
    ("post", "/games/{game_id}/rematch"),
    ("get", "/bots"),
    ("get", "/keys"),
    ("post", "/commitments"),
    ("post", "/players"),
    ("get", "/players/me/games"),
    ("get", "/healthz"),
    ("get", "/readyz"),
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
        if operation.get("tags") == ["operations"]:  # health and readiness: no client error
            assert operation["operationId"] in {"healthz", "readyz"}, where
        else:
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


def _component(document: dict[str, Any], reference: dict[str, Any]) -> dict[str, Any]:
    schema: dict[str, Any] = document["components"]["schemas"][reference["$ref"].rsplit("/")[-1]]
    return schema


def test_commands_are_each_game_s_own_union_discriminated_on_type(
    document: dict[str, Any],
) -> None:
    """A command is one of its game's commands: ``anyOf`` one union per game, so two games
    may both have a ``play_card``."""
    field = _union_at(document, "CommandRequest", "properties", "command")
    assert field["description"]
    names = [f"{game_prefix(game)}Command" for game in GAMES]
    assert [ref["$ref"].rsplit("/")[-1] for ref in field["anyOf"]] == names
    for (game, spec), reference in zip(GAMES.items(), field["anyOf"], strict=True):
        union = _component(document, reference)
        tags = {member.__struct_config__.tag for member in spec.command_type.__args__}
        assert union["discriminator"]["propertyName"] == "type", game
        assert set(union["discriminator"]["mapping"]) == tags, game
        assert len(union["oneOf"]) == len(tags), game
        assert game in union["description"]
    # the legal commands of a game are that game's (``anyOf`` one answer per game)
    legal = _union_at(document, "LegalCommands", "anyOf")
    for answer, reference in zip(legal, field["anyOf"], strict=True):
        assert _component(document, answer)["properties"]["commands"]["items"] == reference


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


# -- an OpenAPI document that explains itself ---------------------------------------------------


def _properties(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (name, key, prop)
        for name, schema in document["components"]["schemas"].items()
        for key, prop in (schema.get("properties") or {}).items()
    ]


def test_every_schema_and_every_property_has_a_description(document: dict[str, Any]) -> None:
    """The attribute docstring under each field of the code is its description here."""
    schemas = document["components"]["schemas"]
    undescribed = [name for name, schema in schemas.items() if not schema.get("description")]
    undescribed += [
        f"{name}.{key}" for name, key, prop in _properties(document) if not prop.get("description")
    ]
    assert not undescribed, f"add an attribute docstring under each of: {undescribed}"
    assert len(_properties(document)) > 400


def test_the_code_s_docstrings_are_the_descriptions(document: dict[str, Any]) -> None:
    view = document["components"]["schemas"]["DeckOfSpiesView"]["properties"]
    assert view["removed"]["description"].startswith("The Aces removed from the game")
    black = document["components"]["schemas"]["BlackSpyView"]["properties"]
    assert "total that ends the game" in black["threshold"]["description"]
    assert "to_act" in black["turn"]["description"]  # how turn and to_act differ
    phase = black["phase"]  # a reference keeps its target and gains a description
    assert phase["allOf"] == [{"$ref": "#/components/schemas/BlackSpyPhase"}]
    assert phase["description"]
    enum = document["components"]["schemas"]["DeckOfSpiesResult"]
    assert "- `lost_no_ace`: An assassination was forced and no Ace was left" in enum["description"]


def test_spies_and_lies_reserve_fields_are_unambiguous_and_the_old_ones_deprecated(
    document: dict[str, Any],
) -> None:
    view = document["components"]["schemas"]["SpiesAndLiesView"]["properties"]
    for old, new in (
        ("reserve_rule", "deception_reserve_rule"),
        ("deception_reserve", "deception_reserve_left"),
    ):
        assert view[old]["deprecated"] is True
        assert view[old]["description"].startswith(f"Deprecated: use `{new}`")
        assert not view[new].get("deprecated") and view[new]["description"]
    assert sorted(key for _, key, prop in _properties(document) if prop.get("deprecated")) == [
        "deception_reserve",
        "reserve_rule",
    ]


def test_outcome_reason_lists_every_reason_a_game_ends_with(document: dict[str, Any]) -> None:
    reason = document["components"]["schemas"]["Outcome"]["properties"]["reason"]["description"]
    ended = {str(end) for end in EndReason} | {"owned-faces", "no-ace-left", "threshold-reached"}
    for path in GOLDEN:
        record, _ = read_export(path.read_text().splitlines())
        assert record.outcome is not None, path
        ended.add(record.outcome.reason)
    for code in ended:
        assert f"`{code}`" in reason, code


def test_create_game_options_are_typed_per_game_chosen_by_game(document: dict[str, Any]) -> None:
    request = document["components"]["schemas"]["CreateGameRequest"]
    assert request["discriminator"]["propertyName"] == "game"
    assert set(request["discriminator"]["mapping"]) == set(GAMES)
    for game, reference in request["discriminator"]["mapping"].items():
        variant = _component(document, {"$ref": reference})
        assert variant["properties"]["game"]["const"] == game
        assert variant["required"] == ["game"]
        options = variant["properties"]["options"]["oneOf"][0]
        assert options == {"$ref": f"#/components/schemas/{game_prefix(game)}Options"}


GENERIC = {"Phase", "Options", "Deal", "Result", "Stage", "Command", "Event", "View", "Flags"}


def _refs(schema: Any) -> set[str]:
    if isinstance(schema, dict):
        found = {schema["$ref"].rsplit("/")[-1]} if "$ref" in schema else set()
        mapping = schema.get("mapping")
        if isinstance(mapping, dict):
            found |= {ref.rsplit("/")[-1] for ref in mapping.values()}
        return found.union(*(_refs(value) for value in schema.values()))
    if isinstance(schema, list):
        return set().union(*(_refs(item) for item in schema))
    return set()


def _reachable(document: dict[str, Any], roots: set[str]) -> set[str]:
    schemas = document["components"]["schemas"]
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(_refs(schemas[name]))
    return seen


def test_schema_names_are_unique_and_name_their_game(document: dict[str, Any]) -> None:
    """The rule: a schema reached from one game only (its view, commands, options, events)
    starts with that game's name; no schema has a generic name; a clash Litestar would
    settle with a module path (``deck_of_spies_state_Phase``) cannot pass."""
    schemas = document["components"]["schemas"]
    for name in schemas:
        assert re.fullmatch(r"[A-Z][A-Za-z0-9]*", name), name
        assert name not in GENERIC, name
    events = _union_at(document, "EventsPage", "properties", "events", "items")
    event_refs = events["discriminator"]["mapping"]
    owners: dict[str, set[str]] = {}
    for game, spec in GAMES.items():
        prefix = game_prefix(game)
        roots = {f"{prefix}View", f"{prefix}Command", f"{prefix}Options"}
        tags = [member.__struct_config__.tag for member in spec.event_type.__args__]
        roots |= {event_refs[tag].rsplit("/")[-1] for tag in tags}
        for name in _reachable(document, roots):
            owners.setdefault(name, set()).add(game)
    mine = {name: games.pop() for name, games in owners.items() if len(games) == 1}
    assert len(mine) > 80
    for name, game in mine.items():
        assert name.startswith(game_prefix(game)), (name, game)


class _Base(msgspec.Struct, frozen=True):
    """A base."""

    size: int
    """How many, in cards."""
    colour: str = "red"
    """Deprecated: use ``size``."""


class _Sub(_Base, frozen=True):
    """A subclass that says more about one field."""

    colour: str = "blue"
    """The colour, ``None`` never."""
    extra: bool = False


def test_field_docs_reads_the_string_under_each_field_from_the_class_and_its_bases() -> None:
    assert field_docs(_Base) == {"size": "How many, in cards.", "colour": "Deprecated: use `size`."}
    assert field_docs(_Sub) == {
        "size": "How many, in cards.",
        "colour": "The colour, `null` never.",
    }


def _objects_in(document: dict[str, Any], schema: Any, seen: set[str]) -> list[dict[str, Any]]:
    """Every object schema reachable from ``schema`` (its references followed once)."""
    found: list[dict[str, Any]] = []
    if isinstance(schema, dict):
        reference = schema.get("$ref")
        if isinstance(reference, str):
            name = reference.rsplit("/", 1)[-1]
            if name in seen:
                return found
            seen.add(name)
            return _objects_in(document, document["components"]["schemas"][name], seen)
        if "properties" in schema:
            found.append(schema)
        for value in schema.values():
            found += _objects_in(document, value, seen)
    elif isinstance(schema, list):
        for value in schema:
            found += _objects_in(document, value, seen)
    return found


def test_request_bodies_are_closed(document: dict[str, Any]) -> None:
    """The server refuses a body's unknown field (400 ``malformed-body``): the document says
    so, in every object of every request body."""
    bodies = 0
    for method, path, operation in operations(document):
        body = operation.get("requestBody")
        if body is None:
            continue
        for content in body["content"].values():
            for schema in _objects_in(document, content["schema"], set()):
                assert schema.get("additionalProperties") is False, (method, path, schema)
                bodies += 1
    assert bodies > 20


def test_each_stream_message_kind_has_its_schema_discriminated_by_event(
    document: dict[str, Any],
) -> None:
    stream = document["paths"]["/games/{game_id}/events/stream"]["get"]
    schema = stream["responses"]["200"]["content"]["text/event-stream"]["schema"]
    assert schema["discriminator"]["propertyName"] == "event"
    kinds = schema["discriminator"]["mapping"]
    assert set(kinds) == {"message", "snapshot", "state", "reconnect"}
    assert kinds["message"].endswith("/StreamMessage")  # the event message keeps its name
    for kind in ("snapshot", "state"):
        message = _component(document, {"$ref": kinds[kind]})
        data = message["properties"]["data"]  # text, as every SSE field, holding JSON
        assert data["type"] == "string" and data["contentMediaType"] == "application/json"
        assert data["contentSchema"]["$ref"].endswith("/StreamState")
    state = document["components"]["schemas"]["StreamState"]
    assert {"version", "status", "seat", "to_act", "view", "legal"} <= set(state["required"])


def test_a_problem_code_is_one_of_the_catalogue(document: dict[str, Any]) -> None:
    from spies_api.problems.codes import ERROR_CODES

    code = document["components"]["schemas"]["Problem"]["properties"]["code"]
    assert code["enum"] == sorted({entry.code for entry in ERROR_CODES})  # each once
    assert {"invalid-clock", "invalid-seed", "deadline-passed", "invalid-stream-ticket"} <= set(
        code["enum"]
    )


def test_the_document_says_what_a_sabotage_takes_as_the_rules_and_the_logs_do(
    document: dict[str, Any],
) -> None:
    """A Marshal's sabotage always takes MARSHAL_SABOTAGE points (the marker stops at 0, so
    ``tower`` may drop by less): the document says so, not "or fewer at a low marker" as it
    once did, and every sabotage in the golden logs and the protocol's vectors has that
    amount, those that left the marker at 0 included (the rules' own audit,
    ``test_rules_audit.py``, plays one from a marker at 3)."""
    from spies_core.spies_and_lies.resolution import MARSHAL_SABOTAGE

    schema = document["components"]["schemas"]["SpiesAndLiesInfiltrationPointsLost"]
    said = schema["properties"]["amount"]["description"]
    assert f"always {MARSHAL_SABOTAGE}" in said and "fewer" not in said
    root = Path(__file__).resolve().parents[2]
    logs = [
        *(root / "tests" / "fixtures" / "golden").glob("spies-and-lies*.jsonl"),
        *(root / "docs" / "protocol" / "vectors" / "exports").glob("*.jsonl"),
    ]
    lost = [
        (event["amount"], event["tower"])
        for path in logs
        for line in path.read_text("utf-8").splitlines()[1:]
        if (event := msgspec.json.decode(line)["event"])["type"] == "infiltration_points_lost"
    ]
    assert lost, "no sabotage in the logs: the check checks nothing"
    assert {amount for amount, _ in lost} == {MARSHAL_SABOTAGE}


def test_answers_that_say_when_to_retry_declare_retry_after(document: dict[str, Any]) -> None:
    """Every 429, 503 and 507 carries ``Retry-After`` (problems/table.py): the document says
    so, required and an integer, on every operation."""
    seen = 0
    for item in document["paths"].values():
        for operation in item.values():
            for status, response in operation["responses"].items():
                if status in {"429", "503", "507"}:
                    header = response.get("headers", {}).get("Retry-After")
                    assert header is not None, (operation["operationId"], status)
                    assert header["required"] and header["schema"]["type"] == "integer"
                    seen += 1
    assert seen > 20


def test_headers_of_answers_are_declared(document: dict[str, Any]) -> None:
    paths = document["paths"]
    command = paths["/games/{game_id}/commands"]["post"]["responses"]["200"]["headers"]
    assert not command["Idempotent-Replayed"]["required"]  # only on a replayed answer
    export = paths["/games/{game_id}/export"]["get"]["responses"]["200"]["headers"]
    assert export["Content-Disposition"]["required"]


def test_no_header_is_null(document: dict[str, Any]) -> None:
    """A header is absent or has a value; ``null`` is not one (the text ``null`` in a query is
    read as ``None`` by Litestar, so query parameters may say ``null``)."""
    for item in document["paths"].values():
        for operation in item.values():
            for parameter in operation.get("parameters", []):
                if parameter["in"] != "header":
                    continue
                text = msgspec.json.encode(parameter["schema"]).decode()
                assert '"null"' not in text, (operation["operationId"], parameter["name"])
