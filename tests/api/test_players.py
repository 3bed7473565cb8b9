"""Players: ``POST /players``, seats created or joined with a player token, and
``GET /players/me/games``, the way back to a seat whose token was lost.

Every answer also goes through the OpenAPI check of the ``client`` fixture.
"""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings, create_app
from tests.support.api import assert_problem, bearer, create, play_out_with_bots
from tests.support.backends import BACKENDS, fresh_backend

SOLO = {"game": "deck-of-spies"}
WITH_OPEN_SEATS = {
    "game": "black-spy",
    "players": 3,
    "seats": [{"type": "creator", "name": "Ada"}, {"type": "open"}, {"type": "open"}],
}
LISTED = {"game_id", "game", "seat", "status", "version", "to_act", "updated_at", "seat_token"}


def new_player(client: TestClient[Litestar], body: dict[str, Any] | None = None) -> str:
    response = client.post("/players", json={} if body is None else body)
    assert response.status_code == 201, response.text
    made = response.json()
    assert made["token"].startswith("player.") and made["player_id"]
    token: str = made["token"]
    return token


def my_games(client: TestClient[Litestar], token: str, **query: int) -> dict[str, Any]:
    response = client.get("/players/me/games", headers=bearer(token), params=query)
    assert response.status_code == 200, response.text
    assert response.headers["cache-control"] == "no-store"  # it holds seat tokens
    listed: dict[str, Any] = response.json()
    return listed


def test_a_player_loses_its_seat_token_and_gets_back_in_through_its_games(
    client: TestClient[Litestar],
) -> None:
    player = new_player(client, {"display_name": "Ada"})
    response = client.post("/games", json=SOLO, headers=bearer(player))
    assert response.status_code == 201, response.text
    created = response.json()
    lost = created["seats"][0]["token"]
    del created  # the page is gone: only the player token is left

    listed = my_games(client, player)
    assert listed["total"] == 1 and len(listed["games"]) == 1
    entry = listed["games"][0]
    assert set(entry) == LISTED  # no hand, no view: the seat and a way back in
    assert entry["seat"] == 0 and entry["status"] == "active" and entry["to_act"] == [0]
    assert entry["seat_token"] == lost  # the very token the creation answered
    game_id, token = entry["game_id"], entry["seat_token"]

    legal = client.get(f"/games/{game_id}/legal", headers=bearer(token)).json()
    played = client.post(
        f"/games/{game_id}/commands",
        json={"command": legal["commands"][0]},
        headers=bearer(token),
    )
    assert played.status_code == 200, played.text
    assert my_games(client, player)["games"][0]["version"] == played.json()["version"]


def test_joined_seats_are_the_players_and_listed_newest_first(
    client: TestClient[Litestar],
) -> None:
    player = new_player(client)
    game = create(client, WITH_OPEN_SEATS)["id"]
    second = client.post(f"/games/{game}/seats/2/join", json={"name": "Bo"}, headers=bearer(player))
    first = client.post(f"/games/{game}/join", json={"name": "Bo"}, headers=bearer(player))
    assert second.status_code == first.status_code == 200, (second.text, first.text)
    assert (second.json()["seat"], first.json()["seat"]) == (2, 1)

    listed = my_games(client, player)
    assert [(g["game_id"], g["seat"]) for g in listed["games"]] == [(game, 1), (game, 2)]
    assert [g["seat_token"] for g in listed["games"]] == [
        first.json()["token"],
        second.json()["token"],
    ]
    view = client.get(f"/games/{game}/view", headers=bearer(listed["games"][1]["seat_token"]))
    assert view.status_code == 200 and view.json()["seat"] == 2


