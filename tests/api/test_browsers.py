"""Browsers on other origins: CORS as the operator sets it, and a seat's stream opened with a
single-use ticket (``EventSource`` cannot send ``Authorization``; a token never goes in a URL).
"""

from __future__ import annotations

import dataclasses
import random
import threading
from collections import Counter
from typing import Any

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings, create_app
from spies_api.app import Runtime
from spies_api.schemas import AnyStreamMessage, StreamState
from spies_api.service.tickets import StreamTickets
from spies_api.settings import SettingsError, settings_from
from tests.support.api import assert_problem, new_game, parse_sse, play_to_end, play_turn
from tests.support.waiting import until

FRONT = "https://front.example"


def encode(value: Any) -> str:
    return msgspec.json.encode(value).decode()


@pytest.fixture
def cors_client(settings: Settings) -> Any:
    app = create_app(dataclasses.replace(settings, cors_origins=(FRONT,)))
    with TestClient(app=app) as client:
        yield client


# -- CORS --------------------------------------------------------------------------------------


def test_no_origin_is_allowed_by_default(client: TestClient[Litestar]) -> None:
    game = new_game(client)
    response = client.get(game.url("/view"), headers={"Origin": FRONT})
    assert response.status_code == 200
    assert "access-control-allow-origin" not in response.headers


def test_a_listed_origin_may_call_the_api_and_read_its_headers(cors_client: Any) -> None:
    preflight = cors_client.options(
        "/games",
        headers={
            "Origin": FRONT,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
        },
    )
    assert preflight.status_code == 204, preflight.text
    assert preflight.headers["access-control-allow-origin"] == FRONT
    allowed = preflight.headers["access-control-allow-headers"].lower()
    assert {"authorization", "content-type", "idempotency-key"} <= {
        h.strip() for h in allowed.split(",")
    }
    assert "POST" in preflight.headers["access-control-allow-methods"]

    created = cors_client.post("/games", json={"game": "deck-of-spies"}, headers={"Origin": FRONT})
    assert created.status_code == 201
    assert created.headers["access-control-allow-origin"] == FRONT
    exposed = {
        h.strip().lower() for h in created.headers["access-control-expose-headers"].split(",")
    }
    assert {"etag", "retry-after", "location", "idempotent-replayed"} <= exposed


def test_an_unlisted_origin_is_not_allowed(cors_client: Any) -> None:
    response = cors_client.get("/games", headers={"Origin": "https://evil.example"})
    assert response.status_code == 200
    assert "access-control-allow-origin" not in response.headers


def test_cors_keeps_the_kept_answers_vary(cors_client: Any) -> None:
    """Litestar's CORS layer sets ``Vary: Origin`` over the app's ``Vary: Accept-Encoding``;
    both must reach the client, or a cache hands a gzip body to a client that cannot read it."""
    response = cors_client.get(
        "/schema/openapi.json", headers={"Origin": FRONT, "Accept-Encoding": "gzip"}
    )
    assert response.status_code == 200
    vary = {v.strip().lower() for v in response.headers["vary"].split(",")}
    assert {"origin", "accept-encoding"} <= vary
    assert "x-spies-kept-vary" not in response.headers


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", ()),
        (
            "https://A.example, http://localhost:5173",
            ("https://a.example", "http://localhost:5173"),
        ),
        ("*", ("*",)),
    ],
)
def test_cors_origins_are_read_from_the_option(text: str, expected: tuple[str, ...]) -> None:
    assert settings_from({"cors_origins": text}, {}).cors_origins == expected
    assert settings_from({}, {"SPIES_CORS_ORIGINS": text}).cors_origins == expected


@pytest.mark.parametrize("text", ["https://a.example/", "a.example", "ftp://a", "*, https://a.b"])
def test_a_bad_origin_is_refused(text: str) -> None:
    with pytest.raises(SettingsError, match="--cors-origins"):
        settings_from({"cors_origins": text}, {})


# -- stream tickets ----------------------------------------------------------------------------


def ticket_of(client: Any, game_id: str, seat: int, headers: dict[str, str]) -> str:
    response = client.post(f"/games/{game_id}/seats/{seat}/stream-ticket", headers=headers)
    assert response.status_code == 200, response.text
    body = response.json()
    assert set(body) == {"ticket", "expires_at"}
    return str(body["ticket"])


