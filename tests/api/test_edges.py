"""The mistakes a person makes at every endpoint, and the one clear line each gets back.

A wrong type, a missing wrapper, a wrong case, an old version, no token: each answer names
what is wrong and says what to send instead (the shape of the body, the valid values, the
command types of the game, how to send a token).
"""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from tests.support.api import Game, new_game


def problem(response: Any, status: int, code: str) -> str:
    """The ``detail`` of a problem answer, after checking its status and code."""
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code, body
    detail = body["detail"]
    assert "\n" not in detail and "Validation failed" not in detail
    return str(detail)


@pytest.fixture
def game(client: TestClient[Litestar]) -> Game:
    return new_game(client, "deck-of-spies", seed="edges")


def command(client: TestClient[Litestar], game: Game, body: Any) -> Any:
    return client.post(game.url("/commands"), json=body, headers=game.seats[0])


# -- commands -----------------------------------------------------------------------------------


def test_an_unknown_command_type_lists_the_game_s_types_and_points_to_legal(
    client: TestClient[Litestar], game: Game
) -> None:
    detail = problem(command(client, game, {"command": {"type": "play"}}), 400, "malformed-body")
    assert "unknown command type 'play'" in detail
    assert "assassinate, counter, recruit" in detail and "/legal" in detail
    assert "pass_cards" not in detail  # only this game's types


def test_a_command_type_in_the_wrong_case_suggests_the_right_one(
    client: TestClient[Litestar], game: Game
) -> None:
    detail = problem(
        command(client, game, {"command": {"type": "Counter", "cards": ["2C"]}}),
        400,
        "malformed-body",
    )
    assert "did you mean 'counter'?" in detail


def test_a_command_of_another_game_lists_this_game_s_types(
    client: TestClient[Litestar], game: Game
) -> None:
    detail = problem(
        command(client, game, {"command": {"type": "pass_cards", "cards": []}}),
        422,
        "wrong-game-command",
    )
    assert "its command types are assassinate, counter, recruit" in detail and "/legal" in detail


def test_a_command_without_its_wrapper_shows_the_wrapped_shape(
    client: TestClient[Litestar], game: Game
) -> None:
    detail = problem(
        command(client, game, {"type": "counter", "cards": ["2C"]}), 400, "malformed-body"
    )
    assert 'wrapped in "command"' in detail
    assert '{"command": {"type":"counter","cards":["2C"]}}' in detail


def test_a_command_without_a_type_shows_the_shape(client: TestClient[Litestar], game: Game) -> None:
    detail = problem(command(client, game, {"command": {"cards": ["2C"]}}), 400, "malformed-body")
    assert 'no "type"' in detail and '"expected_version"' in detail


@pytest.mark.parametrize(
    ("body", "kind"), [(b"null", "null"), (b"[]", "an array"), (b'"x"', "a string")]
)
def test_a_body_that_is_not_an_object_says_so_and_shows_the_shape(
    client: TestClient[Litestar], game: Game, body: bytes, kind: str
) -> None:
    response = client.post(game.url("/commands"), content=body, headers=game.seats[0])
    detail = problem(response, 400, "malformed-body")
    assert f"must be a JSON object, not {kind}" in detail and '{"command"' in detail


def test_a_wrong_type_names_the_field_and_shows_the_shape(
    client: TestClient[Litestar], game: Game
) -> None:
    body = {"command": {"type": "counter", "cards": ["2C"]}, "expected_version": "4"}
    detail = problem(command(client, game, body), 400, "malformed-body")
    assert "$.expected_version" in detail and '"expected_version": N' in detail


@pytest.mark.parametrize("path", ["/commands", ""])
def test_an_empty_body_shows_the_bodies_to_send(
    client: TestClient[Litestar], game: Game, path: str
) -> None:
    url = game.url(path) if path else "/games"
    response = client.post(url, content=b"", headers=game.seats[0])
    detail = problem(response, 400, "malformed-body")
    assert detail.startswith("the request body is empty")
    assert '{"game": "deck-of-spies"' in detail and '{"command": {"type"' in detail
    assert "errors" not in response.json()  # no more [{"message": "'data'"}]


