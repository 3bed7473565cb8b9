"""Fair deals: a creator cannot rig what a joiner is dealt, and a rematch never replays a deal
that is public.

A client ``seed`` makes every shuffle known to whoever chose it, and ``options.deal`` lays the
cards out: both are for games whose every person seat the creator holds. The summary's
``seed_source`` says who chose the cards, from what the server recorded, not from what the
creator claims.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_core.registry import GAMES
from tests.support.api import Game, play_to_end

OPEN = {"type": "open"}
CREATOR = {"type": "creator"}


def explicit_deal(game: str, players: int) -> Any:
    """A valid ``options.deal`` of ``game`` (the twin-deal fixture's first world)."""
    twin_deals = GAMES[game].twin_deals
    assert twin_deals is not None
    return twin_deals(players, 0, random.Random(5)).deal


@pytest.mark.parametrize(
    "chosen",
    [
        pytest.param({"seed": "rigged"}, id="seed"),
        pytest.param({"options": {"deal": explicit_deal("black-spy", 3)}}, id="deal"),
    ],
)
def test_a_chosen_seed_or_deal_with_an_open_seat_is_refused(
    client: TestClient[Litestar], chosen: dict[str, Any]
) -> None:
    body = {"game": "black-spy", "players": 3, "seats": [CREATOR, OPEN, CREATOR], **chosen}
    response = client.post("/games", json=body)
    assert response.status_code == 422, response.text
    problem = response.json()
    assert problem["code"] == "fixed-deal-with-open-seat"
    assert "open seat" in problem["detail"]
    assert client.get("/games").json()["total"] == 0


def test_a_chosen_seed_with_bots_and_creator_seats_is_allowed(
    client: TestClient[Litestar],
) -> None:
    seats = [CREATOR, {"type": "bot", "bot": "random"}, {"type": "bot", "bot": "greedy"}]
    body = {"game": "black-spy", "players": 3, "seed": "puzzle", "seats": seats}
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.text
    summary = client.get(f"/games/{response.json()['id']}").json()
    assert summary["seed_source"] == "client"


def test_a_game_with_no_chosen_seed_and_an_open_seat_deals_from_a_server_seed(
    client: TestClient[Litestar],
) -> None:
    body = {"game": "black-spy", "players": 3, "seats": [CREATOR, OPEN, CREATOR]}
    created = client.post("/games", json=body).json()
    summary = client.get(f"/games/{created['id']}").json()
    assert summary["seed_source"] == "server"
    lobby = client.get("/games", params={"open": "true"}).json()["games"]
    assert [(game["id"], game["seed_source"]) for game in lobby] == [(created["id"], "server")]


def test_a_deal_game_says_so_in_its_summary_and_its_log(client: TestClient[Litestar]) -> None:
    deal = explicit_deal("deck-of-spies", 1)
    created = client.post("/games", json={"game": "deck-of-spies", "options": {"deal": deal}})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    assert client.get(f"/games/{game_id}").json()["seed_source"] == "deal"
    first = client.get(f"/games/{game_id}/events").json()["events"][0]
    assert first["type"] == "game_created" and first["seed_source"] == "deal"


def test_a_rematch_of_a_deal_game_deals_afresh(client: TestClient[Litestar]) -> None:
    deal = explicit_deal("deck-of-spies", 1)
    created = client.post("/games", json={"game": "deck-of-spies", "options": {"deal": deal}})
    body = created.json()
    token = body["seats"][0]["token"]
    game = Game(
        id=body["id"],
        game="deck-of-spies",
        seats={0: {"Authorization": f"Bearer {token}"}},
        tokens=[token],
        created=body,
    )
    first_view = client.get(game.url("/view"), headers=game.seats[0]).json()
    play_to_end(client, game)
    answer = client.post(game.url("/rematch"), headers=game.seats[0])
    assert answer.status_code == 200, answer.text
    rematch = answer.json()
    summary = client.get(f"/games/{rematch['id']}").json()
    assert summary["seed_source"] == "server" and "deal" not in summary["options"]
    events = client.get(f"/games/{rematch['id']}/events").json()["events"]
    assert events[0]["deal_commitment"] is None
    view = client.get(
        f"/games/{rematch['id']}/view", headers={"Authorization": f"Bearer {rematch['token']}"}
    ).json()
    # the finished game's deal is public: a rematch that dealt it again would show it here
    dealt = (first_view["hand"], first_view["top_spy"], first_view["unseen_spies"])
    assert (view["hand"], view["top_spy"], view["unseen_spies"]) != dealt
