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
from spies_replay.meta import SeatJoined, SeatType
from spies_replay.reading import load_state
from spies_replay.store.backends import open_store
from spies_replay.store.records import GameStatus, hash_token
from spies_replay.store.schema import SCHEMA_VERSION
from spies_replay.verify import verify_all
from tests.support.seats import change_seat

GOLDEN = Path(__file__).parent.parent / "fixtures" / "golden.db"


@pytest.fixture
def golden(tmp_path: Path) -> Path:
    copy = tmp_path / "golden.db"
    shutil.copyfile(GOLDEN, copy)
    return copy


def migrations_of(path: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(path) as conn:
        return conn.execute(
            "SELECT name, applied_at FROM _sqlite_migrations WHERE migration_set = 'spies_replay'"
            " ORDER BY name"
        ).fetchall()


def test_the_golden_file_opens_unchanged_and_verifies(golden: Path) -> None:
    before = migrations_of(golden)
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
    after = migrations_of(golden)
    assert after[: len(before)] == before, "no migration re-ran"
    assert len(after) == SCHEMA_VERSION, "the later migrations were applied"


def test_the_golden_file_plays_on(golden: Path) -> None:
    with open_store(golden, create=False) as store:
        loaded = load_state(store, "active")
        spec = store.spec("black-spy")
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
