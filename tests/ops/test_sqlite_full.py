"""SQLite's disk filling up (simulated with ``PRAGMA max_page_count``, SQLite's own size
limit, which fails a write with ``SQLITE_FULL`` exactly as a full disk does): writes are
answered 507 ``storage-full`` with ``Retry-After``, nothing of them is written, reads still
work, and writes work again once there is room, in the same process."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from litestar.testing import TestClient
from sqlite_utils import Database

from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.verify import verify_game

from .helpers import first_legal, new_game, open_on

ROOMY = 1_000_000


class Disk:
    """The size limit of every connection the stores open, in pages: set it to the file's
    size and the disk is full."""

    def __init__(self) -> None:
        self.pages = ROOMY
        self.connections: list[sqlite3.Connection] = []

    def fill(self) -> None:
        for conn in self.connections:
            self.pages = conn.execute("PRAGMA page_count").fetchone()[0]
        self._apply()

    def free(self) -> None:
        self.pages = ROOMY
        self._apply()

    def _apply(self) -> None:
        for conn in self.connections:
            conn.execute(f"PRAGMA max_page_count = {self.pages}")


@pytest.fixture
def disk(monkeypatch: pytest.MonkeyPatch) -> Disk:
    limited = Disk()
    original = SQLiteEventStore._open

    def opening(self: SQLiteEventStore) -> Database:
        db = original(self)
        db.conn.execute(f"PRAGMA max_page_count = {limited.pages}")
        limited.connections.append(db.conn)
        return db

    monkeypatch.setattr(SQLiteEventStore, "_open", opening)
    return limited


def test_a_full_disk_is_507_writes_nothing_and_passes_once_there_is_room(
    tmp_path: Path, disk: Disk
) -> None:
    app, runtime = open_on(tmp_path)
    with TestClient(app) as client:
        game_id, seat = new_game(client)
        assert client.post(
            f"/games/{game_id}/commands", json=first_legal(client, game_id, seat), headers=seat
        ).is_success
        disk.fill()  # the disk is full now
        refused = None
        for _ in range(500):  # the file's last free pages fill first
            before = client.get(f"/games/{game_id}").json()["version"]
            body = first_legal(client, game_id, seat)
            answer = client.post(
                f"/games/{game_id}/commands",
                json=body,
                headers={**seat, "Idempotency-Key": f"k{before}"},
            )
            if answer.status_code != 200:
                refused = answer
                break
        assert refused is not None, "the limit never bit"
        assert refused.status_code == 507, refused.text
        assert refused.json()["code"] == "storage-full"
        assert refused.headers["retry-after"].isdigit()
        # nothing of it was written: the same version, and the log is whole
        assert client.get(f"/games/{game_id}").json()["version"] == before
        store = runtime.store
        assert verify_game(store, game_id).ok
        # reads still work; a new game is refused the same way
        assert client.get(f"/games/{game_id}/view", headers=seat).status_code == 200
        assert client.get("/readyz").status_code == 200
        created = client.post("/games", json={"game": "black-spy", "players": 4})
        assert (created.status_code, created.json()["code"]) == (507, "storage-full")

        disk.free()  # space freed: the same command goes through
        again = client.post(
            f"/games/{game_id}/commands",
            json=body,
            headers={**seat, "Idempotency-Key": f"k{before}"},
        )
        assert again.status_code == 200, again.text
        assert again.json()["version"] > before
        assert verify_game(store, game_id).ok
        assert client.post("/games", json={"game": "black-spy", "players": 4}).status_code == 201
