"""Every name and path the docs and docstrings point at exists.

A reference that resolves to nothing is a reader sent nowhere: it names code that moved or is
gone. This checks

- in every docstring of ``src/`` (module, class, function and attribute docstrings): each
  Sphinx role (``:func:``, ``:class:``, ``:mod:``, ``:meth:``, ``:data:``, ``:attr:``,
  ``:exc:``, ``:obj:``, ``:const:``), relative (``.records``), shortened (``~a.b.C``) or bare
  (``Settings``, looked up in the docstring's module and class), and each plain
  ``spies_x.y.z`` name in backticks;
- in ``README.md``, ``ARCHITECTURE.md``, ``CONTRIBUTING.md``, ``docs/*.md``, ``web/README.md``
  and ``examples/README.md``: each ``spies_x.y.z`` name in backticks;
- in all of those: each file path of the repository (``src/...``, ``tests/...``,
  ``bench/...``, ``docs/...``, ``web/...``, ``examples/...``, ``deploy/...``, ``openapi/...``,
  and ``spies_x/....py`` under ``src/``), relative to the document's folder or to the root.

A dotted name resolves as a module (the longest importable prefix), then attributes of it,
then attributes of a class: its fields, properties and methods, and the instance attributes
its methods assign (``self.name = ...``). In the documents, an identifier in backticks that
is not a plain word (``BotRunner``, ``SWEEP_SECONDS``, ``games_with_bots``, ``Head.due_at``)
must also be one the project's code names somewhere (a definition, an attribute, an import,
a string the source sends), a component of the OpenAPI document, or one of
:data:`EXTERNAL`'s. A failure names the file, the line and the name. It imports the
project's modules once and reads no database: it runs in the fast loop.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import importlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Final

import pytest

from spies_api.settings import Settings

ROOT: Final = Path(__file__).resolve().parents[1]
SRC: Final = ROOT / "src"
DOCS: Final = (
    ROOT / "README.md",
    ROOT / "ARCHITECTURE.md",
    ROOT / "CONTRIBUTING.md",
    *sorted((ROOT / "docs").glob("*.md")),
    ROOT / "web" / "README.md",
    ROOT / "examples" / "README.md",
)
"""The documents whose names and paths are checked (the rule references in ``docs/rules/``
cite rules, which ``tests/test_rule_citations.py`` checks)."""

ROLE: Final = re.compile(r":(?:func|class|mod|meth|data|attr|exc|obj|const):`(?P<target>[^`]+)`")
DOTTED: Final = re.compile(r"`+(?P<name>spies_[a-z_]+(?:\.[A-Za-z_][A-Za-z0-9_]*)+)(?:\(\))?`+")
"""A dotted name of the project in backticks (one without a dot is a metric, an event type,
a package's own name: not checked)."""
PATH: Final = re.compile(
    r"(?<![\w./-])(?P<path>(?:src|tests|bench|docs|web|examples|deploy|openapi)/[\w./<>*{}@$-]*"
    r"[\w/>*}]|spies_[a-z_]+/[\w/-]*\.py)"
)
SKIPPED_PATHS: Final = ("<", "*", "{", "...", "…", "$")
"""Paths with these are patterns (``tests/core/<game>/``), not files."""

NOT_FILES: Final[dict[tuple[str, str], str]] = {
    ("examples/README.md", "src/schema.d.ts"): (
        "the types the TypeScript client test generates in its own copy of the example,"
        " never committed"
    ),
}
"""``(document, path)`` -> why a path a document names is not in the repository."""

_STORE: Final = "src/spies_replay/store/"


@dataclass(frozen=True, slots=True)
class Reference:
    """A name or path as written, and where."""

    file: str
    line: int
    text: str
    module: str | None = None
    """The docstring's module, for relative and bare names."""
    scope: str | None = None
    """The docstring's class, for bare names."""

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.text}"


# -- collecting ---------------------------------------------------------------------------


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _trees() -> dict[str, tuple[Path, ast.Module]]:
    """Every module of the project by its dotted name: its file and syntax tree."""
    return {
        _module_name(path): (path, ast.parse(path.read_text(encoding="utf-8"), str(path)))
        for path in sorted(SRC.glob("spies_*/**/*.py"))
    }


