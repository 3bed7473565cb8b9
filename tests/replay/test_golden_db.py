"""The golden database: a SQLite file written by the engine before the store became an
interface must open (its migrations kept as recorded, none re-run, only the later ones
applied), verify, and play on.

The file is ``tests/fixtures/golden.db``, made once by ``tests/fixtures/make_golden_db.py``
and never regenerated. Each test works on a copy.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from random import Random

import pytest

from spies_api.game import submit_command
from spies_core.registry import get_game
from spies_replay.codec import CHAIN_VERSION
from spies_replay.formats import stored_log
from spies_replay.meta import SeatJoined, SeatType
from spies_replay.reading import load_state
from spies_replay.store.backends import open_store
from spies_replay.store.records import GameStatus, hash_token
from spies_replay.store.sqlite_schema import ADOPTED_MARKER, MIGRATION_NAMES
from spies_replay.verify import verify_all
from tests.support.seats import change_seat

GOLDEN = Path(__file__).parent.parent / "fixtures" / "golden.db"


@pytest.fixture
def golden(tmp_path: Path) -> Path:
    copy = tmp_path / "golden.db"
    shutil.copyfile(GOLDEN, copy)
    return copy


def rows_of(path: Path, sql: str) -> list[tuple[str, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def sqlite_utils_migrations(path: Path) -> list[tuple[str, ...]]:
    """What sqlite-utils recorded (the runner of the versions that wrote the file)."""
    return rows_of(
        path,
        "SELECT name, applied_at FROM _sqlite_migrations WHERE migration_set = 'spies_replay'"
        " ORDER BY name",
    )


def schema_of(path: Path) -> list[tuple[str, ...]]:
    """Every table, index and trigger but the migrations' own, as the file's text has it."""
    return rows_of(
        path,
        "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE '%migrations%'"
        " ORDER BY type, name",
    )


def test_the_golden_file_opens_unchanged_and_verifies(golden: Path) -> None:
    before = sqlite_utils_migrations(golden)
    assert [name for name, _ in before] == ["m001_initial", "m002_secret_deal", "m003_seats"]
    with open_store(golden, create=False) as store:
        reports = verify_all(store)
        assert [(r.game_id, r.ok) for r in reports] == [("finished", True), ("active", True)]
        finished = store.get_game("finished")
        assert finished.status == GameStatus.FINISHED and finished.outcome is not None
        assert store.snapshots("finished"), "the snapshots of the old file are read"
        record = store.get_idempotency("finished", "key-1")
        assert record is not None and record.request_fingerprint == "fingerprint-1"
        assert store.check_token("active", "token-seat-1") == 1
        assert store.check_token("active", "token-seat-2") is None
        kinds = [seat.type for seat in store.seat_states("active")]
        assert kinds == [SeatType.CREATOR, SeatType.JOINED, SeatType.OPEN]
    after = rows_of(golden, "SELECT name, applied_at FROM schema_migrations ORDER BY name")
    assert after[: len(before)] == before, "the records carried over; no migration re-ran"
    assert {name for name, _ in after} == MIGRATION_NAMES, "the later migrations were applied"
    # an older spies-engine, which reads sqlite-utils' records, finds one it does not know
    assert (ADOPTED_MARKER,) in rows_of(golden, "SELECT name FROM _sqlite_migrations")


def test_the_migrated_golden_file_has_the_schema_of_a_new_one(golden: Path, tmp_path: Path) -> None:
    """The migrations written as SQL make, text for text, the tables sqlite-utils made: a
    file migrated from the old runner and a new file are the same database."""
    open_store(golden, create=False).close()
    open_store(tmp_path / "new.db").close()
    assert schema_of(golden) == schema_of(tmp_path / "new.db")


def test_the_golden_file_plays_on(golden: Path) -> None:
    with open_store(golden, create=False) as store:
        loaded = load_state(store, "active")
        spec = get_game("black-spy")
        state, version = loaded.state, loaded.seq
        rng = Random("golden-db-plays-on")
        for _ in range(4):
            seat = rng.choice(sorted(spec.to_act(state)))
            command = rng.choice(spec.legal_commands(state, seat))
            result = submit_command(store, "active", seat, command, state=state, version=version)
            state, version = result.state, result.version
        joined = change_seat(
            store,
            "active",
            lambda seats, tokens: SeatJoined(seat=2, name="bea"),
            token_hash=hash_token("token-seat-2"),
        )
        assert joined.version == version + 1
        assert store.check_token("active", "token-seat-2") == 2
    with open_store(golden, create=False) as store:
        assert all(report.ok for report in verify_all(store))
        assert store.get_game("active").version == version + 1
        # written before format 3, the game goes on in format 1: its new rows chain on
        assert stored_log(store.read_rows("active")) == CHAIN_VERSION
