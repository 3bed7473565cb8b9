"""Due work survives transient faults.

The store (SQLite, and PostgreSQL when ``SPIES_TEST_POSTGRES_URL`` is set) refuses a random
fraction of its appends and loads with its transient errors (``database-busy``,
``store-unavailable``), and some appends commit but answer ``store-unavailable`` (a lost
connection): :mod:`tests.support.faults`. Meanwhile whole games run: all-bot games with and
without a clock, a person against a bot, and a person who never plays under a short clock
(timeouts, the time control's bot's forced move, then the seat abandoned to it). Every game
finishes, the person's commands are each in the log once, ``spies-replay verify --all``
passes, and no line is logged per retry: the retries are counted in the metrics.
"""

from __future__ import annotations

import io
import itertools
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
import structlog
from litestar import Litestar
from litestar.testing import TestClient
from prometheus_client import REGISTRY

from spies_api import Settings, create_app
from spies_replay.cli import main as replay_main
from tests.support.backends import BACKENDS, fresh_backend
from tests.support.clocks import FastClock
from tests.support.faults import Faults, faulty_open_store
from tests.support.waiting import until

pytestmark = pytest.mark.slow

S_AND_L_BOTS = {"game": "spies-and-lies", "seats": [{"type": "bot", "bot": "random"}] * 2}
KINDS: list[tuple[str, dict[str, Any]]] = [
    ("bots", S_AND_L_BOTS),
    ("bots", S_AND_L_BOTS),
    ("bots", {"game": "deck-of-spies", "seats": [{"type": "bot", "bot": "random"}]}),
    (
        "bots",
        {
            **S_AND_L_BOTS,
            "clock": {"turn_seconds": 60, "on_timeout": "bot", "timeout_bot": "random"},
        },
    ),
    (
        "person",
        {
            "game": "spies-and-lies",
            "seats": [{"type": "creator"}, {"type": "bot", "bot": "random"}],
        },
    ),
    (
        "absent",  # a person who never plays: timed out, a forced move, then abandoned
        {
            "game": "deck-of-spies",
            "seats": [{"type": "creator"}],
            "clock": {
                "turn_seconds": 3,  # 0.3 s of real time (FastClock)
                "on_timeout": "bot",
                "timeout_bot": "random",
                "abandon_after": 2,
            },
        },
    ),
]
GAMES = KINDS * 2
TRANSIENT = (503, 507)
STORE_CODES = {"database-busy", "store-unavailable", "storage-full"}
PATIENCE = 180.0
ANSWERED: list[int] = []
"""The test client's requests answered 503 or 507 (each is logged once, ``store_failed``
for an unavailable store: the answer to a request, not a retry)."""


