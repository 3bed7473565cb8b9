"""The scheduler's due work, one failure at a time.

Each test makes one call fail once or twice (:class:`tests.support.faults.Faults`), or the
rules refuse a bot's legal command, and reads the index of due work only once an hour
(``scheduler_poll_seconds``), so that nothing but the scheduler's own retries can move the
game on: a bot's command refused as ``database-busy``, another process's game due as its
notice tells (no read of its mark) whose fold fails once, a rules refusal (logged once, the
``random`` bot moving instead), and a clocked game with no bot seat, whose first deadline
the scheduler learns of at its creation.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import msgspec
import pytest
import structlog
from litestar import Litestar
from litestar.testing import TestClient
from prometheus_client import REGISTRY

from spies_api import Settings, create_app
from spies_api.app import Runtime
from spies_api.schemas import CreateGameRequest
from spies_api.table.due import RETRY_FIRST_SECONDS, RETRY_MAX_SECONDS, DueQueue, backoff
from spies_core.errors import RuleError
from spies_replay.marks import parse_bot_mark
from tests.support.api import create, finished, wait_for
from tests.support.clocks import FastClock
from tests.support.faults import Faults, faulty_open_store

BOTS = {"game": "spies-and-lies", "seats": [{"type": "bot", "bot": "random"}] * 2}


@pytest.fixture
def faults(monkeypatch: pytest.MonkeyPatch) -> Faults:
    found = Faults()
    monkeypatch.setattr("spies_api.app.open_store", faulty_open_store(found))
    return found


@pytest.fixture
def hourly(settings: Settings) -> Settings:
    """Bots in this process, the index of due work read once an hour, metrics on."""
    return replace(settings, bot_workers=0, scheduler_poll_seconds=3600, metrics=True)


@pytest.fixture
def app(hourly: Settings) -> Litestar:
    return create_app(hourly)


@pytest.fixture
def logs(app: Litestar) -> Iterator[list[dict[str, Any]]]:
    """The log lines of the test (captured once ``app`` has configured structlog)."""
    with structlog.testing.capture_logs() as captured:
        yield captured


def retried(work: str, code: str) -> float:
    value = REGISTRY.get_sample_value("spies_due_retries_total", {"work": work, "code": code})
    return value or 0.0


def bot_marks(client: TestClient[Litestar], game_id: str) -> list[str]:
    export = client.get(f"/games/{game_id}/export").content.splitlines()
    lines = [msgspec.json.decode(line) for line in export[1:]]
    return [parse_bot_mark(line["bot"]).name for line in lines if line.get("bot")]


def test_a_bots_command_refused_as_busy_is_tried_again_unlogged(
    faults: Faults, app: Litestar, logs: list[dict[str, Any]]
) -> None:
    before = retried("bot_move", "database-busy")
    # the first bot command's append (through the store's recorder) is refused as busy
    faults.fail_next("append")
    with TestClient(app) as client:
        game_id = create(client, BOTS)["id"]
        finished(client, game_id)
    assert faults.forced["append"] == 0
    assert retried("bot_move", "database-busy") == before + 1
    assert [line for line in logs if line["event"] == "bot_failed"] == []
    assert [line for line in logs if line.get("code") == "database-busy"] == []


def test_another_processs_game_is_due_as_its_notice_tells_without_a_read(
    faults: Faults, hourly: Settings, app: Litestar, logs: list[dict[str, Any]]
) -> None:
    """Another process's append is heard with the game's due mark: kept as told, never read
    from the store (a query per remote append made each process dearer with every process
    added); the load of the game's head to play it fails once, and is retried."""
    before = retried("load", "database-busy")
    with TestClient(app) as client:
        # the scheduler runs (it has read the index of due work, once for the hour)
        finished(client, create(client, BOTS)["id"])
        # another process creates an all-bot game on the same file: this server hears of it
        # from the store's watch, with its due mark (now: a bot is to act)
        reads = faults.calls["due_at"]
        faults.fail_next("head_row")  # the load of the game's head, to play it: fails once
        other = Runtime.open(replace(hourly, configure_logging=False))
        try:
            created = other.creator.create(msgspec.convert(BOTS, CreateGameRequest))
        finally:
            other.close()
        # (not read over HTTP before: that would cache its head here)
        wait_for(lambda: faults.forced["head_row"] == 0, "the scheduler to load the game")
        finished(client, created.id)  # retried: the scheduler lives on
    assert faults.calls["due_at"] == reads  # the notice told the due mark: no read of it
    assert retried("load", "database-busy") == before + 1
    assert [line for line in logs if line["event"] == "bot_failed"] == []


