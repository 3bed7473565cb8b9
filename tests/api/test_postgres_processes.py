"""Two API servers on one PostgreSQL database: a client streaming from one sees the commands
appended through the other, woken by LISTEN/NOTIFY rather than by polling (the servers poll
once a minute here, far beyond the test's patience), and each server answers from the log,
never from a stale cache. Skipped without ``SPIES_TEST_POSTGRES_URL``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from spies_api import Settings
from tests.support.api import Game, messages, post_legal
from tests.support.backends import POSTGRES_SKIP_REASON, fresh_backend, postgres_base_url
from tests.support.servers import serve_in_thread

pytestmark = pytest.mark.skipif(postgres_base_url() is None, reason=POSTGRES_SKIP_REASON)


@pytest.fixture
def url(tmp_path: Path) -> Iterator[str]:
    with fresh_backend("postgres", tmp_path) as backend:
        yield backend.location


def test_a_stream_on_one_server_sees_commands_sent_to_the_other(url: str) -> None:
    settings = Settings(db_path=url, sse_poll_seconds=60.0, log_json=True)
    with (
        serve_in_thread(settings) as (base_a, _),
        serve_in_thread(settings) as (base_b, _),
        httpx.Client(base_url=base_a, timeout=20.0) as a,
        httpx.Client(base_url=base_b, timeout=20.0) as b,
    ):
        created = a.post("/games", json={"game": "deck-of-spies", "seed": "pg"}).json()
        tokens = [seat["token"] for seat in created["seats"]]
        game = Game(
            id=created["id"],
            game="deck-of-spies",
            seats={i: {"Authorization": f"Bearer {t}"} for i, t in enumerate(tokens)},
            tokens=tokens,
        )
        seen: list[int] = []
        with b.stream("GET", game.url("/events/stream"), headers=game.seats[0]) as stream:
            events = (message["id"] for message in messages(stream) if "id" in message)
            while not seen or seen[-1] < created["version"]:
                seen.append(next(events))
            for _ in range(3):
                # B's stream is caught up and idle: only a notification from A wakes it in time
                target = post_legal(a, game)["version"]
                while seen[-1] < target:
                    seen.append(next(events))
                # B's cache never answers with an older version than the log's
                assert b.get(game.url()).json()["version"] == target
                legal = b.get(game.url("/legal"), headers=game.seats[0]).json()
                assert legal["version"] == target
        assert seen == list(range(1, target + 1))
