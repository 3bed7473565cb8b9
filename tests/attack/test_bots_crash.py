"""Crashes while bots are to act: SIGKILL, restart, and the bots play on.

Games whose every seat is a bot are created in the file while no server runs; a server
starts (its start-up sweep finds them), is killed with SIGKILL once the bots are well under
way, and a new server starts on the same file. Then:

- at the kill, games were waiting on bots, and ``spies-replay verify --all`` (the real
  console script) finds every batch whole: a bot's turn is never half applied;
- after the restart every game goes on to its end with no client sending anything, and
  ``verify --all`` passes again, every bot command marked with its bot;
- the killed server's bot worker processes (and multiprocessing's resource tracker) end
  with it: nothing it started is left running, re-parented to init.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import sys
from pathlib import Path

import httpx
import pytest

from spies_api.game import create_game
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


def _processes() -> dict[int, tuple[int, str, str]]:
    """Every process on the machine: pid -> (parent pid, start time, command line), read from
    ``/proc`` (a start time tells a process from a later one that reuses its pid)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:  # it ended meanwhile
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] == "Z":  # a zombie has ended; only its parent's wait is left
            continue
        found[int(entry.name)] = (int(fields[1]), fields[19], cmdline)
    return found


def _children(pid: int) -> dict[int, tuple[str, str]]:
    """The live children of ``pid``: pid -> (start time, command line)."""
    return {
        child: (started, cmdline)
        for child, (parent, started, cmdline) in _processes().items()
        if parent == pid
    }


def _still_running(children: dict[int, tuple[str, str]]) -> dict[int, str]:
    """Those of ``children`` (pid -> (start time, command line)) that still run."""
    now = _processes()
    return {
        child: cmdline
        for child, (started, cmdline) in children.items()
        if child in now and now[child][1] == started
    }


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_killed_servers_bot_workers_end_with_it(
    tmp_path: Path, servers: list[ServerProcess]
) -> None:
    """``kill -9`` of ``spies-api`` leaves none of its processes behind: its bot worker (and
    multiprocessing's resource tracker) see their parent gone and exit.

    Before, both lived on, re-parented to init, for ever (a worker holds a core's worth of
    imported bots: about 60 MB each)."""
    server = ServerProcess(tmp_path / "orphans.db", tmp_path / "server.log")
    servers.append(server)
    server.start()
    assert server.process is not None
    pid = server.process.pid
    # the scheduler starts the bots' worker at once, and multiprocessing its resource tracker
    children = until(
        lambda: (
            (found := _children(pid))
            and any("spawn_main" in cmdline for _, cmdline in found.values())
            and found
        ),
        timeout=60,
        what="the bot workers to start",
    )
    assert any("resource_tracker" in cmdline for _, cmdline in children.values()), children
    server.kill()
    try:
        until(
            lambda: not _still_running(children),
            timeout=30,
            what=lambda: f"the kill to end them: {_still_running(children)} left running",
        )
    finally:
        for child in _still_running(children):  # a failure leaves nothing behind either
            os.kill(child, signal.SIGKILL)
    record(
        GUARANTEE,
        "test_bots_crash.py::test_a_killed_servers_bot_workers_end_with_it",
        processes_of_the_server=len(children),
        left_after_kill_9=0,
    )
