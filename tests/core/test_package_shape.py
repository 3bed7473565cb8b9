"""One shape for every game package: the same modules in the same roles, so that any game is
the template of the next (ARCHITECTURE.md, "How to add a game").

Generic over the registry: every registered game's package (the package of its ``start``)
must have the modules below, each spec field must come from the module of its role, the
options and view classes are named after the game, ``__init__.py`` only assembles ``SPEC``,
and a command's events are built with :class:`spies_core.batch.Batch`.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from types import ModuleType
from typing import Any

import pytest

from spies_core.batch import Batch
from spies_core.decider import ROLES, GameView
from spies_core.registry import GAMES

MODULES = (
    "commands",
    "events",
    "options",
    "state",
    "rules",
    "evolve",
    "legal",
    "view",
    "text",
    "fixtures",
)
"""The modules of every game package (more, game-specific helpers are allowed)."""


def package_of(name: str) -> str:
    return str(GAMES[name].start.__module__).rsplit(".", 1)[0]


def module(name: str, role: str) -> ModuleType:
    return importlib.import_module(f"{package_of(name)}.{role}")


def camel(name: str) -> str:
    """``spies-and-lies`` -> ``SpiesAndLies``."""
    return "".join(part.capitalize() for part in name.split("-"))


def members(union: Any) -> tuple[type, ...]:
    return tuple(getattr(union, "__args__", (union,)))


games = pytest.mark.parametrize("name", list(GAMES))


@games
def test_the_package_has_every_module(name: str) -> None:
    for role in MODULES:
        assert module(name, role).__name__ == f"{package_of(name)}.{role}"


@games
def test_each_function_of_the_spec_comes_from_the_module_of_its_role(name: str) -> None:
    spec = GAMES[name]
    for role, fields in ROLES.items():
        home = module(name, role)
        for field in fields:
            function = getattr(spec, field)
            assert function is not None, f"{name}: no {field}"
            assert function.__module__ == home.__name__, f"{name}: {field} is not in {role}.py"
            assert getattr(home, field) is function, f"{name}: {role}.{field} is not the spec's"
    if spec.forfeit is not None:  # optional: only where a seat's leaving decides the game
        assert spec.forfeit.__module__ == module(name, "evolve").__name__, f"{name}: forfeit"


@games
def test_state_holds_the_state_and_the_bound_on_events(name: str) -> None:
    spec, state = GAMES[name], module(name, "state")
    assert spec.state_type.__module__ == state.__name__
    assert state.State is spec.state_type
    assert spec.max_events == state.MAX_EVENTS


@games
def test_commands_events_and_the_view_live_in_their_modules(name: str) -> None:
    spec = GAMES[name]
    commands, events, view = (module(name, role) for role in ("commands", "events", "view"))
    assert commands.Command == spec.command_type
    assert {c.__module__ for c in members(spec.command_type)} == {commands.__name__}
    assert events.Event == spec.event_type
    assert {e.__module__ for e in members(spec.event_type)} == {events.__name__}
    assert spec.view_type.__module__ == view.__name__
    assert spec.view_type.__name__ == f"{camel(name)}View"


@games
def test_the_view_starts_with_version_and_seat_from_the_one_base(name: str) -> None:
    view_type = GAMES[name].view_type
    assert issubclass(view_type, GameView)
    assert view_type.__struct_fields__[:2] == ("version", "seat")


@games
def test_the_options_class_is_named_after_the_game(name: str) -> None:
    spec = GAMES[name]
    options = module(name, "options")
    assert spec.options_type.__module__ == options.__name__
    assert spec.options_type.__name__ == f"{camel(name)}Options"
    assert getattr(options, f"{camel(name)}Options") is spec.options_type


@games
def test_fixtures_give_the_twin_deals_and_the_golden_cases(name: str) -> None:
    spec, fixtures = GAMES[name], module(name, "fixtures")
    assert spec.golden_cases, f"{name} has no golden case"
    assert fixtures.GOLDEN_CASES is spec.golden_cases
    for case in spec.golden_cases:
        assert case.name.startswith(name), f"golden case {case.name!r} of {name}"
        assert case.players in spec.seat_counts, case


def test_golden_case_names_are_unique_across_games() -> None:
    names = [case.name for spec in GAMES.values() for case in spec.golden_cases]
    assert len(names) == len(set(names)), names


@games
def test_init_only_assembles_the_spec(name: str) -> None:
    package = importlib.import_module(package_of(name))
    assert package.__all__ == ["SPEC"]
    assert package.SPEC is GAMES[name]
    assert package.__doc__, f"{name}: the package docstring summarises the rules"
    for attribute, value in vars(package).items():
        if inspect.isfunction(value) or inspect.isclass(value):
            assert value.__module__ != package.__name__, f"{name}: __init__ defines {attribute}"


@games
def test_the_spec_names_what_its_scores_hold(name: str) -> None:
    """Reports head the outcome's scores with this name (a Spies & Lies score is an
    infiltration marker, not the measure of who won), so the default will not do."""
    spec = GAMES[name]
    assert spec.score_name != "score" and spec.score_name.strip() == spec.score_name != ""


@games
def test_batches_of_events_are_built_one_way(name: str) -> None:
    """A command's events go through :class:`Batch` (each applied as it is emitted), never
    through a list appended by hand."""
    assert module(name, "rules").Batch is Batch
    by_hand = re.compile(r"\bevents\s*(:\s*list\[[^\]]*\]\s*)?=\s*\[|\bevents\.(append|extend)\(")
    for role in MODULES:
        source = inspect.getsource(module(name, role))
        assert not by_hand.search(source), f"{name}: {role}.py builds a list of events by hand"


def imported(source: str) -> set[str]:
    """The modules a module's source imports (``from a import b`` counts ``a.b`` too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


@games
def test_the_decider_modules_import_one_way(name: str) -> None:
    """``rules`` may import ``evolve`` and ``legal``; ``legal`` may import ``evolve``; never
    the reverse, so each module can be read without the ones that decide."""
    package = package_of(name)
    below = {"evolve": ("rules", "legal"), "legal": ("rules",)}
    for role, above in below.items():
        found = imported(inspect.getsource(module(name, role)))
        for other in above:
            assert f"{package}.{other}" not in found, f"{name}: {role}.py imports {other}.py"
