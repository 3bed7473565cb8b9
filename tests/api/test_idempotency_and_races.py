"""Idempotency keys, racing commands, the state cache and restarts."""

from __future__ import annotations

import random
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import msgspec
import pytest
import structlog.testing
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings, create_app
from spies_api.app import Runtime
from spies_api.game import loading, submit_command
from spies_api.service import states
from spies_api.settings import DEFAULTS, SettingsError, settings_from
from spies_core.registry import GAMES
from spies_replay.store.recorders import ThreadRecorder
from spies_replay.store.sqlite import SQLiteEventStore
from tests.support.api import assert_problem, new_game, play_turn
from tests.support.apps import open_app


def post(
    client: TestClient[Litestar], url: str, seat_headers: dict[str, str], body: Any, key: str
) -> Any:
    return client.post(url, headers={**seat_headers, "Idempotency-Key": key}, json=body)


# -- idempotency -----------------------------------------------------------------------------


def test_the_same_key_and_body_return_the_first_response_without_appending(
    client: TestClient[Litestar],
) -> None:
    game = new_game(client)
    legal = client.get(game.url("/legal"), headers=game.seats[0]).json()
    body = {"command": legal["commands"][0], "expected_version": legal["version"]}
    first = post(client, game.url("/commands"), game.seats[0], body, "key-1")
    assert first.status_code == 200 and "idempotent-replayed" not in first.headers
    version = client.get(game.url()).json()["version"]

    again = post(client, game.url("/commands"), game.seats[0], body, "key-1")
    assert again.status_code == 200
    assert again.json() == first.json()
    assert again.headers["idempotent-replayed"] == "true"
    assert client.get(game.url()).json()["version"] == version
    events = client.get(game.url("/events")).json()["events"]
    assert len(events) == version


def test_the_same_key_with_another_body_or_seat_is_422(client: TestClient[Litestar]) -> None:
    game = new_game(client, "black-spy", 3)
    legal = [client.get(game.url("/legal"), headers=game.seats[s]).json() for s in range(3)]
    body = {"command": legal[0]["commands"][0]}
    assert post(client, game.url("/commands"), game.seats[0], body, "k").status_code == 200
    version = client.get(game.url()).json()["version"]

    other_body = {"command": legal[0]["commands"][1]}
    response = post(client, game.url("/commands"), game.seats[0], other_body, "k")
    assert_problem(response, 422, "idempotency-key-reused")
    other_seat = {"command": legal[1]["commands"][0]}
    response = post(client, game.url("/commands"), game.seats[1], other_seat, "k")
    assert_problem(response, 422, "idempotency-key-reused")
    assert client.get(game.url()).json()["version"] == version

    # keys are per game: the same key on another game is a new key
    elsewhere = new_game(client, "black-spy", 3, seed="elsewhere")
    legal_elsewhere = client.get(elsewhere.url("/legal"), headers=elsewhere.seats[0]).json()
    response = post(
        client,
        elsewhere.url("/commands"),
        elsewhere.seats[0],
        {"command": legal_elsewhere["commands"][0]},
        "k",
    )
    assert response.status_code == 200


def test_a_refused_command_does_not_use_up_its_key(client: TestClient[Litestar]) -> None:
    game = new_game(client)
    bad = {"command": {"type": "counter", "cards": ["ZZ"]}}
    assert post(client, game.url("/commands"), game.seats[0], bad, "k").status_code == 422
    legal = client.get(game.url("/legal"), headers=game.seats[0]).json()
    good = {"command": legal["commands"][0]}
    assert post(client, game.url("/commands"), game.seats[0], good, "k").status_code == 200


@pytest.mark.parametrize("key", ["", "x" * (DEFAULTS.idempotency_key_max_length + 1)])
def test_unusable_keys_are_400(client: TestClient[Litestar], key: str) -> None:
    game = new_game(client)
    legal = client.get(game.url("/legal"), headers=game.seats[0]).json()
    response = post(
        client, game.url("/commands"), game.seats[0], {"command": legal["commands"][0]}, key
    )
    assert_problem(response, 400, "invalid-parameter")
    assert client.get(game.url()).json()["version"] == legal["version"]


