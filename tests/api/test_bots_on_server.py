"""Bots at the table: the server plays bot seats off the request path.

A human plays a 4-player Black Spy game against three bots over HTTP; an all-bot game is
watched over the event stream; a failing or a stuck bot is asked again, then replaced for
that move by the ``random`` bot (recorded as such, one error line), and never holds up another
game.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
import structlog
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings, create_app
from spies_bots import BOTS, BotSpec, bot_stream, policy_for
from spies_core.registry import GAMES
from spies_replay.cli.bots import REGISTERED_BOTS
from spies_replay.marks import parse_bot_mark
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.transfer import import_game
from spies_replay.verify import verify_all
from tests.support.api import bearer, create, finished, wait_for
from tests.support.servers import serve_in_thread

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
        assert line.get("bot") == (None if line["actor"] == 0 else "random@2"), line
    assert sum(1 for line in commands if line["actor"] == 0) == my_commands


def _messages(response: httpx.Response) -> Iterator[dict[str, Any]]:
    """The data of the stream's event messages, as an ``EventSource``'s ``onmessage`` gets
    them (a ``snapshot`` or ``state`` message, with its ``event:`` line, goes elsewhere)."""
    data: list[str] = []
    kind = "message"
    for line in response.iter_lines():
        if line.startswith("data:"):
            data.append(line[5:].strip())
        elif line.startswith("event:"):
            kind = line[6:].strip()
        elif not line:
            if data and kind == "message":
                yield msgspec.json.decode("\n".join(data))
            data, kind = [], "message"


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
    assert bot_stream(b"seed", 0, 5).random() == bot_stream(b"seed", 0, 5).random()
    assert bot_stream(b"seed", 0, 5).random() != bot_stream(b"seed", 1, 5).random()


def test_verify_re_derives_every_move_the_servers_bots_made(
    client: TestClient[Litestar], tmp_path: Path
) -> None:
    """The bot runner and verify ask a bot the same question (view at the version, legal
    commands, the generator of the bot's version): every bot move of a game the server
    played, by a bot seat and by a seat handed to a bot, is re-run from the revealed seed and
    found to be that bot's."""
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
    assert {mark for mark in marks if mark} == {"random@2", "greedy@2"}
    with SQLiteEventStore(tmp_path / "other.db") as other:
        report = import_game(other, lines, bots=REGISTERED_BOTS, head=summary["head_hash"])
    assert report.ok and report.caveats == []
    assert report.bot_moves_rederived == sum(1 for mark in marks if mark)


# -- bots that fail ------------------------------------------------------------------------


def _patch_bots(monkeypatch: pytest.MonkeyPatch, **policies: Any) -> None:
    """Register extra bot names for the server (creation checks, hand-overs and the bot
    pool's threads: these tests run bots in this process, ``bot_workers=0``), each in the
    registry too (where a turn finds its generator)."""

    def patched(name: str, game: str) -> Any:
        return policies[name] if name in policies else policy_for(name, game)

    for name, policy in policies.items():
        monkeypatch.setitem(BOTS, name, BotSpec(name, "a test's bot", dict.fromkeys(GAMES, policy)))

    monkeypatch.setattr("spies_api.service.creation.policy_for", patched)
    monkeypatch.setattr("spies_api.table.seats.policy_for", patched)
    monkeypatch.setattr("spies_api.table.bots.policy_for", patched)


@pytest.fixture
def quick_app(settings: Settings) -> Litestar:
    """The app with bots in this process, a quarter of a second per move."""
    return create_app(
        replace(settings, bot_workers=0, bot_timeout_seconds=0.25, scheduler_poll_seconds=0.05)
    )


def _bots_of(client: TestClient[Litestar], game_id: str) -> list[str | None]:
    export = client.get(f"/games/{game_id}/export").content.splitlines()
    lines = [msgspec.json.decode(line) for line in export[1:]]
    marks = [line.get("bot") for line in lines if line["command"] is not None]
    return [None if mark is None else parse_bot_mark(mark).name for mark in marks]


def test_a_failing_bots_moves_are_played_by_the_random_bot_and_logged(
    quick_app: Litestar, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        raise RuntimeError("a bug in a bot")

    _patch_bots(monkeypatch, broken=broken)
    with structlog.testing.capture_logs() as logs, TestClient(quick_app) as client:
        bad = create(
            client, {"game": "spies-and-lies", "seats": [{"type": "bot", "bot": "broken"}] * 2}
        )
        good = create(
            client, {"game": "spies-and-lies", "seats": [{"type": "bot", "bot": "random"}] * 2}
        )
        finished(client, good["id"])
        finished(client, bad["id"])  # the game never stalled on its broken bots
        assert set(_bots_of(client, bad["id"])) == {"random"}  # recorded as the bot that moved
        failures = [line for line in logs if line["event"] == "bot_failed"]
        assert failures and {line["game_id"] for line in failures} == {bad["id"]}
        assert {line["reason"] for line in failures} == {"RuntimeError"}
        assert {(line["attempts"], line["played_by"]) for line in failures} == {(2, "random")}
        assert all("a bug in a bot" not in str(line) for line in logs)


def test_a_stuck_bot_times_out_and_never_holds_up_another_game(
    quick_app: Litestar, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    asked: list[int] = []

    def stuck(view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        asked.append(view.version)
        if len(asked) <= 2:  # the first move: both attempts hang until released
            release.wait(30)
        return legal[0]

    _patch_bots(monkeypatch, stuck=stuck)
    try:
        with structlog.testing.capture_logs() as logs, TestClient(quick_app) as client:
            slow = create(
                client,
                {
                    "game": "spies-and-lies",
                    "seats": [{"type": "creator"}, {"type": "bot", "bot": "stuck"}],
                },
            )
            good = create(
                client, {"game": "spies-and-lies", "seats": [{"type": "bot", "bot": "random"}] * 2}
            )
            finished(client, good["id"])  # the stuck bot held up no other game
            timeouts = wait_for(
                lambda: [
                    line
                    for line in logs
                    if line["event"] == "bot_failed" and line.get("reason") == "timeout"
                ],
                "the stuck bot to time out",
            )
            assert {line["game_id"] for line in timeouts} == {slow["id"]}
            assert {line["played_by"] for line in timeouts} == {"random"}
    finally:
        release.set()


def test_a_seat_handed_to_a_broken_bot_still_moves_and_can_be_taken_back(
    quick_app: Litestar, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        return {"not": "a command"}

    _patch_bots(monkeypatch, broken=broken)
    with structlog.testing.capture_logs() as logs, TestClient(quick_app) as client:
        # seat 1 is ours too and we never play it: the game waits for us, and stays active
        created = create(client, {"game": "spies-and-lies", "seats": [{"type": "creator"}] * 2})
        game_id, me = created["id"], bearer(created["seats"][0]["token"])
        answer = client.post(f"/games/{game_id}/seats/0/bot", json={"bot": "broken"}, headers=me)
        # the version the hand-over left (its receipt's, one event after the creation), not
        # one read later: the fallback may have moved meanwhile, and seat 1 never moves after it
        handed = answer.json()["receipt"]["seq"]
        assert handed == created["version"] + 1
        failed = wait_for(
            lambda: [line for line in logs if line["event"] == "bot_failed"],
            "the broken bot to fail",
        )
        assert {line["reason"] for line in failed} == {"illegal-command"}
        # the fallback bot's move for it (a seat is taken back once it has moved)
        wait_for(lambda: client.get(f"/games/{game_id}").json()["version"] > handed, "the move")
        taken = client.delete(f"/games/{game_id}/seats/0/bot", headers=me)
        assert taken.status_code == 200 and taken.json()["bot"] is None
