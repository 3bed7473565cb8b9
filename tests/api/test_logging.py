"""One JSON log line per command; never a token, a seed or a hidden card."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
import structlog
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings, create_app
from spies_api.logging import configure_logging
from spies_core.registry import GAMES
from tests.support.api import new_game, play_to_end

CARD = re.compile(r"\b(10|[2-9AJQK])[CDHS]\b|\b(blue|yellow|red|green|black)-\d+\b")
COMMAND_FIELDS = {"game_id", "game", "seat", "command", "version", "outcome", "code", "duration_ms"}


@pytest.fixture
def log_output(tmp_path: Path) -> Iterator[tuple[TestClient[Litestar], io.StringIO]]:
    buffer = io.StringIO()
    configure_logging(json=True, stream=buffer)
    app = create_app(Settings(db_path=tmp_path / "logs.db", configure_logging=False))
    try:
        with TestClient(app=app) as client:
            yield client, buffer
    finally:
        structlog.reset_defaults()


def lines(buffer: io.StringIO) -> list[dict[str, Any]]:
    return [msgspec.json.decode(line) for line in buffer.getvalue().splitlines() if line.strip()]


def test_each_command_logs_one_line_and_no_secret(
    log_output: tuple[TestClient[Litestar], io.StringIO],
) -> None:
    client, buffer = log_output
    secrets: list[str] = []
    commands = 0
    original_post = client.post

    def counting_post(url: str, **kwargs: Any) -> Any:
        nonlocal commands
        if url.endswith("/commands"):
            commands += 1
        return original_post(url, **kwargs)

    client.post = counting_post  # type: ignore[method-assign]
    for name, spec in GAMES.items():
        seed = f"log-seed-{name}"
        game = new_game(client, name, spec.min_players, seed=seed)
        secrets += [seed, *game.tokens]
        play_to_end(client, game, random.Random(1))
        last = client.get(game.url("/events"), params={"after": 0, "limit": 10**6}).json()
        secrets.append(last["events"][-1]["seed"])  # the revealed seed, hex
        # after the end: game-over (Spies & Lies), or another game's command
        client.post(
            game.url("/commands"),
            headers=game.seats[0],
            json={"command": {"type": "deceive"}, "expected_version": 0},
        )

    text = buffer.getvalue()
    for secret in secrets:
        assert secret not in text
    assert "Bearer" not in text and "authorization" not in text.lower()
    assert CARD.search(text) is None, CARD.search(text)

    records = lines(buffer)
    per_command = [r for r in records if r["event"] in {"command_handled", "command_rejected"}]
    assert len(per_command) == commands
    for record in per_command:
        assert set(record) >= COMMAND_FIELDS, record
        assert record["level"] == "info" and isinstance(record["duration_ms"], float)
        if record["event"] == "command_handled":
            assert record["outcome"] == "accepted" and record["code"] == "ok"
        else:
            assert record["outcome"] == "rejected" and record["code"] != "ok"
    refused = {r["code"] for r in per_command if r["event"] == "command_rejected"}
    assert refused == {"game-over", "wrong-game-command"}
    assert not [r for r in records if r["level"] == "error"]


def test_a_refused_command_is_logged_with_its_code(
    log_output: tuple[TestClient[Litestar], io.StringIO],
) -> None:
    client, buffer = log_output
    game = new_game(client, "black-spy", 3, seed="refusals")
    client.post(
        game.url("/commands"),
        headers=game.seats[0],
        json={"command": {"type": "pass_cards", "cards": ["red-1"]}, "expected_version": 99},
    )
    client.post(
        game.url("/commands"),
        headers=game.seats[0],
        json={"command": {"type": "pass_cards", "cards": ["red-1"]}},
    )
    client.post(
        game.url("/commands"), headers=game.seats[0], json={"command": {"type": "guess", "rank": 1}}
    )
    rejected = [r for r in lines(buffer) if r["event"] == "command_rejected"]
    assert [r["code"] for r in rejected] == [
        "version-conflict",
        rejected[1]["code"],
        "wrong-game-command",
    ]
    assert rejected[1]["code"] not in {"ok", "version-conflict"}
    assert all(r["game"] == "black-spy" and r["seat"] == 0 for r in rejected)
    assert "red-1" not in buffer.getvalue()


def test_an_unexpected_error_is_logged_without_locals_and_answered_as_a_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    buffer = io.StringIO()
    configure_logging(json=True, stream=buffer)
    app = create_app(Settings(db_path=tmp_path / "boom.db", configure_logging=False))
    try:
        with TestClient(app=app) as client:
            game = new_game(client, "deck-of-spies", seed="boom")

            def explode(*args: Any, **kwargs: Any) -> Any:
                secret_local = game.tokens[0]  # noqa: F841  (must not reach the log)
                raise RuntimeError("the database is on fire")

            monkeypatch.setattr("spies_api.service.queries.GameQueries.view", explode)
            response = client.get(game.url("/view"), headers=game.seats[0])
    finally:
        structlog.reset_defaults()
    assert response.status_code == 500
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["code"] == "internal-error" and "fire" not in body["detail"]
    failed = [r for r in lines(buffer) if r["event"] == "request_failed"]
    assert len(failed) == 1 and failed[0]["level"] == "error"
    assert game.tokens[0] not in buffer.getvalue()
