"""Crashes: the server is killed with SIGKILL while clients submit commands, and restarted.

Each cycle: clients play several games as fast as they can (each command with an
``Idempotency-Key``), the server gets SIGKILL once enough commands were acknowledged, and a
new server starts on the same database (a SQLite file; and a PostgreSQL database when
``SPIES_TEST_POSTGRES_URL`` is set). Then:

- every acknowledged command's events are in the log at the acknowledged seqs, exactly as
  its answer gave them (the caller's redaction of the stored events);
- no command is half applied: each acknowledged batch ends where the answer said (the next
  row, if any, starts another command), and ``spies-replay verify --all`` (the real console
  script) re-runs every command from the seed and finds each batch whole;
- a request that was in flight when the server died, retried with its key, appends at most
  once (its stored answer, or a first application, or a conflict);
- play goes on.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from spies_api.schemas import event_out
from spies_core.registry import GAMES
from spies_replay.reading import read_events, redact_for
from spies_replay.store.backends import open_store
from spies_replay.store.locations import is_postgres_url
from spies_replay.store.protocols import EventStore
from tests.support.backends import BACKENDS, fresh_backend
from tests.support.logs import verify_with_console_script
from tests.support.servers import ServerProcess

from .figures import record

GUARANTEE = "crashes"
CYCLES = 4
ACKS_PER_CYCLE = 60
GAMES_PLAYED = [("black-spy", 3), ("black-spy", 6), ("spies-and-lies", 2), ("deck-of-spies", 1)]


@dataclass
class Ack:
    game_id: str
    seat: int
    before: int
    answer: dict[str, Any]


@dataclass
class Ledger:
    """What the clients saw: acknowledged commands and requests without an answer."""

    acks: list[Ack] = field(default_factory=list)
    in_flight: list[tuple[str, dict[str, str], dict[str, Any]]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    enough: threading.Event = field(default_factory=threading.Event)
    target: int = 0


def play(base: str, game: dict[str, Any], ledger: Ledger, rng: random.Random, tag: str) -> None:
    """Play ``game`` until it ends or the server dies, recording every answer."""
    tokens = [seat["token"] for seat in game["seats"]]
    with httpx.Client(base_url=base, timeout=30) as http:
        for turn in range(10_000):
            try:
                summary = http.get(f"/games/{game['id']}").json()
                if summary["status"] != "active":
                    return
                seat = rng.choice(summary["to_act"])
                auth = {"Authorization": f"Bearer {tokens[seat]}"}
                legal = http.get(f"/games/{game['id']}/legal", headers=auth).json()
                if not legal["commands"]:
                    continue
                body = {
                    "command": rng.choice(legal["commands"]),
                    "expected_version": legal["version"],
                }
                headers = {**auth, "Idempotency-Key": f"{tag}-{turn}"}
                pending = (game["id"], headers, body)
                with ledger.lock:
                    ledger.in_flight.append(pending)
                response = http.post(f"/games/{game['id']}/commands", headers=headers, json=body)
            except httpx.TransportError:
                return  # the server is gone
            with ledger.lock:
                ledger.in_flight.remove(pending)
                if response.status_code == 200:
                    ledger.acks.append(Ack(game["id"], seat, legal["version"], response.json()))
                    if len(ledger.acks) >= ledger.target:
                        ledger.enough.set()
                else:
                    assert response.status_code == 409, response.text  # only races with itself


def stored_view(store: EventStore, ack: Ack) -> tuple[list[dict[str, Any]], list[tuple[int, Any]]]:
    """The acknowledged command's events as the log now holds them, redacted as the answer
    was, and the (seq, command) of the rows from its first seq to one past its last."""
    record_ = store.get_game(ack.game_id)
    spec = GAMES[record_.game]
    stored = read_events(store, ack.game_id, after=ack.before)
    rows = store.read_rows(ack.game_id, after=ack.before, upto=ack.answer["version"] + 1)
    finished = ack.answer["status"] == "finished"
    sent = []
    for event in stored:
        if event.seq > ack.answer["version"]:
            break
        shown = event.event if finished else redact_for(spec, event.event, ack.seat)
        if shown is not None:
            sent.append(
                msgspec.json.decode(
                    msgspec.json.encode(event_out(shown, event.seq, event.recorded_at))
                )
            )
    return sent, [(row.seq, row.command) for row in rows]


def check_log(db: Path | str, ledger: Ledger) -> int:
    """Every acknowledged command whole and at its seqs; returns how many were checked."""
    with open_store(db, create=False) as store:  # one store for the whole check, as a reader
        for ack in ledger.acks:
            sent, rows = stored_view(store, ack)
            assert sent == ack.answer["events"], f"acknowledged events of {ack.game_id} changed"
            version = ack.answer["version"]
            assert [seq for seq, _ in rows][: version - ack.before] == list(
                range(ack.before + 1, version + 1)
            )
            assert rows[0][1] is not None, "an acknowledged batch does not start with its command"
            if len(rows) > version - ack.before:  # the next row starts another command
                assert rows[-1][1] is not None, "a batch goes on past its acknowledged end"
        for record_ in store.list_games(limit=1_000_000).games:
            seqs = [row.seq for row in store.read_rows(record_.id)]
            assert seqs == list(range(1, record_.version + 1)), (
                f"{record_.id}: a gap or a torn append"
            )
    return len(ledger.acks)


@pytest.fixture(params=BACKENDS)
def crash_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The database the server is killed over: a SQLite file, or a fresh PostgreSQL schema."""
    with fresh_backend(request.param, tmp_path) as backend:
        yield backend.location


