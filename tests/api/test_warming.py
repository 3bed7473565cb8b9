"""A process that starts reads ahead the heads kept with the games not finished, and their
seats' token hashes (:mod:`spies_api.service.warming`): the first command on such a game
reads nothing; a head read ahead is checked when first used (one not to be used is folded
instead), one made stale meanwhile is not kept, and the budget is never exceeded: the
newest games first, behind every head in use."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from spies_api import Settings
from spies_api.game import abort_game
from spies_api.service.auth import SeatAuthenticator
from spies_api.service.states import GameStates
from spies_api.service.warming import warm_caches
from spies_replay.errors import StoreUnavailableError
from spies_replay.store.records import KeptHeads
from tests.support.api import Game, new_game
from tests.support.apps import open_app
from tests.support.backends import BACKENDS, Backend, fresh_backend

MiB = 1 << 20


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    with fresh_backend(request.param, tmp_path) as opened:
        yield opened


def settings_of(backend: Backend, cache_bytes: int = MiB) -> Settings:
    return Settings(db_path=backend.location, cache_size=1, cache_bytes=cache_bytes, log_json=True)


def created_games(backend: Backend, count: int) -> list[Game]:
    """``count`` Deck of Spies games, created by a process that then stops."""
    app, runtime = open_app(settings_of(backend))
    with TestClient(app=app) as client:
        games = [new_game(client, "deck-of-spies", seed=f"warm-{i}") for i in range(count)]
        assert runtime.warmed.wait(30)
    return games


def post_first_legal(client: TestClient[Any], game: Game) -> Any:
    legal = client.get(game.url("/legal"), headers=game.seats[0]).json()
    return client.post(
        game.url("/commands"),
        headers=game.seats[0],
        json={"command": legal["commands"][0], "expected_version": legal["version"]},
    )


def test_a_started_process_holds_the_games_in_use(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = created_games(backend, 4)
    with backend.open() as store:
        abort_game(store, games[3].id, detail="over before the restart")
    app, runtime = open_app(settings_of(backend))
    with TestClient(app=app) as client:
        assert runtime.warmed.wait(30)
        assert runtime.states.packed == 3  # the finished game is not read ahead
        for game in games[:3]:
            assert runtime.auth.remembered(game.id, game.tokens[0]) == 0
        assert runtime.auth.remembered(games[3].id, games[3].tokens[0]) is None
        refreshed: list[str] = []
        refresh = runtime.states.refresh

        async def counted(game_id: str) -> Any:
            refreshed.append(game_id)
            return await refresh(game_id)

        monkeypatch.setattr(runtime.states, "refresh", counted)
        answer = post_first_legal(client, games[0])
        assert answer.status_code == 200, answer.text
        assert refreshed == []  # no read of the head: it was held
        view = client.get(games[0].url("/view"), headers=games[0].seats[0]).json()
        assert view["version"] == answer.json()["version"]


def test_a_head_read_ahead_that_is_not_to_be_used_is_folded_instead(backend: Backend) -> None:
    games = created_games(backend, 3)
    with backend.open() as store:
        other = store.head_row(games[2].id).head
        assert other is not None
        store.save_head(games[0].id, games[0].created["version"], "{}")  # not a head
        store.save_head(games[1].id, games[1].created["version"], other)  # another game's
    app, runtime = open_app(settings_of(backend))
    with TestClient(app=app) as client:
        assert runtime.warmed.wait(30)
        assert runtime.states.packed == 3  # checked when used, not when read
        assert runtime.states.cached(games[0].id) is None  # not JSON: refused
        assert runtime.states.cached(games[1].id) is None  # another game's: refused
        assert runtime.states.cached(games[2].id) is not None
        for game in games:
            answer = post_first_legal(client, game)
            assert answer.status_code == 200, answer.text
            assert answer.json()["version"] > game.created["version"]


def test_the_budget_holds_the_newest_games_behind_those_in_use(backend: Backend) -> None:
    games = created_games(backend, 6)
    with backend.open() as store:
        sizes = [len(store.head_row(game.id).head or "") for game in games]
        records = sorted(
            (store.get_game(game.id) for game in games), key=lambda r: (r.created_at, r.id)
        )
    budget = 2 * (max(sizes) + 300) + 100  # room for two, not three
    app, runtime = open_app(settings_of(backend, cache_bytes=budget))
    with TestClient(app=app) as client:
        assert runtime.warmed.wait(30)
        assert runtime.states.packed == 2
        assert runtime.states.packed_size <= budget
        newest = [record.id for record in records[-2:]]
        assert all(runtime.auth.remembered(g.id, g.tokens[0]) == 0 for g in games if g.id in newest)
        older = games[0] if games[0].id not in newest else games[1]
        answer = post_first_legal(client, older)  # a head in use: the oldest read ahead goes
        assert answer.status_code == 200, answer.text
        assert runtime.states.packed_size <= budget


def test_a_page_read_before_a_game_moved_on_does_not_keep_it(backend: Backend) -> None:
    games = created_games(backend, 3)
    with backend.open() as store:
        states = GameStates(store, 1, packed_bytes=MiB)
        states.warming()
        page = store.kept_heads(10)
        states.stale(games[0].id, games[0].created["version"] + 1)  # another process appended
        states.discard(games[1].id)
        assert states.warm(page) == 3
        assert states.packed == 1
        assert states.cached(games[2].id) is not None
        assert states.cached(games[0].id) is None


def test_appends_unheard_forget_every_head_and_the_page_being_read(backend: Backend) -> None:
    games = created_games(backend, 3)
    with backend.open() as store:
        states = GameStates(store, 1, packed_bytes=MiB)
        states.warming()
        assert states.warm(store.kept_heads(10)) == 3
        assert states.packed == 3
        states.load(games[0].id)  # one in use, the rest packed
        states.warming()
        page = store.kept_heads(10)
        states.forget_all()  # the watch was not listening: any game may have moved on
        assert states.warm(page) == 3
        assert (states.packed, states.packed_size, len(states)) == (0, 0, 0)
        assert all(states.cached(game.id) is None for game in games)


def test_kept_heads_come_newest_first_a_page_at_a_time(backend: Backend) -> None:
    games = created_games(backend, 5)
    with backend.open() as store:
        store.save_head(games[4].id, games[4].created["version"] - 1, "{}")  # behind: none
        first = store.kept_heads(2)
        second = store.kept_heads(2, first.last)
        third = store.kept_heads(2, second.last)
        seen = [row.record.id for page in (first, second, third) for row in page.rows]
        records = sorted(
            (store.get_game(game.id) for game in games), key=lambda r: (r.created_at, r.id)
        )
        assert len(seen) == 5 and len(third.rows) == 1
        assert seen == [record.id for record in reversed(records)]
        assert all(row.head and row.secrets for page in (first, second) for row in page.rows)
        assert set(first.tokens) == {row.record.id for row in first.rows}
        assert all(list(seats) == [0] for seats in first.tokens.values())
        assert store.kept_heads(2, third.last).last is None


class _Failing:
    def kept_heads(self, limit: int, after: tuple[str, str] | None = None) -> KeptHeads:
        raise StoreUnavailableError("db", "the server is down")


def test_a_store_that_fails_ends_the_read_ahead_and_says_so(tmp_path: Path) -> None:
    from spies_replay.store.backends import open_store

    with open_store(str(tmp_path / "down.db")) as store:
        states = GameStates(store, 1, packed_bytes=MiB)
        auth = SeatAuthenticator(store, 10)
        done = threading.Event()
        kept = asyncio.run(warm_caches(_Failing(), states, auth, done=done))  # type: ignore[arg-type]
        assert (kept, done.is_set(), states.packed) == (0, True, 0)
