"""A live spies-api on a free loopback port, and Debian's Chromium driven by Playwright.

Every page a test opens is watched: a console error, an uncaught exception, a request to
any host other than the test server, or a Content-Security-Policy violation (the server
sends its policy on every response; a ``securitypolicyviolation`` event is recorded by a
script added to every page) fails the test when it ends.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from spies_api import Settings
from tests.support.servers import serve_in_thread
from tests.web.helpers import ARGS, CHROMIUM, DESKTOP, Watched


@pytest.fixture(scope="package")
def web_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The database of the server at ``base`` (for what an operator does to it)."""
    return tmp_path_factory.mktemp("web") / "web.db"


@pytest.fixture(scope="package")
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


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    assert CHROMIUM.exists(), (
        f"{CHROMIUM} is missing: install Debian's Chromium (apt-get install -y chromium),"
        " as .ci/run does"
    )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


def _watched_contexts(
    browser: Browser, base: str, allowed: re.Pattern[str] | None
) -> Iterator[Callable[[str | None], Watched]]:
    """Opens watched browser contexts (each one a separate browser profile, in the browser
    language asked for, if any); at the end, fails on a request off the server or a console
    error that ``allowed`` does not match."""
    opened: list[Watched] = []

    def open_one(lang: str | None = None) -> Watched:
        locale = None if lang is None else ("de-DE" if lang == "de" else "en-US")
        context = browser.new_context(viewport=DESKTOP, accept_downloads=True, locale=locale)
        context.set_default_timeout(15_000)
        watched = Watched(context, base)
        opened.append(watched)
        return watched

    yield open_one
    for watched in opened:
        watched.context.close()
    for watched in opened:
        assert watched.foreign == [], f"requests left 127.0.0.1: {watched.foreign}"
        errors = [e for e in watched.errors if allowed is None or not allowed.search(e)]
        assert errors == [], f"console errors: {errors}"


@pytest.fixture
def open_context(browser: Browser, base: str) -> Iterator[Callable[[], Watched]]:
    """Opens watched browser contexts (each one a separate browser profile)."""
    yield from _watched_contexts(browser, base, None)


@pytest.fixture
def page(open_context: Callable[[], Watched]) -> Page:
    """A watched page in a fresh browser profile."""
    return open_context().page()


@pytest.fixture
def allowed_console_errors() -> re.Pattern[str] | None:
    """Console errors a module's pages are expected to print (a module overrides this)."""
    return None


@pytest.fixture
def in_language(
    browser: Browser, base: str, allowed_console_errors: re.Pattern[str] | None
) -> Iterator[Callable[[str], Watched]]:
    """Watched browser contexts whose browser language is the one asked for."""
    yield from _watched_contexts(browser, base, allowed_console_errors)
