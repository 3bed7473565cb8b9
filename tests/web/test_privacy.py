"""Until the end, a seat's page never holds another seat's hidden cards: not in the DOM, not
in any answer it received (the stream's events reach the DOM's log, which is checked)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, Response

from tests.web.helpers import click_a_move, create_game, summary, wait_loaded

ME = 1


def hidden_from_me(base: str, game_id: str, tokens: dict[int, str]) -> set[str]:
    """Cards in the other seats' hands that seat ME never held, passed or received."""
    views = {
        seat: httpx.get(
            f"{base}/games/{game_id}/view", headers={"Authorization": f"Bearer {token}"}
        ).json()
        for seat, token in tokens.items()
    }
    mine = views[ME]
    known = set(mine["hand"]) | set(mine["my_pass"] or []) | set(mine["received"] or [])
    others = {card for seat, view in views.items() if seat != ME for card in view["hand"]}
    return others - known


def leaks(text: str, cards: set[str]) -> list[str]:
    """The cards of ``cards`` named in ``text``, by id ('red-3') or by name ('red 3')."""
    found = []
    for card in cards:
        colour, rank = card.split("-")
        if re.search(rf"\b{colour}[- ]{rank}(?!\d)", text):
            found.append(card)
    return found


def check(page: Page, answers: list[Response], hidden: set[str]) -> None:
    assert hidden, "the other seats hold cards this seat never saw"
    assert leaks(page.content(), hidden) == []
    for answer in answers:
        if "json" in (answer.headers.get("content-type") or ""):
            assert leaks(answer.text(), hidden) == [], answer.url


def act(base: str, game_id: str, token: str, command: dict[str, Any]) -> None:
    answer = httpx.post(
        f"{base}/games/{game_id}/commands",
        headers={"Authorization": f"Bearer {token}"},
        json={"command": command},
    )
    assert answer.status_code == 200, answer.text


def first_legal(base: str, game_id: str, token: str) -> dict[str, Any]:
    legal = httpx.get(
        f"{base}/games/{game_id}/legal", headers={"Authorization": f"Bearer {token}"}
    ).json()
    command: dict[str, Any] = legal["commands"][0]
    return command


@pytest.mark.parametrize("seated", ["by-link", "joined"])
def test_a_seat_page_never_holds_another_seats_hidden_cards(
    page: Page, base: str, seated: str
) -> None:
    answers: list[Response] = []
    # The join page's answers (the summary, the seat's token) are gone with the page once it
    # goes to the table, and hold no card: every answer of the table is checked.
    page.on("response", lambda answer: None if "/join/" in page.url else answers.append(answer))
    if seated == "by-link":
        created = create_game(base, "black-spy", 3, "web-privacy-1")
        game_id = created["id"]
        tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
        page.goto(f"{base}/play/{game_id}#token={tokens[ME]}")
    else:
        # Seat ME is open: this page joins it by its share link, with a display name.
        seats = [{"type": "creator"}, {"type": "open"}, {"type": "creator"}]
        answer = httpx.post(
            f"{base}/games",
            json={"game": "black-spy", "players": 3, "seats": seats},
        )
        assert answer.status_code == 201, answer.text
        game_id = answer.json()["id"]
        tokens = {seat["seat"]: seat["token"] for seat in answer.json()["seats"] if "token" in seat}
        assert set(tokens) == {0, 2}
        page.goto(f"{base}/join/{game_id}/{ME}")
        page.get_by_label("Your display name").fill("Grace")
        page.get_by_test_id("join").click()
        page.wait_for_url(f"{base}/play/{game_id}")
        held = page.evaluate(f"JSON.parse(localStorage.getItem('spies:tokens:{game_id}'))")
        assert list(held) == [str(ME)]
        tokens[ME] = held[str(ME)]
    wait_loaded(page)
    check(page, answers, hidden_from_me(base, game_id, tokens))

    # The pass: the others through the API, this seat by clicking; then tricks.
    for seat in (0, 2):
        act(base, game_id, tokens[seat], first_legal(base, game_id, tokens[seat]))
    click_a_move(page)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=log]').textContent.includes('change hands')"
    )
    check(page, answers, hidden_from_me(base, game_id, tokens))

    for _ in range(9):
        state = summary(base, game_id)
        seat = state["to_act"][0]
        if seat == ME:
            wait_loaded(page)
            page.wait_for_selector("[data-testid=command]:not([disabled])")
            click_a_move(page)
        else:
            act(base, game_id, tokens[seat], first_legal(base, game_id, tokens[seat]))
    wait_loaded(page)
    assert summary(base, game_id)["status"] == "active"
    check(page, answers, hidden_from_me(base, game_id, tokens))

    # The check would see a card: this seat's own hand is on its page.
    own = httpx.get(
        f"{base}/games/{game_id}/view", headers={"Authorization": f"Bearer {tokens[ME]}"}
    ).json()["hand"]
    assert leaks(page.content(), set(own))
