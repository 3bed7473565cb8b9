"""Lobby games over HTTP: a game with an open seat waits for players, undealt, and deals at the
join that takes its last open seat (once, its creator saw its hand before anyone joined, so
it could create games until it liked a deal).

Every answer also goes through the OpenAPI check of the ``client`` fixture.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings, create_app
from spies_api.table.quota import GAMES_RETRY_AFTER_SECONDS
from spies_replay.store.sqlite import SQLiteEventStore
from tests.support.api import FakeClock, assert_problem, bearer, create, wait_for
from tests.support.clocks import verified

from .helpers import new_game, play_to_end

DEAL = ["black_spy_started", "black_spy_dealt"]
"""Black Spy's setup events."""
BLACK_SPY_LOBBY = {
    "game": "black-spy",
    "players": 3,
    "seats": [{"type": "creator", "name": "Ada"}, {"type": "open"}, {"type": "open"}],
}


def table(client: TestClient[Litestar], game_id: str, token: str | None) -> dict[str, Any]:
    headers = None if token is None else bearer(token)
    return {
        "summary": client.get(f"/games/{game_id}").json(),
        "view": client.get(f"/games/{game_id}/view", headers=headers).json(),
        "legal": client.get(f"/games/{game_id}/legal", headers=headers).json(),
        "events": client.get(f"/games/{game_id}/events", headers=headers).json(),
    }


def test_a_lobby_game_waits_undealt_and_deals_at_its_last_join(
    client: TestClient[Litestar],
) -> None:
    created = create(client, BLACK_SPY_LOBBY)
    game_id, ada = created["id"], created["seats"][0]["token"]
    for _ in ("created", "after the first join"):
        seen = table(client, game_id, ada)
        assert seen["summary"]["status"] == "active" and seen["summary"]["to_act"] == []
        view = seen["view"]
        assert view["dealt"] is False and not view["hand"] and view["seat"] == 0
        assert seen["legal"]["commands"] == [] and "waiting for players" in seen["legal"]["note"]
        assert {e["type"] for e in seen["events"]["events"]} <= {"game_created", "seat_joined"}
        refused = client.post(
            f"/games/{game_id}/commands",
            headers=bearer(ada),
            json={"command": {"type": "pass_cards", "cards": []}},
        )
        assert_problem(refused, 422, "not-started")
        assert "waiting for players" in refused.json()["detail"]
        if _ == "created":
            joined = client.post(f"/games/{game_id}/join", json={"name": "Grace"})
            assert joined.status_code == 200 and joined.json()["seat"] == 1
    last = client.post(f"/games/{game_id}/seats/2/join", json={"name": "Lin"})
    assert last.status_code == 200, last.text
    dealt = table(client, game_id, ada)
    assert dealt["view"]["dealt"] is True and len(dealt["view"]["hand"]) > 0
    assert dealt["summary"]["to_act"] and dealt["legal"]["commands"]
    types = [e["type"] for e in dealt["events"]["events"]]
    assert types == ["game_created", "seat_joined", "seat_joined", *DEAL]
    seat = dealt["summary"]["to_act"][0]
    token = {0: ada, 1: joined.json()["token"], 2: last.json()["token"]}[seat]
    legal = client.get(f"/games/{game_id}/legal", headers=bearer(token)).json()
    played = client.post(
        f"/games/{game_id}/commands",
        headers=bearer(token),
        json={"command": legal["commands"][0], "expected_version": legal["version"]},
    )
    assert played.status_code == 200, played.text


def test_bots_and_clocks_wait_for_the_deal(
    client: TestClient[Litestar], settings: Settings
) -> None:
    """A bot seat and a clock do nothing while the table waits: the server's only mark on
    the game is its open seats' expiry (no sweep of waiting games), and a clock shows its
    full time, no deadline."""
    created = create(
        client,
        {
            "game": "spies-and-lies",
            "seats": [{"type": "open"}, {"type": "bot", "bot": "random"}],
            "clock": {"turn_seconds": 30},
        },
    )
    game_id = created["id"]
    summary = client.get(f"/games/{game_id}").json()
    assert summary["version"] == 1 and summary["to_act"] == []
    assert [s["deadline"] for s in summary["clock"]["seats"]] == [None, None]
    assert summary["clock"]["turn_seconds"] == 30
    with SQLiteEventStore(settings.db_path) as store:
        assert store.due_at(game_id) == summary["open_until"] is not None
    joined = client.post(f"/games/{game_id}/join", json={"name": "Ada"})
    assert joined.status_code == 200
    # both sides deploy at once: the bot does, and the person's clock runs from the deal
    dealt = wait_for(
        lambda: (s := client.get(f"/games/{game_id}").json())["to_act"] == [0] and s,
        "the bot to deploy after the deal",
    )
    assert dealt["clock"]["seats"][0]["deadline"] is not None


