"""The OpenAPI document agrees with the server: its limits are the default settings, and its
examples show codes that the operation answers.

The document is built from code, so its numbers must come from :data:`DEFAULTS`; a default
changed in :class:`~spies_api.settings.Settings` and not in a description fails here.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api.openapi.document import openapi_document
from spies_api.settings import DEFAULTS, KIB, parse_rate
from spies_replay.codec import MAX_JSON_DEPTH
from tests.support.api import new_game

SETTINGS_STATED = {
    DEFAULTS.max_body_bytes // KIB,
    DEFAULTS.games_page_default,
    DEFAULTS.games_page_max,
    DEFAULTS.events_page_default,
    DEFAULTS.events_page_max,
    DEFAULTS.max_streams_per_game,
    DEFAULTS.max_streams_per_seat,
    DEFAULTS.max_streams,
    DEFAULTS.idempotency_key_max_length,
    parse_rate(DEFAULTS.rate_limit or "")[1],
    parse_rate(DEFAULTS.free_paths_rate_limit or "")[1],
    DEFAULTS.ipv6_prefix,
    DEFAULTS.max_head_bytes // KIB,
    DEFAULTS.max_bot_games_per_client,
    DEFAULTS.max_games_per_client,
    MAX_JSON_DEPTH,
}
"""The default settings the document's limits paragraph states."""


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return openapi_document()


def numbers(text: str) -> set[int]:
    return {int(found) for found in re.findall(r"(?<![\w.])\d+(?!\w|\.\d)", text)}


def parameter(document: dict[str, Any], operation_id: str, name: str) -> dict[str, Any]:
    for item in document["paths"].values():
        for operation in item.values():
            if operation.get("operationId") == operation_id:
                found = [p for p in operation.get("parameters", []) if p["name"] == name]
                assert len(found) == 1, (operation_id, name)
                result: dict[str, Any] = found[0]
                return result
    raise AssertionError(f"no operation {operation_id}")


@pytest.mark.parametrize(
    ("operation_id", "default", "maximum"),
    [
        ("listGames", DEFAULTS.games_page_default, DEFAULTS.games_page_max),
        ("listEvents", DEFAULTS.events_page_default, DEFAULTS.events_page_max),
    ],
)
def test_a_limit_parameter_states_the_default_settings(
    document: dict[str, Any], operation_id: str, default: int, maximum: int
) -> None:
    described = parameter(document, operation_id, "limit")["description"]
    assert numbers(described) == {default, maximum}, described
    assert described.index(str(default)) < described.index(str(maximum))


def test_the_idempotency_key_states_the_default_setting(document: dict[str, Any]) -> None:
    key = parameter(document, "postCommand", "Idempotency-Key")
    assert numbers(key["description"]) == {DEFAULTS.idempotency_key_max_length, 400, 422}
    # a setting, so not a schema constant that a server with another setting would break
    assert "maxLength" not in key["schema"] and key["schema"]["minLength"] == 1


def test_the_documents_limits_paragraph_states_the_default_settings(
    document: dict[str, Any],
) -> None:
    stated = numbers(document["info"]["description"].split("**Limits.**")[1])
    # the others are status codes
    assert stated == {*SETTINGS_STATED, 400, 413, 414, 431, 503, 429}


def test_the_games_page_is_the_documented_one(client: TestClient[Litestar]) -> None:
    new_game(client)
    assert client.get("/games").json()["limit"] == DEFAULTS.games_page_default
    too_many = DEFAULTS.games_page_max + 1
    assert client.get("/games", params={"limit": too_many}).json()["limit"] == (
        DEFAULTS.games_page_max
    )


def test_every_problem_example_shows_a_code_its_response_lists(
    document: dict[str, Any],
) -> None:
    wrong = [
        f"{method.upper()} {path} {status}: example {example['value']['code']!r}"
        for path, item in document["paths"].items()
        for method, operation in item.items()
        for status, response in operation["responses"].items()
        for example in response.get("content", {})
        .get("application/problem+json", {})
        .get("examples", {})
        .values()
        if f"`{example['value']['code']}`" not in response["description"]
    ]
    assert not wrong, wrong