@pytest.fixture(params=BACKENDS)
def location(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with fresh_backend(request.param, tmp_path) as backend:
        yield backend.location


def call(client: TestClient[Litestar], method: str, url: str, **options: Any) -> httpx.Response:
    """A request, sent again while the server answers that its database failed (as a client
    is told to by ``Retry-After``)."""
    for _ in range(1000):
        response = client.request(method, url, **options)
        if response.status_code not in TRANSIENT:
            return response
        ANSWERED.append(response.status_code)
    raise AssertionError(f"{method} {url}: the database never answered")


def retries() -> dict[tuple[str, str], float]:
    """The scheduler's retries of due work counted so far, by work and code."""
    counted: dict[tuple[str, str], float] = {}
    for metric in REGISTRY.collect():
        if metric.name == "spies_due_retries":
            for sample in metric.samples:
                if sample.name.endswith("_total"):
                    key = (sample.labels["work"], sample.labels["code"])
                    counted[key] = sample.value
    return counted


class Person:
    """Plays seat 0 of a game with random legal commands, one ``Idempotency-Key`` each."""

    def __init__(self, game_id: str, token: str, seed: int) -> None:
        self.game_id = game_id
        self.auth = {"Authorization": f"Bearer {token}"}
        self.rng = random.Random(seed)
        self.sent: list[str] = []
        self._keys = (f"{game_id}-{n}" for n in itertools.count())

    def play(self, client: TestClient[Litestar], summary: dict[str, Any]) -> None:
        if 0 not in summary["to_act"]:
            return
        legal = call(client, "GET", f"/games/{self.game_id}/legal", headers=self.auth).json()
        if not legal["commands"]:
            return
        key = next(self._keys)
        body = {"command": self.rng.choice(legal["commands"]), "expected_version": legal["version"]}
        answer = call(
            client,
            "POST",
            f"/games/{self.game_id}/commands",
            json=body,
            headers={**self.auth, "Idempotency-Key": key},
        )
        if answer.status_code == 200:
            self.sent.append(key)
        else:  # a bot moved between our read and our command
            assert answer.status_code == 409, answer.text


@pytest.mark.parametrize(("rate", "lost_commits"), [(0.05, 0.02), (0.25, 0.05)])
def test_every_game_finishes_while_the_store_fails_at_random(
    monkeypatch: pytest.MonkeyPatch, location: str, rate: float, lost_commits: float
) -> None:
    faults = Faults(rate=rate, lost_commits=lost_commits, seed=33)
    monkeypatch.setattr("spies_api.app.open_store", faulty_open_store(faults))
    settings = Settings(
        db_path=location,
        bot_workers=0,
        # longer than the games take: what the scheduler retries, it retries itself (the
        # periodic read of the index of due work is for other processes' marks)
        scheduler_poll_seconds=60,
        sse_poll_seconds=0.05,
        metrics=True,
        log_json=True,
    )
    app = create_app(settings, clock=FastClock(speed=10))
    before = retries()
    ANSWERED.clear()
    with structlog.testing.capture_logs() as logs, TestClient(app) as client:
        games: dict[str, Person | None] = {}
        for number, (kind, body) in enumerate(GAMES):
            created = call(client, "POST", "/games", json=body)
            assert created.status_code == 201, created.text
            answer = created.json()
            games[answer["id"]] = (
                Person(answer["id"], answer["seats"][0]["token"], number)
                if kind == "person"
                else None
            )
        running = set(games)

        def all_finished() -> bool:
            for game_id in sorted(running):
                summary = call(client, "GET", f"/games/{game_id}").json()
                if summary["status"] == "finished":
                    running.discard(game_id)
                elif (person := games[game_id]) is not None:
                    person.play(client, summary)
            return not running

        until(all_finished, timeout=PATIENCE, what=lambda: f"games to finish: {sorted(running)}")
        faults.on = False
        for game_id, person in games.items():
            if person is None:
                continue
            export = client.get(f"/games/{game_id}/export").content.splitlines()
            lines = [msgspec.json.decode(line) for line in export[1:]]
            mine = [
                line
                for line in lines
                if line["command"] is not None and line["actor"] == 0 and not line.get("bot")
            ]
            assert len(mine) == len(person.sent)  # each acknowledged command once, none lost
    # no line per retry: nothing at error or warning level but the answers to the client's
    # own requests, no bot failure, and no bot command refused for the store's sake
    warned = [line for line in logs if line["log_level"] in ("error", "warning")]
    assert [line for line in warned if line["event"] != "store_failed"] == []
    assert len(warned) <= len(ANSWERED)
    assert not any(line["event"] == "bot_failed" for line in logs)
    refused = [line for line in logs if line["event"] == "command_rejected" and "bot" in line]
    assert not [line for line in refused if line["code"] in STORE_CODES], refused
    # the retries are counted instead
    counted = retries()
    retried = {key: counted[key] - before.get(key, 0.0) for key in counted}
    assert sum(retried.values()) > 0 and faults.injected["database-busy"] > 0
    assert {code for (_, code), n in retried.items() if n} <= STORE_CODES
    out = io.StringIO()
    assert replay_main(["--db", location, "verify", "--all"], stdout=out, stderr=out) == 0, (
        out.getvalue()
    )
    by_work: Counter[str] = Counter()
    for (work, _), n in retried.items():
        by_work[work] += int(n)
    backend = "postgres" if location.startswith("postgresql") else "sqlite"
    print(  # the figures of docs/operations.md: pytest -s shows them
        f"\n{backend}, faults {rate:.0%} / lost commits {lost_commits:.0%}: {len(games)} of"
        f" {len(GAMES)} games finished; injected {sum(faults.injected.values())}"
        f" ({', '.join(f'{k} {v}' for k, v in sorted(faults.injected.items()))});"
        f" due work retried {by_work.total()}"
        f" ({', '.join(f'{k} {v}' for k, v in sorted(by_work.items()))})"
    )
