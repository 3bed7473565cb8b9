"""Bot work bounded per client and in all: a client with as many active bot games as the
server allows (with a bot seat, or with a clock whose timeouts a bot plays) gets 429
``too-many-bot-games`` for one more, until one of them ends or idles (an idle game that wakes
counts again); a server with as many as it admits, all clients together, gets 429
``server-bot-games-full``. The quota of all the games a client created (``too-many-games``)
counts the same way, except that a game waiting for players counts until it fills or ends.

Attack, before: one anonymous client created bot games as fast as it could (30 expert-bot
games kept the server busy for two minutes and another client's ``GET`` went from 4.8 ms to
181 ms median). ``bench/bot_flood.py`` measures the other client's latency under the flood.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings, create_app
from spies_api.app import Runtime
from spies_api.cli import _parser
from spies_api.problems.errors import (
    ServerBotGamesFullError,
    TooManyBotGamesError,
    TooManyGamesError,
)
from spies_api.settings import BOT_GAMES_PER_CORE, DEFAULTS, SettingsError, settings_from
from spies_api.table.quota import BotGameQuota, GameQuota
from spies_replay.store.records import Appended
from tests.support.api import bearer, finished
from tests.support.apps import open_app

BOT_GAME = {
    "game": "black-spy",
    "players": 3,
    "seats": [{"type": "creator"}, {"type": "bot", "bot": "random"}, {"type": "creator"}],
}
PERSON_GAME = {"game": "black-spy", "players": 3}
CLOCKED_GAME = {"game": "deck-of-spies", "clock": {"turn_seconds": 60}}
"""A game whose timeouts the ``greedy`` bot plays (``on_timeout`` ``bot``, the default): it
plays on to its end with nobody at the table."""


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """The settings of the ``runtime`` and ``app`` fixtures here."""
    return Settings(
        db_path=tmp_path / "quota.db", max_bot_games_per_client=2, bot_workers=0, log_json=True
    )


@pytest.fixture
def client(app: Litestar) -> Iterator[TestClient[Litestar]]:
    with TestClient(app=app) as client:
        yield client


def test_a_server_started_with_no_option_limits_bot_games_per_client() -> None:
    assert DEFAULTS.max_bot_games_per_client == 4
    assert _parser().parse_args([]).max_bot_games_per_client is None
    assert settings_from({"max_bot_games_per_client": "off"}, {}).max_bot_games_per_client is None
    env = {"SPIES_MAX_BOT_GAMES_PER_CLIENT": "9"}
    assert settings_from({}, env).max_bot_games_per_client == 9
    with pytest.raises(SettingsError, match="--max-bot-games-per-client '0'"):
        settings_from({"max_bot_games_per_client": "0"}, {})


def _third_bot_game_refused(client: TestClient[Litestar], code: str) -> dict[str, Any]:
    """Two bot games created, the third refused with 429 ``code`` and ``Retry-After``, and
    nothing created by it; the problem document."""
    for _ in range(2):
        assert client.post("/games", json=BOT_GAME).status_code == 201
    before = client.get("/games").json()["total"]
    refused = client.post("/games", json=BOT_GAME)
    assert refused.status_code == 429
    assert refused.headers["content-type"].startswith("application/problem+json")
    problem: dict[str, Any] = refused.json()
    assert problem["code"] == code
    assert "at most 2" in problem["detail"] and "\n" not in problem["detail"]
    assert int(refused.headers["retry-after"]) >= 1
    assert client.get("/games").json()["total"] == before  # nothing created
    return problem


def test_one_bot_game_too_many_is_429_with_retry_after(client: TestClient[Litestar]) -> None:
    problem = _third_bot_game_refused(client, "too-many-bot-games")
    # a place frees when a game ends or idles, not after Retry-After: the text says so
    assert "when it ends" in problem["detail"] and "retry after" not in problem["detail"]
    # a game without bots is not counted
    assert client.post("/games", json=PERSON_GAME).status_code == 201


def test_handing_a_seat_to_a_bot_counts_too(client: TestClient[Litestar], runtime: Runtime) -> None:
    games = [client.post("/games", json=PERSON_GAME).json() for _ in range(3)]

    def hand(game: dict[str, Any], seat: int) -> Any:
        token = game["seats"][seat]["token"]
        return client.post(
            f"/games/{game['id']}/seats/{seat}/bot",
            json={"bot": "random"},
            headers={"Authorization": f"Bearer {token}"},
        )

    assert hand(games[0], 1).status_code == 200
    assert hand(games[0], 2).status_code == 200  # the same game: no new place
    assert hand(games[1], 1).status_code == 200
    refused = hand(games[2], 1)
    assert refused.status_code == 429 and refused.json()["code"] == "too-many-bot-games"
    quota = runtime.bot_quota
    assert quota.active("testclient") == 2


class _Head:
    def __init__(self, finished: bool, *, waiting: bool = False) -> None:
        self.finished, self.waiting = finished, waiting


class _States:
    def __init__(self) -> None:
        self.heads: dict[str, _Head] = {}

    def cached(self, game_id: str) -> _Head | None:
        return self.heads.get(game_id)


def test_a_game_stops_counting_when_it_ends_or_idles() -> None:
    now = [0.0]
    states = _States()
    quota = BotGameQuota(2, states, idle_seconds=60, clock=lambda: now[0])  # type: ignore[arg-type]
    for game_id in ("a", "b"):
        states.heads[game_id] = _Head(False)
        with quota.hold("1.2.3.4") as record:
            record(game_id)
    with pytest.raises(TooManyBotGamesError), quota.hold("1.2.3.4"):
        pass
    with quota.hold("5.6.7.8") as record:  # another client has its own count
        record("c")
    states.heads["a"] = _Head(True)
    quota.appended("a")  # its last append ended it
    assert quota.active("1.2.3.4") == 1
    now[0] = 30.0
    quota.appended("b")  # still going: seen now
    now[0] = 89.0
    assert quota.active("1.2.3.4") == 1
    now[0] = 91.0  # idle for a minute
    assert quota.active("1.2.3.4") == 0


def test_a_game_another_process_ended_stops_counting_at_its_notice() -> None:
    """Behind a load balancer the last move may be another process's: its notice says the
    game is over, though this process's cached head (if any) is older."""
    states = _States()
    quota = BotGameQuota(1, states)  # type: ignore[arg-type]
    states.heads["a"] = _Head(False)  # as this process last saw it
    with quota.hold("1.2.3.4") as record:
        record("a")
    quota.heard(Appended(game_id="a", version=40, head_hash="0" * 64, finished=False))
    assert quota.active("1.2.3.4") == 1
    quota.heard(Appended(game_id="a", version=41, head_hash="1" * 64, finished=True))
    assert quota.active("1.2.3.4") == 0 and quota.owner("a") is None
    with quota.hold("1.2.3.4") as record:  # the place is free again
        record("b")