def test_every_creator_seat_is_listed_with_its_own_token_and_pages_are_bounded(
    client: TestClient[Litestar],
) -> None:
    player = new_player(client)
    hot_seat = client.post(
        "/games", json={"game": "spies-and-lies", "players": 2}, headers=bearer(player)
    ).json()
    later = client.post("/games", json=SOLO, headers=bearer(player)).json()
    listed = my_games(client, player)
    assert listed["total"] == 3
    assert [(g["game_id"], g["seat"]) for g in listed["games"]] == [
        (later["id"], 0),
        (hot_seat["id"], 1),
        (hot_seat["id"], 0),
    ]
    tokens = {(g["game_id"], g["seat"]): g["seat_token"] for g in listed["games"]}
    for seat in hot_seat["seats"]:
        assert tokens[(hot_seat["id"], seat["seat"])] == seat["token"]
    page = my_games(client, player, limit=1, offset=1)
    assert page["limit"] == 1 and page["offset"] == 1 and page["total"] == 3
    assert [(g["game_id"], g["seat"]) for g in page["games"]] == [(hot_seat["id"], 1)]
    too_big = my_games(client, player, limit=10_000)
    assert too_big["limit"] == Settings().games_page_max


def test_another_players_token_sees_none_of_it(client: TestClient[Litestar]) -> None:
    ada, bo = new_player(client), new_player(client)
    game = client.post("/games", json=SOLO, headers=bearer(ada)).json()
    assert my_games(client, bo) == {"games": [], "total": 0, "limit": 50, "offset": 0}
    # a player token is no seat token: not even its own player's game takes it
    for token in (ada, bo):
        assert_problem(
            client.get(f"/games/{game['id']}/view", headers=bearer(token)), 401, "unauthorized"
        )


def test_an_unknown_player_token_is_401_and_creates_nothing(
    client: TestClient[Litestar],
) -> None:
    unknown = "player.no-such-player-token"
    assert_problem(client.get("/players/me/games", headers=bearer(unknown)), 401, "unknown-player")
    assert_problem(client.post("/games", json=SOLO, headers=bearer(unknown)), 401, "unknown-player")
    game = create(client, WITH_OPEN_SEATS)["id"]
    assert_problem(
        client.post(f"/games/{game}/join", json={"name": "Bo"}, headers=bearer(unknown)),
        401,
        "unknown-player",
    )
    assert client.get("/games").json()["total"] == 1
    assert client.get(f"/games/{game}").json()["seats"][1]["type"] == "open"
    assert_problem(client.get("/players/me/games"), 401, "unauthorized")
    assert_problem(
        client.get("/players/me/games", headers={"Authorization": "Basic x"}), 401, "unauthorized"
    )


def test_a_seat_token_is_not_a_player_token(client: TestClient[Litestar]) -> None:
    created = create(client, SOLO)
    seat_token = created["seats"][0]["token"]
    assert_problem(
        client.get("/players/me/games", headers=bearer(seat_token)), 401, "unknown-player"
    )
    # a seat token sent with a creation or a join is ignored, as before players existed
    again = client.post("/games", json=SOLO, headers=bearer(seat_token))
    assert again.status_code == 201, again.text
    game = create(client, WITH_OPEN_SEATS)["id"]
    joined = client.post(f"/games/{game}/join", json={"name": "Bo"}, headers=bearer(seat_token))
    assert joined.status_code == 200, joined.text


def test_a_players_name_is_checked_as_a_seats(client: TestClient[Litestar]) -> None:
    assert_problem(client.post("/players", json={"display_name": "\x00"}), 422, "invalid-name")
    assert_problem(client.post("/players", json={"display_name": "x" * 41}), 422, "invalid-name")
    assert_problem(client.post("/players", json={"name": "Ada"}), 400, "malformed-body")
    made = client.post("/players", json={"display_name": "Ada"}).json()
    assert made["display_name"] == "Ada"


