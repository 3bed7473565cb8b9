"""No input ever causes a 500: odd bodies, values, headers, parameters and paths.

Every response also goes through the ``client`` fixture's check against the OpenAPI
document, so each status seen here is a documented one.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api.app import Runtime
from spies_core.registry import GAMES
from tests.support.api import game_cases, new_game, play_turn

ODD_VALUES: list[Any] = [
    None,
    True,
    -1,
    0,
    2**31,
    2**63 - 1,
    2**63,
    2**64,
    -(2**63) - 1,
    10**40,
    -1.5,
    1e308,
    "",
    "x" * 2000,
    "\u0000",
    "🂡",
    [],
    [None],
    [[[]]],
    {},
    {"type": "counter"},
    ["AS"] * 500,
    list(range(500)),
    "AS",
    "red-1",
]


@pytest.mark.parametrize(("name", "players"), game_cases())
def test_probe_commands_with_odd_values_never_fail_the_server(
    client: TestClient[Litestar], runtime: Runtime, name: str, players: int
) -> None:
    spec = GAMES[name]
    game = new_game(client, name, players, seed=f"odd-{name}")
    rng = random.Random(players)
    service = runtime
    for _ in range(8):
        summary = client.get(game.url()).json()
        if summary["status"] != "active":
            break
        state = service.states.current(game.id)[1].state
        probes = list(spec.probe_commands(state, rng.randrange(players)))
        for probe in rng.sample(probes, min(4, len(probes))):
            body = msgspec.to_builtins(probe)
            variants = [body] + [
                {**body, key: rng.choice(ODD_VALUES)} for key in body if key != "type"
            ]
            for variant in variants:
                seat = rng.randrange(players)
                response = client.post(
                    game.url("/commands"), headers=game.seats[seat], json={"command": variant}
                )
                assert response.status_code in {200, 400, 409, 422}, response.text
        if client.get(game.url()).json()["status"] == "active":
            play_turn(client, game, rng)


@pytest.mark.parametrize(
    "content",
    [
        b"{}",
        b"0",
        b'"x"',
        b"true",
        b'{"command": 1e999}',
        b'{"command": {"type": "counter", "cards": ["AS"]}, "expected_version": 1e3}',
        b'{"command": {"type": "counter", "cards": ["AS"]}, "expected_version": null}',
        b'{"command": {"type": "counter", "cards": ["AS"]},'
        b' "expected_version": -99999999999999999999}',
        b'{"command": {"type": "counter", "cards": ["\\ud800"]}}',
        b'{"command": {"type": "counter", "cards": ["AS"], "type": "recruit"}}',
        b'{"command": {"cards": ["AS"]}}',
        b'{"command": {"type": 5}}',
        b'{"command": {"type": null}}',
        b"\xef\xbb\xbf{}",
        b"\x00\x00\x00",
        b'{"command": {"type": "counter", "cards": ["AS"]}}' + b" " * 10,
        b'{"a":' * 2000 + b"1" + b"}" * 2000,
    ],
)
def test_odd_command_bodies_are_client_errors(client: TestClient[Litestar], content: bytes) -> None:
    game = new_game(client)
    response = client.post(
        game.url("/commands"),
        headers={**game.seats[0], "content-type": "application/json"},
        content=content,
    )
    assert 400 <= response.status_code < 500, response.text


@pytest.mark.parametrize(
    "headers",
    [
        {"content-type": "text/plain"},
        {"content-type": "multipart/form-data; boundary=x"},
        {"content-type": "application/x-www-form-urlencoded"},
        {"content-type": "application/json; charset=latin-1"},
        {"content-type": ""},
        {"Idempotency-Key": "\u00ff\u00fe"},
        {"Idempotency-Key": " "},
        {"Last-Event-ID": "5"},
        {"Accept": "text/html"},
        {"Authorization": "Bearer a\u00ffb"},
    ],
)
def test_odd_headers_are_not_server_errors(
    client: TestClient[Litestar], headers: dict[str, str]
) -> None:
    game = new_game(client)
    legal = client.get(game.url("/legal"), headers=game.seats[0]).json()
    body = msgspec.json.encode({"command": legal["commands"][0]})
    encoded = {key: value.encode("latin-1") for key, value in headers.items()}
    auth = {} if "Authorization" in headers else game.seats[0]
    response = client.post(game.url("/commands"), headers={**auth, **encoded}, content=body)
    assert response.status_code < 500, response.text
    response = client.post(
        "/games", headers=encoded, content=b'{"game": "black-spy", "players": 3}'
    )
    assert response.status_code < 500, response.text


@pytest.mark.parametrize(
    "query",
    [
        "after=-1",
        "after=1e3",
        "after=0x10",
        "after=99999999999999999999999",
        "after=",
        "after=1&after=2",
        "limit=-5",
        "limit=0",
        "limit=nan",
        "offset=-1",
        "status=ACTIVE",
        "game=%00",
        "game=" + "x" * 3000,
        "%ff=%fe",
    ],
)
def test_odd_query_parameters_are_not_server_errors(
    client: TestClient[Litestar], query: str
) -> None:
    game = new_game(client)
    for path in ("/games", game.url("/events"), game.url("/view")):
        response = client.get(f"{path}?{query}")
        assert response.status_code < 500, (path, query, response.text)


@pytest.mark.parametrize(
    "path",
    [
        "/games/%00/view",
        "/games/%FF%FE/events",
        "/games/" + "x" * 5000,
        "/games/a/b/c/d",
        "/games//view",
        "/games/x/replay/-0",
        "/games/x/replay/0x1",
        "/games/x/replay/" + "9" * 400,
        "/games/%2e%2e/export",
        "/%",
    ],
)
def test_odd_paths_are_not_server_errors(client: TestClient[Litestar], path: str) -> None:
    for method in ("GET", "POST", "PATCH"):
        response = client.request(method, path, content=b"{}")
        assert response.status_code < 500, (method, path, response.text)
