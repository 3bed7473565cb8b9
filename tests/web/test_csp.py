"""The web client and the API docs work under the server's Content-Security-Policy.

Every browser test runs under the policy (the server sends it on every response) and fails
on any violation (``tests/web/helpers.py``'s ``Watched`` turns each into a console error). Here: the
policy is really there, the docs page renders under it, and a violation is really caught.
"""

from __future__ import annotations

from collections.abc import Callable

import httpx
from playwright.sync_api import Page

from spies_api.http.edge import CONTENT_SECURITY_POLICY
from tests.web.helpers import VIOLATIONS, Watched


def test_every_page_and_asset_carries_the_policy(base: str) -> None:
    for path in ("/", "/schema", "/schema/swagger", "/assets/web/app.js", "/games", "/nope"):
        response = httpx.get(base + path, timeout=60)
        assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY, path
        assert "script-src 'self'" in CONTENT_SECURITY_POLICY
        assert "frame-ancestors 'none'" in CONTENT_SECURITY_POLICY
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"


def test_the_docs_render_under_the_policy(page: Page, base: str) -> None:
    page.goto(f"{base}/schema")
    page.locator(".opblock-summary-path", has_text="/games/{game_id}/commands").first.wait_for()
    page.locator(".opblock-tag", has_text="games").first.wait_for()
    assert page.evaluate(f"window.{VIOLATIONS}") == []
    html = httpx.get(f"{base}/schema", timeout=60).text
    assert "<script>" not in html and "<style" not in html  # nothing inline


def test_a_violation_is_caught(open_context: Callable[[], Watched], base: str) -> None:
    watched = open_context()
    page = watched.page()
    page.goto(f"{base}/")
    page.evaluate(
        """() => {
          const script = document.createElement("script");
          script.textContent = "window.ran = true";
          document.body.append(script);
        }"""
    )
    page.wait_for_function(f"window.{VIOLATIONS}.length > 0")
    assert page.evaluate("window.ran") is None  # the inline script did not run
    assert any("CSP violation" in error for error in watched.errors)
    watched.errors.clear()  # seen: this test's violation is the expected one
