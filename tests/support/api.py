"""Helpers of the tests that go through the API: games created and played over HTTP (a
Litestar ``TestClient`` or an ``httpx.Client`` of a served app, which answer alike), the
problem documents, the event streams' messages, and a clock the test moves by hand."""

from __future__ import annotations

import random
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_core.registry import GAMES
from spies_replay.clocks import from_ms, to_ms

from .waiting import until


@dataclass
class Game:
    """A game created through the API, with each seat's Authorization header."""

    id: str
    game: str
    seats: dict[int, dict[str, str]]
    tokens: list[str]
    created: dict[str, Any] = field(default_factory=dict)

    def url(self, suffix: str = "") -> str:
        return f"/games/{self.id}{suffix}"


def new_game(
    client: TestClient[Litestar],
    game: str = "deck-of-spies",
    players: int | None = None,
    seed: str | None = "test-seed",
    options: dict[str, Any] | None = None,
) -> Game:
    body: dict[str, Any] = {"game": game}
    if players is not None:
        body["players"] = players
    if seed is not None:
        body["seed"] = seed
    if options is not None:
        body["options"] = options
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    tokens = [seat["token"] for seat in created["seats"]]
    return Game(
        id=created["id"],
        game=game,
        seats={seat: {"Authorization": f"Bearer {token}"} for seat, token in enumerate(tokens)},
        tokens=tokens,
        created=created,
    )


def play_turn(client: TestClient[Litestar], game: Game, rng: random.Random) -> dict[str, Any]:
    """One command chosen from ``legal`` for a seat in ``to_act``; returns its response."""
    summary = client.get(game.url()).json()
    assert summary["status"] == "active", summary
    seat = rng.choice(summary["to_act"])
    legal = client.get(game.url("/legal"), headers=game.seats[seat]).json()
    assert legal["seat"] == seat and legal["commands"], legal
    command = rng.choice(legal["commands"])
    response = client.post(
        game.url("/commands"),
        headers=game.seats[seat],
        json={"command": command, "expected_version": legal["version"]},
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def play_to_end(
    client: TestClient[Litestar], game: Game, rng: random.Random | None = None
) -> dict[str, Any]:
    """Play random legal commands until the game is over; return the final summary."""
    rng = rng or random.Random(0)
    for _ in range(GAMES[game.game].max_events):
        summary: dict[str, Any] = client.get(game.url()).json()
        if summary["status"] == "finished":
            return summary
        play_turn(client, game, rng)
    raise AssertionError(f"{game.game} did not end within max_events")


def game_cases() -> list[Any]:
    """Every registered game at its smallest and largest seat count."""
    return [
        pytest.param(name, players, id=f"{name}-{players}p")
        for name, spec in GAMES.items()
        for players in sorted({spec.min_players, spec.max_players})
    ]


# -- problems, creation and seats ---------------------------------------------------------


PROBLEM = "application/problem+json"


def assert_problem(response: Any, status: int, code: str) -> dict[str, Any]:
    """The response is an RFC 9457 problem with that status and code."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    body: dict[str, Any] = response.json()
    assert body["status"] == status and body["code"] == code, body
    assert body["type"] == f"urn:spies:problem:{code}"
    assert body["title"] and body["detail"]
    return body


def create(client: TestClient[Litestar], body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def wait_for(check: Callable[[], Any], what: str, timeout: float = 60.0) -> Any:
    """Poll until ``check()`` is truthy (bots play on the server, off the request path)."""
    return until(check, timeout=timeout, what=what)


def finished(client: TestClient[Litestar], game_id: str) -> dict[str, Any]:
    summary: dict[str, Any] = wait_for(
        lambda: (s := client.get(f"/games/{game_id}").json())["status"] == "finished" and s,
        f"game {game_id} to finish",
    )
    return summary


def play_out_with_bots(client: TestClient[Litestar], game_id: str, tokens: dict[int, str]) -> None:
    """Hand every held seat (``tokens``, by seat) to the random bot and wait for the end."""
    for seat, token in tokens.items():
        response = client.post(
            f"/games/{game_id}/seats/{seat}/bot", json={"bot": "random"}, headers=bearer(token)
        )
        assert response.status_code == 200, response.text
    finished(client, game_id)


# -- event streams -------------------------------------------------------------------------


def parse_sse(text: str) -> list[dict[str, Any]]:
    """The messages of an event stream: ``{"id", "data"}`` (an event), ``{"event", "data"}``
    (a ``snapshot`` or ``state``) or ``{"comment"}``."""
    messages: list[dict[str, Any]] = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        if not block.strip():
            continue
        message: dict[str, Any] = {}
        for line in block.split("\n"):
            if line.startswith(":"):
                message["comment"] = line[1:].strip()
            elif line.startswith("id: "):
                message["id"] = int(line[4:])
            elif line.startswith("event: "):
                message["event"] = line[7:]
            elif line.startswith("data: "):
                message["data"] = msgspec.json.decode(line[6:])
        messages.append(message)
    return messages


def messages(response: httpx.Response) -> Iterator[dict[str, Any]]:
    """Parse server-sent events as they arrive, as :func:`parse_sse` does."""
    message: dict[str, Any] = {}
    for line in response.iter_lines():
        if not line:
            if message:
                yield message
            message = {}
        elif line.startswith(":"):
            message["comment"] = line[1:].strip()
        elif line.startswith("id: "):
            message["id"] = int(line[4:])
        elif line.startswith("event: "):
            message["event"] = line[7:]
        elif line.startswith("data: "):
            message["data"] = msgspec.json.decode(line[6:])


def post_legal(http: httpx.Client, game: Game, seat: int = 0) -> dict[str, Any]:
    legal = http.get(game.url("/legal"), headers=game.seats[seat]).json()
    response = http.post(
        game.url("/commands"), headers=game.seats[seat], json={"command": legal["commands"][0]}
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def live_game(created: dict[str, Any]) -> Game:
    """A :class:`Game` of a creation answered over a real socket."""
    tokens = [seat["token"] for seat in created["seats"]]
    return Game(
        id=created["id"],
        game=created["game"],
        seats={seat: {"Authorization": f"Bearer {token}"} for seat, token in enumerate(tokens)},
        tokens=tokens,
        created=created,
    )


# -- clocks --------------------------------------------------------------------------------


START = "2026-12-01T12:00:00.000000Z"


class FakeClock:
    """The server's clock, moved on by the test; it counts who reads it."""

    def __init__(self) -> None:
        self.ms = to_ms(START)
        self.reads: Counter[int] = Counter()
        """How often each thread read the time (a server's scheduler reads it on each of
        its rounds, on the thread of the server's event loop)."""

    def __call__(self) -> str:
        self.reads[threading.get_ident()] += 1
        return from_ms(self.ms)

    def advance(self, seconds: float) -> None:
        self.ms += round(seconds * 1000)

    def looked_at(self, times: int, *, by: int = 1) -> None:
        """Wait until ``by`` threads have each read the time ``times`` more times from now
        (the schedulers of ``by`` servers have made as many rounds since)."""
        since = Counter(self.reads)

        def enough() -> bool:
            return sum(self.reads[t] - since[t] >= times for t in list(self.reads)) >= by

        until(enough, what=f"{by} readers to read the clock {times} times")


def events(client: TestClient[Litestar], game_id: str) -> list[dict[str, Any]]:
    page: list[dict[str, Any]] = client.get(f"/games/{game_id}/events").json()["events"]
    return page
