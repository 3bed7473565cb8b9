"""The repository as a whole: names defined once, no ticket numbers."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"


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


TEXT_SUFFIXES = {".py", ".md", ".ts", ".tsx", ".html", ".css", ".toml", ".cfg", ".sh", ".json", ""}
SKIPPED = {".git", ".venv", ".ci-venv", "node_modules", "static", "build", "dist", "__pycache__"}
TICKET = re.compile(r"\bissues?\s+#?[0-9]+", re.IGNORECASE)


def text_files() -> Iterator[Path]:
    """The repository's own text files (no virtual environments, caches or built bundles)."""
    stack = [ROOT]
    while stack:
        folder = stack.pop()
        for path in sorted(folder.iterdir()):
            if path.name in SKIPPED:
                continue
            if path.is_dir():
                if not path.name.endswith((".egg-info", "_cache")):
                    stack.append(path)
            elif path.suffix in TEXT_SUFFIXES and path.stat().st_size < 2_000_000:
                yield path


def test_no_file_names_a_ticket_number() -> None:
    """Say what a thing is, not which ticket asked for it: the tickets are not in the
    repository, so a number means nothing to its reader."""
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in text_files()
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if TICKET.search(line)
    ]
    assert not found, "\n".join(found)