def test_a_creation_that_fails_frees_its_place() -> None:
    quota = BotGameQuota(1, _States())  # type: ignore[arg-type]
    with pytest.raises(RuntimeError), quota.hold("1.2.3.4"):
        raise RuntimeError("refused by the rules")
    with quota.hold("1.2.3.4") as record:
        record("x")
    assert quota.active("1.2.3.4") == 1


def test_asking_again_at_once_after_a_refusal_is_held_at_the_door(tmp_path: Path) -> None:
    settings = Settings(
        db_path=tmp_path / "door.db",
        max_bot_games_per_client=1,
        rate_limit="100/second",
        bot_workers=0,
        log_json=True,
    )
    with TestClient(app=create_app(settings)) as client:
        assert client.post("/games", json=BOT_GAME).status_code == 201
        refused = client.post("/games", json=BOT_GAME)
        assert refused.json()["code"] == "too-many-bot-games"
        again = client.post("/games", json=BOT_GAME)  # at once: the edge answers
        assert again.status_code == 429 and again.json()["code"] == "too-many-requests"
        assert int(again.headers["retry-after"]) >= 1


def test_a_game_whose_timeouts_a_bot_plays_counts_as_a_bot_game(
    client: TestClient[Litestar],
    runtime: Runtime,
) -> None:
    """The time control's bot plays every move of a seat nobody plays, so a clocked
    game was a bot game that no quota counted."""
    for _ in range(2):
        assert client.post("/games", json=CLOCKED_GAME).status_code == 201
    refused = client.post("/games", json=CLOCKED_GAME)
    assert refused.status_code == 429 and refused.json()["code"] == "too-many-bot-games"
    forfeit = {"game": "deck-of-spies", "clock": {"turn_seconds": 60, "on_timeout": "forfeit"}}
    assert client.post("/games", json=forfeit).status_code == 201  # no bot plays that one
    assert runtime.bot_quota.active("testclient") == 2


