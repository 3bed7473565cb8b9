"""A SQLite store's connections live no longer than their threads (found by bench/soak.py:
worker threads come and go, and each one's connection stayed open until the store closed)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from spies_replay.store.sqlite import SQLiteEventStore

FD_DIR = Path("/proc/self/fd")


def _open_on(path: Path) -> int:
    """How many descriptors of this process are open on ``path`` (the file itself)."""
    target = str(path.resolve())
    count = 0
    for entry in FD_DIR.iterdir():
        try:
            if os.readlink(entry) == target:
                count += 1
        except OSError:
            continue
    return count


@pytest.mark.skipif(not FD_DIR.is_dir(), reason="needs /proc/self/fd (Linux)")
def test_the_connection_of_an_ended_thread_is_closed(tmp_path: Path) -> None:
    path = tmp_path / "threads.db"
    store = SQLiteEventStore(path)
    try:
        store.game_ids()
        baseline = _open_on(path)
        for _ in range(30):  # one short-lived worker thread after another
            worker = threading.Thread(target=store.game_ids)
            worker.start()
            worker.join()
        store.game_ids()
        # the main thread's connection, at most the last worker's (closed by the next thread
        # that opens one), and one descriptor SQLite keeps from a closed connection for its
        # next open while other connections hold locks on the file; without the fix, one
        # per worker thread
        assert _open_on(path) <= baseline + 2
    finally:
        store.close()
    assert _open_on(path) == 0