def test_an_old_version_is_a_conflict_with_the_current_version(
    client: TestClient[Litestar], game: Game
) -> None:
    legal = client.get(game.url("/legal"), headers=game.seats[0]).json()
    body = {"command": legal["commands"][0], "expected_game_version": legal["version"] - 1}
    response = command(client, game, body)
    assert "another command was recorded first" in problem(response, 409, "version-conflict")
    assert response.json()["current_version"] == legal["version"]
    # before the deal the seat had no legal command: its legal commands changed since
    body = {"command": legal["commands"][0], "expected_version": 1}
    detail = problem(command(client, game, body), 409, "version-conflict")
    assert "seat 0's legal commands are not those of version 1" in detail


def test_a_command_without_a_token_says_how_to_send_one(
    client: TestClient[Litestar], game: Game
) -> None:
    body = {"command": {"type": "counter", "cards": ["2C"]}}
    response = client.post(game.url("/commands"), json=body)
    assert "Authorization: Bearer <token>" in problem(response, 401, "unauthorized")


def test_legal_without_a_token_says_a_spectator_has_no_commands_and_how_to_send_one(
    client: TestClient[Litestar], game: Game
) -> None:
    spectator = client.get(game.url("/legal")).json()
    assert spectator["commands"] == [] and spectator["seat"] is None
    assert "spectator has no commands" in spectator["note"]
    assert "Authorization: Bearer <token>" in spectator["note"]
    seat = client.get(game.url("/legal"), headers=game.seats[0]).json()
    assert seat["commands"] and seat["note"] is None


def test_legal_of_a_seat_not_to_act_says_who_acts(client: TestClient[Litestar]) -> None:
    game = new_game(client, "black-spy", 3, seed="edges")
    for seat in range(3):  # everyone passes; then one seat leads and two wait
        legal = client.get(game.url("/legal"), headers=game.seats[seat]).json()
        body = {"command": legal["commands"][0]}
        posted = client.post(game.url("/commands"), json=body, headers=game.seats[seat])
        assert posted.status_code == 200, posted.text
    answers = [client.get(game.url("/legal"), headers=game.seats[seat]).json() for seat in range(3)]
    waiting = [legal for legal in answers if not legal["commands"]]
    assert len(waiting) == 2
    for legal in waiting:
        assert f"seat {legal['seat']} may not act now; seats to act:" in legal["note"]


# -- creating and listing games -----------------------------------------------------------------


def test_an_unknown_option_lists_the_game_s_options(client: TestClient[Litestar]) -> None:
    response = client.post(
        "/games", json={"game": "black-spy", "players": 4, "options": {"threshold": 3}}
    )
    detail = problem(response, 422, "unknown-option")
    assert "unknown option 'threshold' for black-spy" in detail
    assert "no_good_spies" in detail and "classic" in detail


def test_an_unknown_field_at_creation_suggests_the_right_one(client: TestClient[Litestar]) -> None:
    response = client.post("/games", json={"game": "deck-of-spies", "player": 1})
    detail = problem(response, 400, "malformed-body")
    assert "unknown field 'player' (did you mean 'players'?)" in detail
    assert "game, players, options, seed" in detail


def test_an_unknown_seat_type_lists_the_seat_types(client: TestClient[Litestar]) -> None:
    body = {"game": "black-spy", "players": 3, "seats": [{"type": "creator"}, {"type": "Bot"}]}
    detail = problem(client.post("/games", json=body), 400, "malformed-body")
    assert "seats[1] has the type 'Bot' (did you mean 'bot'?)" in detail
    assert "bot, creator, open" in detail


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b'{"nmae": "Ann"}', "unknown field 'nmae' (did you mean 'name'?)"),
        (b'"Ann"', 'must be a JSON object, not a string: {"name": "..."}'),
    ],
)
def test_a_join_body_shows_its_shape(
    client: TestClient[Litestar], body: bytes, expected: str
) -> None:
    seats = [{"type": "creator"}, {"type": "open"}, {"type": "open"}]
    created = client.post("/games", json={"game": "black-spy", "players": 3, "seats": seats})
    response = client.post(f"/games/{created.json()['id']}/join", content=body)
    assert expected in problem(response, 400, "malformed-body")


