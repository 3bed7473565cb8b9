"""Adding a game is one package and one registry line: Card Duel, a game that lives only in
the tests (``tests/fourth_game/card_duel``), passes every generic suite with no edit to any
of them.

The suites run in a subprocess with ``-p tests.fourth_game.plugin``, which registers the game
before anything reads the registry; this process, and so the normal run and the committed
``openapi/openapi.json`` it checks, never sees it. Only Card Duel's cases run (the built-in
games' are the normal run's), with the suites' tests that are not per game, except the check
that the committed OpenAPI document is the app's (with a fourth game it is not, by design).
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from spies_core.registry import GAMES
from tests.fourth_game.card_duel import SPEC

ROOT = Path(__file__).resolve().parents[2]
GAME = SPEC.name
SUITES = (
    "tests/core/test_conformance.py",
    "tests/core/test_hidden_information.py",
    "tests/core/test_package_shape.py",
    "tests/core/test_table_views.py",
    "tests/replay/test_registered_games.py",
    "tests/replay/test_golden_logs.py",
    "tests/attack/test_hidden_information_http.py",
    "tests/attack/test_tampering.py",
    "tests/api/test_full_games.py",
    "tests/api/test_openapi.py",
)
"""The generic suites the fourth game must pass: conformance, hidden information in the core
and over HTTP, the package's shape, its views before the deal and after the end, replay,
verify and tampering, whole games over HTTP, the OpenAPI document."""
DRIFT_CHECK = "tests/api/test_openapi.py::test_the_committed_document_is_the_apps"


def test_the_fourth_game_is_registered_only_under_test() -> None:
    assert GAME not in GAMES
    assert GAME not in (ROOT / "openapi" / "openapi.json").read_text()


@pytest.mark.slow
def test_the_fourth_game_passes_every_generic_suite(tmp_path: Path) -> None:
    report = tmp_path / "report.xml"
    others = " or ".join(name for name in GAMES)
    env = {
        **os.environ,
        "SPIES_CONFORMANCE_GAMES": "20",
        "SPIES_HIDDEN_INFO_GAMES": "4",
        "SPIES_ATTACK_FIGURES": str(tmp_path / "figures.json"),
    }
    env.pop("SPIES_GOLDEN_DIR", None)
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "tests.fourth_game.plugin",
            "-p",
            "no:cacheprovider",
            "-k",
            f"{GAME} or not ({others})",
            "--deselect",
            DRIFT_CHECK,
            f"--junitxml={report}",
            *SUITES,
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    cases = ElementTree.parse(report).getroot().iter("testcase")
    passed: dict[str, list[str]] = {}
    for case in cases:
        if not any(child.tag in {"failure", "error", "skipped"} for child in case):
            module = case.attrib["classname"].rsplit(".", 1)[-1]
            passed.setdefault(module, []).append(case.attrib["name"])
    for suite in SUITES[:-1]:
        module = Path(suite).stem
        ran = [name for name in passed.get(module, []) if GAME in name]
        assert ran, f"no {GAME} case passed in {suite}: {passed.get(module)}"
    assert passed.get("test_openapi"), "the OpenAPI checks did not run"  # none is per game
