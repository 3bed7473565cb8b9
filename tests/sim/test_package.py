"""``spies_sim`` sits at the top of the import graph: it imports the rules, the bots, the
log and the application layer that writes games into it (``spies_api.game``, never the rest of
the API), and nothing in ``src/`` imports it."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
ALLOWED = {"spies_core", "spies_bots", "spies_replay", "spies_sim", "spies_api.game"}


def _project_imports(path: Path) -> set[str]:
    """The project packages a module imports, anywhere in it (function bodies too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found |= {_package(name) for name in names if name.startswith("spies_")}
    return found


def _package(name: str) -> str:
    """A project package, or ``spies_api.game`` for the application layer's modules."""
    if name == "spies_api.game" or name.startswith("spies_api.game."):
        return "spies_api.game"
    return name.split(".")[0]


def test_spies_sim_imports_the_rules_the_bots_and_the_log_only() -> None:
    paths = sorted((SRC / "spies_sim").rglob("*.py"))
    assert paths
    wrong = {str(path.relative_to(SRC)): sorted(_project_imports(path) - ALLOWED) for path in paths}
    assert not {path: names for path, names in wrong.items() if names}


def test_nothing_else_in_src_imports_spies_sim() -> None:
    importers = [
        str(path.relative_to(SRC))
        for path in sorted(SRC.glob("spies_*/**/*.py"))
        if path.relative_to(SRC).parts[0] != "spies_sim" and "spies_sim" in _project_imports(path)
    ]
    assert importers == []


def test_the_package_docstring_says_who_may_import_it() -> None:
    docstring = ast.get_docstring(ast.parse((SRC / "spies_sim" / "__init__.py").read_text()))
    assert docstring is not None and "Nothing in ``src/``" in docstring


@pytest.mark.slow
def test_the_simulator_and_the_replay_tool_never_load_the_http_app() -> None:
    """``spies_api`` imports its app on first use, so writing games through the application
    layer (``--record``, ``spies-replay abort``) loads no Litestar."""
    probe = (
        "import sys, spies_sim.cli, spies_sim.record, spies_replay.cli;"
        " assert 'litestar' not in sys.modules and 'spies_api.app' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", probe], check=True, timeout=60)
