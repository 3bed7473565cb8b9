"""A command on a game whose head and token the process no longer holds (a cache miss):
the head kept with the game is read, not folded from the log; on SQLite that read and the
token's lookup run on the event loop, from the store's twin
(:meth:`~spies_replay.store.protocols.EventStore.loop_reader`), with no worker thread; a
long fold (a game with no head kept at its version), or ``inline_commands`` off, still goes
to one. A head the cache dropped but kept packed (``cache_bytes``) is unpacked: no read of
the log at all."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings
from spies_api.app import Runtime
from spies_api.game import loading
from spies_api.service import auth, states
from spies_replay.reading import LongFoldError, load_state
from tests.support.api import Game, new_game
from tests.support.apps import open_app
from tests.support.backends import fresh_backend


class Hops:
    """Counts the loads of a head (``load``), its folds from the log (``fold``), and the
    calls sent to a worker thread (``hop``), by the cache of heads and the authenticator."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.counts: Counter[str] = Counter()
        for module in (states, auth):
            monkeypatch.setattr(module, "blocking", self._counted("hop", module.blocking))
        monkeypatch.setattr(states, "load_head", self._counted("load", states.load_head))
        monkeypatch.setattr(loading, "fold_head", self._counted("fold", loading.fold_head))

    def _counted(self, what: str, call: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.counts[what] += 1
            return call(*args, **kwargs)

        return counted


def missed_command(
    client: TestClient[Litestar], runtime: Runtime, games: list[Game], hops: Hops
) -> Any:
    """Post a legal command to ``games[0]`` after reading ``games[1]`` pushed its head and
    its token out of caches that hold one game (``hops`` counts the post's only)."""
    first, second = games
    legal = client.get(first.url("/legal"), headers=first.seats[0]).json()
    client.get(second.url("/legal"), headers=second.seats[0])
    assert runtime.states.cached(first.id) is None
    assert runtime.auth.remembered(first.id, first.tokens[0]) is None
    hops.counts.clear()
    return client.post(
        first.url("/commands"),
        headers=first.seats[0],
        json={"command": legal["commands"][0], "expected_version": legal["version"]},
    )


def open_small(tmp_path: Path, cache_bytes: int = 0, **options: Any) -> tuple[Litestar, Runtime]:
    """An app that keeps one game's head (and ``cache_bytes`` of packed ones)."""
    settings = Settings(
        db_path=tmp_path / "miss.db",
        cache_size=1,
        cache_bytes=cache_bytes,
        log_json=True,
        **options,
    )
    return open_app(settings)


@pytest.mark.parametrize("inline", [True, False], ids=["on-loop", "inline-off"])
def test_a_miss_on_sqlite_does_not_leave_the_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, inline: bool
) -> None:
    app, runtime = open_small(tmp_path, inline_commands=inline)
    with TestClient(app=app) as client:
        games = [new_game(client, "deck-of-spies", seed=f"miss-{i}") for i in range(2)]
        hops = Hops(monkeypatch)
        answer = missed_command(client, runtime, games, hops)
        assert answer.status_code == 200, answer.text
        assert hops.counts["load"] == 1  # a miss: the head kept with the game read
        assert hops.counts["fold"] == 0  # not folded from the log
        # the token's lookup and the fold: on the loop, or each on a worker thread
        assert hops.counts["hop"] == (0 if inline else 2)
        after = client.get(games[0].url("/view"), headers=games[0].seats[0]).json()
        assert after["version"] == answer.json()["version"]


