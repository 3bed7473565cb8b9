"""Races: many clients submitting at the same version, in one process and across two
server processes sharing one database (a SQLite file; and a PostgreSQL database when
``SPIES_TEST_POSTGRES_URL`` is set).

For every race: exactly one command is accepted, every other one is 409 ``version-conflict``
naming the new version; the log's seqs run 1, 2, 3, ... with no gap and no duplicate, and each
accepted command's events sit at the seqs its answer gave. Idempotent retries (the same
``Idempotency-Key`` and body, sent at once to both servers) all get the first answer and
append once, also after both servers restart.
"""

from __future__ import annotations

import dataclasses
import io
import random
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings, create_app
from spies_api.app import service_of
from spies_api.game import IdempotencyRequest, create_game, submit_command
from spies_core.registry import GAMES
from spies_replay.cli import main as replay_cli
from spies_replay.errors import IdempotencyKeyExistsError
from spies_replay.store.backends import open_store
from spies_replay.store.locations import is_postgres_url
from spies_replay.store.sqlite import SQLiteEventStore
from tests.support.api import new_game
from tests.support.backends import BACKENDS, fresh_backend
from tests.support.servers import ServerProcess

from .figures import record

GUARANTEE = "races"
CLIENTS = 12
ROUNDS = 12
IDEMPOTENT_ROUNDS = 8


def contiguous_seqs(db: Path | str, game_id: str) -> list[int]:
    """The game's seqs as stored, checked to run 1..version with no gap or duplicate."""
    with open_store(db, create=False) as store:
        seqs = [row.seq for row in store.read_rows(game_id)]
        version = store.get_game(game_id).version
    assert seqs == list(range(1, version + 1)), "a gap or a duplicate seq"
    return seqs


def verify_all(db: Path | str) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert replay_cli(["--db", str(db), "verify", "--all"], stdout=out, stderr=err) == 0, (
        out.getvalue()
    )


class Race:
    """Submissions at one expected version from many threads, released together."""

    def __init__(self, post: Any) -> None:
        self.post = post  # post(server_index, url, headers, body) -> (status, json, headers)

    def run(self, entries: list[tuple[int, str, dict[str, str], dict[str, Any]]]) -> list[Any]:
        barrier = threading.Barrier(len(entries))

        def go(entry: tuple[int, str, dict[str, str], dict[str, Any]]) -> Any:
            barrier.wait()
            return self.post(*entry)

        with ThreadPoolExecutor(len(entries)) as pool:
            return list(pool.map(go, entries))


def _candidates(get: Any, created: dict[str, Any]) -> tuple[int, list[tuple[dict[str, str], Any]]]:
    """The game's version and every (seat headers, legal command) pair now."""
    game_id = created["id"]
    summary = get(f"/games/{game_id}")
    pairs = []
    for seat in summary["to_act"]:
        headers = {"Authorization": f"Bearer {created['seats'][seat]['token']}"}
        legal = get(f"/games/{game_id}/legal", headers)
        assert legal["version"] == summary["version"]
        pairs += [(headers, command) for command in legal["commands"]]
    return summary["version"], pairs


def race_rounds(
    get: Any, race: Race, created: dict[str, Any], servers: int, rounds: int, rng: random.Random
) -> dict[str, int]:
    """``rounds`` races of CLIENTS different commands at one version; returns the figures."""
    accepted_total = conflicts_total = 0
    url = f"/games/{created['id']}/commands"
    for _ in range(rounds):
        version, pairs = _candidates(get, created)
        if not pairs:
            break
        entries = []
        for index in range(CLIENTS):
            headers, command = pairs[rng.randrange(len(pairs))]
            # the strict check: one command wins each version, whichever seat sends it
            body = {"command": command, "expected_game_version": version}
            entries.append((index % servers, url, headers, body))
        results = race.run(entries)
        accepted = [body for status, body, _ in results if status == 200]
        refused = [body for status, body, _ in results if status != 200]
        assert len(accepted) == 1, [status for status, _, _ in results]
        new_version = accepted[0]["version"]
        assert new_version > version
        for problem in refused:
            assert problem["code"] == "version-conflict", problem
            assert problem["current_version"] == new_version
        seqs = [event["seq"] for event in accepted[0]["events"]]
        assert seqs == sorted(set(seqs)) and all(version < s <= new_version for s in seqs)
        accepted_total += 1
        conflicts_total += len(refused)
    return {"races": accepted_total, "accepted": accepted_total, "conflicts": conflicts_total}


