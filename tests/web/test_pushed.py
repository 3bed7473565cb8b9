"""The play page draws from the state its stream pushes: no request per move for the view,
the legal moves or the summary, whether it plays a seat or watches; a dropped stream resumes
after its last event with a new ticket; and without a stream the page asks for the table."""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import ExitStack
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from playwright.sync_api import Page, Request, Route, expect

from tests.web.helpers import (
    Watched,
    click_a_move,
    create_game,
    summary,
    version,
    wait_loaded,
    wait_past,
)

MOVES = 6


def table_requests(page: Page, game_id: str) -> list[str]:
    """The page's requests for the game's summary, a view or legal moves, from now on."""
    asked: list[str] = []
    table = re.compile(rf"/games/{game_id}(/view|/legal)?(\?.*)?$")

    def seen(request: Request) -> None:
        if table.search(request.url):
            asked.append(f"{request.method} {request.url}")

    page.on("request", seen)
    return asked


def test_a_game_of_several_moves_asks_for_no_view_legal_or_summary(
    open_context: Callable[[], Watched], base: str
) -> None:
    created = create_game(base, "deck-of-spies", 1, "web-pushed-1")
    game_id = created["id"]
    token = created["seats"][0]["token"]
    context = open_context()
    player = context.page()
    player.goto(f"{base}/play/{game_id}#token={token}")
    wait_loaded(player)
    spectator = context.page()
    spectator.goto(f"{base}/play/{game_id}")
    spectator.select_option("[data-testid='seat-select']", "spectator")
    spectator.wait_for_selector("#app[data-seat='spectator'][data-busy='false']", state="attached")
    asked = {
        "player": table_requests(player, game_id),
        "spectator": table_requests(spectator, game_id),
    }

    for _ in range(MOVES):
        click_a_move(player)
    at = summary(base, game_id)["version"]
    assert version(player) == at
    wait_past(spectator, at - 1)  # the spectator's table follows the moves too
    assert asked == {"player": [], "spectator": []}


@pytest.fixture
def allowed_console_errors() -> re.Pattern[str]:
    """Chromium's line for each refused stream (the only one expected here)."""
    return re.compile(r"status of 503 \(Service Unavailable\)")


def test_without_its_stream_the_page_asks_for_the_table_and_still_plays(
    in_language: Callable[[str], Watched], base: str
) -> None:
    created = create_game(base, "deck-of-spies", 1, "web-pushed-2")
    game_id = created["id"]
    token = created["seats"][0]["token"]
    page = in_language("en").page()
    refused: list[str] = []

    def no_stream(route: Route) -> None:
        refused.append(route.request.url)
        # a proxy that cannot stream: the stream is refused, the rest of the API answers
        route.fulfill(status=503, content_type="application/problem+json", body="{}")

    page.route(re.compile(r".*/events/stream.*"), no_stream)
    page.goto(f"{base}/play/{game_id}#token={token}")
    wait_loaded(page)
    before = version(page)
    click_a_move(page)
    wait_past(page, before)
    assert version(page) == summary(base, game_id)["version"]
    assert refused, "the page never tried its stream"
    expect(page.get_by_test_id("status")).not_to_be_empty()


def test_a_dropped_stream_resumes_after_its_last_event_with_a_new_ticket(
    page: Page, base: str
) -> None:
    created = create_game(base, "deck-of-spies", 1, "web-pushed-3")
    game_id = created["id"]
    token = created["seats"][0]["token"]
    streams: list[str] = []
    page.on("request", lambda r: streams.append(r.url) if "/events/stream" in r.url else None)
    page.goto(f"{base}/play/{game_id}#token={token}")
    wait_loaded(page)
    seen = version(page)
    assert len(streams) == 1

    # Four more streams of the seat (the server's cap per seat): the oldest, the page's, ends.
    url = f"{base}/games/{game_id}/events/stream"
    again = re.compile(r"/events/stream\?")
    with (
        httpx.Client(timeout=30.0) as http,
        ExitStack() as others,
        page.expect_request(lambda request: again.search(request.url) is not None) as reopened,
    ):
        for _ in range(4):
            opened = http.stream("GET", url, headers={"Authorization": f"Bearer {token}"})
            others.enter_context(opened)
    query = parse_qs(urlsplit(reopened.value.url).query)
    first = parse_qs(urlsplit(streams[0]).query)
    assert query["after"] == [str(seen)]
    assert query["ticket"] != first["ticket"]

    click_a_move(page)  # the table follows the new stream
    assert version(page) == summary(base, game_id)["version"]
    lines = page.locator("[data-testid='log'] li").evaluate_all(
        "items => items.map(item => item.dataset.seq)"
    )
    assert len(lines) == len(set(lines)), "an event was written twice"
