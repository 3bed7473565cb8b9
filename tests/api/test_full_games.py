"""Every registered game, played to its end over HTTP by choosing from ``legal``.

Generic over the registry: each seat acts with its own token, the game ends with a finished
summary, the log is public once over, and the export is accepted by ``spies-replay import``
and ``spies-replay verify`` (which re-derive every shuffle from the revealed seed).
"""

from __future__ import annotations

import io
import random
from pathlib import Path

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_core.registry import GAMES
from spies_replay.cli import main as replay_cli
from tests.support.api import game_cases, new_game, play_turn


@pytest.mark.parametrize(("game", "players"), game_cases())
def test_a_game_played_over_http_ends_and_its_export_verifies(
    client: TestClient[Litestar], tmp_path: Path, game: str, players: int
) -> None:
    created = new_game(client, game, players, seed=f"http-{game}-{players}")
    assert created.created["version"] >= 2 and len(created.tokens) == players

    rng = random.Random(players)
    turns = 0
    while client.get(created.url()).json()["status"] == "active":
        if turns % 25 == 0:  # every viewer's view, checked against the OpenAPI document
            for headers in (None, *created.seats.values()):
                view = client.get(created.url("/view"), headers=headers).json()
                assert view["game"] == game
        play_turn(client, created, rng)
        turns += 1
    summary = client.get(created.url()).json()
    version = summary["version"]
    for at in (0, 1, version // 3, version // 2, version):
        for headers in (None, *created.seats.values()):
            replayed = client.get(created.url(f"/replay/{at}"), headers=headers).json()
            assert replayed["version"] == at

    assert summary["status"] == "finished"
    assert summary["to_act"] == []
    assert summary["outcome"] is not None and "winners" in summary["outcome"]
    assert [s["seat"] for s in summary["seats"]] == list(range(players))
    for seat in range(players):  # nothing is legal any more, for anyone
        legal = client.get(created.url("/legal"), headers=created.seats[seat]).json()
        assert legal == {
            "version": summary["version"],
            "seat": seat,
            "commands": [],
            "note": "the game is over",
        }

    events = client.get(created.url("/events"), params={"limit": 100_000}).json()
    assert [event["seq"] for event in events["events"]] == list(range(1, summary["version"] + 1))
    assert events["events"][-1]["type"] == "seed_revealed"
    assert events["next_after"] == summary["version"] == events["version"]

    export = client.get(created.url("/export"))
    assert export.status_code == 200
    assert export.headers["content-type"].startswith("application/x-ndjson")
    lines = export.content.splitlines()
    header = msgspec.json.decode(lines[0])
    assert header["format"] == "spies-replay/3" and header["head_hash"] == summary["head_hash"]
    assert len(lines) == summary["version"] + 1

    exported = tmp_path / "game.jsonl"
    exported.write_bytes(export.content)
    other_db = tmp_path / "elsewhere.db"
    out, err = io.StringIO(), io.StringIO()
    assert replay_cli(["--db", str(other_db), "import", str(exported)], stdout=out, stderr=err) == 0
    assert replay_cli(["--db", str(other_db), "verify", created.id], stdout=out, stderr=err) == 0
    assert f"ok    {created.id}" in out.getvalue(), err.getvalue()


def test_every_registered_game_is_offered() -> None:
    """The API needs no change for a new game: all of them are creatable (guard for the list)."""
    assert set(GAMES) >= {"deck-of-spies", "black-spy", "spies-and-lies"}


@pytest.mark.parametrize("game", list(GAMES))
def test_create_defaults_to_the_minimum_number_of_players(
    client: TestClient[Litestar], game: str
) -> None:
    created = new_game(client, game, seed=None)
    assert created.created["players"] == GAMES[game].min_players
    summary = client.get(created.url()).json()
    assert summary["players"] == GAMES[game].min_players
    assert summary["seed_source"] == "server"