def test_a_rules_refusal_is_logged_once_and_the_random_bot_moves_instead(
    monkeypatch: pytest.MonkeyPatch, app: Litestar, logs: list[dict[str, Any]]
) -> None:
    from spies_api.service import commands

    decided = commands.prepare_command

    def refusing(*args: Any, bot: str | None = None, **options: Any) -> Any:
        if bot is not None and parse_bot_mark(bot).name == "greedy":
            raise RuleError("the rules refuse it (a bug the test makes)")
        return decided(*args, bot=bot, **options)

    monkeypatch.setattr(commands, "prepare_command", refusing)
    seats = [{"type": "bot", "bot": "greedy"}, {"type": "bot", "bot": "random"}]
    with TestClient(app) as client:
        game_id = create(client, {"game": "spies-and-lies", "seats": seats})["id"]
        finished(client, game_id)
        moves = bot_marks(client, game_id)
    assert set(moves) == {"random"}  # greedy's every move was refused: random's played
    failed = [line for line in logs if line["event"] == "bot_failed"]
    # once per refused move: seat 0's moves, each refused once and logged once
    assert 0 < len(failed) < len(moves)
    assert {(line["seat"], line["bot"], line["reason"]) for line in failed} == {
        (0, "greedy", "illegal-command")
    }
    assert len({line["version"] for line in failed}) == len(failed)


def test_a_clocked_game_without_bots_is_timed_from_its_creation(hourly: Settings) -> None:
    clock = {"turn_seconds": 3, "on_timeout": "bot", "timeout_bot": "random"}
    # 3 s of the server's clock are 0.3 s of the test's
    with TestClient(create_app(hourly, clock=FastClock(speed=10))) as client:
        finished(client, create(client, BOTS)["id"])  # the scheduler runs: its index is read
        game_id = create(client, {"game": "deck-of-spies", "clock": clock})["id"]
        wait_for(
            lambda: any(
                event["type"] == "clock_expired"
                for event in client.get(f"/games/{game_id}/events").json()["events"]
            ),
            "the first deadline to be recorded",
        )


@pytest.mark.parametrize("failures", [1, 2, 5, 10, 100])
def test_the_backoff_grows_and_is_bounded(failures: int) -> None:
    rng = random.Random(failures)
    waits = [backoff(failures, RETRY_FIRST_SECONDS, RETRY_MAX_SECONDS, rng) for _ in range(50)]
    ceiling = min(RETRY_MAX_SECONDS, RETRY_FIRST_SECONDS * 2 ** (failures - 1))
    assert all(ceiling / 2 <= wait <= ceiling for wait in waits)
    assert len(set(waits)) > 1  # jitter: games stopped together come back apart


def test_the_due_queue_keeps_one_mark_a_game_soonest_first_and_holds_busy_games() -> None:
    queue = DueQueue()
    queue.mark("a", "2026-01-01T00:00:03Z")
    queue.mark("b", "2026-01-01T00:00:02Z")
    queue.mark("a", "2026-01-01T00:00:01Z")  # replaces a's mark
    queue.mark("c", "2026-01-01T00:00:01Z")
    queue.mark("c", None)  # nothing due on c any more
    assert queue.soonest() == "2026-01-01T00:00:01Z"
    assert queue.take("2026-01-01T00:00:02Z", busy={"b"}) == ["a"]
    assert queue.take("2026-01-01T00:00:09Z", busy=set()) == ["b"]  # a's old mark is gone
    assert queue.soonest() is None


def test_store_errors_say_whether_they_pass() -> None:
    from spies_api.table.bots import BotWorkerLostError
    from spies_replay import errors

    assert errors.is_transient(errors.StoreBusyError("x"))
    assert errors.is_transient(errors.StoreUnavailableError("x", "lost"))
    assert errors.is_transient(errors.StoreFullError("x"))
    assert errors.is_transient(BotWorkerLostError())
    assert not errors.is_transient(errors.StoreClosedError("x"))
    assert not errors.is_transient(errors.VersionConflictError("g", 1, 2))
    assert not errors.is_transient(RuleError("no"))
    assert not errors.is_transient(ValueError("no"))
