"""Where a command's time goes: the API under ``bench/api.py``'s load, profiled with cProfile.

Starts ``spies-api`` (``python -m cProfile -m spies_api``) on a fresh SQLite file, creates the
games of ``bench/api.py``'s recorded playouts, replays their commands from ``--clients``
keep-alive connections, stops the server (SIGTERM: it exits cleanly, so cProfile writes its
file) and prints the top of the profile of the server's main thread, where the event loop
runs every command that does not wait: by cumulative time, and by own time. It prints and
never asserts. Usage::

    python bench/hotpath.py [--clients 16] [--commands 6000] [--top 40] [-o FILE] [--db URL]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import pstats
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from api import HOST, api_work, drive, free_port, plan_games, record_scripts, summary


def serve(db: str, port: int, out: str) -> None:
    """Run ``spies-api`` under cProfile until SIGTERM, then write the profile to ``out``."""
    from spies_api.cli import main as spies_api

    # uvicorn raises the SIGTERM it caught again once it has shut down: exit, do not die
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    profile = cProfile.Profile()
    profile.enable()
    try:
        spies_api(["--db", db, "--port", str(port), "--rate-limit", "off"], environ={})
    finally:
        profile.disable()
        profile.dump_stats(out)


def serve_profiled(db: str, port: int, out: Path) -> subprocess.Popen[bytes]:
    """The API under cProfile, up and listening on ``port``."""
    process = subprocess.Popen(
        [sys.executable, __file__, "--serve", db, str(port), str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((HOST, port), timeout=0.2):
                return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("the profiled server did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--commands", type=int, default=6000)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("-o", "--output", type=Path, help="keep the profile in this file")
    parser.add_argument("--db", help="a postgresql:// URL (default: a fresh SQLite file)")
    parser.add_argument("--serve", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(*args.serve)
        return
    with tempfile.TemporaryDirectory() as work:
        workdir = Path(work)
        out = args.output or workdir / "api.prof"
        print("recording game scripts from random playouts ...", flush=True)
        scripts = record_scripts(workdir, per_game=max(4, args.commands // 300))
        port = free_port()
        process = serve_profiled(args.db or str(workdir / "api.db"), port, out)
        try:
            plans = plan_games(scripts, args.clients, args.commands // args.clients)
            work = asyncio.run(api_work(port, plans, args.commands // args.clients))
            elapsed, latencies = asyncio.run(drive(port, work))
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=60)
        count, rate, p50, p99 = summary(elapsed, latencies)
        print(f"{count} commands, {rate:.0f} commands/s (under cProfile), p50 {p50:.2f} ms")
        for order in ("cumulative", "tottime"):
            text = io.StringIO()
            stats = pstats.Stats(str(out), stream=text)
            stats.strip_dirs().sort_stats(order).print_stats(args.top)
            print(f"\n-- by {order} --")
            print(text.getvalue().split("\n", 6)[-1].rstrip())


if __name__ == "__main__":
    main()
