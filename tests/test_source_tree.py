"""The repository as a whole: no import cycle, names defined once, no benchmark figure in a
docstring, no ticket numbers."""

from __future__ import annotations

import ast
import re
import subprocess
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"


@cache
def modules() -> tuple[tuple[str, ast.Module], ...]:
    """Every module of the project's packages: its dotted name and its syntax tree."""
    found = []
    for path in sorted(SRC.glob("spies_*/**/*.py")):
        parts = path.relative_to(SRC).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found.append((".".join(parts), ast.parse(path.read_text(), str(path))))
    return tuple(found)


def imports(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement of a module, wherever it stands: at the top level, inside
    ``if TYPE_CHECKING:`` (so that the graph is acyclic for the type checker too) and inside
    function bodies (they run later, but an import cycle through a function is still a cycle
    a reader has to untangle)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node


def import_graph() -> dict[str, set[str]]:
    """Each project module to the project modules it imports, anywhere in it.

    ``import a.b`` and ``from a import b`` (``b`` a submodule) are edges to ``a.b``; ``from
    a.b import name`` is an edge to ``a.b``. Relative imports are resolved.
    """
    trees = dict(modules())
    packages = {name for name in trees if _is_package(name)}
    graph: dict[str, set[str]] = {}
    for name, tree in trees.items():
        package = name if name in packages else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in imports(tree):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names if alias.name in trees)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    source = ".".join([*parts, *([node.module] if node.module else [])])
                else:
                    source = node.module or ""
                for alias in node.names:
                    if f"{source}.{alias.name}" in trees:
                        targets.add(f"{source}.{alias.name}")
                    elif source in trees:
                        targets.add(source)
        graph[name] = targets - {name}
    return graph