def _docstrings(tree: ast.Module) -> Iterator[tuple[int, str, str | None]]:
    """Each docstring (every string standing alone as a statement) with its line and the
    innermost class around it."""

    def walk(node: ast.AST, scope: str | None) -> Iterator[tuple[int, str, str | None]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                yield from walk(child, child.name)
            elif (
                isinstance(child, ast.Expr)
                and isinstance(child.value, ast.Constant)
                and isinstance(child.value.value, str)
            ):
                yield child.lineno, child.value.value, scope
            else:
                yield from walk(child, scope)

    yield from walk(tree, None)


def _lines(text: str, first: int) -> Iterator[tuple[int, str]]:
    for offset, line in enumerate(text.splitlines()):
        yield first + offset, line


def docstring_references() -> Iterator[Reference]:
    """The roles, dotted names and paths of every docstring under ``src/``."""
    for module, (path, tree) in _trees().items():
        file = path.relative_to(ROOT).as_posix()
        for first, text, scope in _docstrings(tree):
            for line, content in _lines(text, first):
                for match in ROLE.finditer(content):
                    yield Reference(file, line, match["target"], module, scope)
                without_roles = ROLE.sub("", content)
                for match in DOTTED.finditer(without_roles):
                    yield Reference(file, line, match["name"], module, scope)
                for match in PATH.finditer(content):
                    yield Reference(file, line, match["path"])


def document_references(paths: tuple[Path, ...] = DOCS) -> Iterator[Reference]:
    """The dotted names and paths of the documents."""
    for path in paths:
        file = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
        for line, content in _lines(path.read_text(encoding="utf-8"), 1):
            for match in DOTTED.finditer(content):
                yield Reference(file, line, match["name"])
            for match in PATH.finditer(content):
                yield Reference(file, line, match["path"])


# -- resolving ----------------------------------------------------------------------------


def _import(name: str) -> ModuleType | None:
    if name.split(".")[-1] == "__main__":  # importing one runs it
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


@cache
def _assigned(module: str, cls: str) -> frozenset[str]:
    """What a class of the project names in its body or assigns as ``self.name`` in its
    methods (instance attributes a ``getattr`` on the class cannot see)."""
    found: set[str] = set()
    entry = _trees().get(module)
    if entry is None:
        return frozenset()
    for node in ast.walk(entry[1]):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for inner in ast.walk(node):
                if isinstance(inner, ast.AnnAssign) and isinstance(inner.target, ast.Name):
                    found.add(inner.target.id)
                elif (
                    isinstance(inner, ast.Attribute)
                    and isinstance(inner.ctx, ast.Store)
                    and isinstance(inner.value, ast.Name)
                    and inner.value.id == "self"
                ):
                    found.add(inner.attr)
    return frozenset(found)


def _has(owner: object, name: str) -> tuple[bool, object]:
    """Whether ``owner`` has ``name``, and what it is (``None`` when only declared)."""
    if isinstance(owner, ModuleType):
        if hasattr(owner, name):
            return True, getattr(owner, name)
        module = _import(f"{owner.__name__}.{name}")
        return module is not None, module
    if hasattr(owner, name):
        return True, getattr(owner, name)
    if isinstance(owner, type):
        for cls in owner.__mro__:
            own = vars(cls)
            declared = set(_assigned(cls.__module__, cls.__name__))
            for key in ("__annotations__", "__struct_fields__", "__dataclass_fields__"):
                names = own.get(key, ())
                if isinstance(names, dict | tuple):  # not a builtin type's descriptor
                    declared |= set(names)
            if name in declared:
                return True, None
    return False, None


def resolve(name: str) -> bool:
    """Whether a dotted name is a module, or an attribute chain from the longest importable
    module prefix."""
    parts = name.split(".")
    for split in range(len(parts), 0, -1):
        module = _import(".".join(parts[:split]))
        if module is None:
            continue
        owner: object = module
        for part in parts[split:]:
            found, owner = _has(owner, part)
            if not found:
                return False
            if owner is None:  # declared, not a value: nothing more to look into
                return part == parts[-1]
        return True
    return False


def _package(module: str) -> str:
    path = _trees().get(module, (Path(), None))[0]
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def resolves(reference: Reference) -> bool:
    """Whether a docstring's role target or dotted name names something that exists."""
    target = reference.text.lstrip("~").removesuffix("()")
    module, scope = reference.module, reference.scope
    if module is None:
        return resolve(target)
    if target.startswith("."):
        package = _package(module)
        candidates = [f"{module}{target}"]
        while package:
            candidates.append(f"{package}{target}")
            package = package.rpartition(".")[0]
        return any(resolve(candidate) for candidate in candidates)
    candidates = [target, f"{module}.{target}"]
    if scope is not None:
        candidates.append(f"{module}.{scope}.{target}")
    if any(resolve(candidate) for candidate in candidates):
        return True
    return "." not in target and hasattr(builtins, target)


def path_exists(reference: Reference) -> bool:
    """Whether a path names a file or folder, from the document's folder or the root."""
    text = reference.text.rstrip(".")
    if any(mark in text for mark in SKIPPED_PATHS) or (reference.file, text) in NOT_FILES:
        return True
    if text.startswith("spies_"):
        return (SRC / text).exists()
    here = (ROOT / reference.file).parent
    return (here / text).exists() or (ROOT / text).exists()


def unresolved(references: Iterator[Reference]) -> list[str]:
    """The references that name nothing, as ``file:line: name``."""
    return [
        str(reference)
        for reference in references
        if not (path_exists(reference) if _is_path(reference.text) else resolves(reference))
    ]


def _is_path(text: str) -> bool:
    return PATH.fullmatch(text) is not None and "/" in text


# -- identifiers in the documents ---------------------------------------------------------

IDENTIFIER: Final = re.compile(
    r"`(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)(?:\(\))?`"
)
WORD: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
FILE_SUFFIXES: Final = frozenset(
    {"py", "md", "ts", "json", "js", "mjs", "css", "html", "sh", "toml", "c"}
)
RULE_ID: Final = re.compile(r"[WETIU]-?\d+")
"""A rule reference's id (``W7``, ``T11``): ``tests/test_rule_citations.py`` checks those."""

EXTERNAL: Final[dict[str, str]] = {
    **dict.fromkeys(("ETag", "Vary"), "HTTP headers the responses carry (set by Litestar)"),
    **dict.fromkeys(
        ("NoNewPrivileges", "PrivateDevices", "PrivateTmp", "MemoryDenyWriteExecute"),
        "systemd unit settings of deploy/systemd/spies-api@.service",
    ),
    "TimeoutStopSec": "a systemd unit setting of deploy/systemd/spies-api@.service",
    "NOTIFY": "PostgreSQL's NOTIFY (the store sends it from SQL)",
    "synchronous_commit": "a PostgreSQL setting",
    **dict.fromkeys(("pg_basebackup", "pg_dump"), "PostgreSQL tools"),
    "STRICT": "SQLite's STRICT tables",
    "large_client_header_buffers": "an nginx directive",
    **dict.fromkeys(
        ("exactOptionalPropertyTypes", "noUncheckedIndexedAccess"), "flags of web/tsconfig.json"
    ),
    "localStorage": "the browser's storage, which the web client uses",
    "max_response_time": "the schemathesis check the hostile-input run leaves out",
    "_sqlite_migrations": "sqlite-utils' table of the migrations it ran",
    "genrand_int32": "the Mersenne Twister's output function, named by docs/protocol.md",
    **dict.fromkeys(
        ("C_n", "hash_n", "hash_0", "hash_seq", "canonical_n", "block_0"),
        "notation of docs/protocol.md",
    ),
}
"""Identifiers the documents name that are not the project's: where each comes from."""


@cache
def project_names() -> frozenset[str]:
    """Every identifier the project's code names: what it defines, imports, reads or passes
    (in ``src/``, ``tests/``, ``bench/`` and ``examples/``), the words of the strings the
    source sends (headers, SQL, event types; docstrings left out), and the components of
    the OpenAPI document, the modules' own names, the ``SPIES_*`` variable of each setting,
    and every word of the web client's TypeScript."""
    names: set[str] = set()
    parsed = {path: tree for path, tree in _trees().values()}  # src/ is parsed once
    for folder in ("src", "tests", "bench", "examples"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.name == Path(__file__).name:
                continue
            names.update((path.stem, path.parent.name))
            tree = parsed.get(path) or ast.parse(path.read_text(encoding="utf-8"))
            docstrings = {id(node.value) for node in ast.walk(tree) if _is_docstring(node)}
            for node in ast.walk(tree):
                match node:
                    case ast.FunctionDef(name=name) | ast.AsyncFunctionDef(name=name):
                        names.add(name)
                    case ast.ClassDef(name=name) | ast.Name(id=name) | ast.Attribute(attr=name):
                        names.add(name)
                    case ast.arg(arg=name):
                        names.add(name)
                    case ast.keyword(arg=str() as name):
                        names.add(name)
                    case ast.alias(name=name, asname=alias):
                        names.update(name.split("."))
                        if alias is not None:
                            names.add(alias)
                    case ast.Constant(value=str() as text) if id(node) not in docstrings:
                        names.update(WORD.findall(text))
    document = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))
    names.update(document["components"]["schemas"])
    names.update(f"SPIES_{field.name.upper()}" for field in dataclasses.fields(Settings))
    for path in sorted((ROOT / "web" / "src").rglob("*.ts")):
        names.update(WORD.findall(path.read_text(encoding="utf-8")))
    return frozenset(names)


