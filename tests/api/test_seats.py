"""Seats: creation with open and bot seats, joins, the lobby, bots, hand-over, rematches.

Every answer also goes through the OpenAPI check of the ``client`` fixture.
"""

from __future__ import annotations

import io
import threading
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings
from spies_bots import BOTS
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.transfer import import_game
from spies_replay.verify import verify_all
from tests.support.api import (
    assert_problem,
    bearer,
    create,
    finished,
    new_game,
    play_out_with_bots,
    wait_for,
)
from tests.support.servers import serve_in_thread

SEATED = [{"type": "creator", "name": "Ada"}, {"type": "open"}]


# -- creation ------------------------------------------------------------------------------


def test_create_with_seats_gives_tokens_only_to_creator_seats(
    client: TestClient[Litestar],
) -> None:
    created = create(
        client,
        {
            "game": "black-spy",
            "players": 4,
            "seats": [
                {"type": "creator", "name": "Ada"},
                {"type": "open"},
                {"type": "bot", "bot": "random"},
                {"type": "creator"},
            ],
        },
    )
    seats = created["seats"]
    assert [s["type"] for s in seats] == ["creator", "open", "bot", "creator"]
    assert [("token" in s) for s in seats] == [True, False, False, True]
    assert seats[0]["name"] == "Ada" and seats[2]["bot"] == "random"
    summary = client.get(f"/games/{created['id']}").json()
    assert summary["seats"] == [
        {"seat": 0, "type": "creator", "name": "Ada", "bot": None},
        {"seat": 1, "type": "open", "name": None, "bot": None},
        {"seat": 2, "type": "bot", "name": None, "bot": "random"},
        {"seat": 3, "type": "creator", "name": None, "bot": None},
    ]
    view = client.get(f"/games/{created['id']}/view", headers=bearer(seats[3]["token"]))
    assert view.json()["seat"] == 3


def test_the_default_is_one_creator_token_per_seat_as_before(client: TestClient[Litestar]) -> None:
    game = new_game(client, "spies-and-lies", 2)
    assert [s["seat"] for s in game.created["seats"]] == [0, 1]
    assert all(s["type"] == "creator" and s["token"] for s in game.created["seats"])


@pytest.mark.parametrize(
    ("seats", "status", "code"),
    [
        ([{"type": "open"}], 422, "invalid-seats"),
        ([{"type": "open"}] * 3, 422, "invalid-seats"),
        ([{"type": "bot", "bot": "no-such-bot"}, {"type": "open"}], 422, "unknown-bot"),
        ([{"type": "creator", "name": ""}, {"type": "open"}], 422, "invalid-name"),
        ([{"type": "creator", "name": "x" * 41}, {"type": "open"}], 422, "invalid-name"),
        ([{"type": "creator", "name": "a\nb"}, {"type": "open"}], 422, "invalid-name"),
        ([{"type": "robot"}, {"type": "open"}], 400, "malformed-body"),
        ([{"type": "open", "name": "x"}, {"type": "open"}], 400, "malformed-body"),
        ([{"type": "bot"}, {"type": "open"}], 400, "malformed-body"),
    ],
)
def test_bad_seats_are_refused_and_create_nothing(
    client: TestClient[Litestar], seats: list[Any], status: int, code: str
) -> None:
    response = client.post("/games", json={"game": "spies-and-lies", "seats": seats})
    assert_problem(response, status, code)
    assert client.get("/games").json()["total"] == 0


def test_get_bots_lists_every_registered_bot(client: TestClient[Litestar]) -> None:
    bots = client.get("/bots").json()["bots"]
    assert [b["name"] for b in bots] == list(BOTS)
    for listed in bots:
        assert listed["games"] == list(BOTS[listed["name"]].games)
        assert listed["description"] == BOTS[listed["name"]].description


# -- joining -------------------------------------------------------------------------------


def test_join_a_seat_then_play_with_its_token(client: TestClient[Litestar]) -> None:
    created = create(client, {"game": "spies-and-lies", "seats": SEATED})
    game_id = created["id"]
    joined = client.post(f"/games/{game_id}/seats/1/join", json={"name": "Grace"})
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1
    token = joined.json()["token"]
    assert client.get(f"/games/{game_id}/legal", headers=bearer(token)).json()["seat"] == 1
    seat = client.get(f"/games/{game_id}").json()["seats"][1]
    assert seat == {"seat": 1, "type": "joined", "name": "Grace", "bot": None}
    events = client.get(f"/games/{game_id}/events").json()["events"]
    joined_events = [e for e in events if e["type"] == "seat_joined"]
    assert [(e["seat"], e["name"]) for e in joined_events] == [(1, "Grace")]
    assert token not in str(events)


