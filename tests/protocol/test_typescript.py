"""The second verifier (TypeScript, ``web/src/verify/``) over the protocol's vectors, in Node.

It shares no code with the Python verifier: it is written from docs/protocol.md alone. Its
own test runner (``npm --prefix web test``) checks every vector file and the forgeries it
adds; here CI runs it, and its command line (``npm --prefix web run verify -- FILE...``) is
held to its contract: a line per file, exit 0 when every file verifies, 1 otherwise, 2 on a
usage error.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
EXPORTS = ROOT / "docs" / "protocol" / "vectors" / "exports"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        shutil.which("node") is None or shutil.which("npm") is None,
        reason="Node is missing (CI installs it, as .ci/run does)",
    ),
]


@pytest.fixture(scope="module", autouse=True)
def _web_installed() -> None:
    assert (WEB / "node_modules" / "esbuild").exists(), (
        "web/node_modules is missing: run `cd web && npm ci` (esbuild bundles the verifier)"
    )


def npm(*args: str) -> subprocess.CompletedProcess[str]:
    """``npm --prefix web ARGS`` from the repository's root, as the docs write it."""
    return subprocess.run(
        ["npm", "--prefix", "web", "--silent", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NO_COLOR": "1"},
        check=False,
    )


def test_the_typescript_verifier_passes_every_vector() -> None:
    done = npm("test")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout
    # one test per vector file's entry and per forgery: far more than the file count
    passed = next(line for line in done.stdout.splitlines() if line.startswith("# pass "))
    assert int(passed.removeprefix("# pass ")) >= 90


def test_the_command_line_gives_a_line_per_file_and_its_exit_code() -> None:
    honest = EXPORTS / "deck-of-spies-deal-clock.jsonl"
    forged = EXPORTS / "tampered-edited-event-rechained.jsonl"
    relative = honest.relative_to(ROOT)  # relative to the caller's directory, not web/

    ok = npm("run", "verify", "--", str(relative))
    assert ok.returncode == 0, ok.stdout + ok.stderr
    lines = ok.stdout.splitlines()
    assert lines[0] == f"{relative}: ok"
    assert any("bot-not-in-build greedy@2 (not re-run, not verified)" in line for line in lines)

    mixed = npm("run", "verify", "--", str(honest), str(forged))
    assert mixed.returncode == 1, mixed.stdout + mixed.stderr
    assert f"{forged}: seq 8 rederivation-mismatch: " in mixed.stdout
    assert f"{honest}: ok" in mixed.stdout

    cut = EXPORTS / "tampered-cut-short.jsonl"
    published = json.loads(honest.read_text().splitlines()[0])["head_hash"]
    anchored = npm("run", "verify", "--", "--head", published, str(cut))
    assert anchored.returncode == 1
    assert f"{cut}: seq 28 published-head-mismatch: " in anchored.stdout

    frozen = ROOT / "docs" / "protocol" / "vectors" / "format-1" / "exports"
    old = npm("run", "verify", "--", str(frozen / "deck-of-spies-mixed.jsonl"))
    assert old.returncode == 0, old.stdout + old.stderr  # an export of format 2 still verifies

    assert npm("run", "verify").returncode == 2
    assert npm("run", "verify", "--", "--frobnicate", str(honest)).returncode == 2