def _is_docstring(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def document_identifiers(paths: tuple[Path, ...] = DOCS) -> Iterator[Reference]:
    """The identifiers in backticks of the documents that are not plain words: with an
    underscore or a capital, or ``Name.attribute`` (dotted names of the project and file
    names left out: the other checks take them)."""
    for path in paths:
        file = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
        for line, content in _lines(path.read_text(encoding="utf-8"), 1):
            for match in IDENTIFIER.finditer(content):
                name = match["name"]
                last = name.rpartition(".")[2]
                if name.startswith("spies_") or last in FILE_SUFFIXES or RULE_ID.fullmatch(name):
                    continue
                if "_" in name or "." in name or name != name.lower():
                    yield Reference(file, line, name)


def unnamed(references: Iterator[Reference]) -> list[str]:
    """The identifiers the project never names and :data:`EXTERNAL` does not list."""
    names = project_names()
    return [
        str(reference)
        for reference in references
        if reference.text not in EXTERNAL
        and not all(part in names for part in reference.text.split("."))
    ]


# -- the tests ------------------------------------------------------------------------------


def test_every_name_and_path_in_a_docstring_exists() -> None:
    found = unresolved(docstring_references())
    assert not found, f"{len(found)} reference(s) to nothing:\n" + "\n".join(found)


def test_every_name_and_path_in_the_docs_exists() -> None:
    found = unresolved(document_references())
    assert not found, f"{len(found)} reference(s) to nothing:\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("text", "module", "scope", "exists"),
    [
        ("spies_core.registry.GAMES", None, None, True),
        ("spies_core.registry.NOTHING", None, None, False),
        ("spies_core.decider.GameSpec.reference", None, None, True),  # a dataclass field
        ("spies_core.decider.Outcome.reason", None, None, True),  # a Struct field
        ("spies_replay.store.sql.SqlEventStore.snapshot_every", None, None, True),  # self.x
        ("spies_replay.store.sql.SqlEventStore.nothing", None, None, False),
        ("~spies_api.settings.Settings", None, None, True),
        (".records", "spies_replay.store.sql", None, True),  # relative, in the package
        (".nowhere", "spies_replay.store.sql", None, False),
        ("get_game", "spies_core.registry", None, True),  # bare, in the module
        ("snapshot_every", "spies_replay.store.sql", "SqlEventStore", True),  # in the class
        ("BotRunner", "spies_api.table.scheduler", None, False),
        ("ValueError", "spies_core.errors", None, True),
        ("random.Random", "spies_core.decider", None, True),
    ],
)
def test_the_resolver(text: str, module: str | None, scope: str | None, exists: bool) -> None:
    assert resolves(Reference("f", 1, text, module, scope)) is exists