def test_every_view_names_the_seats_as_they_stood(client: TestClient[Litestar]) -> None:
    """A view carries each seat's display name (issue: a client had to read the summary
    for them): the live view and the stream's, and a replay's as the seats stood then."""
    created = create(client, {"game": "spies-and-lies", "seats": SEATED})
    game_id = created["id"]
    before = client.get(f"/games/{game_id}/view").json()
    assert before["names"] == ["Ada", None]  # seat 1 is open
    client.post(f"/games/{game_id}/seats/1/join", json={"name": "Grace"})
    now = client.get(f"/games/{game_id}/view").json()
    assert now["names"] == ["Ada", "Grace"]
    assert client.get(f"/games/{game_id}/replay/1").json()["names"] == ["Ada", None]
    assert client.get(f"/games/{game_id}/replay/{now['version']}").json()["names"] == [
        "Ada",
        "Grace",
    ]


def test_join_errors(client: TestClient[Litestar]) -> None:
    created = create(client, {"game": "spies-and-lies", "seats": SEATED})
    game_id = created["id"]
    version = client.get(f"/games/{game_id}").json()["version"]
    assert_problem(
        client.post(f"/games/{game_id}/seats/0/join", json={"name": "Eve"}), 409, "seat-taken"
    )
    assert_problem(
        client.post(f"/games/{game_id}/seats/2/join", json={"name": "Eve"}), 404, "seat-not-found"
    )
    assert_problem(
        client.post("/games/nope/seats/1/join", json={"name": "Eve"}), 404, "game-not-found"
    )
    assert_problem(
        client.post(f"/games/{game_id}/seats/1/join", json={"name": ""}), 422, "invalid-name"
    )
    assert_problem(
        client.post(f"/games/{game_id}/seats/1/join", json={"name": "\x07"}), 422, "invalid-name"
    )
    assert_problem(client.post(f"/games/{game_id}/seats/1/join", json={}), 400, "malformed-body")
    assert_problem(client.post(f"/games/{game_id}/join", json={"name": 5}), 400, "malformed-body")
    assert client.get(f"/games/{game_id}").json()["version"] == version  # nothing appended
    assert client.post(f"/games/{game_id}/join", json={"name": "Bob"}).json()["seat"] == 1
    assert_problem(client.post(f"/games/{game_id}/join", json={"name": "Eve"}), 409, "no-open-seat")
    assert_problem(
        client.post(f"/games/{game_id}/seats/1/join", json={"name": "Eve"}), 409, "seat-taken"
    )


def test_joining_a_finished_game_is_game_over(client: TestClient[Litestar]) -> None:
    bots = [{"type": "bot", "bot": "random"}] * 2
    created = create(client, {"game": "spies-and-lies", "seats": bots})
    finished(client, created["id"])
    for path in ("/seats/0/join", "/join"):
        response = client.post(f"/games/{created['id']}{path}", json={"name": "Late"})
        assert_problem(response, 422, "game-over")


def test_the_lobby_lists_games_with_an_open_seat(client: TestClient[Litestar]) -> None:
    open_game = create(client, {"game": "spies-and-lies", "seats": SEATED})["id"]
    full_game = new_game(client, "spies-and-lies", 2).id
    lobby = client.get("/games", params={"open": "true"}).json()
    assert [g["id"] for g in lobby["games"]] == [open_game] and lobby["total"] == 1
    others = client.get("/games", params={"open": "false"}).json()
    assert [g["id"] for g in others["games"]] == [full_game]
    client.post(f"/games/{open_game}/join", json={"name": "Bob"})
    assert client.get("/games", params={"open": "true"}).json()["total"] == 0
    assert client.get("/games").json()["total"] == 2


