"""Clocks on a real server: a 4-seat Black Spy game with one person who stops moving.

Ada holds seat 0; three ``random`` bots hold the others. The game's clock gives each seat
``--turn-seconds`` (3) per decision; a seat that lets it run out has its move played by the
time control's bot (``greedy``), and after three timeouts in a row the seat is handed to that
bot for good (``abandon_after``: 3). Ada moves once, then stops: the script follows the
game's events and prints the three ``clock_expired``, the forced moves and the hand-over
(which comes with its forced move, in the same batch), then Ada takes her seat back with the
ordinary endpoint. Last, with a server of its own, the
script stops it while Ada's clock runs, waits past her deadline and starts it again: the
server resumes the clocks (``clocks_resumed``) instead of timing her out, and her next move
is on time.

By default the script starts ``spies-api`` itself (``python -m spies_api``, a temporary
database, a free port); ``--base URL`` drives a server already running instead (the restart
is then skipped). Only the standard library is used. Usage::

    python examples/clocks.py [--base http://127.0.0.1:8000] [--turn-seconds 3]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

START = [time.monotonic()]


SEAT_EVENTS = ("seat_handed_to_bot", "seat_taken_back", "clocks_resumed")


def stamp() -> str:
    return f"[{time.monotonic() - START[0]:6.2f} s]"


def call(
    base: str,
    method: str,
    path: str,
    body: Any = None,
    token: str | None = None,
    quiet: bool = False,
) -> tuple[int, Any]:
    """One request; print it and its answer (unless ``quiet``); return (status, JSON)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, payload = response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        status, payload = error.code, json.loads(error.read() or b"null")
    if not quiet:
        shown = "" if body is None else " " + json.dumps(body)
        print(f"{stamp()} {method} {path}{shown}")
    return status, payload


def show(status: int, payload: Any) -> None:
    print(f"           -> {status} {json.dumps(payload)}")


def clock_line(summary: dict[str, Any]) -> str:
    seats = summary["clock"]["seats"]
    return ", ".join(
        f"seat {s['seat']}: "
        + ("running" if s.get("deadline") else "waiting")
        + ("" if s["remaining_ms"] is None else f", {s['remaining_ms']} ms left")
        for s in seats
    )


