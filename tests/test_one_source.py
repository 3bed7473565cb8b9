"""Each rule's constant is defined once, in ``spies_core``, and imported everywhere else.

A copy of a core constant in another package (a hand size, the faces needed to win, a
threshold) goes stale the day the rule changes. This walks the syntax trees of every module
under ``src/``: no module outside ``spies_core`` may define at module level an UPPER_CASE
name that a ``spies_core`` module defines at module level, compared without leading
underscores (``_HAND_SIZE`` copies ``HAND_SIZE`` as much as ``HAND_SIZE`` does). Type
variables (``T = TypeVar("T")``) are not constants. A collision that is genuinely another
thing goes in :data:`ALLOWED`, with the reason.

The same holds inside the core (no two modules of a game define one constant), for the
defaults that have one source (:data:`ONE_SOURCE_DEFAULTS`: the store's snapshot interval,
the timeout bot), for the refusal of an unknown game id (worded by
``spies_core.registry.get_game`` alone), and for the web client: what it needs of the rules
and the API is generated into ``web/src/generated/rules.ts`` (``python -m
spies_api.webdata``), and each kind of copy it once held is a pattern here that fails
again, naming the file and line, if the copy comes back.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from spies_api.http.streaming import FINAL_EVENT
from spies_api.settings import Settings
from spies_api.webdata import game_data
from spies_bots.registry import BOTS
from spies_core.bot_names import FALLBACK_BOT, TIMEOUT_BOT
from spies_core.registry import GAMES
from spies_replay.store.records import SNAPSHOT_EVERY

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


# -- constants inside the core --------------------------------------------------------------


def core_copies(root: Path) -> list[str]:
    """Constants that two modules of one package of ``spies_core`` both define with a value
    of their own (a literal in it; an alias such as ``_BLACK = Colour.BLACK`` only names the
    one definition), as ``module:line NAME, also module:line``."""
    seen: dict[tuple[str, str], str] = {}
    found = []
    for path in sorted((root / CORE).rglob("*.py")):
        module = path.relative_to(root).as_posix()
        package = module.rsplit("/", 1)[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in _top_level(tree.body):
            if not isinstance(node, ast.Assign | ast.AnnAssign) or node.value is None:
                continue
            if not any(isinstance(leaf, ast.Constant) for leaf in ast.walk(node.value)):
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and _is_upper(target.id):
                    key = (package, target.id.lstrip("_"))
                    where = f"{module}:{node.lineno}"
                    if key in seen and not _is_type_variable(node.value):
                        found.append(f"{where} {target.id}, also {seen[key]}")
                    seen.setdefault(key, where)
    return found


def test_no_module_of_the_core_copies_a_constant_of_its_package() -> None:
    found = core_copies(SRC)
    assert not found, "define it once and import it:\n" + "\n".join(found)


# -- defaults with one source ---------------------------------------------------------------

STORE_OWN: Final = frozenset({"sync"})
"""Settings whose default is the store's own (the store's rewrite under way keeps it)."""

ONE_SOURCE_DEFAULTS: Final[dict[str, tuple[object, str]]] = {
    **{
        setting.name: (setting.default, f"{Settings.__module__.replace('.', '/')}.py")
        for setting in dataclasses.fields(Settings)
        if setting.name not in STORE_OWN
        and not isinstance(setting.default, bool | tuple)
        and setting.default not in (None, dataclasses.MISSING)
    },
    "snapshot_every": (SNAPSHOT_EVERY, "spies_replay/store/records.py"),
    "timeout_bot": (TIMEOUT_BOT, "spies_core/bot_names.py"),
}
"""A parameter or field name -> its default and the module that defines it (each setting's
in :class:`~spies_api.settings.Settings`): nowhere else may write that value as the default
of a parameter or field of that name (``ipv6_prefix: int = 64``: take
``DEFAULTS.ipv6_prefix``), nor pass it by that name (``open_store(path,
snapshot_every=128)``), nor read it as a fallback (``raw.get("timeout_bot", "greedy")``)."""


def _literal(node: ast.expr | None, value: object) -> bool:
    return (
        isinstance(node, ast.Constant) and type(node.value) is type(value) and node.value == value
    )


def _written_defaults(tree: ast.Module) -> Iterator[tuple[str, ast.expr | None, int]]:
    """Each (name, value, line) a module gives as a named default: a parameter's default, a
    class field's value, a keyword argument, the fallback of ``.get("name", fallback)``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            arguments = node.args
            positional = [*arguments.posonlyargs, *arguments.args]
            defaulted = positional[len(positional) - len(arguments.defaults) :]
            pairs = [
                *zip(defaulted, arguments.defaults, strict=True),
                *zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True),
            ]
            for argument, default in pairs:
                yield argument.arg, default, node.lineno
        elif isinstance(node, ast.ClassDef):
            for statement in node.body:
                if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                    yield statement.target.id, statement.value, statement.lineno
        elif isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg is not None:
                    yield keyword.arg, keyword.value, node.lineno
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr == "get" and len(node.args) == 2:
                key = node.args[0]
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    yield key.value, node.args[1], node.lineno


