"""Bots at the table: the server plays bot seats off the request path.

A human plays a 4-player Black Spy game against three bots over HTTP; an all-bot game is
watched over the event stream; a failing, a slow and a stuck bot leave their own game
waiting (one error line, nothing appended) and never hold up another game.
"""

from __future__ import annotations

import functools
import random
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
import structlog
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings, create_app
from spies_api.table.bots import BotRunner
from spies_bots import bot_rng, policy_for
from spies_replay.cli.bots import REGISTERED_BOTS
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.transfer import import_game
from spies_replay.verify import verify_all
from tests.support.servers import serve_in_thread

from .test_seats import bearer, create, finished, wait_for

BOTS3 = [{"type": "bot", "bot": "random"}] * 3


def test_a_human_plays_black_spy_against_three_bots_over_http(
    client: TestClient[Litestar],
) -> None:
    created = create(
        client,
        {"game": "black-spy", "players": 4, "seats": [{"type": "creator", "name": "Me"}, *BOTS3]},
    )
    game_id, me = created["id"], bearer(created["seats"][0]["token"])
    rng = random.Random(7)
    my_commands = 0
    for _ in range(20_000):
        summary = client.get(f"/games/{game_id}").json()
        if summary["status"] == "finished":
            break
        if 0 not in summary["to_act"]:
            continue  # the bots are thinking: poll again
        legal = client.get(f"/games/{game_id}/legal", headers=me).json()
        if not legal["commands"]:
            continue
        body = {"command": rng.choice(legal["commands"]), "expected_version": legal["version"]}
        answer = client.post(f"/games/{game_id}/commands", headers=me, json=body)
        if answer.status_code == 409:  # a bot moved between our read and our command
            continue
        assert answer.status_code == 200, answer.text
        my_commands += 1
    else:
        raise AssertionError("the game did not end")
    assert my_commands > 0
    export = [
        msgspec.json.decode(line)
        for line in client.get(f"/games/{game_id}/export").content.splitlines()
    ]
    commands = [line for line in export[1:] if line["command"] is not None]
    assert {line["actor"] for line in commands} == {0, 1, 2, 3}
    for line in commands:
        assert line.get("bot") == (None if line["actor"] == 0 else "random@1"), line
    assert sum(1 for line in commands if line["actor"] == 0) == my_commands


def _messages(response: httpx.Response) -> Iterator[dict[str, Any]]:
    data: list[str] = []
    for line in response.iter_lines():
        if line.startswith("data:"):
            data.append(line[5:].strip())
        elif not line and data:
            yield msgspec.json.decode("\n".join(data))
            data = []


def test_an_all_bot_game_is_watched_over_the_stream_to_the_end(tmp_path: Path) -> None:
    options = Settings(db_path=tmp_path / "watch.db", log_json=True, sse_keepalive_seconds=1.0)
    with serve_in_thread(options) as (base, _):
        created = httpx.post(
            f"{base}/games",
            json={"game": "spies-and-lies", "seats": [{"type": "bot", "bot": "random"}] * 2},
        ).json()
        seen: list[dict[str, Any]] = []
        with httpx.stream("GET", f"{base}/games/{created['id']}/events/stream", timeout=60) as r:
            assert r.status_code == 200
            for message in _messages(r):
                seen.append(message)
                if message["type"] == "seed_revealed":
                    break
        assert seen[0]["type"] == "game_created" and seen[-1]["type"] == "seed_revealed"
        assert [m["seq"] for m in seen] == list(range(1, len(seen) + 1))
        summary = httpx.get(f"{base}/games/{created['id']}").json()
        assert summary["status"] == "finished" and summary["version"] == seen[-1]["seq"]
    with SQLiteEventStore(tmp_path / "watch.db") as store:
        assert all(report.ok for report in verify_all(store))


def test_bots_are_deterministic_per_game_seed(client: TestClient[Litestar]) -> None:
    body = {
        "game": "spies-and-lies",
        "seed": "same",
        "seats": [{"type": "bot", "bot": "random"}] * 2,
    }
    games = [create(client, body)["id"] for _ in range(2)]
    logs = []
    for game_id in games:
        finished(client, game_id)
        events = client.get(f"/games/{game_id}/events").json()["events"]
        logs.append(
            [{k: v for k, v in e.items() if k not in ("recorded_at", "created_at")} for e in events]
        )
    assert logs[0] == logs[1]
    assert bot_rng(b"seed", 0, 5).random() == bot_rng(b"seed", 0, 5).random()
    assert bot_rng(b"seed", 0, 5).random() != bot_rng(b"seed", 1, 5).random()