def idempotent_rounds(
    get: Any, race: Race, created: dict[str, Any], servers: int, rounds: int, rng: random.Random
) -> list[tuple[dict[str, str], dict[str, Any], dict[str, Any]]]:
    """Rounds where every client sends the same command with the same key; returns
    (headers, body, answer) of each round, for retries later."""
    url = f"/games/{created['id']}/commands"
    done = []
    for round_index in range(rounds):
        version, pairs = _candidates(get, created)
        if not pairs:
            break
        seat_headers, command = pairs[rng.randrange(len(pairs))]
        key = f"retry-{created['id']}-{round_index}"
        headers = {**seat_headers, "Idempotency-Key": key}
        body = {"command": command, "expected_version": version}
        results = race.run([(index % servers, url, headers, body) for index in range(CLIENTS)])
        assert {status for status, _, _ in results} == {200}, [r[1] for r in results if r[0] != 200]
        answers = [answer for _, answer, _ in results]
        assert all(answer == answers[0] for answer in answers)
        replayed = [h.get("idempotent-replayed") for _, _, h in results]
        assert replayed.count(None) == 1, "exactly one request appended"
        after = get(f"/games/{created['id']}")["version"]
        assert after == answers[0]["version"], "appended more than once"
        done.append((headers, body, answers[0]))
    return done


# -- one process ---------------------------------------------------------------------------------


def test_races_within_one_process(client: TestClient[Litestar], settings: Any) -> None:
    def get(path: str, headers: dict[str, str] | None = None) -> Any:
        return client.get(path, headers=headers).json()

    def post(_: int, url: str, headers: dict[str, str], body: Any) -> Any:
        response = client.post(url, headers=headers, json=body)
        return response.status_code, response.json(), dict(response.headers)

    race = Race(post)
    game = new_game(client, "black-spy", 6, seed="races-in-process")
    rng = random.Random(11)
    figures = race_rounds(get, race, game.created, 1, ROUNDS, rng)
    retries = idempotent_rounds(get, race, game.created, 1, IDEMPOTENT_ROUNDS, rng)
    contiguous_seqs(Path(settings.db_path), game.id)
    verify_all(Path(settings.db_path))
    assert figures["races"] == ROUNDS and len(retries) == IDEMPOTENT_ROUNDS
    record(
        GUARANTEE,
        "test_races.py::test_races_within_one_process",
        clients_per_race=CLIENTS,
        **figures,
        idempotent_races=len(retries),
        idempotent_requests=len(retries) * CLIENTS,
    )


# -- two processes, one file ---------------------------------------------------------------------


@pytest.fixture(params=BACKENDS)
def shared_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """One database for two server processes: a SQLite file, or a fresh PostgreSQL schema."""
    with fresh_backend(request.param, tmp_path) as backend:
        yield backend.location


def test_races_across_two_server_processes_and_a_restart(
    tmp_path: Path, servers: list[ServerProcess], shared_db: str
) -> None:
    db = shared_db
    pair = [ServerProcess(db, tmp_path / f"server-{n}.log") for n in range(2)]
    for server in pair:
        servers.append(server.start())
    clients = [httpx.Client(base_url=server.base, timeout=60) for server in pair]
    try:

        def get(path: str, headers: dict[str, str] | None = None) -> Any:
            response = clients[0].get(path, headers=headers)
            assert response.status_code == 200, response.text
            return response.json()

        def post(index: int, url: str, headers: dict[str, str], body: Any) -> Any:
            response = clients[index].post(url, headers=headers, json=body)
            return response.status_code, response.json(), dict(response.headers)

        race = Race(post)
        rng = random.Random(12)
        created = clients[1].post("/games", json={"game": "black-spy", "players": 6}).json()
        figures = race_rounds(get, race, created, 2, ROUNDS, rng)
        retries = idempotent_rounds(get, race, created, 2, IDEMPOTENT_ROUNDS, rng)
        contiguous_seqs(db, created["id"])
        version = get(f"/games/{created['id']}")["version"]

        # both servers restart; every retry still gets its first answer and appends nothing
        for client in clients:
            client.close()
        for server in pair:
            server.stop()
        for server in pair:
            server.start()
        clients = [httpx.Client(base_url=server.base, timeout=60) for server in pair]
        url = f"/games/{created['id']}/commands"
        for headers, body, answer in retries:
            results = race.run([(index % 2, url, headers, body) for index in range(4)])
            for status, again, response_headers in results:
                assert status == 200 and again == answer
                assert response_headers.get("idempotent-replayed") == "true"
        assert get(f"/games/{created['id']}")["version"] == version
        # and the races go on after the restart
        after_restart = race_rounds(get, race, created, 2, 3, rng)
        contiguous_seqs(db, created["id"])
    finally:
        for client in clients:
            client.close()
        for server in pair:
            server.stop()
    verify_all(db)
    on = "" if not is_postgres_url(db) else "[postgres]"
    record(
        GUARANTEE,
        f"test_races.py::test_races_across_two_server_processes_and_a_restart{on}",
        clients_per_race=CLIENTS,
        races=figures["races"] + after_restart["races"],
        accepted=figures["accepted"] + after_restart["accepted"],
        conflicts=figures["conflicts"] + after_restart["conflicts"],
        idempotent_races=len(retries),
        idempotent_requests=len(retries) * CLIENTS,
        retries_after_restart=len(retries) * 4,
    )


