"""``spies_sim`` sits at the top of the import graph: it imports the rules, the bots and the
log, and nothing in ``src/`` imports it."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
ALLOWED = {"spies_core", "spies_bots", "spies_replay", "spies_sim"}


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
        found |= {name.split(".")[0] for name in names if name.startswith("spies_")}
    return found


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
