"""Store contract: creation, optimistic concurrency, atomic appends, append-only, ordering."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import msgspec
import pytest

from spies_core.decider import fold
from spies_core.errors import GameOverError, InvalidOptionsError, UnknownGameError
from spies_core.rng import ALGORITHM
from spies_replay.codec import genesis_hash
from spies_replay.engine import (
    IdempotencyRequest,
    create_game,
    load_state,
    submit_command,
    view_at,
)
from spies_replay.errors import (
    GameFinishedError,
    GameNotFoundError,
    IdempotencyKeyExistsError,
    ReplayError,
    SeqOutOfRangeError,
    VersionConflictError,
)
from spies_replay.meta import GameCreated, SeedRevealed, SeedSource
from spies_replay.schema import SCHEMA_VERSION
from spies_replay.sqlite_store import SQLiteEventStore
from spies_replay.store import EventStore, GameStatus, PendingIdempotency

from .conftest import finish, new_game, play
from .countergame import (
    GAMES,
    SPEC,
    Bump,
    CounterBumped,
    CounterStarted,
    CounterTurnPassed,
    Draw,
)


def raw(db_path: Path) -> sqlite3.Connection:
    return sqlite3.connect(db_path, isolation_level=None)


# -- creation ------------------------------------------------------------------------------


def test_create_writes_game_created_then_setup_events(store: EventStore) -> None:
    created = new_game(store, seed="puzzle-1")
    record = created.record
    events = store.read_events(record.id)
    assert [e.seq for e in events] == [1, 2, 3]
    first = events[0].event
    assert isinstance(first, GameCreated)
    assert first.game == "counter" and first.players == 2 and first.options == {"target": 12}
    assert first.seed_commitment == hashlib.sha256(b"puzzle-1").hexdigest()
    assert first.seed_source is SeedSource.CLIENT
    assert first.rng == ALGORITHM
    assert isinstance(events[1].event, CounterStarted)
    assert record.version == 3 and record.head_hash == events[-1].hash
    assert record.status is GameStatus.ACTIVE and record.outcome is None
    assert created.state == fold(SPEC, [e.event for e in events[1:]])


def test_server_seed_is_secret_and_stored_apart(store: EventStore, db_path: Path) -> None:
    record = new_game(store, seed=None).record
    seed = store.get_seed(record.id)
    assert seed is not None and len(seed) == 32
    assert record.seed_source is SeedSource.SERVER
    assert record.seed_commitment == hashlib.sha256(seed).hexdigest()
    with raw(db_path) as conn:
        payloads = " ".join(row[0] for row in conn.execute("SELECT payload FROM events"))
    assert seed.hex() not in payloads


def test_tokens_are_returned_once_and_stored_hashed(store: EventStore, db_path: Path) -> None:
    created = new_game(store, players=3)
    assert len(created.tokens) == 3 and len(set(created.tokens)) == 3
    with raw(db_path) as conn:
        stored = [row[0] for row in conn.execute("SELECT token_hash FROM seats ORDER BY seat")]
    assert stored == [hashlib.sha256(t.encode()).hexdigest() for t in created.tokens]
    for seat, token in enumerate(created.tokens):
        assert store.check_token(created.record.id, token) == seat
    assert store.check_token(created.record.id, "not-a-token") is None
    assert store.check_token("no-such-game", created.tokens[0]) is None


@pytest.mark.parametrize(
    ("game", "players", "options", "error"),
    [
        ("nope", None, None, UnknownGameError),
        ("counter", 7, None, InvalidOptionsError),
        ("counter", None, {"colour": "red"}, InvalidOptionsError),
        ("counter", None, {"target": 0}, InvalidOptionsError),
    ],
)
def test_invalid_creation_writes_nothing(
    store: EventStore,
    game: str,
    players: int | None,
    options: object,
    error: type[Exception],
) -> None:
    with pytest.raises(error):
        create_game(store, game, players, options)
    assert store.list_games().total == 0
    assert store.db.conn.execute("SELECT count(*) FROM events").fetchone()[0] == 0


def test_empty_client_seed_is_refused(store: EventStore) -> None:
    with pytest.raises(InvalidOptionsError) as caught:
        create_game(store, "counter", seed="")
    assert caught.value.code == "invalid-seed"


def test_client_seed_makes_a_game_reproducible(store: EventStore) -> None:
    a = new_game(store, seed="same").record.id
    b = new_game(store, seed="same").record.id
    play(store, a, 9)
    play(store, b, 9)
    payloads = [[row.payload for row in store.read_rows(g, after=1)] for g in (a, b)]
    assert payloads[0] == payloads[1]
    assert store.get_game(a).head_hash != store.get_game(b).head_hash  # bound to the game id


# -- appends -------------------------------------------------------------------------------


def test_submit_appends_the_commands_events_with_actor_and_command(store: EventStore) -> None:
    created = new_game(store)
    result = submit_command(
        store, created.record.id, 0, Draw(), state=created.state, version=created.record.version
    )
    assert [e.seq for e in result.events] == [4, 5]
    rows = store.read_rows(created.record.id, after=3)
    assert rows[0].actor == 0 and msgspec.json.decode(rows[0].command) == {"type": "draw"}
    assert rows[1].actor is None and rows[1].command is None
    assert result.version == 5 == store.get_game(created.record.id).version


def test_second_writer_at_the_same_version_gets_a_conflict(store: EventStore) -> None:
    created = new_game(store)
    game_id, state, version = created.record.id, created.state, created.record.version
    submit_command(store, game_id, 0, Bump(by=1), state=state, version=version)
    with pytest.raises(VersionConflictError) as caught:
        submit_command(store, game_id, 0, Bump(by=2), state=state, version=version)
    assert caught.value.code == "version-conflict"
    assert caught.value.current_version == version + 2
    assert caught.value.expected_version == version
    with pytest.raises(VersionConflictError):
        store.append(game_id, version, [CounterTurnPassed(seat=0)])


def test_concurrent_writers_from_threads_exactly_one_wins(store: EventStore) -> None:
    created = new_game(store)
    game_id, version = created.record.id, created.record.version
    barrier = threading.Barrier(8)

    def attempt(_: int) -> str:
        barrier.wait()
        try:
            store.append(game_id, version, [CounterBumped(seat=0, by=1, total=1)])
        except VersionConflictError:
            return "conflict"
        return "ok"

    with ThreadPoolExecutor(8) as pool:
        outcomes = list(pool.map(attempt, range(8)))
    assert sorted(outcomes) == ["conflict"] * 7 + ["ok"]
    assert store.get_game(game_id).version == version + 1


_CHILD = """
import sys, time
from replay.countergame import GAMES, CounterBumped
from spies_replay.errors import VersionConflictError
from spies_replay.sqlite_store import SQLiteEventStore