def test_a_ticket_opens_the_seats_own_stream(
    client: TestClient[Litestar], runtime: Runtime
) -> None:
    game = new_game(client, "black-spy", 3)
    seat_log = client.get(game.url("/events"), headers=game.seats[0]).json()["events"]
    assert seat_log != client.get(game.url("/events")).json()["events"]  # seat 0's own hand
    ticket = ticket_of(client, game.id, 0, game.seats[0])
    states = runtime.stream_states
    rng = random.Random(4)

    def play() -> None:
        # the stream computes its snapshot in its first read of the log: play after it
        until(lambda: states.computed > 0, what="the stream's first read of the log")
        play_turn(client, game, rng)
        play_to_end(client, game, rng)

    player = threading.Thread(target=play)
    player.start()
    try:
        response = client.get(game.url("/events/stream"), params={"ticket": ticket})
    finally:
        player.join()
    assert response.status_code == 200
    messages = parse_sse(response.text)
    assert messages[0]["event"] == "snapshot" and messages[0]["data"]["seat"] == 0
    kinds: Counter[str] = Counter()
    for message in messages:  # each message is its kind's schema of the document
        if "comment" in message:
            continue
        wire = {**message, "data": encode(message["data"])}  # text, as SSE sends it
        if "id" in message:
            wire = {"event": "message", "id": str(message["id"]), "data": wire["data"]}
        else:  # its data holds the reader's state
            msgspec.json.decode(wire["data"], type=StreamState)
        kinds[type(msgspec.convert(wire, AnyStreamMessage)).__name__] += 1
    assert kinds["SnapshotMessage"] == 1 and kinds["StateMessage"] >= 2
    assert kinds["StreamMessage"] == len([m for m in messages if "id" in m])
    sent = [m["data"] for m in messages if "id" in m]
    assert sent[: len(seat_log)] == seat_log


def test_a_ticket_opens_one_stream_once(client: TestClient[Litestar]) -> None:
    game = new_game(client, "spies-and-lies", 2)
    play_to_end(client, game)
    ticket = ticket_of(client, game.id, 1, game.seats[1])
    first = client.get(game.url("/events/stream"), params={"ticket": ticket})
    assert first.status_code == 200
    again = client.get(game.url("/events/stream"), params={"ticket": ticket})
    assert_problem(again, 401, "invalid-stream-ticket")


def test_an_unknown_ticket_or_one_of_another_game_is_401_never_the_spectator_stream(
    client: TestClient[Litestar],
) -> None:
    game = new_game(client, "spies-and-lies", 2)
    other = new_game(client, "spies-and-lies", 2)
    unknown = client.get(game.url("/events/stream"), params={"ticket": "not-a-ticket"})
    assert_problem(unknown, 401, "invalid-stream-ticket")
    theirs = ticket_of(client, other.id, 0, other.seats[0])
    assert_problem(
        client.get(game.url("/events/stream"), params={"ticket": theirs}),
        401,
        "invalid-stream-ticket",
    )


def test_an_expired_ticket_opens_nothing() -> None:
    now = [0.0]
    tickets = StreamTickets(10, seconds=30.0, monotonic=lambda: now[0])
    kept = tickets.issue("g", 0)
    late = tickets.issue("g", 0)
    assert tickets.redeem("g", kept.ticket) == 0
    now[0] = 30.0
    with pytest.raises(Exception, match="unknown, used or expired") as raised:
        tickets.redeem("g", late.ticket)
    assert getattr(raised.value, "code", None) == "invalid-stream-ticket"


def test_tickets_held_are_bounded_per_seat_and_in_all() -> None:
    tickets = StreamTickets(5, monotonic=lambda: 0.0)
    first = [tickets.issue("g", 0) for _ in range(9)]
    assert len(tickets) == 5  # the process's cap
    with pytest.raises(Exception, match="unknown"):
        tickets.redeem("g", first[0].ticket)  # the oldest dropped
    assert tickets.redeem("g", first[-1].ticket) == 0
    many = StreamTickets(1000, monotonic=lambda: 0.0)
    issued = [many.issue("g", 1) for _ in range(20)]
    assert len(many) == 8  # a seat's own cap: its newest kept
    assert many.redeem("g", issued[-1].ticket) == 1


def test_a_ticket_needs_that_seats_token(client: TestClient[Litestar]) -> None:
    game = new_game(client, "spies-and-lies", 2)
    path = game.url("/seats/1/stream-ticket")
    assert_problem(client.post(path), 401, "unauthorized")
    assert_problem(client.post(path, headers=game.seats[0]), 403, "not-your-seat")


def test_a_token_in_the_url_is_refused(client: TestClient[Litestar]) -> None:
    game = new_game(client, "spies-and-lies", 2)
    response = client.get(game.url("/events/stream"), params={"token": game.tokens[0]})
    problem = assert_problem(response, 400, "token-in-url")
    assert game.tokens[0] not in response.text
    assert "Authorization" in problem["detail"]


def test_a_ticket_and_a_bearer_token_together_are_400(client: TestClient[Litestar]) -> None:
    game = new_game(client, "spies-and-lies", 2)
    ticket = ticket_of(client, game.id, 0, game.seats[0])
    response = client.get(
        game.url("/events/stream"), params={"ticket": ticket}, headers=game.seats[0]
    )
    assert_problem(response, 400, "invalid-parameter")


def test_the_runtime_bounds_its_tickets_by_its_streams(runtime: Runtime) -> None:
    assert runtime.tickets.capacity == runtime.settings.max_streams


def test_a_preflight_from_an_unlisted_origin_is_answered_as_without_cors(cors_client: Any) -> None:
    """No ``Access-Control-*`` (the browser refuses), and never a plain-text 400."""
    preflight = cors_client.options(
        "/games",
        headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"},
    )
    assert preflight.status_code == 204, preflight.text
    assert not any(name.startswith("access-control-") for name in preflight.headers)
