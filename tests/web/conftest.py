"""A live spies-api on a free loopback port, and Debian's Chromium driven by Playwright.

Every page a test opens is watched: a console error, an uncaught exception, a request to
any host other than the test server, or a Content-Security-Policy violation (the server
sends its policy on every response; a ``securitypolicyviolation`` event is recorded by a
script added to every page) fails the test when it ends.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Request, sync_playwright

from spies_api import Settings
from tests.support.servers import serve_in_thread
from tests.web.helpers import DESKTOP

CHROMIUM = Path(os.environ.get("SPIES_CHROMIUM", "/usr/bin/chromium"))
CONFLICT = "the server responded with a status of 409 (Conflict)"
"""Chromium's own line for a 409 answer: a move crossing a bot's gets one, and the client
sends the move again when it is still legal (the only console error that is not a bug)."""
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def web_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The database of the server at ``base`` (for what an operator does to it)."""
    return tmp_path_factory.mktemp("web") / "web.db"


@pytest.fixture(scope="session")
def base(web_db: Path) -> Iterator[str]:
    """The URL of a spies-api serving the packaged web client."""
    settings = Settings(
        db_path=web_db,
        sse_keepalive_seconds=1.0,
        sse_poll_seconds=0.2,
        log_json=True,
    )
    with serve_in_thread(settings) as (url, _app):
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    assert CHROMIUM.exists(), (
        f"{CHROMIUM} is missing: install Debian's Chromium (apt-get install -y chromium),"
        " as .ci/run does"
    )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


VIOLATIONS = "__cspViolations"
"""Where the watching script keeps the page's CSP violations."""

_WATCH_CSP = f"""
window.{VIOLATIONS} = [];
document.addEventListener("securitypolicyviolation", (event) => {{
  const line = `${{event.violatedDirective}} blocked ${{event.blockedURI || "inline"}}`
    + ` at ${{event.sourceFile || event.documentURI}}:${{event.lineNumber}}`;
  window.{VIOLATIONS}.push(line);
  console.error(`CSP violation: ${{line}}`);
}});
"""
"""Added to every page before its own scripts (Playwright's init scripts are not subject to
the page's policy): each violation becomes a console error, which fails the test."""


class Watched:
    """A browser context whose pages report console errors and requests off the server."""

    def __init__(self, context: BrowserContext, base: str) -> None:
        self.context = context
        self.base = base
        self.errors: list[str] = []
        self.foreign: list[str] = []
        context.add_init_script(_WATCH_CSP)
        context.on("page", self._watch)

    def _watch(self, page: Page) -> None:
        page.on(
            "console",
            lambda message: (
                self.errors.append(f"{page.url}: {message.text}")
                if message.type == "error" and CONFLICT not in message.text
                else None
            ),
        )
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: {error}"))
        page.on("request", self._request)

    def _request(self, request: Request) -> None:
        url = request.url
        local = url.startswith(self.base + "/") or url.startswith(("data:", f"blob:{self.base}/"))
        if not local:
            self.foreign.append(url)

    def page(self) -> Page:
        return self.context.new_page()


@pytest.fixture
def open_context(browser: Browser, base: str) -> Iterator[Callable[[], Watched]]:
    """Opens watched browser contexts (each one a separate browser profile)."""
    opened: list[Watched] = []

    def open_one() -> Watched:
        context = browser.new_context(viewport=DESKTOP, accept_downloads=True)
        context.set_default_timeout(15_000)
        watched = Watched(context, base)
        opened.append(watched)
        return watched

    yield open_one
    for watched in opened:
        watched.context.close()
    for watched in opened:
        assert watched.foreign == [], f"requests left 127.0.0.1: {watched.foreign}"
        assert watched.errors == [], f"console errors: {watched.errors}"


@pytest.fixture
def page(open_context: Callable[[], Watched]) -> Page:
    """A watched page in a fresh browser profile."""
    return open_context().page()