def unsigned(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer without its receipt, which names the game's head at the time of asking."""
    return {name: value for name, value in answer.items() if name != "receipt"}


def race_joins(bases: list[str], game_id: str, count: int) -> list[httpx.Response]:
    """``count`` threads, spread over ``bases``, join seat 1 of ``game_id`` at once."""
    start = threading.Barrier(count)
    answers: list[httpx.Response] = []
    lock = threading.Lock()

    def join(base: str, who: int) -> None:
        start.wait()
        response = httpx.post(
            f"{base}/games/{game_id}/seats/1/join", json={"name": f"p{who}"}, timeout=30
        )
        with lock:
            answers.append(response)

    threads = [threading.Thread(target=join, args=(bases[n % len(bases)], n)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_racing_joins_across_two_servers_on_one_file_have_one_winner(tmp_path: Path) -> None:
    """Two servers (two services, each with its own locks and connections, as two processes
    would have) on one database; sixteen threads join the same seat at once."""
    options = Settings(db_path=tmp_path / "race.db", log_json=True)
    with serve_in_thread(options) as (first, _), serve_in_thread(options) as (second, _):
        for round_ in range(3):
            created = httpx.post(
                f"{first}/games",
                json={"game": "black-spy", "players": 3, "seats": [{"type": "open"}] * 3},
            ).json()
            answers = race_joins([first, second], created["id"], 16)
            codes = sorted(r.status_code for r in answers)
            assert codes == [200] + [409] * 15, (round_, codes)
            assert {r.json()["code"] for r in answers if r.status_code == 409} == {"seat-taken"}
            events = httpx.get(f"{first}/games/{created['id']}/events").json()["events"]
            assert [e["type"] for e in events].count("seat_joined") == 1
    with SQLiteEventStore(tmp_path / "race.db") as store:
        assert all(report.ok for report in verify_all(store))


# -- hand-over and take-back ------------------------------------------------------------------


def test_hand_a_seat_to_a_bot_and_take_it_back(client: TestClient[Litestar]) -> None:
    created = create(client, {"game": "spies-and-lies", "seats": SEATED})
    game_id = created["id"]
    mine = bearer(created["seats"][0]["token"])
    theirs = bearer(client.post(f"/games/{game_id}/join", json={"name": "Bob"}).json()["token"])
    url = f"/games/{game_id}/seats/0/bot"
    assert_problem(client.post(url, json={"bot": "random"}), 401, "unauthorized")
    assert_problem(client.post(url, json={"bot": "random"}, headers=theirs), 403, "not-your-seat")
    other = new_game(client, "spies-and-lies", 2)
    assert_problem(
        client.post(url, json={"bot": "random"}, headers=other.seats[0]), 403, "forbidden"
    )
    assert_problem(client.post(url, json={"bot": "wizard"}, headers=mine), 422, "unknown-bot")
    assert_problem(
        client.post(f"/games/{game_id}/seats/5/bot", json={"bot": "random"}, headers=mine),
        404,
        "seat-not-found",
    )
    assert_problem(client.delete(url, headers=mine), 409, "seat-not-handed")
    handed = client.post(url, json={"bot": "random"}, headers=mine)
    assert handed.status_code == 200, handed.text
    assert unsigned(handed.json()) == {"seat": 0, "type": "creator", "name": "Ada", "bot": "random"}
    again = client.post(url, json={"bot": "random"}, headers=mine)  # no change, no event
    assert unsigned(again.json()) == unsigned(handed.json())
    # The bot plays seat 0 on the server; seat 1 (a person) is then left to act.
    wait_for(
        lambda: client.get(f"/games/{game_id}").json()["to_act"] == [1], "seat 0's bot to move"
    )
    back = client.delete(url, headers=mine)
    assert back.status_code == 200
    assert unsigned(back.json()) == {"seat": 0, "type": "creator", "name": "Ada", "bot": None}
    events = client.get(f"/games/{game_id}/events").json()["events"]
    seat_events = [(e["type"], e["seat"]) for e in events if e["type"].startswith("seat_")]
    assert seat_events == [("seat_joined", 1), ("seat_handed_to_bot", 0), ("seat_taken_back", 0)]
    bot_at = next(e["seq"] for e in events if e["type"] == "seat_handed_to_bot")
    assert any(e["seq"] > bot_at and not e["type"].startswith("seat_") for e in events)


def test_a_bot_seat_from_the_start_has_no_holder(client: TestClient[Litestar]) -> None:
    created = create(
        client,
        {
            "game": "spies-and-lies",
            "seats": [{"type": "creator"}, {"type": "bot", "bot": "random"}],
        },
    )
    mine = bearer(created["seats"][0]["token"])
    url = f"/games/{created['id']}/seats/1/bot"
    assert_problem(client.delete(url, headers=mine), 403, "not-your-seat")
    assert_problem(client.post(url, json={"bot": "random"}, headers=mine), 403, "not-your-seat")


# -- rematch -------------------------------------------------------------------------------


def test_a_rematch_chain_across_three_games(client: TestClient[Litestar]) -> None:
    created = create(
        client,
        {
            "game": "black-spy",
            "players": 4,
            "options": {},
            "seats": [
                {"type": "creator", "name": "Ada"},
                {"type": "open"},
                {"type": "bot", "bot": "random"},
                {"type": "creator"},
            ],
        },
    )
    game_id = created["id"]
    assert_problem(
        client.post(f"/games/{game_id}/rematch", headers=bearer(created["seats"][0]["token"])),
        409,
        "game-not-finished",
    )
    joined = client.post(f"/games/{game_id}/join", json={"name": "Grace"}).json()
    tokens = {0: created["seats"][0]["token"], 1: joined["token"], 3: created["seats"][3]["token"]}
    chain = [game_id]
    for _ in range(2):
        previous = chain[-1]
        play_out_with_bots(client, previous, tokens)
        assert_problem(client.post(f"/games/{previous}/rematch"), 401, "unauthorized")
        first = client.post(f"/games/{previous}/rematch", headers=bearer(tokens[1]))
        assert first.status_code == 200, first.text
        answer = first.json()
        assert answer["seat"] == 1 and answer["id"] not in chain
        again = client.post(f"/games/{previous}/rematch", headers=bearer(tokens[1])).json()
        # the same seat calling again gets the same answer (its receipt: of the head now)
        assert unsigned(again) == unsigned(answer)
        others = {
            seat: client.post(f"/games/{previous}/rematch", headers=bearer(token)).json()
            for seat, token in tokens.items()
            if seat != 1
        }
        assert {o["id"] for o in others.values()} == {answer["id"]}
        assert {seat: o["seat"] for seat, o in others.items()} == {0: 0, 3: 3}
        tokens = {1: answer["token"], **{seat: o["token"] for seat, o in others.items()}}
        assert len(set(tokens.values())) == 3
        chain.append(answer["id"])
        old = client.get(f"/games/{previous}").json()
        new = client.get(f"/games/{answer['id']}").json()
        assert old["rematch"] == answer["id"] and new["rematch_of"] == previous
        assert new["status"] == "active" and new["options"] == old["options"]
        assert new["players"] == 4 and new["seed_commitment"] != old["seed_commitment"]
        assert new["seats"] == [
            {"seat": 0, "type": "creator", "name": "Ada", "bot": None},
            {"seat": 1, "type": "joined", "name": "Grace", "bot": None},
            {"seat": 2, "type": "bot", "name": None, "bot": "random"},
            {"seat": 3, "type": "creator", "name": None, "bot": None},
        ]
        for seat, token in tokens.items():
            view = client.get(f"/games/{answer['id']}/view", headers=bearer(token)).json()
            assert view["seat"] == seat
        events = client.get(f"/games/{answer['id']}/events").json()["events"]
        claimed = sorted(e["seat"] for e in events if e["type"] in ("seat_claimed",))
        assert claimed == [0, 1, 3]
        assert events[0]["rematch_of"] == previous
    assert len(chain) == 3
    third = client.get(f"/games/{chain[2]}").json()
    assert third["rematch_of"] == chain[1] and third["rematch"] is None


def test_exports_carry_seat_events_and_import_and_verify(
    client: TestClient[Litestar], tmp_path: Path
) -> None:
    created = create(client, {"game": "spies-and-lies", "seats": SEATED})
    game_id = created["id"]
    joined = client.post(f"/games/{game_id}/join", json={"name": "Grace"}).json()
    play_out_with_bots(client, game_id, {0: created["seats"][0]["token"], 1: joined["token"]})
    export = client.get(f"/games/{game_id}/export")
    lines = [msgspec.json.decode(line) for line in export.content.splitlines()]
    types = [line["type"] for line in lines[1:]]
    assert types.count("seat_joined") == 1 and types.count("seat_handed_to_bot") == 2
    bot_lines = [line for line in lines[1:] if line.get("bot")]
    assert bot_lines and all(line["bot"] == "random@2" and line["command"] for line in bot_lines)
    assert created["seats"][0]["token"] not in export.text and joined["token"] not in export.text
    with SQLiteEventStore(tmp_path / "other.db") as other:
        report = import_game(other, io.BytesIO(export.content))
        assert report.ok
        assert [s.name for s in other.seat_states(game_id)] == ["Ada", "Grace"]
        assert all(r.ok for r in verify_all(other))


def test_seats_of_a_finished_game_do_not_change(client: TestClient[Litestar]) -> None:
    created = create(
        client,
        {
            "game": "spies-and-lies",
            "seats": [{"type": "creator"}, {"type": "bot", "bot": "random"}],
        },
    )
    game_id, token = created["id"], created["seats"][0]["token"]
    play_out_with_bots(client, game_id, {0: token})
    version = client.get(f"/games/{game_id}").json()["version"]
    url = f"/games/{game_id}/seats/0/bot"
    assert_problem(client.delete(url, headers=bearer(token)), 422, "game-over")
    assert_problem(
        client.post(url, json={"bot": "random"}, headers=bearer(token)), 422, "game-over"
    )
    assert client.get(f"/games/{game_id}").json()["version"] == version
