"""Crashes while bots are to act: SIGKILL, restart, and the bots play on.

Games whose every seat is a bot are created in the file while no server runs; a server
starts (its start-up sweep finds them), is killed with SIGKILL once the bots are well under
way, and a new server starts on the same file. Then:

- at the kill, games were waiting on bots, and ``spies-replay verify --all`` (the real
  console script) finds every batch whole: a bot's turn is never half applied;
- after the restart every game goes on to its end with no client sending anything, and
  ``verify --all`` passes again, every bot command marked with its bot.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import httpx

from spies_replay.engine import create_game
from spies_replay.meta import SeatState, SeatType
from spies_replay.store.sqlite import SQLiteEventStore
from tests.support.logs import verify_with_console_script
from tests.support.servers import ServerProcess
from tests.support.waiting import until

from .figures import record

GUARANTEE = "crashes"
GAMES = 4
"""Games of bots only, all under way at the kill (each a whole Black Spy game after it)."""
PLAYERS = 6


def _progress(db: Path) -> tuple[int, int]:
    """(events of the bots so far, games still active), read straight from the file."""
    conn = sqlite3.connect(db)
    try:
        played = conn.execute("SELECT count(*) FROM events WHERE bot IS NOT NULL").fetchone()[0]
        active = conn.execute("SELECT count(*) FROM games WHERE status = 'active'").fetchone()[0]
    finally:
        conn.close()
    return played, active


def test_bots_resume_after_sigkill(tmp_path: Path, servers: list[ServerProcess]) -> None:
    db = tmp_path / "bots.db"
    bots = [SeatState(seat=seat, type=SeatType.BOT, bot="random") for seat in range(PLAYERS)]
    with SQLiteEventStore(db) as store:
        ids = [
            create_game(store, "black-spy", PLAYERS, {}, seats=bots).record.id for _ in range(GAMES)
        ]
    server = ServerProcess(db, tmp_path / "server.log")
    servers.append(server)
    server.start()
    until(lambda: _progress(db)[0] >= 40, timeout=120, every=0.01, what="the bots to start")
    server.kill()
    played, active = _progress(db)
    assert active > 0, "every game ended before the kill; nothing was tested"
    verify_with_console_script(db)

    server.start()
    with httpx.Client(base_url=server.base, timeout=30) as http:
        until(
            lambda: all(
                http.get(f"/games/{game_id}").json()["status"] != "active" for game_id in ids
            ),
            timeout=600,
            every=0.2,
            what="the games to go on to their end after the restart",
        )
    server.stop()
    out = verify_with_console_script(db)
    assert out.count("ok ") == GAMES, out
    conn = sqlite3.connect(db)
    try:
        marks = conn.execute(
            "SELECT count(*), count(bot) FROM events WHERE command IS NOT NULL"
        ).fetchone()
    finally:
        conn.close()
    assert marks[0] == marks[1] > played
    record(
        GUARANTEE,
        "test_bots_crash.py::test_bots_resume_after_sigkill",
        games=GAMES,
        active_at_kill=active,
        bot_commands_before_kill=played,
    )
