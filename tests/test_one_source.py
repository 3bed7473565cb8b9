"""Each rule's constant is defined once, in ``spies_core``, and imported everywhere else.

A copy of a core constant in another package (a hand size, the faces needed to win, a
threshold) goes stale the day the rule changes. This walks the syntax trees of every module
under ``src/``: no module outside ``spies_core`` may define at module level an UPPER_CASE
name that a ``spies_core`` module defines at module level, compared without leading
underscores (``_HAND_SIZE`` copies ``HAND_SIZE`` as much as ``HAND_SIZE`` does). Type
variables (``T = TypeVar("T")``) are not constants. A collision that is genuinely another
thing goes in :data:`ALLOWED`, with the reason.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Final

SRC: Final = Path(__file__).resolve().parent.parent / "src"
CORE: Final = "spies_core"

ALLOWED: Final[dict[tuple[str, str], str]] = {
    # Tables of the bots' compact models, indexed by the model's ints and built from the
    # core's functions; the core's names are private tables indexed by card notation.
    ("spies_bots/deck_of_spies/model.py", "VALUE"): (
        "a card's value by the model's int, built from spies_core.cards.value"
    ),
    ("spies_bots/deck_of_spies/model.py", "SUIT"): (
        "a card's suit by the model's int, built from spies_core.cards.suit"
    ),
    ("spies_bots/black_spy/model.py", "BLACK"): (
        "the index of Colour.BLACK among the model's colour indices, not the Colour member"
    ),
}
"""``(module under src/, name without leading underscores)`` -> why it is not a copy."""

_NOT_CONSTANTS: Final = frozenset({"TypeVar", "ParamSpec", "TypeVarTuple", "NewType"})


def _is_upper(name: str) -> bool:
    bare = name.lstrip("_")
    return bool(bare) and bare[0].isalpha() and bare == bare.upper()


def _is_type_variable(value: ast.expr | None) -> bool:
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
    return name in _NOT_CONSTANTS


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """A module's top-level statements, those inside ``if``, ``try`` and ``with`` too."""
    for node in body:
        match node:
            case ast.If(body=then, orelse=otherwise):
                yield from _top_level(then)
                yield from _top_level(otherwise)
            case ast.Try(body=tried, orelse=otherwise, finalbody=final, handlers=handlers):
                for block in (tried, otherwise, final, *(h.body for h in handlers)):
                    yield from _top_level(block)
            case ast.With(body=inner):
                yield from _top_level(inner)
            case _:
                yield node


def module_constants(source: str) -> dict[str, int]:
    """The UPPER_CASE names a module's top level assigns, without leading underscores, to
    the line of their first assignment."""
    found: dict[str, int] = {}
    for node in _top_level(ast.parse(source).body):
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        if _is_type_variable(value):
            continue
        names = [
            leaf.id
            for target in targets
            for leaf in ast.walk(target)
            if isinstance(leaf, ast.Name) and _is_upper(leaf.id)
        ]
        for name in names:
            found.setdefault(name.lstrip("_"), node.lineno)
    return found


def _modules(root: Path) -> dict[str, dict[str, int]]:
    return {
        path.relative_to(root).as_posix(): module_constants(path.read_text(encoding="utf-8"))
        for path in sorted(root.rglob("*.py"))
    }


def copies(root: Path) -> list[str]:
    """Every module-level constant outside ``spies_core`` that a core module also defines,
    as ``module:line NAME, defined by core-module:line``; :data:`ALLOWED` left out."""
    modules = _modules(root)
    core: dict[str, list[str]] = {}
    for module, constants in modules.items():
        if module.startswith(f"{CORE}/"):
            for name, line in constants.items():
                core.setdefault(name, []).append(f"{module}:{line}")
    return [
        f"{module}:{line} {name}, defined by {', '.join(core[name])}"
        for module, constants in modules.items()
        if not module.startswith(f"{CORE}/")
        for name, line in constants.items()
        if name in core and (module, name) not in ALLOWED
    ]


def test_no_module_outside_the_core_redefines_a_core_constant() -> None:
    found = copies(SRC)
    assert not found, "import these from spies_core instead:\n" + "\n".join(found)


def test_every_allowed_collision_still_exists() -> None:
    modules = _modules(SRC)
    stale = [key for key in ALLOWED if key[1] not in modules.get(key[0], {})]
    assert not stale, f"no longer defined, drop from ALLOWED: {stale}"


def test_the_walk_sees_the_core_constants() -> None:
    core = {
        name for module, names in _modules(SRC).items() if module.startswith(CORE) for name in names
    }
    assert {"HAND_SIZE", "WIN_FACES", "PASS_SIZE", "INFILTRATION_AT", "SOLDIER_POINTS"} <= core


def test_copies_are_found_with_or_without_underscores_and_type_variables_are_not() -> None:
    source = "\n".join(
        [
            "from typing import Final, TypeVar",
            "HAND_SIZE = 5",
            "_WIN_FACES: Final = 7",
            "A, _B = 1, 2",
            "T = TypeVar('T')",
            "lower_case = 3",
            "def f() -> None:",
            "    INSIDE = 4",
            "try:",
            "    TRIED = 5",
            "except ImportError:",
            "    TRIED = 6",
        ]
    )
    assert module_constants(source) == {
        "HAND_SIZE": 2,
        "WIN_FACES": 3,
        "A": 4,
        "B": 4,
        "TRIED": 10,
    }