def test_a_key_of_the_longest_length_is_accepted(client: TestClient[Litestar]) -> None:
    game = new_game(client)
    legal = client.get(game.url("/legal"), headers=game.seats[0]).json()
    body = {"command": legal["commands"][0]}
    key = "k" * DEFAULTS.idempotency_key_max_length
    assert post(client, game.url("/commands"), game.seats[0], body, key).status_code == 200
    again = post(client, game.url("/commands"), game.seats[0], body, key)
    assert again.headers["idempotent-replayed"] == "true"


@pytest.mark.parametrize(
    ("given", "env"),
    [
        ({"idempotency_key_max_length": "8"}, {}),
        ({}, {"SPIES_IDEMPOTENCY_KEY_MAX_LENGTH": "8"}),
    ],
    ids=["option", "environment"],
)
def test_the_key_length_limit_is_the_setting(
    settings: Settings, given: dict[str, object], env: dict[str, str]
) -> None:
    configured = settings_from(given, env, base=settings)
    assert configured.idempotency_key_max_length == 8
    with TestClient(app=create_app(configured)) as client:
        game = new_game(client)
        legal = client.get(game.url("/legal"), headers=game.seats[0]).json()
        body = {"command": legal["commands"][0]}
        response = post(client, game.url("/commands"), game.seats[0], body, "k" * 9)
        problem = assert_problem(response, 400, "invalid-parameter")
        assert "Idempotency-Key" in problem["detail"] and "1 to 8" in problem["detail"]
        assert post(client, game.url("/commands"), game.seats[0], body, "k" * 8).status_code == 200


def test_a_key_length_limit_below_one_is_refused() -> None:
    with pytest.raises(SettingsError, match="SPIES_IDEMPOTENCY_KEY_MAX_LENGTH='0'"):
        settings_from({}, {"SPIES_IDEMPOTENCY_KEY_MAX_LENGTH": "0"})
    with pytest.raises(ValueError, match="idempotency_key_max_length"):
        Settings(idempotency_key_max_length=0)


def test_idempotent_retries_survive_a_restart(settings: Settings) -> None:
    body: dict[str, Any]
    with TestClient(app=create_app(settings)) as client:
        game = new_game(client)
        legal = client.get(game.url("/legal"), headers=game.seats[0]).json()
        body = {"command": legal["commands"][0], "expected_version": legal["version"]}
        first = post(client, game.url("/commands"), game.seats[0], body, "restart")
        assert first.status_code == 200
    with TestClient(app=create_app(settings)) as client:
        again = post(client, game.url("/commands"), game.seats[0], body, "restart")
        assert again.status_code == 200 and again.json() == first.json()
        assert client.get(game.url()).json()["version"] == first.json()["version"]
        # and the game goes on from the log, with the same tokens
        play_turn(client, game, random.Random(1))


# -- races -----------------------------------------------------------------------------------


