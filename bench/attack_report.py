"""Print the guarantees table of ``docs/guarantees.md`` from the last run of the attack tests.

Usage::

    pytest tests/attack            # writes build/attack-figures.json
    python bench/attack_report.py  # prints the table (Markdown)

Each row is one guarantee under bad input, load or faults, the tests that prove it and the
figures they recorded (summed over the tests and their parameters).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

FIGURES = Path(__file__).resolve().parents[1] / "build" / "attack-figures.json"

ROWS: list[tuple[str, str, str]] = [
    (
        "hidden-information",
        "Hidden information: for playouts of every game and seat count, every answer to every"
        " seat and the spectator is the core's view/redaction of the server's state; twin"
        " deals that differ only in what a viewer cannot see look the same to it; no seed, deal"
        " or hidden list in any answer before the end",
        "tests/attack/test_hidden_information_http.py::test_every_answer_is_the_cores_view_of_the_servers_state,"
        " ::test_the_stream_sends_each_viewer_its_redaction,"
        " ::test_twin_deals_look_the_same_to_a_viewer_who_cannot_tell_them_apart;"
        " tests/core/test_hidden_information.py (spec.scramble)",
    ),
    (
        "hostile-input",
        "Hostile input: no server error, every answer as documented, invalid requests refused;"
        " malformed, oversized, wrong-typed, unknown and forged input is a 4xx problem with its"
        " code and leaves the log unchanged",
        "tests/attack/test_hostile_input.py::test_the_whole_document_against_the_app"
        " (schemathesis), the other tests of that file",
    ),
    (
        "races",
        "Races: exactly one command accepted per version, in one process and across two"
        " processes on one file; seqs contiguous; idempotent retries append once, also after a"
        " restart",
        "tests/attack/test_races.py",
    ),
    (
        "crashes",
        "Crashes: after SIGKILL every acknowledged command is in the log at its seqs, no batch"
        " is torn, spies-replay verify --all passes, play goes on",
        "tests/attack/test_crash.py::test_every_acknowledged_command_survives_sigkill",
    ),
    (
        "tampering",
        "Tampering: every edit, deletion, insertion and swap of stored events is reported at"
        " the first seq it changes (with the hash chain recomputed: there or later, never"
        " earlier; what no log can show, against the published head)",
        "tests/attack/test_tampering.py::test_every_tamper_is_reported_at_its_seq;"
        " tests/replay/test_verify.py",
    ),
    (
        "limits",
        "Limits: 32 KiB request heads (431/414, before the rest is read), 64 KiB bodies"
        " (413), capped pages, 64 streams per game (503 + Retry-After), a per-client rate"
        " limit (50/second by default: 429 + Retry-After) and a bucket of 100/second for"
        " pages, docs, static files and probes (served from memory; /readyz asks the"
        " database at most once a second), at most 4 active bot games per client (429"
        " too-many-bot-games), a client being an IPv4 address (IPv4-mapped included) or an"
        " IPv6 /64, X-Forwarded-For only from --trusted-proxies",
        "tests/attack/test_limits.py, tests/attack/test_request_heads.py,"
        " tests/attack/test_free_paths.py, tests/attack/test_bot_quota.py,"
        " tests/attack/test_client_address.py",
    ),
    (
        "logs",
        "Logs: no token, Authorization header, seed, card or command value in the log lines of"
        " full games of every game",
        "tests/attack/test_logs.py",
    ),
]


def _add(total: dict[str, Any], figures: dict[str, Any]) -> None:
    for name, value in figures.items():
        if isinstance(value, dict):
            _add(total.setdefault(name, {}), value)
        elif isinstance(value, bool) or not isinstance(value, int | float):
            continue
        elif name in {"examples_per_operation", "operations", "clients_per_race", "viewers"}:
            total[name] = max(total.get(name, 0), value)
        else:
            total[name] = total.get(name, 0) + value


def _text(figures: dict[str, Any]) -> str:
    parts = []
    for name, value in sorted(figures.items()):
        if isinstance(value, dict):
            inner = ", ".join(f"{k}: {v:,}" for k, v in sorted(value.items()))
            parts.append(f"{name.replace('_', ' ')} ({inner})")
        else:
            parts.append(f"{name.replace('_', ' ')}: {value:,}")
    return "; ".join(parts)


def table(data: dict[str, dict[str, dict[str, Any]]]) -> str:
    """The Markdown table of the figures."""
    lines = ["| guarantee | proved by | figures of the last run |", "|---|---|---|"]
    for key, guarantee, tests in ROWS:
        total: dict[str, Any] = {}
        for figures in data.get(key, {}).values():
            _add(total, figures)
        lines.append(f"| {guarantee} | {tests} | {_text(total) or 'not run'} |")
    return "\n".join(lines)


def main() -> int:
    if not FIGURES.exists():
        print(f"{FIGURES} does not exist: run `pytest tests/attack` first", file=sys.stderr)
        return 1
    print(table(json.loads(FIGURES.read_text())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