def default_copies(roots: tuple[Path, ...]) -> list[str]:
    """Every place under ``roots`` that writes a :data:`ONE_SOURCE_DEFAULTS` value again."""
    found = []
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            module = path.relative_to(root).as_posix()
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for name, value, line in _written_defaults(tree):
                if name in ONE_SOURCE_DEFAULTS:
                    default, home = ONE_SOURCE_DEFAULTS[name]
                    if module != home and _literal(value, default):
                        found.append(f"{root.name}/{module}:{line} {name}={default!r}: import it")
    return found


def test_no_default_with_one_source_is_written_again() -> None:
    found = default_copies((SRC, SRC.parent / "bench"))
    assert not found, "\n".join(found)


def test_the_default_finder_sees_each_way_of_writing_a_default() -> None:
    source = "\n".join(
        [
            "def a(db, snapshot_every=128): ...",
            "def b(*, snapshot_every: int = 128): ...",
            "class C:",
            "    timeout_bot: str = 'greedy'",
            "open_store(db, snapshot_every=128)",
            "raw.get('timeout_bot', 'greedy')",
            "open_store(db, snapshot_every=8)",
            "def d(timeout_bot=TIMEOUT_BOT): ...",
        ]
    )
    written = [
        (name, line)
        for name, value, line in _written_defaults(ast.parse(source))
        if name in ONE_SOURCE_DEFAULTS and _literal(value, ONE_SOURCE_DEFAULTS[name][0])
    ]
    assert written == [
        ("snapshot_every", 1),
        ("snapshot_every", 2),
        ("timeout_bot", 4),
        ("snapshot_every", 5),
        ("timeout_bot", 6),
    ]


def test_the_bots_the_core_names_are_registered_and_play_every_game() -> None:
    for name in (TIMEOUT_BOT, FALLBACK_BOT):
        assert name in BOTS, f"{name!r} is not a registered bot"
        assert set(BOTS[name].policies) == set(GAMES), f"{name!r} does not play every game"


def test_a_game_id_is_looked_up_in_one_place() -> None:
    """``spies_core.registry.get_game`` is the lookup: nothing else words the refusal."""
    found = [
        f"{path.relative_to(SRC)}:{number}"
        for path in sorted(SRC.rglob("*.py"))
        if path.relative_to(SRC).as_posix() != "spies_core/registry.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "known games" in line
    ]
    assert not found, "call spies_core.registry.get_game instead: " + ", ".join(found)


# -- the web client -------------------------------------------------------------------------

WEB: Final = SRC.parent / "web" / "src"
WEB_GENERATED: Final = frozenset({"generated/rules.ts", "api/schema.d.ts"})
WEB_INDEPENDENT: Final = "verify/"
"""The second verifier (``web/src/verify/``), written from ``docs/protocol.md`` alone: its
copies of the rules are the point (an independent re-derivation), so it takes nothing from
the server's sources."""


def _web_copies() -> dict[str, re.Pattern[str]]:
    """What the web client once held and now takes from ``generated/rules.ts``: a pattern
    for each kind of copy, built from the generated values themselves."""
    data = {name: game_data(spec) for name, spec in GAMES.items()}
    refusals = {code for game in data.values() for code in game["refusals"]}
    endings = {reason for game in data.values() for reason in game["endings"]}
    colours = GAMES["black-spy"].reference.figures["colours"]
    assert isinstance(colours, tuple)
    keyed = "|".join(re.escape(key) for key in sorted(refusals | endings))
    return {
        "a rule section by refusal code or outcome reason": re.compile(
            rf"""["']?\b(?:{keyed})\b["']?\s*:\s*["']\d+(?:\.\d+)*["']"""
        ),
        "Black Spy's colours in their order": re.compile(
            r"\[\s*" + r"\s*,\s*".join(f'"{colour}"' for colour in colours)
        ),
        "a card's value": re.compile(r"\bJ\s*:\s*11\b"),
        "a game's seat counts": re.compile(r"\b(?:min|max)Players\s*:\s*\d"),
        "an option's default": re.compile(r"\binitial\s*:\s*(?:true|false|\d|\")"),
        "the longest display name": re.compile(r"\bmaxlength\s*:\s*\d"),
        "the stream's final event": re.compile(rf'===\s*"{FINAL_EVENT}"'),
        "a fixed reconnect delay": re.compile(r"setTimeout\([^,]*,\s*\d+\s*\)"),
        "a page size or seat cap the server decides": re.compile(
            r"\blimit\s*:\s*\d|\bPAGE\w*\s*=\s*\d|Math\.min\(\s*\d{2,}\s*,"
        ),
        "a rule's figure in code (a rank, a card, a count, a scale)": re.compile(
            r"\brank\s*===\s*\d|===\s*\"(?:"
            + "|".join(colours)
            + r")-\d+\"|\bchosen\.length\s*<\s*\d|\"aria-valuemax\"\s*:\s*\d"
            + r"|\*\s*\d+\}%|/ \d+`"
        ),
        "the stale-version retry policy (the server's expected_version decides)": re.compile(
            r"\battempt\s*<\s*\d"
        ),
    }