def test_verify_re_derives_every_move_the_servers_bots_made(
    client: TestClient[Litestar], tmp_path: Path
) -> None:
    """The bot runner and verify ask a bot the same question (view at the version, legal
    commands, bot_rng): every bot move of a game the server played, by a bot seat and by a
    seat handed to a bot, is re-run from the revealed seed and found to be that bot's."""
    seats = [{"type": "creator"}, {"type": "bot", "bot": "random"}]
    created = create(client, {"game": "spies-and-lies", "seats": seats})
    game_id, token = created["id"], created["seats"][0]["token"]
    handed = client.post(
        f"/games/{game_id}/seats/0/bot", json={"bot": "greedy"}, headers=bearer(token)
    )
    assert handed.status_code == 200, handed.text
    summary = finished(client, game_id)
    lines = client.get(f"/games/{game_id}/export").content.splitlines()
    marks = [msgspec.json.decode(line).get("bot") for line in lines[1:]]
    assert {mark for mark in marks if mark} == {"random@1", "greedy@1"}
    with SQLiteEventStore(tmp_path / "other.db") as other:
        report = import_game(other, lines, bots=REGISTERED_BOTS, head=summary["head_hash"])
    assert report.ok and report.caveats == []
    assert report.bot_moves_rederived == sum(1 for mark in marks if mark)


# -- bots that fail ------------------------------------------------------------------------


def _patch_bots(monkeypatch: pytest.MonkeyPatch, **policies: Any) -> None:
    """Register extra bot names for the server (creation checks and the runner)."""

    def patched(name: str, game: str) -> Any:
        return policies[name] if name in policies else policy_for(name, game)

    monkeypatch.setattr("spies_api.service.creation.policy_for", patched)
    monkeypatch.setattr("spies_api.table.seats.policy_for", patched)
    monkeypatch.setattr("spies_api.table.bots.policy_for", patched)


@pytest.fixture
def quick_app(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Litestar:
    """The app with a bot runner that gives a bot a quarter of a second per command."""
    runner = functools.partial(BotRunner, timeout_seconds=0.25, sweep_seconds=0.05)
    monkeypatch.setattr("spies_api.app.BotRunner", runner)
    return create_app(settings)


def test_a_failing_bot_leaves_its_game_waiting_and_logs_one_line(
    quick_app: Litestar, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        raise RuntimeError("a bug in a bot")

    release = threading.Event()

    def stuck(view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        release.wait(30)
        return legal[0]

    _patch_bots(monkeypatch, broken=broken, stuck=stuck)
    with structlog.testing.capture_logs() as logs, TestClient(quick_app) as client:
        bad = create(
            client, {"game": "spies-and-lies", "seats": [{"type": "bot", "bot": "broken"}] * 2}
        )
        slow = create(
            client, {"game": "spies-and-lies", "seats": [{"type": "bot", "bot": "stuck"}] * 2}
        )
        good = create(
            client, {"game": "spies-and-lies", "seats": [{"type": "bot", "bot": "random"}] * 2}
        )
        finished(client, good["id"])  # neither the broken nor the stuck bot held it up
        failures = wait_for(
            lambda: [
                line
                for line in logs
                if line["event"] == "bot_failed" and line.get("reason") == "timeout"
            ],
            "the stuck bot to time out",
        )
        for game in (bad, slow):
            summary = client.get(f"/games/{game['id']}").json()
            assert summary["status"] == "active" and summary["version"] == game["version"]
        release.set()
        broken_lines = [
            line for line in logs if line["event"] == "bot_failed" and line["game_id"] == bad["id"]
        ]
        # One line per seat and version: it is not asked again until the game moves on.
        assert sorted(line["seat"] for line in broken_lines) == [0, 1]
        assert {line["reason"] for line in broken_lines} == {"RuntimeError"}
        assert {line["game_id"] for line in failures} == {slow["id"]}
        assert all("a bug in a bot" not in str(line) for line in logs)


def test_taking_a_failing_bots_seat_back_lets_the_holder_play(
    quick_app: Litestar, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        return {"not": "a command"}

    _patch_bots(monkeypatch, broken=broken)
    with structlog.testing.capture_logs() as logs, TestClient(quick_app) as client:
        created = create(
            client,
            {
                "game": "spies-and-lies",
                "seats": [{"type": "creator"}, {"type": "bot", "bot": "random"}],
            },
        )
        game_id, me = created["id"], bearer(created["seats"][0]["token"])
        client.post(f"/games/{game_id}/seats/0/bot", json={"bot": "broken"}, headers=me)
        wait_for(
            lambda: any(line["event"] == "bot_failed" for line in logs), "the broken bot to fail"
        )
        client.delete(f"/games/{game_id}/seats/0/bot", headers=me)
        legal = client.get(f"/games/{game_id}/legal", headers=me).json()
        assert legal["commands"]
        answer = client.post(
            f"/games/{game_id}/commands", headers=me, json={"command": legal["commands"][0]}
        )
        assert answer.status_code == 200, answer.text
