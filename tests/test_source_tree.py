"""The source tree as a whole: names defined once."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def modules() -> Iterator[tuple[str, ast.Module]]:
    """Every module of the project's packages: its dotted name and its syntax tree."""
    for path in sorted(SRC.glob("spies_*/**/*.py")):
        parts = path.relative_to(SRC).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(parts), ast.parse(path.read_text(), str(path))


def test_the_any_spec_alias_is_defined_once_in_the_decider() -> None:
    defined = [
        name
        for name, tree in modules()
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name) and target.id == "AnySpec"
    ]
    assert defined == ["spies_core.decider"]
