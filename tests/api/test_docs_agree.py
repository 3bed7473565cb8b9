"""docs/api.md and the README match the server they describe.

- every path of the OpenAPI document is in docs/api.md;
- every ``/schema`` page the docs name exists, and unknown paths (under ``/schema`` too)
  are problem documents, not HTML;
- the create answer shown has the fields a real one has (the seat fields too);
- the Deck of Spies session of docs/api.md, run again with its seed, answers what the page
  shows (ids and times aside).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

ROOT = Path(__file__).resolve().parents[2]
API_MD = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")
ARCHITECTURE = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
DOC_GAME = "p4o45j2v5srgh5il"
"""The game id of the session shown in docs/api.md."""


def _compact(value: Any) -> str:
    return msgspec.json.encode(value).decode()


def _times_hidden(text: str) -> str:
    return re.sub(r'"recorded_at":"[^"]*"', '"recorded_at":"…"', text)


def test_every_path_of_the_openapi_document_is_in_docs_api_md() -> None:
    document = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))
    missing = []
    for path, operations in document["paths"].items():
        shown = path.replace("{game_id}", "{id}")
        for method in operations:
            if f"`{method.upper()} {shown}`" not in API_MD and not (
                method == "delete" and f"`DELETE {shown}`" in API_MD
            ):
                missing.append(f"{method.upper()} {shown}")
    assert missing == []


def test_the_schema_pages_the_docs_name_exist(client: TestClient[Litestar]) -> None:
    named = set(re.findall(r"/schema(?:/[\w.\-]+)?", API_MD + README + ARCHITECTURE))
    assert "/schema/openapi.json" in named and "/schema/redoc" not in named
    for path in sorted(named):
        assert client.get(path).status_code == 200, path


@pytest.mark.parametrize(
    "path",
    ["/games/x/y", "/games/x/y/z", "/schema/nope", "/schema/redoc", "/schema/elements", "/nope"],
)
def test_an_unknown_path_is_a_problem_document(client: TestClient[Litestar], path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == "not-found"


def _create(client: TestClient[Litestar]) -> dict[str, Any]:
    response = client.post("/games", json={"game": "deck-of-spies", "seed": "readme-demo"})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def _shown_create_answers() -> list[dict[str, Any]]:
    """The create answers the docs show: the JSON objects with a ``seats`` list of tokens."""
    found = []
    blocks = re.findall(r"^\{\n.*?^\}$", API_MD, flags=re.DOTALL | re.MULTILINE)
    lines = re.findall(r'^\{"id":.*"seats":\[.*$', API_MD + README, flags=re.MULTILINE)
    for text in [*blocks, *lines]:
        value = json.loads(text)
        if isinstance(value, dict) and "seats" in value and "head_hash" in value:
            found.append(value)
    return found


def test_the_create_answer_shown_has_the_fields_of_a_real_one(
    client: TestClient[Litestar],
) -> None:
    real = _create(client)
    shown = _shown_create_answers()
    assert len(shown) >= 2  # docs/api.md and the README
    for answer in shown:
        assert set(answer) == set(real)
        assert [set(seat) for seat in answer["seats"]] == [set(seat) for seat in real["seats"]]
        assert answer["game"] == real["game"] and answer["version"] == real["version"]


def test_the_deck_of_spies_session_answers_what_docs_api_md_shows(
    client: TestClient[Litestar],
) -> None:
    created = _create(client)
    game, auth = created["id"], {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    url = f"/games/{game}"

    def shown(value: Any) -> None:
        text = _times_hidden(_compact(value).replace(game, DOC_GAME))
        assert text in _times_hidden(API_MD), text

    summary = client.get(url).json()
    shown({k: summary[k] for k in ("status", "version", "to_act", "outcome", "seed_commitment")})
    view = client.get(f"{url}/view", headers=auth).json()
    shown({k: view[k] for k in ("version", "seat", "top_spy", "hand", "hand_total")})
    spectator = client.get(f"{url}/view").json()
    shown({k: spectator[k] for k in ("version", "seat", "top_spy", "hand")})
    legal = client.get(f"{url}/legal", headers=auth).json()
    shown(legal["commands"][0:3])
    body = {"command": {"type": "counter", "cards": ["2C", "4C"]}, "expected_version": 4}
    answer = client.post(f"{url}/commands", headers=auth, json=body)
    assert answer.status_code == 200, answer.text
    signed = answer.json()
    assert signed["receipt"]["seq"] == 7  # the docs leave it out: it differs on every run
    shown({k: v for k, v in signed.items() if k != "receipt"})
    stale = client.post(f"{url}/commands", headers=auth, json=body)
    assert stale.status_code == 409
    shown(stale.json())
    refused = client.post(
        f"{url}/commands", headers=auth, json={"command": {"type": "counter", "cards": ["KH"]}}
    )
    shown(refused.json())
    shown(client.get(f"{url}/events?after=4").json())
    replay = client.get(f"{url}/replay/7", headers=auth).json()
    shown({k: replay[k] for k in ("version", "seat", "top_spy", "hand")})
    spectator_legal = client.get(f"{url}/legal").json()
    assert _compact(spectator_legal | {"version": 4}) in API_MD