def test_every_identifier_in_the_docs_is_one_the_project_names() -> None:
    found = unnamed(document_identifiers())
    assert not found, (
        f"{len(found)} identifier(s) the code does not name (gone? or add an outside one to"
        " EXTERNAL, saying where it comes from):\n" + "\n".join(found)
    )


def test_every_external_identifier_is_still_in_the_docs() -> None:
    named = {reference.text for reference in document_identifiers()}
    assert set(EXTERNAL) <= named, f"drop from EXTERNAL: {sorted(set(EXTERNAL) - named)}"


def test_the_identifier_check_finds_a_name_that_is_gone(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text(
        "`BotRunner` sweeps every `SWEEP_SECONDS` (`games_with_bots`); `Scheduler` runs,\n"
        "`GameSpec.reference` holds it, `Head.nothing_here` does not; `ready` is a word.\n"
    )
    found = unnamed(document_identifiers((doc,)))
    assert found == [
        "doc.md:1: BotRunner",
        "doc.md:1: SWEEP_SECONDS",
        "doc.md:1: games_with_bots",
        "doc.md:2: Head.nothing_here",
    ]


def test_the_collectors_find_names_and_paths(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text(
        "See `spies_core.registry.GAMES` and `spies_api.nowhere.thing()` in\n"
        "src/spies_core/registry.py, `tests/nothing_here.py` and `tests/core/<game>/`.\n"
    )
    found = [(ref.line, ref.text) for ref in document_references((doc,))]
    assert found == [
        (1, "spies_core.registry.GAMES"),
        (1, "spies_api.nowhere.thing"),
        (2, "src/spies_core/registry.py"),
        (2, "tests/nothing_here.py"),
        (2, "tests/core/<game>/"),
    ]