def test_the_rematch_of_a_game_whose_timeouts_a_bot_plays_counts_too(tmp_path: Path) -> None:
    """Such a game finishes with nobody at the table, so its rematch is one more bot game,
    and a chain of rematches would be bot games for ever."""
    settings = Settings(
        db_path=tmp_path / "rematch.db", max_bot_games_per_client=1, bot_workers=0, log_json=True
    )
    app, runtime = open_app(settings)
    with TestClient(app=app) as client:

        def play_out(game: dict[str, Any]) -> None:
            """A bot plays the game's seat to the end (the same game: no new place)."""
            token = bearer(game["seats"][0]["token"])
            url = f"/games/{game['id']}/seats/0/bot"
            assert client.post(url, json={"bot": "random"}, headers=token).status_code == 200
            finished(client, game["id"])

        first = client.post("/games", json=CLOCKED_GAME).json()
        play_out(first)  # over: it counts no more
        second = client.post("/games", json=CLOCKED_GAME)
        assert second.status_code == 201
        url = f"/games/{first['id']}/rematch"
        token = bearer(first["seats"][0]["token"])
        refused = client.post(url, headers=token)
        assert refused.status_code == 429 and refused.json()["code"] == "too-many-bot-games"
        assert client.get(f"/games/{first['id']}").json()["rematch"] is None  # none created
        play_out(second.json())
        rematch = client.post(url, headers=token)
        assert rematch.status_code == 200, rematch.text
        assert runtime.bot_quota.active("testclient") == 1


def test_an_idle_game_that_wakes_counts_again_for_its_owner() -> None:
    """Before, a game that idled was forgotten with its owner, and its next appends (its
    person back, its bots playing on) no longer counted: a client could hold any number of
    busy bot games by letting each idle once."""
    now = [0.0]
    states = _States()
    quota = BotGameQuota(1, states, idle_seconds=60, clock=lambda: now[0])  # type: ignore[arg-type]
    states.heads["a"] = _Head(False)
    with quota.hold("1.2.3.4") as record:
        record("a")
    now[0] = 61.0
    assert quota.active("1.2.3.4") == 0 and quota.owner("a") == "1.2.3.4"
    with quota.hold("1.2.3.4") as record:  # its place is free while it idles
        record("b")
    states.heads["b"] = _Head(False)
    quota.appended("a")  # it wakes: counted again, above the limit
    assert quota.active("1.2.3.4") == 2
    with pytest.raises(TooManyBotGamesError), quota.hold("1.2.3.4"):
        pass
    states.heads["a"] = _Head(True)
    quota.appended("a")  # it ends: its owner is forgotten
    assert quota.owner("a") is None and quota.active("1.2.3.4") == 1


def test_a_seat_handed_over_by_another_client_moves_the_game_to_it() -> None:
    quota = BotGameQuota(None, _States())  # type: ignore[arg-type]
    with quota.hold("1.2.3.4") as record:
        record("a")
    with quota.hold("5.6.7.8", "a") as record:  # another seat's holder hands it to a bot
        record("a")
    assert quota.owner("a") == "5.6.7.8"  # owners are kept with no limit too (the bot pool)
    assert quota.active("1.2.3.4") == 0 and quota.active("5.6.7.8") == 1
    assert quota.active_in_all() == 1


