"""bench/soak.py, briefly: a few dozen games of every kind on one process for about 15 s.

Only what must hold at any size is asserted (nothing lost or duplicated on any stream, no
error); the latency and memory targets are the long run's, printed by the bench itself.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.mark.slow
def test_a_short_soak_loses_nothing_and_has_no_error(tmp_path: Path) -> None:
    out = tmp_path / "soak.json"
    run = subprocess.run(
        [
            sys.executable,
            "soak.py",
            "--games",
            "45",
            "--seconds",
            "15",
            "--interval",
            "5",
            "--rate",
            "15",
            "--json",
            str(out),
        ],
        cwd=BENCH,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    totals = json.loads(out.read_text())
    assert totals["errors"] == 0, totals["error_samples"]
    assert totals["lost"] == 0 and totals["duplicated"] == 0
    assert totals["appended"] > 0
    assert totals["delivered_of_appended"] == totals["appended"]
    assert totals["commands"] > 0 and totals["games_finished"] > 0
    assert len(totals["intervals"]) == 3
