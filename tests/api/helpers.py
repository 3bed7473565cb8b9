"""Helpers of the API tests: create games and play them through the API."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_core.registry import GAMES


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