class Follower:
    """Reads a game's new events and prints the ones about clocks and seats."""

    def __init__(self, base: str, game_id: str) -> None:
        self.base, self.game_id, self.seq = base, game_id, 0
        self.counts: dict[str, int] = {}
        self.timeouts: dict[int, int] = {}
        self.handed = False
        self.bot_moves = 0
        self.forced_at = -1
        """The seq of the forced move expected next (after a timeout and its hand-over)."""

    def poll(self) -> list[dict[str, Any]]:
        path = f"/games/{self.game_id}/events?after={self.seq}"
        _, page = call(self.base, "GET", path, quiet=True)
        new = page["events"]
        if new:
            self.seq = new[-1]["seq"]
        for event in new:
            kind = event["type"]
            self.counts[kind] = self.counts.get(kind, 0) + 1
            if event["seq"] == self.forced_at and kind not in SEAT_EVENTS:
                print(f"{stamp()} event {event['seq']}: {kind}, the time control's bot's move")
                continue
            if kind == "seat_handed_to_bot" and event["seq"] == self.forced_at:
                self.forced_at += 1  # an abandoned seat: its forced move follows the hand-over
            if kind == "clock_expired":
                self.forced_at = event["seq"] + 1
                self.timeouts[event["seat"]] = self.timeouts.get(event["seat"], 0) + 1
                print(
                    f"{stamp()} event {event['seq']}: clock_expired seat {event['seat']},"
                    f" deadline {event['deadline']}, recorded {event['recorded_at']},"
                    f" timeouts in a row {event['timeouts']}"
                )
            elif kind in SEAT_EVENTS:
                if kind == "seat_taken_back" and self.bot_moves:
                    moves = f"{self.bot_moves} move{'s' if self.bot_moves != 1 else ''}"
                    print(f"{stamp()} ... meanwhile the bot made {moves} for seat 0")
                self.handed = kind == "seat_handed_to_bot"
                fields = {k: v for k, v in event.items() if k not in ("type", "seq")}
                print(f"{stamp()} event {event['seq']}: {kind} {json.dumps(fields)}")
            elif kind == "clocks_updated" and event.get("moved") == 0 and self.handed:
                self.bot_moves += 1
            elif kind == "clocks_updated" and event.get("moved") == 0:
                print(
                    f"{stamp()} event {event['seq']}: clocks_updated: seat 0 moved after"
                    f" {event['used_ms']} ms"
                )
        return new

    def until(self, check: Any, what: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.poll()
            if check():
                return
            time.sleep(0.1)
        raise SystemExit(f"clocks.py: timed out waiting for {what}")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def spies_api(db: Path, port: int) -> Iterator[str]:
    """``spies-api`` on ``db`` and ``port``, up; stopped on exit."""
    process = subprocess.Popen(
        [sys.executable, "-m", "spies_api", "--db", str(db), "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            with contextlib.suppress(OSError):
                if call(base, "GET", "/games?limit=1", quiet=True)[0] == 200:
                    break
            time.sleep(0.05)
        else:
            raise SystemExit("clocks.py: spies-api did not start")
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)


def legal_move(base: str, game_id: str, token: str) -> dict[str, Any]:
    _, legal = call(base, "GET", f"/games/{game_id}/legal", token=token, quiet=True)
    return {"command": legal["commands"][0], "expected_version": legal["version"]}


def to_act(base: str, game_id: str) -> list[int]:
    _, summary = call(base, "GET", f"/games/{game_id}", quiet=True)
    acting: list[int] = summary["to_act"]
    return acting


def warm_up(base: str) -> None:
    """Wait for a fresh server's bots: its worker process starts with the server, and a bot
    seat's clock would run while it starts (seconds on a busy machine)."""
    body = {"game": "deck-of-spies", "seats": [{"type": "bot", "bot": "random"}]}
    _, created = call(base, "POST", "/games", body, quiet=True)
    for _ in range(1200):
        _, summary = call(base, "GET", f"/games/{created['id']}", quiet=True)
        if summary["version"] > created["version"]:
            return
        time.sleep(0.05)
    raise SystemExit("clocks.py: the server's bots did not move")


def play(base: str, turn: float) -> tuple[str, str]:
    """The game, up to Ada taking her seat back; return its id and Ada's token."""
    body = {
        "game": "black-spy",
        "players": 4,
        "seats": [{"type": "creator", "name": "Ada"}, *[{"type": "bot", "bot": "random"}] * 3],
        "clock": {"turn_seconds": turn, "on_timeout": "bot", "abandon_after": 3},
    }
    START[0] = time.monotonic()
    status, created = call(base, "POST", "/games", body)
    game_id, ada = created["id"], created["seats"][0]["token"]
    print(f"           -> {status} id {game_id}, seat 0's token $ADA")
    follow = Follower(base, game_id)
    follow.until(lambda: 0 in to_act(base, game_id), "Ada to act")
    _, summary = call(base, "GET", f"/games/{game_id}")
    control = {k: v for k, v in summary["clock"].items() if k != "seats" and v is not None}
    print(f"           -> clock {json.dumps(control)}")
    print(f"           -> to_act {summary['to_act']}; {clock_line(summary)}")

    move = legal_move(base, game_id, ada)
    status, answer = call(base, "POST", f"/games/{game_id}/commands", move, token=ada)
    print(f"           -> {status} version {answer['version']} (Ada moves once, then stops)")
    follow.poll()
    print(f"{stamp()} ... Ada stops moving")
    follow.until(lambda: follow.counts.get("seat_handed_to_bot", 0) > 0, "the hand-over")
    status, summary = call(base, "GET", f"/games/{game_id}")
    print(f"           -> {status} seats[0] {json.dumps(summary['seats'][0])}")

    status, taken = call(base, "DELETE", f"/games/{game_id}/seats/0/bot", token=ada)
    show(status, taken)
    follow.until(lambda: follow.counts.get("seat_taken_back", 0) > 0, "seat_taken_back")
    timeouts = ", ".join(f"seat {seat}: {n}" for seat, n in sorted(follow.timeouts.items()))
    print(f"{stamp()} timeouts recorded: {timeouts}; Ada holds her seat again")
    return game_id, ada


def wait_for_ada(base: str, game_id: str) -> None:
    """Until Ada is to act (her clock running)."""
    follow = Follower(base, game_id)
    follow.seq = 10**9  # only the state, not the events again
    follow.until(lambda: 0 in to_act(base, game_id), "Ada to act")
    _, summary = call(base, "GET", f"/games/{game_id}")
    print(f"           -> to_act {summary['to_act']}; {clock_line(summary)}")


def restarted(db: Path, port: int, game_id: str, ada: str, since: int, turn: float) -> None:
    """The server starts again after Ada's deadline passed while it was down."""
    with spies_api(db, port) as base:
        follow = Follower(base, game_id)
        follow.seq = since
        follow.until(lambda: follow.counts.get("clocks_resumed", 0) > 0, "clocks_resumed")
        _, summary = call(base, "GET", f"/games/{game_id}")
        print(f"           -> to_act {summary['to_act']}; {clock_line(summary)}")
        move = legal_move(base, game_id, ada)
        status, answer = call(base, "POST", f"/games/{game_id}/commands", move, token=ada)
        print(f"           -> {status} version {answer.get('version')} (on time)")
        follow.poll()
        expired = follow.counts.get("clock_expired", 0)
        print(f"{stamp()} timeouts recorded since the restart: {expired}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", help="a running server (default: start one)")
    parser.add_argument("--turn-seconds", type=float, default=3.0)
    args = parser.parse_args()
    if args.base is not None:
        play(args.base.rstrip("/"), args.turn_seconds)
        return
    with tempfile.TemporaryDirectory(prefix="spies-clocks-") as tmp:
        db, port = Path(tmp) / "clocks.db", free_port()
        with spies_api(db, port) as base:
            warm_up(base)
            game_id, ada = play(base, args.turn_seconds)
            wait_for_ada(base, game_id)
            _, page = call(base, "GET", f"/games/{game_id}/events", quiet=True)
            since = page["events"][-1]["seq"]
            print(f"{stamp()} the server stops while Ada's clock runs")
        down = args.turn_seconds + 3.0  # past her deadline and the scheduler's grace (2 s)
        time.sleep(down)
        print(f"{stamp()} the server starts again, {down:g} s later")
        restarted(db, port, game_id, ada, since, args.turn_seconds)


if __name__ == "__main__":
    main()