def test_racing_commands_at_one_version_exactly_one_is_accepted(
    client: TestClient[Litestar],
) -> None:
    game = new_game(client, "black-spy", 6)
    legal = [client.get(game.url("/legal"), headers=game.seats[s]).json() for s in range(6)]
    version = legal[0]["version"]
    barrier = threading.Barrier(12)

    def attempt(index: int) -> Any:
        seat = index % 6
        body = {"command": legal[seat]["commands"][index // 6], "expected_game_version": version}
        barrier.wait()
        return client.post(game.url("/commands"), headers=game.seats[seat], json=body)

    with ThreadPoolExecutor(12) as pool:
        responses = list(pool.map(attempt, range(12)))
    accepted = [r for r in responses if r.status_code == 200]
    refused = [r for r in responses if r.status_code != 200]
    assert len(accepted) == 1
    new_version = accepted[0].json()["version"]
    for response in refused:
        assert assert_problem(response, 409, "version-conflict")["current_version"] == new_version
    assert client.get(game.url()).json()["version"] == new_version


def test_commands_on_different_games_proceed_side_by_side(client: TestClient[Litestar]) -> None:
    games = [new_game(client, "deck-of-spies", seed=f"side-{i}") for i in range(6)]

    def play(index: int) -> int:
        rng = random.Random(index)
        for _ in range(5):
            play_turn(client, games[index], rng)
        version: int = client.get(games[index].url()).json()["version"]
        return version

    with ThreadPoolExecutor(6) as pool:
        versions = list(pool.map(play, range(6)))
    assert all(version > games[0].created["version"] for version in versions)


# -- the cache -------------------------------------------------------------------------------


def test_commands_do_not_refold_the_history(
    client: TestClient[Litestar], runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game(client, "black-spy", 3)
    rng = random.Random(2)
    play_turn(client, game, rng)
    calls: list[str] = []
    original = loading.load_state

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[1])
        return original(*args, **kwargs)

    monkeypatch.setattr(loading, "load_state", counting)
    for _ in range(40):
        play_turn(client, game, rng)
    assert calls == []
    assert len(runtime.states) >= 1


def test_the_cache_is_bounded_and_refilled_from_the_log(tmp_path: Any) -> None:
    settings = Settings(db_path=tmp_path / "small.db", cache_size=2, log_json=True)
    app, runtime = open_app(settings)
    with TestClient(app=app) as client:
        games = [new_game(client, "deck-of-spies", seed=f"c{i}") for i in range(5)]
        assert len(runtime.states) == 2
        rng = random.Random(0)
        for game in games:
            play_turn(client, game, rng)
        assert len(runtime.states) == 2


def test_an_append_by_another_process_is_picked_up(
    client: TestClient[Litestar], runtime: Runtime
) -> None:
    """Another process (here: another store on the same file) appends; the cache notices."""
    game = new_game(client, "black-spy", 3)
    legal = [client.get(game.url("/legal"), headers=game.seats[s]).json() for s in range(3)]
    other = SQLiteEventStore(runtime.store.path)
    try:
        command = msgspec.convert(legal[0]["commands"][0], GAMES["black-spy"].command_type)
        submit_command(other, game.id, 0, command)
    finally:
        other.close()
    stale = client.post(
        game.url("/commands"),
        headers=game.seats[1],
        json={"command": legal[1]["commands"][0], "expected_game_version": legal[1]["version"]},
    )
    assert_problem(stale, 409, "version-conflict")
    fresh = client.post(
        game.url("/commands"), headers=game.seats[1], json={"command": legal[1]["commands"][0]}
    )
    assert fresh.status_code == 200, fresh.text
    view = client.get(game.url("/view"), headers=game.seats[0]).json()
    assert view["version"] == fresh.json()["version"]


# -- where commands run ----------------------------------------------------------------------


class AppendSpy:
    """A store whose ``append`` sets ``begun`` as it begins (anything else is the store's)."""

    def __init__(self, store: Any, begun: threading.Event) -> None:
        self.store = store
        self.begun = begun

    def append(self, batch: Any) -> None:
        self.begun.set()
        self.store.append(batch)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


def test_a_command_waits_for_a_locked_database_without_blocking_reads(
    client: TestClient[Litestar], runtime: Runtime
) -> None:
    """Another process holds the write lock: the command waits on a worker thread, while
    the event loop keeps answering."""
    game = new_game(client)
    legal = client.get(game.url("/legal"), headers=game.seats[0]).json()
    holder = sqlite3.connect(runtime.store.path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")

    def command() -> Any:
        return client.post(
            game.url("/commands"), headers=game.seats[0], json={"command": legal["commands"][0]}
        )

    recorder = runtime.commands.recorder  # SQLite's: the loop's try, then a thread
    appending = threading.Event()
    recorder.store = AppendSpy(recorder.store, appending)  # type: ignore[attr-defined]
    with ThreadPoolExecutor(1) as pool:
        pending = pool.submit(command)
        assert appending.wait(30)  # the command's append has begun on a worker thread ...
        assert not pending.done()  # ... and waits for the lock ...
        summary = client.get(game.url())  # ... while the loop still serves reads
        assert summary.status_code == 200 and summary.json()["version"] == legal["version"]
        holder.execute("COMMIT")
        response = pending.result(timeout=10)
    holder.close()
    assert response.status_code == 200, response.text
    assert client.get(game.url()).json()["version"] == response.json()["version"]


def test_commands_can_be_kept_off_the_event_loop(tmp_path: Any) -> None:
    settings = Settings(db_path=tmp_path / "threads.db", inline_commands=False, log_json=True)
    app, runtime = open_app(settings)
    with TestClient(app=app) as client:
        assert isinstance(runtime.recorder, ThreadRecorder)
        game = new_game(client, "black-spy", 3)
        rng = random.Random(8)
        for _ in range(10):
            play_turn(client, game, rng)


def test_the_record_and_head_read_for_a_game_are_always_at_one_version(
    client: TestClient[Litestar], runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command that lands between the read of a game's record and the load of its head:
    the pair answered is still of one version, so a stream's state at the final version says
    ``finished``. Before, the record of the version before the end came with the final head;
    the state at the final version, kept for every later reader, said ``active`` with no seat
    to act (the web client then never showed the game over: seen once under load)."""
    game = new_game(client, "spies-and-lies", players=2)
    rng, store = random.Random(3), runtime.store
    before = store.get_game(game.id)
    while (now := store.get_game(game.id)).status == "active":
        before = now
        play_turn(client, game, rng)
    assert before.status == "active" and before.version < now.version
    runtime.states.forget_all()  # the head is loaded, at the game's version by then
    read = store.get_game
    stale = [before]  # the record a reader took just before the last command
    monkeypatch.setattr(store, "get_game", lambda game_id: stale.pop() if stale else read(game_id))

    pushed = msgspec.json.decode(runtime.stream_states.now(game.id, 0).data)
    assert (pushed["version"], pushed["status"], pushed["to_act"]) == (now.version, "finished", [])
    stale.append(before)
    record, head = runtime.states.current(game.id)
    assert record.version == head.version == now.version and record.status == "finished"
    summary = runtime.queries.summary_of(before, keep=True)  # a listing's record, now stale
    assert (summary.version, summary.status) == (now.version, "finished")


def test_a_record_its_log_never_reaches_does_not_hold_a_read_for_ever(
    client: TestClient[Litestar], runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game's row at a version its log never reaches (a database edited by hand): the
    reads of the record stop after ``PAIRING_ROUNDS`` and the pair is answered as it is,
    logged once; a loop that waited for the two to agree would hold the request for ever."""
    game = new_game(client)
    play_turn(client, game, random.Random(1))
    store, read = runtime.store, runtime.store.get_game
    ahead = msgspec.structs.replace(read(game.id), version=read(game.id).version + 5)
    asked: list[str] = []

    def edited(game_id: str) -> Any:
        asked.append(game_id)
        return ahead

    monkeypatch.setattr(store, "get_game", edited)
    with structlog.testing.capture_logs() as logs:
        record, head = runtime.states.current(game.id)
    assert (record.version, head.version) == (ahead.version, ahead.version - 5)
    assert len(asked) == 1 + states.PAIRING_ROUNDS
    apart = [line for line in logs if line["event"] == "record_head_apart"]
    assert apart == [
        {
            "event": "record_head_apart",
            "log_level": "warning",
            "game_id": game.id,
            "record": ahead.version,
            "head": head.version,
        }
    ]