# -- the window between looking up a key and appending ---------------------------------------


def test_a_retry_racing_its_first_attempt_in_another_process_gets_its_answer(
    tmp_path: Path,
) -> None:
    """Process B looks the key up (absent), then process A appends with the same key while B
    decides; B's append must answer with A's stored response, not a version conflict.

    Before the fix, the store checked the version first, so the retry got 409 although its
    own first attempt had succeeded."""
    db = tmp_path / "window.db"
    spec = GAMES["black-spy"]
    first = SQLiteEventStore(db)
    created = create_game(first, "black-spy", 3, seed="window")
    state, version = created.state, created.record.version
    command = spec.legal_commands(state, 0)[0]
    answers: list[Any] = []

    def decide_while_a_appends(*args: Any) -> Any:
        if not answers:  # process A's attempt lands now, with the same key
            answers.append(
                submit_command(
                    first,
                    created.record.id,
                    0,
                    command,
                    idempotency=IdempotencyRequest("same-key", "fingerprint"),
                )
            )
        return spec.decide(*args)

    racing = dataclasses.replace(spec, decide=decide_while_a_appends)
    second = SQLiteEventStore(db)
    try:
        with pytest.raises(IdempotencyKeyExistsError) as raised:
            submit_command(
                second,
                created.record.id,
                0,
                command,
                state=state,
                version=version,
                idempotency=IdempotencyRequest("same-key", "fingerprint"),
                games={**GAMES, "black-spy": racing},
            )
        stored = msgspec.json.decode(raised.value.record.result)
        assert stored["version"] == answers[0].version
        assert second.get_game(created.record.id).version == answers[0].version
    finally:
        first.close()
        second.close()


def test_the_api_answers_a_racing_retry_with_the_stored_response(tmp_path: Path) -> None:
    """The same window through the API: two apps (two processes) on one file."""
    settings = Settings(db_path=tmp_path / "api-window.db", log_json=True)
    app_a, app_b = create_app(settings), create_app(settings)
    with TestClient(app=app_a) as client_a, TestClient(app=app_b) as client_b:
        game = new_game(client_a, "black-spy", 3, seed="api-window")
        legal = client_a.get(game.url("/legal"), headers=game.seats[0]).json()
        headers = {**game.seats[0], "Idempotency-Key": "k"}
        body = {"command": legal["commands"][0], "expected_game_version": legal["version"]}
        client_b.get(game.url("/view"), headers=game.seats[0])  # B has the state cached
        recorder = service_of(app_b).recorder
        answers: list[Any] = []

        def a_lands_first(append: Any) -> Any:
            async def landing(batch: Any) -> Any:
                if not answers:  # B decided on its cached state; now A's attempt lands
                    landed = client_a.post(game.url("/commands"), headers=headers, json=body)
                    assert landed.status_code == 200
                    answers.append(landed.json())
                return await append(batch)

            return landing

        recorder.append = a_lands_first(recorder.append)  # type: ignore[method-assign]
        retry = client_b.post(game.url("/commands"), headers=headers, json=body)
        assert retry.status_code == 200, retry.text
        assert retry.json() == answers[0]
        assert retry.headers["idempotent-replayed"] == "true"
        assert client_a.get(game.url()).json()["version"] == answers[0]["version"]