def _is_package(name: str) -> bool:
    return (SRC / name.replace(".", "/") / "__init__.py").exists()


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle ``a -> ... -> a`` per back edge of a depth-first search: none exactly when
    the graph has no cycle."""
    found: list[list[str]] = []
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> None:
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if target in path:
                found.append([*path[path.index(target) :], target])
            elif target not in done:
                visit(target)
        path.pop()
        done.add(node)

    for node in sorted(graph):
        if node not in done:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_cycle_and_only_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert cycles(graph) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []


def test_the_import_graph_sees_every_kind_of_import() -> None:
    graph = import_graph()
    assert "spies_replay.errors" in graph["spies_replay.store.sql"]  # from a.b import name
    assert "spies_core.deck_of_spies" in graph["spies_core.registry"]  # from a import b
    assert "spies_replay.store.records" in graph["spies_replay.errors"]  # if TYPE_CHECKING:
    # imported inside a function, when a PostgreSQL URL is opened: an edge all the same
    assert "spies_replay.store.postgres" in graph["spies_replay.store.backends"]


def test_no_import_cycle_among_the_projects_modules() -> None:
    found = cycles(import_graph())
    assert not found, "import cycles: " + "; ".join(" -> ".join(cycle) for cycle in found)


CORE, BOTS, REPLAY = "spies_core", "spies_bots", "spies_replay"
REPLAY_PARTS = {
    f"{REPLAY}.{part}"
    for part in (
        "codec",
        "jcs",
        "formats",
        "errors",
        "meta",
        "store",
        "reading",
        "clocks",
        "marks",
        "times",
        "receipts",
    )
}
API = "spies_api"
API_BELOW = {f"{API}.{part}" for part in ("schemas", "settings")}

ALLOWED: dict[str, set[str]] = {
    CORE: set(),
    BOTS: {CORE},
    # the log: the store and its records at the bottom, then reading, verify and transfer,
    # then the console program; never the bots (bar the console program's verify, which
    # re-derives bots' moves) nor anything above (bar the console program's abort, which
    # goes through the application layer)
    f"{REPLAY}.meta": {CORE},
    f"{REPLAY}.errors": {CORE, f"{REPLAY}.store"},
    f"{REPLAY}.jcs": set(),
    f"{REPLAY}.codec": {CORE, f"{REPLAY}.meta", f"{REPLAY}.store", f"{REPLAY}.jcs"},
    f"{REPLAY}.formats": {f"{REPLAY}.codec", f"{REPLAY}.meta", f"{REPLAY}.store"},
    f"{REPLAY}.clocks": {CORE, f"{REPLAY}.meta"},
    f"{REPLAY}.marks": set(),
    f"{REPLAY}.times": set(),
    f"{REPLAY}.receipts": set(),
    # the store knows no game and decodes nothing (see test_the_store_is_payload_agnostic)
    f"{REPLAY}.store": {CORE, f"{REPLAY}.errors", f"{REPLAY}.meta"},
    f"{REPLAY}.reading": {
        CORE,
        f"{REPLAY}.codec",
        f"{REPLAY}.store",
        f"{REPLAY}.meta",
        f"{REPLAY}.clocks",
        f"{REPLAY}.errors",
    },
    f"{REPLAY}.verify": {CORE, *REPLAY_PARTS},
    f"{REPLAY}.transfer": {CORE, *REPLAY_PARTS, f"{REPLAY}.verify"},
    f"{REPLAY}.copying": {CORE, *REPLAY_PARTS},
    REPLAY: {CORE, "spies_replay.*"},
    f"{REPLAY}.cli": {CORE, BOTS, "spies_replay.*", f"{API}.game"},
    f"{REPLAY}.__main__": {f"{REPLAY}.cli"},
    "spies_sim": {CORE, BOTS, REPLAY, "spies_replay.*", f"{API}.game"},
    # the API: schemas and settings at the bottom, then the problems, the service, the
    # table, the OpenAPI document and HTTP; the app wires them all
    f"{API}.settings": {f"{REPLAY}.store"},
    f"{API}.logging": set(),
    # the application layer: games on top of the log, no HTTP
    f"{API}.game": {CORE, "spies_replay.*"},
    f"{API}.schemas": {CORE, f"{REPLAY}.meta", f"{REPLAY}.store", f"{REPLAY}.receipts"},
    f"{API}.problems": {CORE, BOTS, *REPLAY_PARTS, *API_BELOW},
    f"{API}.service": {
        CORE,
        BOTS,
        "spies_replay.*",
        f"{API}.game",
        f"{API}.problems",
        *API_BELOW,
    },
    f"{API}.table": {
        CORE,
        BOTS,
        "spies_replay.*",
        f"{API}.game",
        f"{API}.problems",
        f"{API}.service",
        *API_BELOW,
    },
    f"{API}.openapi": {CORE, f"{API}.problems", *API_BELOW, f"{API}.app"},
    f"{API}.http": {
        CORE,
        f"{REPLAY}.store",
        f"{REPLAY}.codec",
        *(f"{API}.{part}" for part in ("problems", "service", "table", "openapi")),
        *API_BELOW,
    },
    # the web client's data, written from the rules, the schemas and the stream
    f"{API}.webdata": {CORE, *API_BELOW, f"{API}.http"},
    f"{API}.app": {"*"},
    f"{API}.cli": {"*"},
    f"{API}.__main__": {f"{API}.cli"},
    API: {f"{API}.app", *API_BELOW},
}
"""What each part of the source may import, besides itself: a package, or a folder or top-level
module of ``spies_api`` and ``spies_replay``. ``spies_replay.*`` stands for any part of the
log; ``*`` for anything (the app and its console script wire every part)."""


def part_of(module: str) -> str:
    """The part of :data:`ALLOWED` a module belongs to (its folder, or itself)."""
    parts = module.split(".")
    if parts[0] in (API, REPLAY) and len(parts) > 1:
        return ".".join(parts[:2])
    return parts[0]


def test_every_part_of_the_source_is_in_the_table() -> None:
    assert {part_of(name) for name, _ in modules()} <= set(ALLOWED)


def against_the_layers(graph: dict[str, set[str]]) -> list[str]:
    """The edges of ``graph`` that :data:`ALLOWED` does not allow, as ``a -> b``."""
    found = []
    for name, targets in graph.items():
        source = part_of(name)
        allowed = ALLOWED[source]
        for target in targets:
            wanted = part_of(target)
            ok = (
                wanted == source
                or "*" in allowed
                or wanted in allowed
                or ("spies_replay.*" in allowed and wanted.split(".")[0] == REPLAY)
            )
            if not ok:
                found.append(f"{name} -> {target}")
    return sorted(found)


def test_the_layer_check_finds_an_import_upwards() -> None:
    graph = {
        "spies_api.service.commands": {"spies_api.http.play", "spies_api.problems.errors"},
        "spies_replay.store.sql": {"spies_bots.registry", "spies_replay.codec"},
        "spies_core.rng": set(),
    }
    assert against_the_layers(graph) == [
        "spies_api.service.commands -> spies_api.http.play",
        "spies_replay.store.sql -> spies_bots.registry",
        "spies_replay.store.sql -> spies_replay.codec",  # the store decodes nothing
    ]


def test_imports_run_one_way_between_the_parts() -> None:
    """Each folder's docstring says what it may import; this holds the code to it, function
    level imports included (see :func:`imports`)."""
    found = against_the_layers(import_graph())
    assert not found, "imports against the layers: " + "; ".join(found)


STORE_MAY_IMPORT = {"spies_core.decider", "spies_replay.errors", "spies_replay.meta"}
"""What the store imports of the project: a game's outcome, its errors, the seat shapes."""