def test_every_acknowledged_command_survives_sigkill(
    tmp_path: Path, servers: list[ServerProcess], crash_db: str
) -> None:
    db = crash_db
    server = ServerProcess(db, tmp_path / "server.log")
    servers.append(server)
    ledger = Ledger()
    games: list[dict[str, Any]] = []
    rng = random.Random(99)
    retried = replayed_after_crash = 0
    for cycle in range(CYCLES):
        server.start()
        with httpx.Client(base_url=server.base, timeout=30) as http:
            # in-flight requests of the last crash, retried with their keys: at most once
            for game_id, headers, body in ledger.in_flight:
                before = http.get(f"/games/{game_id}").json()["version"]
                again = http.post(f"/games/{game_id}/commands", headers=headers, json=body)
                retried += 1
                assert again.status_code in {200, 409, 422}, again.text
                if again.status_code == 200 and again.headers.get("idempotent-replayed") == "true":
                    replayed_after_crash += 1
                    assert again.json()["version"] <= before
            ledger.in_flight.clear()
            # play goes on after a restart, in old games and new ones
            for name, players in GAMES_PLAYED:
                created = http.post("/games", json={"game": name, "players": players}).json()
                games.append(created)
        ledger.target = len(ledger.acks) + ACKS_PER_CYCLE
        ledger.enough.clear()
        active = [
            g
            for g in games
            if httpx.get(f"{server.base}/games/{g['id']}").json()["status"] == "active"
        ]
        players_ = [
            threading.Thread(
                target=play,
                args=(
                    server.base,
                    game,
                    ledger,
                    random.Random(rng.random()),
                    f"c{cycle}-{game['id']}",
                ),
            )
            for game in active
        ]
        for thread in players_:
            thread.start()
        reached = ledger.enough.wait(timeout=300)
        server.kill()  # SIGKILL, mid-stream
        for thread in players_:
            thread.join(timeout=60)
        assert reached, "the clients did not get enough commands acknowledged"
        # a new server on the same file: the log is whole
        checked = check_log(db, ledger)
        verify_with_console_script(db)
    server.start()
    with httpx.Client(base_url=server.base, timeout=30) as http:
        moved = 0
        for game in games:
            summary = http.get(f"/games/{game['id']}").json()
            if summary["status"] != "active":
                continue
            seat = summary["to_act"][0]
            auth = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
            legal = http.get(f"/games/{game['id']}/legal", headers=auth).json()
            response = http.post(
                f"/games/{game['id']}/commands",
                headers=auth,
                json={"command": legal["commands"][0]},
            )
            assert response.status_code == 200, response.text
            moved += 1
        assert moved > 0
    server.stop()
    verify_with_console_script(db)
    record(
        GUARANTEE,
        "test_crash.py::test_every_acknowledged_command_survives_sigkill"
        + ("[postgres]" if is_postgres_url(db) else ""),
        crashes_survived=CYCLES,
        acknowledged_commands_checked=checked,
        in_flight_retried=retried,
        in_flight_found_applied=replayed_after_crash,
        games=len(games),
    )
