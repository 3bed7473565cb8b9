"""``POST /games``, ``GET /games``, ``GET /games/{id}``, ``GET /games/{id}/export``."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_core.registry import GAMES
from tests.support.api import assert_problem, new_game, play_to_end

# -- create ----------------------------------------------------------------------------------


def test_create_returns_201_with_id_version_and_one_token_per_seat(
    client: TestClient[Litestar],
) -> None:
    response = client.post("/games", json={"game": "black-spy", "players": 4, "seed": "s"})
    assert response.status_code == 201
    body = response.json()
    assert response.headers["location"] == f"/games/{body['id']}"
    assert body["game"] == "black-spy" and body["players"] == 4 and body["status"] == "active"
    assert isinstance(body["version"], int) and body["version"] >= 2
    assert [seat["seat"] for seat in body["seats"]] == [0, 1, 2, 3]
    tokens = [seat["token"] for seat in body["seats"]]
    assert len(set(tokens)) == 4 and all(len(token) >= 32 for token in tokens)
    assert len(body["head_hash"]) == 64


def test_the_same_seed_gives_the_same_game(client: TestClient[Litestar]) -> None:
    first = new_game(client, "deck-of-spies", seed="again")
    second = new_game(client, "deck-of-spies", seed="again")
    view = [client.get(g.url("/view"), headers=g.seats[0]).json() for g in (first, second)]
    assert view[0] == view[1]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess"}, "unknown-game"),
        ({"game": "deck-of-spies", "players": 2}, "invalid-players"),
        ({"game": "black-spy", "players": 0}, "invalid-players"),
        ({"game": "black-spy", "players": 9_000_000_000_000_000_000}, "invalid-players"),
        ({"game": "black-spy", "players": 10**30}, "invalid-players"),
        ({"game": "spies-and-lies", "players": 3}, "invalid-players"),
        ({"game": "deck-of-spies", "options": {"no_such_option": True}}, "unknown-option"),
        ({"game": "deck-of-spies", "options": {"strict_necessity": "yes"}}, "invalid-options"),
        ({"game": "deck-of-spies", "options": {"deal": {"spies": ["XX"]}}}, "invalid-options"),
        ({"game": "deck-of-spies", "options": {"deal": {"spies": [], "draw": []}}}, "invalid-deal"),
        ({"game": "deck-of-spies", "seed": ""}, "invalid-seed"),
    ],
)
def test_create_refuses_what_the_rules_refuse_with_422(
    client: TestClient[Litestar], body: dict[str, Any], code: str
) -> None:
    assert_problem(client.post("/games", json=body), 422, code)
    assert client.get("/games").json()["total"] == 0


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"{",
        b"null",
        b"[]",
        b'"deck-of-spies"',
        b"\xff\xfe\x00",
        b'{"game": 7}',
        b'{"game": null}',
        b'{"game": "deck-of-spies", "players": "1"}',
        b'{"game": "deck-of-spies", "players": 1.0}',
        b'{"game": "deck-of-spies", "options": []}',
        b'{"game": "deck-of-spies", "options": "x"}',
        b'{"game": "deck-of-spies", "seed": 5}',
        b'{"game": "deck-of-spies", "colour": "red"}',
        b'{"games": "deck-of-spies"}',
        b'{"game": "deck-of-spies"}{"game": "black-spy"}',
        b"[" * 5000 + b"]" * 5000,
    ],
)
def test_create_refuses_malformed_bodies_with_400(
    client: TestClient[Litestar], content: bytes
) -> None:
    response = client.post("/games", content=content, headers={"content-type": "application/json"})
    assert_problem(response, 400, "malformed-body")


def test_create_ignores_the_declared_content_type(client: TestClient[Litestar]) -> None:
    """``curl -d`` sends form encoding; the body is read as JSON whatever it claims."""
    response = client.post(
        "/games",
        content=b'{"game": "deck-of-spies"}',
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert response.status_code == 201
    response = client.post("/games", content=b"game=deck-of-spies", headers={"content-type": "x"})
    assert_problem(response, 400, "malformed-body")


def test_a_body_over_64_kib_is_413(client: TestClient[Litestar]) -> None:
    padding = "x" * (64 * 1024)
    response = client.post("/games", json={"game": "deck-of-spies", "seed": padding})
    assert_problem(response, 413, "body-too-large")
    just_under = "x" * (64 * 1024 - 100)
    response = client.post("/games", json={"game": "deck-of-spies", "seed": just_under})
    assert response.status_code == 201


# -- list and summary ------------------------------------------------------------------------


def test_list_filters_by_game_and_status_and_pages(client: TestClient[Litestar]) -> None:
    spies = [new_game(client, "deck-of-spies", seed=f"d{i}") for i in range(3)]
    new_game(client, "black-spy", 3, seed="b")
    finished = spies[0]
    play_to_end(client, finished)

    everything = client.get("/games").json()
    assert everything["total"] == 4 and everything["offset"] == 0
    assert [g["id"] for g in everything["games"][1:]] == [g.id for g in reversed(spies)]
    assert everything["next_before"] is None

    only = client.get("/games", params={"game": "deck-of-spies", "status": "active"}).json()
    assert {g["id"] for g in only["games"]} == {spies[1].id, spies[2].id}
    assert only["total"] == 2
    assert all(g["to_act"] == [0] for g in only["games"])

    done = client.get("/games", params={"status": "finished"}).json()
    assert [g["id"] for g in done["games"]] == [finished.id] and done["games"][0]["outcome"]

    page = client.get("/games", params={"limit": 2, "offset": 1}).json()
    assert page["limit"] == 2 and page["offset"] == 1 and len(page["games"]) == 2
    assert page["games"][0]["id"] == spies[2].id and page["total"] == 4
    assert page["next_before"] == spies[1].id
    rest = client.get("/games", params={"limit": 2, "before": page["next_before"]}).json()
    assert [g["id"] for g in rest["games"]] == [spies[0].id] and rest["next_before"] is None
    unknown_cursor = client.get("/games", params={"before": "no-such-game"})
    assert "next_before" in assert_problem(unknown_cursor, 400, "invalid-parameter")["detail"]

    unknown = client.get("/games", params={"game": "nope"})
    assert unknown.status_code == 400 and "deck-of-spies" in unknown.json()["detail"]
    capped = client.get("/games", params={"limit": 10**9}).json()
    assert capped["limit"] == 200


@pytest.mark.parametrize(
    "params",
    [
        {"limit": 0},
        {"limit": -1},
        {"limit": "ten"},
        {"offset": -1},
        {"offset": 2**64},
        {"limit": 2**70},
        {"status": "paused"},
        {"before": "x" * 65},
    ],
)
def test_list_refuses_bad_parameters_with_400(
    client: TestClient[Litestar], params: dict[str, Any]
) -> None:
    body = assert_problem(client.get("/games", params=params), 400, "invalid-parameter")
    assert body["errors"]


def test_the_lobby_lists_the_newest_open_game_first_however_many_wait(
    client: TestClient[Litestar],
) -> None:
    """The lobby once listed the oldest 50 open games, so 50 games left open hid every
    newer one from the web lobby (which reads the first page) for good."""
    open_seat = {"game": "black-spy", "players": 3, "seats": [{"type": "open"}] * 3}
    made = [client.post("/games", json=open_seat).json()["id"] for _ in range(51)]
    lobby = client.get("/games", params={"open": "true", "limit": 50}).json()
    assert lobby["total"] == 51
    assert [g["id"] for g in lobby["games"]] == made[:0:-1]
    following = client.get("/games", params={"open": "true", "before": lobby["next_before"]})
    assert [g["id"] for g in following.json()["games"]] == [made[0]]


def test_summary_has_the_contract_fields_and_no_secret(client: TestClient[Litestar]) -> None:
    created = new_game(client, "spies-and-lies", 2, seed="secret-seed-text")
    summary = client.get(created.url()).json()
    for name in ("id", "game", "status", "version", "seats", "to_act", "outcome", "head_hash"):
        assert name in summary
    assert summary["id"] == created.id and summary["game"] == "spies-and-lies"
    assert summary["status"] == "active" and summary["outcome"] is None
    assert [seat["seat"] for seat in summary["seats"]] == [0, 1]
    assert {seat["type"] for seat in summary["seats"]} == {"creator"}
    assert summary["version"] == created.created["version"]
    assert summary["head_hash"] == created.created["head_hash"]
    text = client.get(created.url()).text + client.get("/games").text
    for token in created.tokens:
        assert token not in text
    assert "secret-seed-text" not in text


@pytest.mark.parametrize(
    "game_id",
    ["nope", "A" * 2000, "%00", "..%2F..%2Fetc", "ü", "'; DROP TABLE games; --"],
)
def test_unknown_games_are_404_everywhere(client: TestClient[Litestar], game_id: str) -> None:
    for suffix in ("", "/view", "/legal", "/events", "/events/stream", "/replay/0", "/export"):
        response = client.get(f"/games/{game_id}{suffix}")
        assert response.status_code == 404, (suffix, response.text)
        assert response.json()["code"] in {"game-not-found", "not-found"}
    response = client.post(f"/games/{game_id}/commands", json={"command": {"type": "deceive"}})
    assert response.status_code == 404


def test_unknown_routes_and_methods_are_problems(client: TestClient[Litestar]) -> None:
    assert_problem(client.get("/nothing/here"), 404, "not-found")
    assert_problem(client.delete("/games"), 405, "method-not-allowed")
    assert_problem(client.put("/games/x/commands", json={}), 405, "method-not-allowed")


# -- export ----------------------------------------------------------------------------------


def test_export_of_a_game_in_progress_is_409(client: TestClient[Litestar]) -> None:
    created = new_game(client)
    assert_problem(client.get(created.url("/export")), 409, "game-not-finished")


def test_export_of_a_finished_game_is_its_whole_log(client: TestClient[Litestar]) -> None:
    created = new_game(client)
    summary = play_to_end(client, created)
    response = client.get(created.url("/export"))
    assert response.status_code == 200
    assert f'filename="{created.id}.jsonl"' in response.headers["content-disposition"]
    lines = response.content.decode().splitlines()
    assert len(lines) == summary["version"] + 1
    assert '"type":"seed_revealed"' in lines[-1]


def test_every_registered_game_can_be_created(client: TestClient[Litestar]) -> None:
    for name, spec in GAMES.items():
        created = new_game(client, name, spec.max_players, seed=name)
        assert client.get(created.url()).json()["players"] == spec.max_players