def test_players_per_client_are_rate_limited(tmp_path: Path) -> None:
    settings = Settings(db_path=tmp_path / "players.db", player_rate_limit="2/hour")
    with TestClient(app=create_app(settings)) as client:
        for _ in range(2):
            assert client.post("/players", json={}).status_code == 201
        refused = client.post("/players", json={})
        assert_problem(refused, 429, "too-many-players")
        assert int(refused.headers["Retry-After"]) > 0
        assert client.post("/games", json=SOLO).status_code == 201  # the rest is served


@pytest.mark.parametrize("kind", BACKENDS)
def test_a_player_is_known_to_every_process_on_its_database(kind: str, tmp_path: Path) -> None:
    """Two servers on one database (SQLite and PostgreSQL): a player made on one creates a
    game on the other and lists it on the first, with the seat's token."""
    with fresh_backend(kind, tmp_path) as backend, ExitStack() as stack:
        settings = Settings(db_path=backend.location)
        one, two = (stack.enter_context(TestClient(app=create_app(settings))) for _ in range(2))
        player = new_player(one)
        created = two.post("/games", json=SOLO, headers=bearer(player))
        assert created.status_code == 201, created.text
        [entry] = my_games(one, player)["games"]
        assert entry["game_id"] == created.json()["id"]
        assert entry["seat_token"] == created.json()["seats"][0]["token"]
        assert my_games(two, new_player(two))["total"] == 0


# -- rematches -----------------------------------------------------------------------------


def rematch(client: TestClient[Litestar], game_id: str, token: str) -> dict[str, Any]:
    response = client.post(f"/games/{game_id}/rematch", headers=bearer(token))
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def test_a_players_seat_follows_its_rematches(client: TestClient[Litestar]) -> None:
    """The rematch seat its holder creates is the player's too, down a chain of rematches,
    listed with the very token the rematch answered."""
    player = new_player(client)
    created = client.post("/games", json=SOLO, headers=bearer(player)).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    chain = [game_id]
    for _ in range(2):
        play_out_with_bots(client, game_id, {0: token})
        answer = rematch(client, game_id, token)
        game_id, token = answer["id"], answer["token"]
        chain.append(game_id)
        listed = my_games(client, player)
        assert [entry["game_id"] for entry in listed["games"]] == chain[::-1]
        assert listed["games"][0]["seat_token"] == token  # the rematch's own token
    view = client.get(f"/games/{game_id}/view", headers=bearer(listed["games"][0]["seat_token"]))
    assert view.status_code == 200, view.text


def test_each_players_claimed_rematch_seat_is_theirs(client: TestClient[Litestar]) -> None:
    """Seats of one game held by two players and by nobody's: the first to ask creates the
    rematch, the others claim their seats in it; each player's list gets its own seat, and
    the seat of no player is in no list."""
    ada, bo = new_player(client), new_player(client)
    created = client.post("/games", json=WITH_OPEN_SEATS, headers=bearer(ada)).json()
    game_id = created["id"]
    tokens = {0: created["seats"][0]["token"]}
    for seat, header in ((1, bearer(bo)), (2, {})):
        joined = client.post(
            f"/games/{game_id}/seats/{seat}/join", json={"name": "X"}, headers=header
        )
        assert joined.status_code == 200, joined.text
        tokens[seat] = joined.json()["token"]
    play_out_with_bots(client, game_id, tokens)
    answers = {seat: rematch(client, game_id, tokens[seat]) for seat in (1, 0, 2)}  # Bo first
    next_id = answers[1]["id"]
    assert {answer["id"] for answer in answers.values()} == {next_id}
    for player, seat in ((ada, 0), (bo, 1)):
        newest = my_games(client, player)["games"][0]
        assert (newest["game_id"], newest["seat"]) == (next_id, seat)
        assert newest["seat_token"] == answers[seat]["token"]
        assert my_games(client, player)["total"] == 2  # the first game's seat and this one
    again = rematch(client, game_id, tokens[1])  # asked again: the same seat, recorded once
    assert (again["id"], again["token"]) == (next_id, answers[1]["token"])
    assert my_games(client, bo)["total"] == 2
