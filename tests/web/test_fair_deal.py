"""A fair deal from the browser: the lobby asks the server to commit to its seed, then mixes
in the browser's own randomness; a person taking an open seat adds theirs; a server that
swaps the seed it committed to is caught before anyone plays."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import Page, Route, expect

from tests.web.helpers import Watched, create_in_lobby, summary, wait_loaded

HEX = re.compile(r"^[0-9a-f]{64}$")


def entropy_events(base: str, game_id: str) -> list[dict[str, Any]]:
    events = httpx.get(f"{base}/games/{game_id}/events", params={"after": 0}).json()["events"]
    return [e for e in events if e["type"] == "entropy_added"]


def test_the_lobby_mixes_the_browsers_randomness_and_a_joiner_adds_theirs(
    open_context: Callable[[], Watched], base: str
) -> None:
    ada = open_context().page()
    game_id = create_in_lobby(ada, base, "black-spy", ["creator", "open", "bot:random"], name="Ada")
    assert summary(base, game_id)["seed_source"] == "mixed"
    (created,) = entropy_events(base, game_id)
    assert created["seat"] is None and HEX.match(created["entropy"])  # 32 bytes, lower-case hex

    grace = open_context().page()
    grace.goto(f"{base}/join/{game_id}/1")
    grace.get_by_label("Your display name").fill("Grace")
    grace.get_by_test_id("join").click()
    grace.wait_for_url(f"{base}/play/{game_id}")
    wait_loaded(grace)
    first, joined = entropy_events(base, game_id)
    assert joined["seat"] == 1 and HEX.match(joined["entropy"])
    assert joined["entropy"] != first["entropy"]  # each browser's own draw
    expect(grace.get_by_test_id("log")).to_contain_text("Grace (you) adds randomness to the deal.")


def test_a_typed_seed_is_a_reproducible_game_without_a_commitment(page: Page, base: str) -> None:
    game_id = create_in_lobby(page, base, "deck-of-spies", ["creator"], seed="fair-deal-test")
    assert summary(base, game_id)["seed_source"] == "client"
    assert entropy_events(base, game_id) == []


def test_a_server_that_swaps_its_committed_seed_is_caught(page: Page, base: str) -> None:
    """The game's summary is answered with another seed commitment than the one the
    commitment promised (a server that chose its seed after seeing the browser's): the lobby
    says so and does not open the table."""

    def swapped(route: Route) -> None:
        if route.request.method != "GET":
            route.fallback()
            return
        answer = route.fetch()
        body = answer.json()
        body["seed_commitment"] = "0" * 64
        route.fulfill(response=answer, body=json.dumps(body))

    page.route(re.compile(r"/games/[a-z0-9]+$"), swapped)
    page.goto(f"{base}/")
    page.select_option("[data-testid='new-game']", "deck-of-spies")
    expect(page.get_by_test_id("new-fair")).to_be_checked()
    page.get_by_test_id("create").click()
    expect(page.locator("form.create [role=alert]")).to_contain_text(
        "The server did not keep its commitment"
    )
    assert "/play/" not in page.url
