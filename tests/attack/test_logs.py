"""Logs: the log lines of full games of every game hold no token, seed or hidden card.

``tests/api/test_logging.py`` checks the shape of the lines (one per command, their fields).
Here every registered game is played to its end at its smallest and largest seat count (and
once more from an explicit ``options.deal``), with refused commands, bad tokens and idempotent
retries on the way, and everything that was logged (structlog, captured in the process; and
the stderr of a real ``spies-api`` process) is searched for:

- every seat token, the ``Authorization`` header and the word ``Bearer``;
- the seed, as the client's string and as the revealed hex;
- every card (any string that looks like a card of any game) and every value of every
  command body (the cards passed, played, deployed, ...), and the explicit deals.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
import structlog
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings, create_app
from spies_api.logging import configure_logging
from spies_core.registry import GAMES
from tests.support.api import game_cases
from tests.support.servers import ServerProcess

from .figures import record

GUARANTEE = "logs"
CARD = re.compile(r"\b(10|[2-9AJQK])[CDHS]\b|\b(blue|yellow|red|green|black)-\d+\b")


class Secrets:
    """Everything that must never reach a log line."""

    def __init__(self) -> None:
        self.texts: set[str] = set()
        self.commands = 0

    def add_game(self, created: dict[str, Any], seed: str | None) -> None:
        self.texts.update(seat["token"] for seat in created["seats"])
        if seed:
            self.texts.add(seed)

    def add_command(self, command: dict[str, Any]) -> None:
        self.commands += 1
        for name, value in command.items():
            if name == "type" or isinstance(value, bool) or value is None:
                continue
            if isinstance(value, str) and value:
                self.texts.add(f'"{value}"' if len(value) < 4 else value)
            elif isinstance(value, list) and len(value) >= 2:
                self.texts.add(msgspec.json.encode(value).decode())

    def check(self, text: str) -> None:
        assert text.strip(), "nothing was logged"
        for secret in self.texts:
            assert secret not in text, f"a secret reached the log: {secret[:40]}"
        lowered = text.lower()
        assert "bearer" not in lowered and "authorization" not in lowered
        found = CARD.search(text)
        assert found is None, f"a card reached the log: {found.group(0)}"


def play_everything(
    post: Any,
    get: Any,
    secrets: Secrets,
    name: str,
    players: int,
    options: dict[str, Any] | None,
    rng: random.Random,
) -> None:
    """One full game with refusals, bad tokens and retries on the way."""
    seed = f"log-secret-{name}-{players}-{rng.randrange(10**6)}"
    body: dict[str, Any] = {"game": name, "players": players, "seed": seed}
    if options is not None:
        body["options"] = options
    created = post("/games", body, None).json()
    secrets.add_game(created, seed)
    game_id = created["id"]
    auth = [{"Authorization": f"Bearer {seat['token']}"} for seat in created["seats"]]
    for turn in range(GAMES[name].max_events):
        summary = get(f"/games/{game_id}", None)
        if summary["status"] != "active":
            break
        seat = rng.choice(summary["to_act"])
        legal = get(f"/games/{game_id}/legal", auth[seat])
        command = rng.choice(legal["commands"])
        secrets.add_command(command)
        if turn % 17 == 0:  # refused: a stale version, a forged token, another seat
            post(
                f"/games/{game_id}/commands",
                {"command": command, "expected_version": 0},
                auth[seat],
            )
            forged = {"Authorization": f"Bearer {created['seats'][seat]['token'][:-2]}xy"}
            post(f"/games/{game_id}/commands", {"command": command}, forged)
            idle = [other for other in range(players) if other not in summary["to_act"]]
            if idle:
                post(f"/games/{game_id}/commands", {"command": command}, auth[idle[0]])
        headers = {**auth[seat], "Idempotency-Key": f"log-{turn}"}
        response = post(
            f"/games/{game_id}/commands",
            {"command": command, "expected_version": legal["version"]},
            headers,
        )
        assert response.status_code == 200, response.text
        if turn % 23 == 0:  # a retry
            post(
                f"/games/{game_id}/commands",
                {"command": command, "expected_version": legal["version"]},
                headers,
            )
    events = get(f"/games/{game_id}/events", None)["events"]
    assert events[-1]["type"] == "seed_revealed"
    secrets.texts.add(events[-1]["seed"])
    if events[-1].get("deal") is not None:
        deal = events[-1]["deal"]
        for part in deal.values() if isinstance(deal, dict) else []:
            if isinstance(part, list) and len(part) >= 4:
                secrets.texts.add(msgspec.json.encode(part).decode())


@pytest.fixture
def captured(tmp_path: Path) -> Iterator[tuple[TestClient[Litestar], io.StringIO]]:
    buffer = io.StringIO()
    configure_logging(json=True, stream=buffer)
    app = create_app(Settings(db_path=tmp_path / "logs.db", configure_logging=False))
    try:
        with TestClient(app=app) as client:
            yield client, buffer
    finally:
        structlog.reset_defaults()


def test_full_games_of_every_game_log_no_secret(
    captured: tuple[TestClient[Litestar], io.StringIO],
) -> None:
    client, buffer = captured
    secrets = Secrets()
    rng = random.Random(3)

    def post(url: str, body: Any, headers: dict[str, str] | None) -> Any:
        return client.post(url, json=body, headers=headers)

    def get(url: str, headers: dict[str, str] | None) -> Any:
        return client.get(url, headers=headers).json()

    games = 0
    for param in game_cases():
        name, players = param.values
        play_everything(post, get, secrets, name, players, None, rng)
        games += 1
    for name, spec in GAMES.items():  # and from an explicit deal
        assert spec.twin_deals is not None, name
        deal = spec.twin_deals(spec.max_players, 0, rng).deal
        play_everything(post, get, secrets, name, spec.max_players, {"deal": deal}, rng)
        games += 1
    text = buffer.getvalue()
    secrets.check(text)
    lines = [msgspec.json.decode(line) for line in text.splitlines() if line.strip()]
    handled = [line for line in lines if line["event"] in {"command_handled", "command_rejected"}]
    assert len(handled) >= secrets.commands
    assert {"replayed", "accepted", "rejected"} <= {line["outcome"] for line in handled}
    record(
        GUARANTEE,
        "test_logs.py::test_full_games_of_every_game_log_no_secret",
        games=games,
        commands=secrets.commands,
        log_lines=len(lines),
        secrets_searched=len(secrets.texts),
    )


def test_a_real_server_process_logs_no_secret(tmp_path: Path, servers: list[ServerProcess]) -> None:
    log = tmp_path / "server.log"
    server = ServerProcess(tmp_path / "process.db", log)
    servers.append(server.start())
    secrets = Secrets()
    rng = random.Random(4)
    with httpx.Client(base_url=server.base, timeout=30) as http:

        def post(url: str, body: Any, headers: dict[str, str] | None) -> Any:
            return http.post(url, json=body, headers=headers)

        def get(url: str, headers: dict[str, str] | None) -> Any:
            return http.get(url, headers=headers).json()

        for name, spec in GAMES.items():
            play_everything(post, get, secrets, name, spec.min_players, None, rng)
        http.get("/games/nope/view", headers={"Authorization": "Bearer not-a-token"})
    server.stop()
    text = log.read_text()
    secrets.check(text)
    # the app's lines are JSON; uvicorn's own start and stop lines are plain text
    lines = [msgspec.json.decode(line) for line in text.splitlines() if line.startswith("{")]
    others = [line for line in text.splitlines() if line.strip() and not line.startswith("{")]
    assert all(line.startswith("INFO:") for line in others), others
    assert any(line["event"] == "command_handled" for line in lines)
    record(
        GUARANTEE,
        "test_logs.py::test_a_real_server_process_logs_no_secret",
        games=len(GAMES),
        commands=secrets.commands,
        log_lines=len(lines),
        secrets_searched=len(secrets.texts),
    )
