"""The suite's own rules (CONTRIBUTING.md, "How the tests are written"), read from its
source: no test sleeps for a fixed time, and no test module imports another test module or
a conftest (shared helpers are in ``tests/support``)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent

WAITING = TESTS / "support" / "waiting.py"
"""The one place that sleeps: between two looks at a condition, until a deadline."""

SIMULATED: dict[str, str] = {
    "api/test_bot_pool.py": "a worker start slower than the time limit (what the test is about)",
    "support/workers.py": "a bot that hangs in its worker (what the crash tests are about)",
}
"""Modules whose ``sleep`` is the slowness under test, not a wait, and why."""


def _modules() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if "fixtures" not in p.relative_to(TESTS).parts)


def _sleeps(tree: ast.AST) -> list[int]:
    return sorted(
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute | ast.Name)
        and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id) == "sleep"
    )


def test_no_test_sleeps_for_a_fixed_time() -> None:
    found = []
    for path in _modules():
        name = path.relative_to(TESTS).as_posix()
        if path == WAITING or name in SIMULATED:
            continue
        found += [f"{name}:{line}" for line in _sleeps(ast.parse(path.read_text()))]
    assert found == [], f"sleeps (wait on a condition: tests.support.waiting.until): {found}"


def test_the_rule_sees_a_sleep() -> None:
    tree = ast.parse("import time, asyncio\ntime.sleep(1)\nawait asyncio.sleep(0.1)\nsleep(2)")
    assert _sleeps(tree) == [2, 3, 4]


def _imported_tests(path: Path) -> list[str]:
    """The test modules and conftests that ``path`` imports."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            last = node.module.rsplit(".", 1)[-1]
            if last.startswith("test_") or last == "conftest":
                found.append(f"{'.' * node.level}{node.module}")
        elif isinstance(node, ast.ImportFrom) and node.module is None:
            found += [
                f"{'.' * node.level}{alias.name}"
                for alias in node.names
                if alias.name.startswith("test_") or alias.name == "conftest"
            ]
    return found


def test_no_test_module_imports_another_test_module_or_a_conftest() -> None:
    found = {
        path.relative_to(TESTS).as_posix(): imported
        for path in _modules()
        if (imported := _imported_tests(path))
    }
    assert found == {}, f"move what they share into tests/support: {found}"


def test_the_rule_sees_such_an_import(tmp_path: Path) -> None:
    module = tmp_path / "test_x.py"
    module.write_text(
        "from .conftest import a\nfrom tests.api.test_games import b\nfrom . import test_y\n"
    )
    assert _imported_tests(module) == [".conftest", "tests.api.test_games", ".test_y"]