def test_the_store_is_payload_agnostic() -> None:
    """The store keeps bytes, sequence numbers, hashes and the indexes its callers give it:
    it imports no game (no registry, spec or codec) and names no event type of the log (the
    meta events' tags are its callers' to name)."""
    from spies_replay.meta import META_TYPES

    graph = import_graph()
    outside = sorted(
        f"{name} -> {target}"
        for name, targets in graph.items()
        if name.startswith(f"{REPLAY}.store")
        for target in targets
        if not target.startswith(f"{REPLAY}.store") and target not in STORE_MAY_IMPORT
    )
    assert not outside, outside
    named = sorted(
        f"{path.name}: {tag}"
        for path in (SRC / "spies_replay" / "store").glob("*.py")
        for tag in META_TYPES
        if re.search(rf"\b{tag}\b", path.read_text())
    )
    assert not named, named


def test_the_replay_log_never_imports_the_bots_but_in_its_console_layer() -> None:
    """``spies_replay`` sits below the bots: verify takes them as a parameter, and only the
    console script (``spies_replay.cli``) hands the registry in. The bots import the rules
    alone."""
    graph = import_graph()

    def packages(name: str) -> set[str]:
        return {target.split(".")[0] for target in graph[name]}

    console = ("spies_replay.cli", "spies_replay.cli.")
    replay = [
        f"{name}: {sorted(packages(name) - {'spies_core', 'spies_replay'})}"
        for name in graph
        if name.split(".")[0] == "spies_replay"
        and not (name == console[0] or name.startswith(console[1]))
        and packages(name) - {"spies_core", "spies_replay"}
    ]
    assert replay == []
    importers = {name for name in graph if "spies_bots" in packages(name)}
    assert {name for name in importers if name.startswith("spies_replay")} == {
        "spies_replay.cli.bots"
    }
    bots = [name for name in graph if name.split(".")[0] == "spies_bots"]
    assert bots and all(packages(name) <= {"spies_core", "spies_bots"} for name in bots)


TEXT_SUFFIXES = {".py", ".md", ".ts", ".tsx", ".html", ".css", ".toml", ".cfg", ".sh", ".json", ""}
SKIPPED = {".git", ".venv", ".ci-venv", "node_modules", "static", "build", "dist", "__pycache__"}
TICKET = re.compile(r"\bissues?\s+#?[0-9]+", re.IGNORECASE)


