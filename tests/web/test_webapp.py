"""The web client's routes and assets, through Litestar's test client (no browser)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings, create_app
from spies_api.openapi.document import openapi_document


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient[Litestar]]:
    app = create_app(Settings(db_path=tmp_path / "web.db", log_json=True))
    with TestClient(app) as test_client:
        yield test_client


@pytest.mark.parametrize(
    "path", ["/", "/play/abc123", "/join/abc123/1", "/replay/abc123", "/rules/black-spy"]
)
def test_every_page_is_the_client(client: TestClient[Litestar], path: str) -> None:
    page = client.get(path)
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/assets/web/app.js">' in page.text
    assert '<div id="app">' in page.text


def test_the_assets_come_from_the_package(client: TestClient[Litestar]) -> None:
    script = client.get("/assets/web/app.js")
    assert script.status_code == 200
    assert "javascript" in script.headers["content-type"]
    assert "data-testid" in script.text
    style = client.get("/assets/web/app.css")
    assert style.status_code == 200 and style.headers["content-type"].startswith("text/css")
    assert client.get("/assets/web/missing.js").status_code == 404


def test_the_api_docs_load_only_local_assets(client: TestClient[Litestar]) -> None:
    for path in ("/schema", "/schema/swagger"):
        page = client.get(path).text
        urls = re.findall(r"""(?:src|href)=["']([^"']+)["']""", page)
        assert urls, path
        for url in urls:
            assert url.startswith(("/assets/docs/", "data:")), (path, url)
            if url.startswith("/"):
                assert client.get(url).status_code == 200, url
        assert "https://" not in page.split("const ui = SwaggerUIBundle")[0]


def test_no_page_of_the_client_is_in_the_api_document() -> None:
    paths = openapi_document()["paths"]
    assert paths
    pages = ("/play/", "/join/", "/replay/", "/rules/", "/assets/", "/schema")
    assert not [p for p in paths if p == "/" or p.startswith(pages)]
    # operators' and auditors', and the players' seed commitments: not pages
    operators = {"/healthz", "/readyz", "/keys", "/commitments"}
    api = ("/games", "/bots", "/players")
    assert not [p for p in paths if not p.startswith(api) and p not in operators]


def test_an_api_path_is_not_shadowed(client: TestClient[Litestar]) -> None:
    answer = client.get("/games")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/json")
    missing = client.get("/games/nope")
    assert missing.status_code == 404
    assert missing.headers["content-type"].startswith("application/problem+json")


def test_the_rules_of_an_unknown_game_are_an_html_404(client: TestClient[Litestar]) -> None:
    for game in ("deck-of-spies", "spies-and-lies"):
        assert client.get(f"/rules/{game}").status_code == 200
    page = client.get("/rules/chess")
    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert '<div id="app">' in page.text