TEXT_FIGURES: Final = re.compile(r"""(?<![\w$.{-])(?:[2-9]|[1-9]\d+)(?![\d-])(?=[^`"]*["`])""")
"""A number of two or more in a text of ``i18n/``: the rules' figures are interpolated."""

TEXT_ALLOWED: Final[dict[str, str]] = {
    "bsClassic": "the year of the classic rules, not a figure of them",
    "bsLegendBlack": "a sentence that sums up Black Spy's points table (§6.2) in words",
}
"""Texts of ``i18n/`` that may hold a number, by key, and why."""


def web_copies(root: Path) -> list[str]:
    """Each line of the web client's sources (generated files left out) that holds a copy."""
    patterns = _web_copies()
    found = []
    for path in sorted(root.rglob("*.ts")):
        module = path.relative_to(root).as_posix()
        if module in WEB_GENERATED or module.startswith(WEB_INDEPENDENT):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [
                f"web/src/{module}:{number}: {kind}: {line.strip()}"
                for kind, pattern in patterns.items()
                if pattern.search(line)
            ]
            key = line.strip().split(":", 1)[0]
            in_text = module.startswith("i18n/") and not line.lstrip().startswith(("*", "/"))
            if in_text and key not in TEXT_ALLOWED and TEXT_FIGURES.search(line):
                found.append(f"web/src/{module}:{number}: a figure in a text: {line.strip()}")
    return found


def test_the_web_client_copies_nothing_the_server_generates() -> None:
    found = web_copies(WEB)
    assert not found, "take it from web/src/generated/rules.ts:\n" + "\n".join(found)


def test_the_web_copy_finder_finds_each_kind_of_copy(tmp_path: Path) -> None:
    (tmp_path / "i18n").mkdir()
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "rules.ts").write_text('"must-follow": "5.2",\n')
    (tmp_path / "old.ts").write_text(
        "\n".join(
            [
                '    "must-follow": "5.2",',
                "    territory: '12.2',",
                'const ORDER = ["blue", "yellow", "red", "green", "black"];',
                "  return { A: 1, J: 11, Q: 12, K: 13 }[rank];",
                "  minPlayers: 3,",
                '    { kind: "flag", key: "classic", label: T.bsClassic, initial: false },',
                "    maxlength: 40,",
                '  ended = events.some((event) => event.type === "seed_revealed");',
                "  await new Promise((resolve) => setTimeout(resolve, 1000));",
                "  const { data } = await api.GET('/games', { params: { query: { limit: 50 } } });",
                "  const count = Math.max(0, Math.min(64, Number(players.value) || 0));",
                "  for (let attempt = 0; attempt < 3; attempt += 1) {",
                "const PAGE = 50;",
                '  if (card === "red-1") {',
                "  if (rank === 7) {",
                "    chosen.length < 4",
                '      "aria-valuemax": 10,',
                "  fill.style.width = `${side.tower * 10}%`;",
                '    h("span", { class: "tower-text" }, `${side.tower} / 10`),',
                "  const ok = words.length < limit;",
            ]
        )
    )
    (tmp_path / "i18n" / "en.ts").write_text(
        "\n".join(
            [
                '  deckOwnedOf: "of 12 owned (7 win)",',
                "  slDayLine: (day: number) => `Day ${day} of 3`,",
                '  deckCards: (n: number) => (n === 1 ? "1 card" : `${n} cards`),',
                "  slTowerText: (tower: number) => `${tower} of ${SL.infiltration_at}`,",
                '  bsClassic: "Classic 1981 rules",',
            ]
        )
    )
    found = web_copies(tmp_path)
    lines = sorted({int(row.split(":")[1]) for row in found if row.startswith("web/src/old.ts")})
    assert lines == list(range(1, 20))
    texts = [row for row in found if row.startswith("web/src/i18n/")]
    assert [int(row.split(":")[1]) for row in texts] == [1, 2]
