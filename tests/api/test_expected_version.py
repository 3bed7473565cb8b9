"""``expected_version`` does not make clients fight other seats; ``expected_game_version`` does.

A client sends back, as ``expected_version``, the ``version`` it got from ``/legal``. The
command is applied while the seat's legal commands are still those of that version: another
seat's move in a phase where several seats act at once (Black Spy's passing, Spies & Lies'
deployment and intel), a hand-over or a join does not refuse it. A command of the seat itself
since that version does, and so does a move that changed the seat's own legal commands (409
``version-conflict``), so a request sent again is never applied twice;
``expected_game_version`` keeps the strict whole-game check.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from tests.support.api import assert_problem, bearer, create, wait_for


def _summary(client: TestClient[Litestar], game_id: str) -> dict[str, Any]:
    summary: dict[str, Any] = client.get(f"/games/{game_id}").json()
    return summary


def test_a_pass_chosen_before_the_bots_passed_and_a_hand_over_is_still_applied(
    client: TestClient[Litestar],
) -> None:
    created = create(client, {"game": "black-spy", "players": 4, "seed": "stale-pass"})
    game_id = created["id"]
    seats = [bearer(seat["token"]) for seat in created["seats"]]
    legal = client.get(f"/games/{game_id}/legal", headers=seats[0]).json()
    assert legal["commands"][0]["type"] == "pass_cards"
    chosen = legal["version"]
    # three seats are handed to bots (a seat event each), and the bots pass meanwhile
    for seat in (1, 2, 3):
        handed = client.post(
            f"/games/{game_id}/seats/{seat}/bot", headers=seats[seat], json={"bot": "random"}
        )
        assert handed.status_code == 200, handed.text
    wait_for(lambda: _summary(client, game_id)["to_act"] == [0], "the bots to pass")
    moved = _summary(client, game_id)["version"]
    assert moved >= chosen + 6  # three hand-overs and three passes

    url = f"/games/{game_id}/commands"
    command = legal["commands"][0]
    strict = client.post(
        url, headers=seats[0], json={"command": command, "expected_game_version": chosen}
    )
    assert_problem(strict, 409, "version-conflict")
    assert strict.json()["current_version"] == moved and strict.json()["expected_version"] == chosen

    applied = client.post(
        url, headers=seats[0], json={"command": command, "expected_version": chosen}
    )
    assert applied.status_code == 200, applied.text
    assert applied.json()["version"] > moved

    # the seat has acted since: the same request, sent again, is refused
    again = client.post(
        url, headers=seats[0], json={"command": command, "expected_version": chosen}
    )
    assert_problem(again, 409, "version-conflict")
    assert f"seat 0 has acted since version {chosen}" in again.json()["detail"]


def test_racing_passes_at_one_version_one_per_seat_is_accepted(
    client: TestClient[Litestar],
) -> None:
    created = create(client, {"game": "black-spy", "players": 6, "seed": "racing-passes"})
    game_id = created["id"]
    seats = [bearer(seat["token"]) for seat in created["seats"]]
    legal = [client.get(f"/games/{game_id}/legal", headers=seats[s]).json() for s in range(6)]
    url = f"/games/{game_id}/commands"
    accepted: dict[int, int] = {}
    for index in range(12):  # two different passes per seat, all chosen at one version
        seat = index % 6
        command = legal[seat]["commands"][index // 6]
        body = {"command": command, "expected_version": legal[seat]["version"]}
        response = client.post(url, headers=seats[seat], json=body)
        if response.status_code == 200:
            accepted[seat] = accepted.get(seat, 0) + 1
        else:
            assert_problem(response, 409, "version-conflict")
    assert accepted == dict.fromkeys(range(6), 1)


@pytest.mark.parametrize(
    ("game", "players"), [("black-spy", 4), ("spies-and-lies", 2)], ids=["black-spy", "s-and-l"]
)
def test_a_client_sending_expected_version_while_bots_move_is_never_refused(
    client: TestClient[Litestar], game: str, players: int
) -> None:
    """Seat 0 plays a whole game against bots that move in the same phases; it always sends
    the version of its last ``/legal`` and only acts when it is to act, so no move of its own
    made that version stale: every command is applied, none is 409.

    Its first ``/legal`` is read before the other seats are handed to their bots (seat
    events, and bots that start moving at once), so at least its first command is stale
    whatever the timing; any later one is when a bot moved between the read and the send."""
    created = create(client, {"game": game, "players": players})
    game_id = created["id"]
    seats = [bearer(seat["token"]) for seat in created["seats"]]
    me = seats[0]
    first = client.get(f"/games/{game_id}/legal", headers=me).json()
    assert first["commands"], first  # every game starts with a phase where all seats act
    for seat in range(1, players):
        handed = client.post(
            f"/games/{game_id}/seats/{seat}/bot", headers=seats[seat], json={"bot": "random"}
        )
        assert handed.status_code == 200, handed.text
    rng = random.Random(11)
    applied = stale = 0
    legal: dict[str, Any] | None = first
    for _ in range(50_000):
        if legal is None:
            if _summary(client, game_id)["status"] == "finished":
                break
            legal = client.get(f"/games/{game_id}/legal", headers=me).json()
        if not legal["commands"]:
            legal = None
            continue  # not seat 0's turn: the bots are thinking
        body = {"command": rng.choice(legal["commands"]), "expected_version": legal["version"]}
        answer = client.post(f"/games/{game_id}/commands", headers=me, json=body)
        assert answer.status_code == 200, answer.text
        applied += 1
        stale += answer.json()["events"][0]["seq"] > legal["version"] + 1
        legal = None
    else:
        raise AssertionError("the game did not end")
    assert applied > 1
    # the first command at least was chosen at a version other seats' events made stale
    # (it, and each like it, would have been a 409 with the strict check)
    assert stale >= 1


@pytest.mark.parametrize(
    ("entries", "text"),
    [(1, "seats lists 1 entry, but the game has 2 seats"), (3, "seats lists 3 entries")],
)
def test_a_wrong_number_of_seats_is_counted_in_words(
    client: TestClient[Litestar], entries: int, text: str
) -> None:
    response = client.post(
        "/games", json={"game": "spies-and-lies", "seats": [{"type": "open"}] * entries}
    )
    assert_problem(response, 422, "invalid-seats")
    assert text in response.json()["detail"]


@pytest.mark.parametrize(
    ("game", "players"), [("black-spy", 4), ("spies-and-lies", 2)], ids=["black-spy", "s-and-l"]
)
def test_no_earlier_request_is_applied_twice_in_a_whole_game(
    client: TestClient[Litestar], game: str, players: int
) -> None:
    """Every seat is played by this client, one command at a time, each sent with the
    ``expected_version`` of its ``/legal``. Before each new command, the acting seat's every
    earlier request whose command it may send now (the only ones the rules would take) is
    sent again as it was: each is 409 ``version-conflict``, as the seat has acted since its
    version, so nothing is applied twice. Once the game is over, every request is sent again
    and refused."""
    created = create(client, {"game": game, "players": players, "seed": f"resend-{game}"})
    game_id = created["id"]
    seats = [bearer(seat["token"]) for seat in created["seats"]]
    url = f"/games/{game_id}/commands"
    rng = random.Random(27)
    sent: list[tuple[int, dict[str, Any]]] = []
    resent = 0
    while (summary := _summary(client, game_id))["status"] != "finished":
        seat = rng.choice(summary["to_act"])
        legal = client.get(f"/games/{game_id}/legal", headers=seats[seat]).json()
        for earlier_seat, body in sent:
            if earlier_seat == seat and body["command"] in legal["commands"]:
                again = client.post(url, headers=seats[seat], json=body)
                assert_problem(again, 409, "version-conflict")
                assert again.json()["current_version"] == legal["version"]
                resent += 1
        body = {"command": rng.choice(legal["commands"]), "expected_version": legal["version"]}
        applied = client.post(url, headers=seats[seat], json=body)
        assert applied.status_code == 200, applied.text
        sent.append((seat, body))
    assert resent > len(sent) // 4  # the seats met the same legal commands again, often
    version = summary["version"]
    for seat, body in sent:
        assert_problem(client.post(url, headers=seats[seat], json=body), 422, "game-over")
    assert _summary(client, game_id)["version"] == version