@cache
def ignored() -> frozenset[Path]:
    """What git ignores in the tree (``.gitignore``): a client generated by following the
    docs, a virtual environment of any name, build output. Empty outside a git checkout."""
    done = subprocess.run(
        ["git", "ls-files", "--others", "--ignored", "--exclude-standard", "--directory"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return frozenset()
    return frozenset(ROOT / line.rstrip("/") for line in done.stdout.splitlines())


def text_files() -> Iterator[Path]:
    """The repository's own text files (no virtual environments, caches, built bundles or
    anything else git ignores)."""
    stack = [ROOT]
    while stack:
        folder = stack.pop()
        for path in sorted(folder.iterdir()):
            if path.name in SKIPPED or path in ignored():
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


FIGURE = re.compile(
    r"\d[\d,.]*\s*(?:ms|µs|us|ns|milliseconds?|microseconds?)\b"
    r"|\d[\d,.]*\s*(?:k\s*)?(?:[A-Za-z]+\s*)?/\s*s\b"
    r"|\d[\d,.]*\s*(?:k\s*)?(?:[A-Za-z]+\s+)?per\s+second\b"
    r"|\d[\d,.]*\s*(?:x|×|times|%)\s+(?:faster|slower|quicker|as fast)\b",
    re.IGNORECASE,
)
"""A measured speed: a time in (milli|micro|nano)seconds, a rate per second, a speed-up."""


def docstrings() -> Iterator[tuple[str, int, str]]:
    """Every docstring of the project's modules (module, class, function and attribute
    docstrings: each string that stands alone as a statement), with its module and line."""
    for name, tree in modules():
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Expr)
                and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)
            ):
                yield name, node.lineno, node.value.value


@pytest.mark.parametrize(
    ("text", "figure"),
    [
        ("commits about 3,400 commands/s on this machine", True),
        ("folds 150,000 events/s", True),
        ("41,000/s", True),
        ("a turn takes 4.1 ms", True),
        ("12 k events per second", True),
        ("2.3x faster than the baseline", True),
        ("40% slower", True),
        ("3 for a second", False),
        ("a 95% confidence interval", False),
        ("the six black 7s", False),
        ("bodies up to 64 KiB, 15 s keep-alives", False),
    ],
)
def test_the_figure_pattern(text: str, figure: bool) -> None:
    assert (FIGURE.search(text) is not None) is figure


def test_no_docstring_states_a_measured_speed() -> None:
    """Figures go stale in a docstring: the bench scripts print them, and docs/speed.md keeps
    the measured tables (with how they were measured)."""
    found = [
        f"{name}:{line}: {match.group()!r}"
        for name, line, text in docstrings()
        for match in FIGURE.finditer(text)
    ]
    assert not found, "\n".join(found)


def test_the_any_spec_alias_is_defined_once_in_the_decider() -> None:
    """``AnySpec`` is imported from :mod:`spies_core.decider` everywhere, tests and bench
    scripts included."""
    defined = [
        str(path.relative_to(ROOT))
        for path in text_files()
        if path.suffix == ".py"
        and re.search(r"^AnySpec\s*(:[^=\n]*)?=", path.read_text(), re.MULTILINE)
    ]
    assert defined == ["src/spies_core/decider.py"]


MAX_MODULE_LINES = 500
"""A module longer than this holds several concerns: split it by what each part is for."""


def test_no_module_is_longer_than_the_limit() -> None:
    """Short files with one job each."""
    lengths = {
        str(path.relative_to(SRC)): len(path.read_text().splitlines())
        for path in sorted(SRC.glob("spies_*/**/*.py"))
    }
    long = {path: count for path, count in lengths.items() if count > MAX_MODULE_LINES}
    assert not long, f"over {MAX_MODULE_LINES} lines: {long}"


GENERATED_BY_THE_DOCS = (
    ".client/bin/python",
    "build/spies-client/pyproject.toml",
    "build/site/index.html",
    "examples/typescript/dist/play.js",
    "examples/typescript/node_modules/x",
    "examples/typescript/src/schema.d.ts",
    "created.json",
    "game.jsonl",
    "spies.db",
    "dos.jsonl",
)
"""Files the README's and the docs' commands write inside the repository."""


def test_what_the_docs_commands_generate_is_ignored() -> None:
    """Following the docs in a clone leaves ``git status`` clean and this file's checks
    passing."""
    done = subprocess.run(
        ["git", "check-ignore", "--no-index", *GENERATED_BY_THE_DOCS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode == 128:
        pytest.skip(f"not a git checkout: {done.stderr.strip()}")
    assert sorted(done.stdout.split()) == sorted(GENERATED_BY_THE_DOCS)