def test_a_rematch_deals_at_once_before_its_seats_are_claimed(
    client: TestClient[Litestar],
) -> None:
    """Every seat of a rematch has a known holder and a game has one rematch, so its first
    caller cannot shop for deals by asking again: it deals at once, as before."""
    game = new_game(client, "spies-and-lies", 2, seed=None)
    play_to_end(client, game, random.Random(1))
    rematch = client.post(game.url("/rematch"), headers=game.seats[0])
    assert rematch.status_code == 200, rematch.text
    next_id, token = rematch.json()["id"], rematch.json()["token"]
    seats = client.get(f"/games/{next_id}").json()["seats"]
    assert [s["type"] for s in seats] == ["creator", "creator"]  # seat 1 not claimed yet
    view = client.get(f"/games/{next_id}/view", headers=bearer(token)).json()
    assert view["dealt"] is True


# -- the quota of games per client -----------------------------------------------------------


def test_one_client_cannot_fill_the_lobby(tmp_path: Path) -> None:
    """Once, one address could create 54 games a second, open ones included, which never
    expired; now a client's active games are capped, and a game waiting for players counts
    for as long as it waits."""
    settings = Settings(db_path=tmp_path / "quota.db", max_games_per_client=2, log_json=True)
    with TestClient(app=create_app(settings)) as client:
        made = [create(client, BLACK_SPY_LOBBY)["id"] for _ in range(2)]
        refused = client.post("/games", json=BLACK_SPY_LOBBY)
        assert_problem(refused, 429, "too-many-games")
        assert refused.headers["Retry-After"] == str(GAMES_RETRY_AFTER_SECONDS)
        assert "at most 2" in refused.json()["detail"]
        full_table = {"game": "deck-of-spies"}  # every creation counts, open seat or not
        assert client.post("/games", json=full_table).status_code == 429
        assert client.get("/games").json()["total"] == 2  # a refusal appends nothing
        for seat in (1, 2):  # filling a table deals it; it still counts while played
            client.post(f"/games/{made[0]}/seats/{seat}/join", json={"name": f"p{seat}"})
        assert client.post("/games", json=full_table).status_code == 429


# -- open seats that expire ------------------------------------------------------------------


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def test_the_server_abandons_a_table_whose_open_seats_expired(
    settings: Settings, clock: FakeClock
) -> None:
    """Once, open games never expired. Now the scheduler ends a table still waiting when its
    open seats expire: game_aborted (abandoned), the seed revealed, nobody wins; a table that
    filled in time plays on."""
    fast = replace(settings, scheduler_poll_seconds=0.02, bot_workers=0, open_seat_ttl=60)
    with TestClient(app=create_app(fast, clock=clock)) as client:
        waiting = create(client, BLACK_SPY_LOBBY)["id"]
        seats = [{"type": "creator"}, {"type": "open"}]
        filled = create(client, {"game": "spies-and-lies", "seats": seats})["id"]
        client.post(f"/games/{filled}/join", json={"name": "Grace"})
        summary = client.get(f"/games/{waiting}").json()
        assert summary["open_until"] == "2026-12-01T12:01:00.000000Z"
        assert client.get(f"/games/{filled}").json()["open_until"] is None
        clock.advance(59.9)
        assert client.post(f"/games/{waiting}/join", json={"name": "Lin"}).status_code == 200
        clock.advance(0.1)
        over = wait_for(
            lambda: (s := client.get(f"/games/{waiting}").json())["status"] == "finished" and s,
            "the expired table to be abandoned",
        )
        assert over["outcome"]["reason"] == "abandoned" and over["outcome"]["winners"] == []
        assert over["open_until"] is None
        logged = [e["type"] for e in client.get(f"/games/{waiting}/events").json()["events"]]
        assert logged[-2:] == ["game_aborted", "seed_revealed"]
        late = client.post(f"/games/{waiting}/join", json={"name": "Max"})
        assert_problem(late, 422, "game-over")
        assert client.get(f"/games/{filled}").json()["status"] == "active"
    verified(settings)