def test_a_miss_on_postgresql_reads_its_seat_and_head_in_one_round_trip_on_the_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with fresh_backend("postgres", tmp_path) as backend:
        app, runtime = open_app(
            Settings(db_path=backend.location, cache_size=1, cache_bytes=0, log_json=True)
        )
        with TestClient(app=app) as client:
            games = [new_game(client, "deck-of-spies", seed=f"pg-miss-{i}") for i in range(2)]
            reads = runtime.states.reads
            assert reads is not None
            fetched: list[str] = []
            fetch = reads.recorder.fetch  # type: ignore[attr-defined]

            async def counted(sql: str, params: Any) -> Any:
                fetched.append(sql)
                return await fetch(sql, params)

            monkeypatch.setattr(reads.recorder, "fetch", counted)  # type: ignore[attr-defined]
            hops = Hops(monkeypatch)
            answer = missed_command(client, runtime, games, hops)
            assert answer.status_code == 200, answer.text
            # the head kept with the game and the seat's token: one round trip awaited on
            # the loop, for the post as for each of the two reads before it: no worker
            # thread, no fold
            assert hops.counts == {}
            assert len(fetched) == 3 and len(set(fetched)) == 1
            missing = client.get("/games/no-such-game/view", headers=games[0].seats[0])
            assert missing.status_code == 404  # no row: 404 whatever the token
            runtime.store.save_head(games[1].id, games[1].created["version"], "{}")
            hops.counts.clear()
            legal = client.get(games[1].url("/legal"), headers=games[1].seats[0])
            assert legal.status_code == 200, legal.text
            assert (hops.counts["load"], hops.counts["fold"]) == (1, 1)  # a kept head not used
            stranger = client.get(games[1].url("/view"), headers={"Authorization": "Bearer x"})
            assert stranger.status_code == 401  # a token of no seat: told on a thread
            runtime.states.discard(games[0].id)
            other = client.get(games[0].url("/view"), headers=games[1].seats[0])
            assert other.status_code == 403  # a seat of another game, read with the head


def test_a_long_fold_goes_to_a_worker_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, runtime = open_small(tmp_path, snapshot_every=2)
    with TestClient(app=app) as client:
        games = [new_game(client, "deck-of-spies", seed=f"long-{i}") for i in range(2)]
        rng = random.Random(3)
        first = games[0]
        for _ in range(4):  # a few commands: past a snapshot or two
            legal = client.get(first.url("/legal"), headers=first.seats[0]).json()
            if not legal["commands"]:
                break
            command = rng.choice(legal["commands"])
            posted = client.post(
                first.url("/commands"),
                headers=first.seats[0],
                json={"command": command, "expected_version": legal["version"]},
            )
            assert posted.status_code == 200, posted.text
        runtime.store.drop_snapshots(first.id)  # every event to fold again: over the bound
        with pytest.raises(LongFoldError):
            load_state(runtime.store, first.id, most=2)
        version = runtime.store.get_game(first.id).version
        runtime.store.save_head(first.id, version, "{}")  # a kept head not to be used
        hops = Hops(monkeypatch)
        answer = missed_command(client, runtime, games, hops)
        assert answer.status_code == 200, answer.text
        # the token on the loop; the fold refused there (nothing folded), then on a thread
        assert hops.counts == {"load": 2, "fold": 2, "hop": 1}


def test_a_dropped_head_kept_packed_is_unpacked_not_folded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, runtime = open_small(tmp_path, cache_bytes=64 * 1024)
    with TestClient(app=app) as client:
        games = [new_game(client, "deck-of-spies", seed=f"packed-{i}") for i in range(3)]
        assert (len(runtime.states), runtime.states.packed) == (1, 2)
        hops = Hops(monkeypatch)
        first = games[0]
        legal = client.get(first.url("/legal"), headers=first.seats[0]).json()
        answer = client.post(
            first.url("/commands"),
            headers=first.seats[0],
            json={"command": legal["commands"][0], "expected_version": legal["version"]},
        )
        assert answer.status_code == 200, answer.text
        assert hops.counts == {}  # unpacked, and the token remembered: no fold, no hop
        assert (len(runtime.states), runtime.states.packed) == (1, 2)
        view = client.get(first.url("/view"), headers=first.seats[0]).json()
        assert view["version"] == answer.json()["version"]


def test_packed_heads_stay_within_their_budget(tmp_path: Path) -> None:
    app, runtime = open_small(tmp_path, cache_bytes=4 * 1024)  # room for two or three
    with TestClient(app=app) as client:
        for i in range(8):
            new_game(client, "deck-of-spies", seed=f"budget-{i}")
        assert 1 <= runtime.states.packed <= 3
        assert runtime.states.packed_size <= 4 * 1024


def test_another_process_s_append_drops_a_packed_head_behind_it(tmp_path: Path) -> None:
    app, runtime = open_small(tmp_path, cache_bytes=64 * 1024)
    with TestClient(app=app) as client:
        first, _ = (new_game(client, "deck-of-spies", seed=f"stale-{i}") for i in range(2))
        version = first.created["version"]  # no read: that would unpack it
        runtime.states.stale(first.id, version)  # a notice of what it has: kept
        assert runtime.states.packed == 1
        runtime.states.stale(first.id, version + 1)  # behind the log now: dropped
        assert runtime.states.packed == 0
        assert runtime.states.cached(first.id) is None