path, game_id, version, start_at = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
with SQLiteEventStore(path, games=GAMES) as store:
    time.sleep(max(0.0, start_at - time.time()))
    try:
        store.append(game_id, version, [CounterBumped(seat=0, by=1, total=1)])
        print("ok")
    except VersionConflictError:
        print("conflict")
"""


def test_concurrent_writers_from_processes_exactly_one_wins(
    store: EventStore, db_path: Path
) -> None:
    import os
    import subprocess
    import sys
    import time

    created = new_game(store)
    start_at = str(time.time() + 1.5)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])}
    args = [str(db_path), created.record.id, str(created.record.version), start_at]
    children = [
        subprocess.Popen(
            [sys.executable, "-c", _CHILD, *args], stdout=subprocess.PIPE, text=True, env=env
        )
        for _ in range(3)
    ]
    results = sorted(child.communicate(timeout=60)[0].strip() for child in children)
    assert results == ["conflict", "conflict", "ok"]
    assert store.get_game(created.record.id).version == created.record.version + 1


def test_multi_event_append_is_all_or_nothing(store: EventStore, db_path: Path) -> None:
    created = new_game(store)
    game_id, version = created.record.id, created.record.version
    # A rogue row at version + 2 makes the second insert of the batch collide.
    with raw(db_path) as conn:
        conn.execute(
            "INSERT INTO events (game_id, seq, type, payload, recorded_at, hash)"
            " VALUES (?, ?, 'x', '{}', 'now', 'h')",
            (game_id, version + 2),
        )
    batch = [CounterBumped(seat=0, by=1, total=1), CounterTurnPassed(seat=0)]
    with pytest.raises(VersionConflictError):
        store.append(game_id, version, batch)
    seqs = [row.seq for row in store.read_rows(game_id)]
    assert version + 1 not in seqs
    assert store.get_game(game_id).version == version


def test_idempotency_record_is_written_with_the_append(store: EventStore) -> None:
    created = new_game(store)
    game_id = created.record.id
    request = IdempotencyRequest(
        key="k1", fingerprint="f1", response=lambda result: {"version": result.version}
    )
    result = submit_command(store, game_id, 0, Bump(by=1), idempotency=request)
    record = store.get_idempotency(game_id, "k1")
    assert record is not None
    assert record.response == {"version": result.version} and record.request_fingerprint == "f1"
    with pytest.raises(IdempotencyKeyExistsError) as caught:
        submit_command(store, game_id, 1, Bump(by=1), idempotency=request)
    assert caught.value.record == record
    assert store.get_game(game_id).version == result.version


def test_idempotency_collision_rolls_back_the_events(store: EventStore) -> None:
    created = new_game(store)
    game_id, version = created.record.id, created.record.version
    pending = PendingIdempotency("k", "f", lambda stored: {"n": len(stored)})
    store.append(game_id, version, [CounterTurnPassed(seat=0)], idempotency=pending)
    with pytest.raises(IdempotencyKeyExistsError):
        store.append(game_id, version + 1, [CounterTurnPassed(seat=1)], idempotency=pending)
    assert store.get_game(game_id).version == version + 1


def test_finishing_appends_seed_revealed_and_closes_the_log(store: EventStore) -> None:
    game_id = new_game(store, target=6, seed="end").record.id
    version = finish(store, game_id)
    record = store.get_game(game_id)
    last = store.read_events(game_id)[-1]
    assert isinstance(last.event, SeedRevealed)
    assert bytes.fromhex(last.event.seed) == b"end"
    assert record.status is GameStatus.FINISHED and record.version == version == last.seq
    assert record.outcome is not None and record.outcome.reason == "target-reached"
    with pytest.raises(GameOverError) as caught:
        submit_command(store, game_id, 0, Bump(by=1))
    assert caught.value.code == "game-over"
    with pytest.raises(GameFinishedError):
        store.append(game_id, version, [CounterTurnPassed(seat=0)])


def test_rule_errors_append_nothing(store: EventStore) -> None:
    created = new_game(store)
    with pytest.raises(GameOverError.__mro__[1]):  # RuleError
        submit_command(store, created.record.id, 0, Bump(by=9))
    assert store.get_game(created.record.id).version == created.record.version


# -- append-only and ordering --------------------------------------------------------------


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE events SET payload = '{}' WHERE seq = 2",
        "UPDATE events SET seq = 99 WHERE seq = 2",
        "DELETE FROM events WHERE seq = 3",
        "DELETE FROM events",
        "INSERT OR REPLACE INTO events (game_id, seq, type, payload, recorded_at, hash)"
        " SELECT id, 2, 'x', '{}', 'now', 'h' FROM games",
    ],
)
def test_the_database_itself_refuses_to_change_events(
    store: EventStore, db_path: Path, statement: str
) -> None:
    game_id = new_game(store).record.id
    before = store.read_rows(game_id)
    with raw(db_path) as conn, pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute(statement)
    assert store.read_rows(game_id) == before


def test_events_are_read_in_seq_order_from_any_point(store: EventStore) -> None:
    game_id = new_game(store).record.id
    version = play(store, game_id, 7)
    seqs = [e.seq for e in store.read_events(game_id)]
    assert seqs == list(range(1, version + 1))
    assert [e.seq for e in store.read_events(game_id, after=5, limit=3)] == [6, 7, 8]
    assert store.read_events(game_id, after=version) == []
    with pytest.raises(GameNotFoundError) as caught:
        store.read_events("missing")
    assert caught.value.code == "game-not-found"


def test_hash_chain_links_every_row(store: EventStore) -> None:
    from spies_replay.codec import canonical_bytes, chain_hash

    game_id = new_game(store).record.id
    play(store, game_id, 4)
    previous = genesis_hash(game_id)
    for row in store.read_rows(game_id):
        canonical = canonical_bytes(
            seq=row.seq,
            type=row.type,
            actor=row.actor,
            command=row.command,
            payload=row.payload,
            recorded_at=row.recorded_at,
        )
        assert row.hash == hashlib.sha256(bytes.fromhex(previous) + canonical).hexdigest()
        assert row.hash == chain_hash(previous, canonical)
        previous = row.hash
    assert store.get_game(game_id).head_hash == previous


def test_type_column_agrees_with_the_payload_tag(store: EventStore) -> None:
    game_id = new_game(store).record.id
    play(store, game_id, 5)
    for row in store.read_rows(game_id):
        assert msgspec.json.decode(row.payload)["type"] == row.type


def test_list_games_filters_and_pages(store: EventStore) -> None:
    ids = [new_game(store, target=5, seed=f"g{i}").record.id for i in range(5)]
    finish(store, ids[1])
    finish(store, ids[3])
    page = store.list_games(limit=2)
    assert page.total == 5 and [g.id for g in page.games] == ids[:2]
    assert [g.id for g in store.list_games(limit=2, offset=4).games] == ids[4:]
    finished = store.list_games(status="finished")
    assert finished.total == 2 and {g.id for g in finished.games} == {ids[1], ids[3]}
    assert store.list_games(game="other").total == 0
    assert store.list_games(game="counter", status=GameStatus.ACTIVE).total == 3


# -- states --------------------------------------------------------------------------------


def test_load_state_at_any_seq_equals_the_fold(store: EventStore) -> None:
    game_id = new_game(store, target=40).record.id
    version = play(store, game_id, 30)
    events = [e.event for e in store.read_events(game_id) if e.seq > 1]
    for at in range(version + 1):
        expected = fold(SPEC, [e for e in events[: max(at - 1, 0)]])
        assert load_state(store, game_id, at=at).state == expected, at
    with pytest.raises(SeqOutOfRangeError):
        load_state(store, game_id, at=version + 1)
    with pytest.raises(SeqOutOfRangeError):
        load_state(store, game_id, at=-1)


def test_snapshots_are_kept_and_a_broken_one_is_ignored(store: EventStore) -> None:
    game_id = new_game(store, target=40).record.id
    version = play(store, game_id, 30)
    snapshots = store.snapshots(game_id)
    assert len(snapshots) >= version // store.snapshot_every - 1
    expected = load_state(store, game_id, at=version - 1).state
    with store._write() as conn:
        conn.execute(
            'UPDATE snapshots SET state = \'{"players": "x"}\' WHERE game_id = ?', (game_id,)
        )
    assert load_state(store, game_id, at=version - 1).state == expected
    rebuilt = store.snapshots(game_id)
    assert rebuilt and all('"x"' not in state for _, state in rebuilt)


def test_view_at_respects_the_viewer(store: EventStore) -> None:
    game_id = new_game(store).record.id
    play(store, game_id, 1)  # seat 0 draws
    assert view_at(store, game_id, seat=0).view.hand != ()
    assert view_at(store, game_id, seat=1).view.hand == ()
    spectator = view_at(store, game_id)
    assert spectator.view.hand is None and spectator.view.version == spectator.seq


# -- schema --------------------------------------------------------------------------------


def test_schema_is_migrated_once_and_recorded(db_path: Path) -> None:
    SQLiteEventStore(db_path, games=GAMES).close()
    SQLiteEventStore(db_path, games=GAMES).close()
    with raw(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        applied = conn.execute(
            "SELECT name FROM _sqlite_migrations WHERE migration_set = 'spies_replay'"
        ).fetchall()
    assert applied == [("m001_initial",), ("m002_secret_deal",), ("m003_seats",)]
    assert len(applied) == SCHEMA_VERSION


def test_a_database_from_a_newer_version_is_refused(db_path: Path) -> None:
    SQLiteEventStore(db_path, games=GAMES).close()
    with raw(db_path) as conn:
        conn.execute(
            "INSERT INTO _sqlite_migrations (migration_set, name, applied_at)"
            " VALUES ('spies_replay', 'm999_future', 'later')"
        )
    with pytest.raises(ReplayError) as caught:
        SQLiteEventStore(db_path, games=GAMES)
    assert caught.value.code == "schema-too-new"


def test_store_is_usable_from_many_threads(store: EventStore) -> None:
    ids = [new_game(store, seed=f"t{i}").record.id for i in range(4)]

    def work(game_id: str) -> int:
        return play(store, game_id, 6)

    with ThreadPoolExecutor(4) as pool:
        versions = list(pool.map(work, ids))
    assert versions == [store.get_game(g).version for g in ids]


def test_an_explicit_game_id_that_is_taken_is_refused(store: EventStore) -> None:
    from spies_replay.errors import GameExistsError

    create_game(store, "counter", game_id="fixed")
    with pytest.raises(GameExistsError) as caught:
        create_game(store, "counter", game_id="fixed")
    assert caught.value.code == "game-exists"
    assert store.list_games().total == 1


def test_submit_with_an_expected_version_but_no_cached_state(store: EventStore) -> None:
    created = new_game(store)
    game_id, version = created.record.id, created.record.version
    result = submit_command(store, game_id, 0, Bump(by=1), version=version)
    assert result.version == version + 2
    with pytest.raises(VersionConflictError):
        submit_command(store, game_id, 1, Bump(by=1), version=version)


def test_meta_events_are_public_to_every_viewer(store: EventStore) -> None:
    from spies_replay.engine import redact_for

    game_id = new_game(store, target=3).record.id
    finish(store, game_id)
    events = store.read_events(game_id)
    for viewer in (None, 0, 1):
        assert redact_for(SPEC, events[0].event, viewer) == events[0].event
        assert redact_for(SPEC, events[-1].event, viewer) == events[-1].event
        assert redact_for(SPEC, events[2].event, viewer).order is None  # the game's own rule