def test_the_server_admits_at_most_its_bot_games_in_all() -> None:
    """25 addresses got 100 expert games before: there was no cap but the per-client one."""
    quota = BotGameQuota(2, _States(), total=3)  # type: ignore[arg-type]
    for client, game_id in (("a", "1"), ("a", "2"), ("b", "3")):
        with quota.hold(client) as record:
            record(game_id)
    with pytest.raises(ServerBotGamesFullError) as refused, quota.hold("c"):
        pass
    assert "at most 3" in refused.value.message and refused.value.retry_after >= 1
    with pytest.raises(TooManyBotGamesError) as own, quota.hold("a"):
        pass
    assert own.value.code == "too-many-bot-games"  # its own limit first


def test_one_bot_game_too_many_for_the_server_is_429_with_retry_after(tmp_path: Path) -> None:
    settings = Settings(
        db_path=tmp_path / "full.db", max_bot_games=2, max_bot_games_per_client=None, bot_workers=0
    )
    with TestClient(app=create_app(settings)) as client:
        _third_bot_game_refused(client, "server-bot-games-full")


def test_the_server_wide_cap_is_sized_to_the_machine() -> None:
    assert DEFAULTS.max_bot_games == BOT_GAMES_PER_CORE * (os.cpu_count() or 1)
    assert _parser().parse_args(["--max-bot-games", "7"]).max_bot_games == "7"
    assert settings_from({"max_bot_games": "off"}, {}).max_bot_games is None
    assert settings_from({}, {"SPIES_MAX_BOT_GAMES": "9"}).max_bot_games == 9
    with pytest.raises(SettingsError, match="--max-bot-games '0'"):
        settings_from({"max_bot_games": "0"}, {})


def test_the_owners_of_idle_games_are_kept_within_bounds() -> None:
    now = [0.0]
    quota = BotGameQuota(None, _States(), idle_seconds=60, clock=lambda: now[0], owners_kept=2)  # type: ignore[arg-type]
    for game_id in ("a", "b"):
        with quota.hold("1.2.3.4") as record:
            record(game_id)
    now[0] = 61.0  # both idle
    with quota.hold("5.6.7.8") as record:
        record("c")
    assert quota.owner("a") is None  # the oldest idle owner makes room
    assert quota.owner("b") == "1.2.3.4" and quota.owner("c") == "5.6.7.8"


def test_a_waiting_game_counts_until_it_fills_or_ends_and_a_dealt_one_until_it_idles() -> None:
    now = [0.0]
    states = _States()
    quota = GameQuota(2, states, idle_seconds=60, clock=lambda: now[0])  # type: ignore[arg-type]
    states.heads = {"lobby": _Head(False, waiting=True), "table": _Head(False)}
    for game_id in ("lobby", "table"):
        with quota.hold("1.2.3.4") as record:
            record(game_id)
    with pytest.raises(TooManyGamesError), quota.hold("1.2.3.4"):
        pass
    now[0] = 61.0  # the dealt table idled; the lobby game still waits for players
    assert quota.active("1.2.3.4") == 1
    now[0] = 10_000.0
    assert quota.active("1.2.3.4") == 1
    del states.heads["lobby"]  # the join that deals drops the cached head: still counted
    quota.appended("lobby")
    assert quota.active("1.2.3.4") == 1
    states.heads["lobby"] = _Head(False)  # its first move: dealt, counted until it idles
    quota.appended("lobby")
    now[0] = 10_059.0
    assert quota.active("1.2.3.4") == 1
    now[0] = 10_061.0
    assert quota.active("1.2.3.4") == 0
    with quota.hold("1.2.3.4") as record:
        record("ended")
    states.heads["ended"] = _Head(True, waiting=True)  # abandoned: it ends
    quota.appended("ended")
    assert quota.active("1.2.3.4") == 0
