"""View, legal commands, commands and replays; seats, spectators and tokens."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_core.registry import GAMES
from spies_replay.errors import StoreBusyError
from tests.support.api import Game, assert_problem, new_game, play_to_end, play_turn


def first_legal(client: TestClient[Litestar], game: Game, seat: int = 0) -> dict[str, Any]:
    legal: dict[str, Any] = client.get(game.url("/legal"), headers=game.seats[seat]).json()
    return legal


# -- view ------------------------------------------------------------------------------------


def test_a_seat_sees_its_hand_and_a_spectator_does_not(client: TestClient[Litestar]) -> None:
    game = new_game(client, "deck-of-spies")
    seat = client.get(game.url("/view"), headers=game.seats[0]).json()
    spectator = client.get(game.url("/view")).json()
    assert seat["game"] == spectator["game"] == "deck-of-spies"
    assert seat["seat"] == 0 and spectator["seat"] is None
    assert seat["version"] == spectator["version"] == game.created["version"]
    assert len(seat["hand"]) == 5 and spectator["hand"] is None
    assert spectator["draw_deck_cards"] is None


def test_each_black_spy_seat_sees_only_its_own_hand(client: TestClient[Litestar]) -> None:
    game = new_game(client, "black-spy", 4)
    views = [client.get(game.url("/view"), headers=game.seats[s]).json() for s in range(4)]
    text = [msgspec.json.encode(view).decode() for view in views]
    hands = [view["hand"] for view in views]
    assert all(len(hand) == 15 for hand in hands)
    for seat in range(4):
        assert views[seat]["seat"] == seat
    # another seat's hand as a whole never appears in a view (cards repeat across hands,
    # so compare whole hands, not single cards)
    for seat in range(4):
        for other in range(4):
            if other != seat:
                assert msgspec.json.encode(hands[other]).decode() not in text[seat]


def test_views_of_every_game_follow_the_core(client: TestClient[Litestar]) -> None:
    for name, spec in GAMES.items():
        game = new_game(client, name, spec.min_players)
        view = client.get(game.url("/view")).json()
        decoded = msgspec.convert(view, spec.view_type)
        assert decoded.seat is None and view["game"] == name


# -- legal -----------------------------------------------------------------------------------


def test_legal_lists_postable_commands_and_is_empty_for_spectators(
    client: TestClient[Litestar],
) -> None:
    game = new_game(client, "black-spy", 3)
    spectator = client.get(game.url("/legal")).json()
    assert spectator == {
        "version": game.created["version"],
        "seat": None,
        "commands": [],
        "note": spectator["note"],
    }
    assert "Authorization: Bearer" in spectator["note"]
    legal = first_legal(client, game, 1)
    assert legal["seat"] == 1 and legal["commands"]
    assert all(command["type"] == "pass_cards" for command in legal["commands"])
    response = client.post(
        game.url("/commands"), headers=game.seats[1], json={"command": legal["commands"][0]}
    )
    assert response.status_code == 200


def test_legal_is_empty_for_a_seat_not_to_act(client: TestClient[Litestar]) -> None:
    game = new_game(client, "spies-and-lies", 2)
    rng = random.Random(3)
    for _ in range(30):
        summary = client.get(game.url()).json()
        waiting = [seat for seat in range(2) if seat not in summary["to_act"]]
        if waiting:
            assert first_legal(client, game, waiting[0])["commands"] == []
            return
        play_turn(client, game, rng)
    pytest.fail("every seat was always to act")


# -- commands --------------------------------------------------------------------------------


def test_a_command_returns_the_new_version_and_the_callers_view_of_its_events(
    client: TestClient[Litestar],
) -> None:
    game = new_game(client, "deck-of-spies")
    legal = first_legal(client, game)
    response = client.post(
        game.url("/commands"),
        headers=game.seats[0],
        json={"command": legal["commands"][0], "expected_version": legal["version"]},
    )
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "active" and body["outcome"] is None
    seqs = [event["seq"] for event in body["events"]]
    assert seqs == list(range(legal["version"] + 1, body["version"] + 1))
    assert body["events"][0]["type"] == legal["commands"][0]["type"].replace(
        "counter", "spy_countered"
    )
    assert all("recorded_at" in event for event in body["events"])
    assert client.get(game.url()).json()["version"] == body["version"]


def test_a_command_without_expected_version_applies_to_the_current_version(
    client: TestClient[Litestar],
) -> None:
    game = new_game(client)
    command = first_legal(client, game)["commands"][0]
    response = client.post(game.url("/commands"), headers=game.seats[0], json={"command": command})
    assert response.status_code == 200


def test_a_stale_expected_version_is_409_with_the_current_version(
    client: TestClient[Litestar],
) -> None:
    game = new_game(client)
    legal = first_legal(client, game)
    first = client.post(
        game.url("/commands"),
        headers=game.seats[0],
        json={"command": legal["commands"][0], "expected_version": legal["version"]},
    ).json()
    stale = client.post(
        game.url("/commands"),
        headers=game.seats[0],
        json={"command": legal["commands"][0], "expected_version": legal["version"]},
    )
    body = assert_problem(stale, 409, "version-conflict")
    assert body["current_version"] == first["version"]
    assert body["expected_version"] == legal["version"]
    for expected in (-1, 10**30):
        response = client.post(
            game.url("/commands"),
            headers=game.seats[0],
            json={"command": legal["commands"][0], "expected_version": expected},
        )
        assert (
            assert_problem(response, 409, "version-conflict")["current_version"] == first["version"]
        )
    assert client.get(game.url()).json()["version"] == first["version"]


def test_a_command_against_the_rules_is_422_with_the_rules_code_and_appends_nothing(
    client: TestClient[Litestar],
) -> None:
    game = new_game(client, "black-spy", 3)
    before = client.get(game.url()).json()
    response = client.post(
        game.url("/commands"),
        headers=game.seats[0],
        json={"command": {"type": "play_card", "card": "red-1"}},
    )
    body = assert_problem(response, 422, response.json()["code"])
    assert body["code"] not in {"malformed-body", "internal-error"}
    unknown = client.post(
        game.url("/commands"),
        headers=game.seats[0],
        json={"command": {"type": "pass_cards", "cards": ["purple-99", "x", "y"]}},
    )
    assert_problem(unknown, 422, "unknown-card")
    assert client.get(game.url()).json() == before


def test_a_command_of_another_game_is_422_wrong_game_command(
    client: TestClient[Litestar],
) -> None:
    game = new_game(client, "deck-of-spies")
    for command in ({"type": "play_card", "card": "red-1"}, {"type": "guess", "rank": 3}):
        response = client.post(
            game.url("/commands"), headers=game.seats[0], json={"command": command}
        )
        assert_problem(response, 422, "wrong-game-command")


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"command": None},
        {"command": {}},
        {"command": {"type": "fly"}},
        {"command": {"type": "counter"}},
        {"command": {"type": "counter", "cards": "2H"}},
        {"command": {"type": "counter", "cards": [2]}},
        {"command": {"type": "counter", "cards": ["2H"], "extra": 1}},
        {"command": {"type": "counter", "cards": ["2H"]}, "expected_version": "3"},
        {"command": {"type": "counter", "cards": ["2H"]}, "expected_version": 3.5},
        {"command": {"type": "counter", "cards": ["2H"]}, "seat": 0},
        {"command": [{"type": "counter", "cards": ["2H"]}]},
        {"command": {"type": "counter", "cards": [["2H"]]}},
    ],
)
def test_malformed_commands_are_400(client: TestClient[Litestar], body: dict[str, Any]) -> None:
    game = new_game(client)
    response = client.post(game.url("/commands"), headers=game.seats[0], json=body)
    assert_problem(response, 400, "malformed-body")


def test_commands_after_the_end_are_422_game_over(client: TestClient[Litestar]) -> None:
    game = new_game(client)
    summary = play_to_end(client, game)
    response = client.post(
        game.url("/commands"),
        headers=game.seats[0],
        json={"command": {"type": "counter", "cards": ["2H"]}, "expected_version": 1},
    )
    assert_problem(response, 422, "game-over")
    assert client.get(game.url()).json()["version"] == summary["version"]


# -- tokens ----------------------------------------------------------------------------------


def test_a_command_needs_a_seat_token(client: TestClient[Litestar]) -> None:
    game = new_game(client)
    command = {"command": first_legal(client, game)["commands"][0]}
    response = client.post(game.url("/commands"), json=command)
    assert_problem(response, 401, "unauthorized")
    assert response.headers["www-authenticate"].startswith("Bearer")


@pytest.mark.parametrize(
    "header",
    [
        "Bearer not-a-token",
        "Bearer ",
        "Bearer",
        "Basic dXNlcjpwYXNz",
        "Token abc",
        "bearer a b",
        "Bearer " + "A" * 600,
        "",
    ],
)
def test_bad_tokens_are_401_on_every_caller_endpoint(
    client: TestClient[Litestar], header: str
) -> None:
    game = new_game(client)
    headers = {"Authorization": header}
    for suffix in ("/view", "/legal", "/events", "/events/stream", "/replay/1"):
        assert_problem(client.get(game.url(suffix), headers=headers), 401, "unauthorized")
    response = client.post(
        game.url("/commands"), headers=headers, json={"command": {"type": "counter", "cards": []}}
    )
    assert_problem(response, 401, "unauthorized")


def test_a_token_of_another_game_is_403(client: TestClient[Litestar]) -> None:
    game = new_game(client, seed="one")
    other = new_game(client, seed="two")
    for suffix in ("/view", "/legal", "/events", "/replay/1"):
        assert_problem(client.get(game.url(suffix), headers=other.seats[0]), 403, "forbidden")
    command = {"command": first_legal(client, game)["commands"][0]}
    response = client.post(game.url("/commands"), headers=other.seats[0], json=command)
    assert_problem(response, 403, "forbidden")
    assert client.get(game.url()).json()["version"] == game.created["version"]


def test_the_scheme_is_case_insensitive(client: TestClient[Litestar]) -> None:
    game = new_game(client)
    headers = {"Authorization": f"bearer {game.tokens[0]}"}
    assert client.get(game.url("/view"), headers=headers).json()["seat"] == 0


def test_public_endpoints_ignore_the_authorization_header(client: TestClient[Litestar]) -> None:
    game = new_game(client)
    headers = {"Authorization": "Bearer nonsense"}
    assert client.get(game.url(), headers=headers).status_code == 200
    assert client.get("/games", headers=headers).status_code == 200


# -- replay ----------------------------------------------------------------------------------


def test_replay_shows_the_callers_view_after_any_event(client: TestClient[Litestar]) -> None:
    game = new_game(client, "deck-of-spies")
    rng = random.Random(5)
    views = {}
    for _ in range(4):
        views[client.get(game.url()).json()["version"]] = client.get(
            game.url("/view"), headers=game.seats[0]
        ).json()
        play_turn(client, game, rng)
    for version, view in views.items():
        replayed = client.get(game.url(f"/replay/{version}"), headers=game.seats[0]).json()
        assert replayed == view
    start = client.get(game.url("/replay/0")).json()
    assert start["version"] == 0 and start["seat"] is None
    spectator = client.get(game.url(f"/replay/{max(views)}")).json()
    assert spectator["hand"] is None and spectator["seat"] is None


@pytest.mark.parametrize("seq", ["-1", "1000", "99999999999999999999999999"])
def test_replay_out_of_range_is_404(client: TestClient[Litestar], seq: str) -> None:
    game = new_game(client)
    assert_problem(client.get(game.url(f"/replay/{seq}")), 404, "seq-out-of-range")


@pytest.mark.parametrize("seq", ["x", "1.5", "", "%20"])
def test_replay_of_a_non_number_is_404(client: TestClient[Litestar], seq: str) -> None:
    game = new_game(client)
    assert client.get(game.url(f"/replay/{seq}")).status_code == 404


def test_a_database_locked_too_long_is_503_not_500(
    client: TestClient[Litestar], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game(client)
    command = first_legal(client, game)["commands"][0]

    def locked(*args: Any, **kwargs: Any) -> Any:
        # The store turns its driver's "locked" or "busy" into this typed error
        # (tests/replay/test_sqlite_store.py); the API never sees a driver's exception.
        raise StoreBusyError("spies.db")

    monkeypatch.setattr("spies_replay.store.sqlite.SQLiteEventStore.append", locked)
    response = client.post(game.url("/commands"), headers=game.seats[0], json={"command": command})
    assert_problem(response, 503, "database-busy")
    assert response.headers["retry-after"] == "1"
