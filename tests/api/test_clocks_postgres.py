"""Racing deadlines: two servers on one PostgreSQL database, each with its own scheduler,
see the same deadlines pass at the same moment, and exactly one ``clock_expired`` is
recorded per expiry (the append's version check decides which server's). Skipped without
``SPIES_TEST_POSTGRES_URL``.

Both apps read the time from one injected clock, so both see every deadline pass at once:
their schedulers poll every 20 ms and each has every game's deadline in its index of due
work, read from the database.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings, create_app
from spies_replay.cli.bots import REGISTERED_BOTS
from spies_replay.store.backends import open_store
from spies_replay.verify import verify_all
from tests.support.api import FakeClock, create, events, wait_for
from tests.support.backends import POSTGRES_SKIP_REASON, fresh_backend, postgres_base_url

pytestmark = pytest.mark.skipif(postgres_base_url() is None, reason=POSTGRES_SKIP_REASON)

GAMES = 6
EXPIRIES = 3


@pytest.fixture
def url(tmp_path: Path) -> Iterator[str]:
    with fresh_backend("postgres", tmp_path) as backend:
        yield backend.location


def expired(client: TestClient[Litestar], game_id: str) -> list[dict[str, Any]]:
    return [e for e in events(client, game_id) if e["type"] == "clock_expired"]


def test_two_servers_record_each_expiry_once(url: str) -> None:
    clock = FakeClock()
    settings = Settings(
        db_path=url, scheduler_poll_seconds=0.02, bot_workers=0, sse_poll_seconds=0.05
    )
    with ExitStack() as stack:
        a, b = (
            stack.enter_context(TestClient(app=create_app(settings, clock=clock))) for _ in range(2)
        )
        body = {
            "game": "deck-of-spies",
            "clock": {"turn_seconds": 10, "on_timeout": "bot", "timeout_bot": "random"},
        }
        ids = [create(a if i % 2 else b, body)["id"] for i in range(GAMES)]
        for expiry in range(1, EXPIRIES + 1):
            clock.advance(10.5)  # every game's deadline passes for both servers at once
            for game_id in ids:
                wait_for(
                    lambda g=game_id, n=expiry: len(expired(a, g)) >= n,
                    f"expiry {expiry} of {game_id}",
                )
            # both servers have seen the deadline and raced for it (ten rounds each)
            clock.looked_at(10, by=2)
            for client in (a, b):
                for game_id in ids:
                    found = expired(client, game_id)
                    assert [e["timeouts"] for e in found] == list(range(1, expiry + 1))
                    # one forced move per expiry, right after it: never a second one
                    logged = events(client, game_id)
                    for event in found:
                        nxt = [e for e in logged if e["seq"] == event["seq"] + 1]
                        assert nxt and nxt[0]["type"] not in ("clock_expired", "clocks_resumed")
    store = open_store(url)
    try:
        reports = verify_all(store, bots=REGISTERED_BOTS)
    finally:
        store.close()
    assert len(reports) == GAMES
    assert all(report.ok for report in reports), [r.problem for r in reports if not r.ok]