def test_a_one_player_game_says_1_player(client: TestClient[Litestar]) -> None:
    response = client.post("/games", json={"game": "deck-of-spies", "players": 2})
    assert problem(response, 422, "invalid-players") == (
        "deck-of-spies is played by 1 player, not 2"
    )


def test_an_empty_seed_is_invalid_seed(client: TestClient[Litestar]) -> None:
    response = client.post("/games", json={"game": "deck-of-spies", "seed": ""})
    assert "seed" in problem(response, 422, "invalid-seed")


@pytest.mark.parametrize("status", ["done", "ACTIVE", "Finished"])
def test_a_status_filter_lists_the_valid_values(client: TestClient[Litestar], status: str) -> None:
    detail = problem(client.get("/games", params={"status": status}), 400, "invalid-parameter")
    assert detail.startswith("query parameter status:") and "active, finished" in detail


def test_an_unknown_game_filter_is_refused_not_an_empty_list(
    client: TestClient[Litestar],
) -> None:
    detail = problem(client.get("/games", params={"game": "chess"}), 400, "invalid-parameter")
    assert "unknown game 'chess'" in detail and "deck-of-spies" in detail


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"limit": "-1"}, "query parameter limit:"),
        ({"limit": "ten"}, "a whole number, at least 1"),
        ({"offset": "-5"}, "a whole number, at least 0"),
    ],
)
def test_paging_parameters_say_what_they_take(
    client: TestClient[Litestar], params: dict[str, str], expected: str
) -> None:
    assert expected in problem(client.get("/games", params=params), 400, "invalid-parameter")


def test_events_after_a_negative_seq_says_what_it_takes(
    client: TestClient[Litestar], game: Game
) -> None:
    response = client.get(game.url("/events"), params={"after": "-1"})
    assert "a seq, a whole number, at least 0" in problem(response, 400, "invalid-parameter")


def test_a_bad_last_event_id_names_the_header(client: TestClient[Litestar], game: Game) -> None:
    response = client.get(game.url("/events/stream"), headers={"Last-Event-ID": "seven"})
    detail = problem(response, 400, "invalid-parameter")
    assert detail.startswith("header parameter Last-Event-ID:") and "seq" in detail


def test_an_empty_idempotency_key_names_the_header(
    client: TestClient[Litestar], game: Game
) -> None:
    response = client.post(
        game.url("/commands"),
        json={"command": {"type": "counter", "cards": ["2C"]}},
        headers={**game.seats[0], "Idempotency-Key": ""},
    )
    assert "Idempotency-Key" in problem(response, 400, "invalid-parameter")


# -- steps, paths and methods --------------------------------------------------------------------


@pytest.mark.parametrize("seq", [-1, 999])
def test_a_step_out_of_range_says_step_0_exists(
    client: TestClient[Litestar], game: Game, seq: int
) -> None:
    detail = problem(client.get(game.url(f"/replay/{seq}")), 404, "seq-out-of-range")
    assert "has steps 0 (before the first event) to" in detail and f"no step {seq}" in detail


@pytest.mark.parametrize("path", ["/v1/games", "/game", "/games/x/replay/last"])
def test_an_unknown_path_points_to_the_schema(client: TestClient[Litestar], path: str) -> None:
    assert "/schema" in problem(client.get(path), 404, "not-found")


def test_a_wrong_method_points_to_the_schema(client: TestClient[Litestar], game: Game) -> None:
    assert "/schema" in problem(client.delete(game.url("")), 405, "method-not-allowed")
