"""Requests with huge heads: the server's memory, and another client's ``/healthz``, meanwhile.

Starts ``spies-api`` on a fresh SQLite file and sends ``--clients`` requests at once, each
with one header of ``--megabytes`` MiB (the request line first, then the header's value in
64 KiB writes, as fast as the server reads them; a client stops writing once it has an
answer, or when the server stops reading). Meanwhile another client asks ``GET /healthz``
ten times a second. Prints the server's resident memory before, its peak (``VmHWM``) and
after, each attacker's answer and how much of its request it sent, and the other client's
p50 and worst ``/healthz``. It prints and never asserts.

With ``--unbounded`` it runs the same attack first on the app served by uvicorn with its own
defaults (httptools, no bound on a head: what ``spies-api`` did before), for comparison.
Linux only (``/proc``). Usage::

    python bench/big_heads.py [--clients 3] [--megabytes 64] [--unbounded]
"""

from __future__ import annotations

import argparse
import os
import select
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from api import HOST, free_port, server  # noqa: E402

UNBOUNDED = """
import sys, uvicorn
from spies_api import Settings, create_app
app = create_app(Settings(db_path=sys.argv[1], rate_limit=None, free_paths_rate_limit=None))
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), http="httptools", log_level="error")
"""
"""The app as uvicorn serves it with its defaults: no bound on a request's head."""

CHUNK = b"a" * 65536


def memory(pid: int) -> dict[str, int]:
    """The process's resident memory now (``VmRSS``) and at its peak (``VmHWM``), in KiB."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            found[name] = int(value.split()[0])
    return found


def attack(port: int, size: int, outcome: list[str]) -> None:
    """One request with a header of ``size`` bytes; what came of it, into ``outcome``."""
    sent = 0
    answer = b""
    with socket.create_connection((HOST, port), timeout=300) as sock:
        sock.sendall(b"GET /games HTTP/1.1\r\nHost: spies\r\nX-Big: ")
        try:
            while sent < size:
                readable, writable, _ = select.select([sock], [sock], [], 300)
                if readable:
                    break
                if writable:
                    sent += sock.send(CHUNK)
            if sent >= size:
                sock.sendall(b"\r\n\r\n")
            answer = sock.recv(200)
        except OSError as exc:
            answer = answer or f"{type(exc).__name__}".encode()
    status = answer.split(b"\r\n", 1)[0].decode("latin-1", "replace") or "no answer"
    outcome.append(f"{status}, {sent / 2**20:.1f} MiB sent")


def probe(port: int, stop: threading.Event, timings: list[float]) -> None:
    """``GET /healthz`` ten times a second until ``stop``; each one's latency, ms."""
    request = b"GET /healthz HTTP/1.1\r\nHost: spies\r\nConnection: close\r\n\r\n"
    while not stop.is_set():
        started = time.perf_counter()
        with socket.create_connection((HOST, port), timeout=300) as sock:
            sock.sendall(request)
            while sock.recv(65536):
                pass
        timings.append((time.perf_counter() - started) * 1000)
        stop.wait(0.1)


def run(label: str, pid: int, port: int, clients: int, size: int) -> None:
    before = memory(pid)
    outcomes: list[str] = []
    timings: list[float] = []
    stop = threading.Event()
    prober = threading.Thread(target=probe, args=(port, stop, timings))
    prober.start()
    attackers = [
        threading.Thread(target=attack, args=(port, size, outcomes)) for _ in range(clients)
    ]
    started = time.perf_counter()
    for thread in attackers:
        thread.start()
    for thread in attackers:
        thread.join()
    elapsed = time.perf_counter() - started
    stop.set()
    prober.join()
    after = memory(pid)
    print(
        f"  {label}: RSS {before['VmRSS'] / 1024:.0f} MiB before, peak"
        f" {after['VmHWM'] / 1024:.0f} MiB, {after['VmRSS'] / 1024:.0f} MiB after;"
        f" attack over in {elapsed:.1f} s"
    )
    print(f"    attackers got: {'; '.join(sorted(outcomes))}")
    if timings:
        print(
            f"    other client's /healthz: p50 {statistics.median(timings):.1f} ms, worst"
            f" {max(timings):.0f} ms ({len(timings)} requests)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=3)
    parser.add_argument("--megabytes", type=int, default=64)
    parser.add_argument("--unbounded", action="store_true")
    args = parser.parse_args()
    size = args.megabytes * 2**20
    print(
        f"big heads: {args.clients} requests at once, each with a {args.megabytes} MiB header;"
        f" Python {sys.version.split()[0]}, {os.cpu_count()} CPUs"
    )
    with tempfile.TemporaryDirectory(prefix="spies-bench-") as tmp:
        if args.unbounded:
            port = free_port()
            db = str(Path(tmp) / "unbounded.db")
            with server(["-c", UNBOUNDED, db, str(port)], port) as pid:
                run("uvicorn's defaults (before)", pid, port, args.clients, size)
        port = free_port()
        options = ["--rate-limit", "off", "--free-paths-rate-limit", "off"]
        command = ["-m", "spies_api", "--db", str(Path(tmp) / "spies.db"), "--port", str(port)]
        with server([*command, *options], port) as pid:
            run("spies-api", pid, port, args.clients, size)


if __name__ == "__main__":
    main()
