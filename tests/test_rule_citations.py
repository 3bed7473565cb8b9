"""Every rule citation in ``src/`` and ``tests/`` names a rule its game's reference has.

The references' own cross-references (``docs/rules/<game>.md`` citing itself) must resolve too.

The rule references are ``docs/rules/<game>.md``. A citation is a section (``§5``, ``§5.2``,
``§5.3.1``, a range ``§8.2-8.6``), an interpretation (``I-6``, ``[I-9]``), an unverified fact
(``U-1``), a worked example (``W7``, ``E3``, ``T11``) or a test vector (``test vector 9``).

Which game a citation belongs to:

- a game named just before it, on the same paragraph (``Black Spy §5.2``,
  ``docs/rules/black-spy.md §5.2``, ``Spies & Lies [I-9]``), whatever the file;
- otherwise the game whose package holds the file: ``src/spies_core/<game>/``,
  ``src/spies_bots/<game>/``, ``tests/core/<game>/`` and ``tests/bots/<game>/`` (and the game
  of ``docs/rules/<game>.md``);
- otherwise none, and a section or interpretation cited there must name its game.

Worked-example, test-vector and ``U-n`` ids are checked only where the game is known and its
reference uses that kind of id (elsewhere ``T1`` may be a type variable).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"

GAMES = tuple(
    sorted(p.stem for p in RULES.glob("*.md") if re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", p.stem))
)
"""Game ids: one reference ``docs/rules/<id>.md`` each; their packages are ``<id>`` with
underscores for hyphens."""

GAME_ROOTS = ("src/spies_core", "src/spies_bots", "tests/core", "tests/bots")
"""Folders whose ``<game package>/`` subfolders belong to that game."""


def _name_pattern(game: str) -> str:
    """How a text names a game: its title ("Black Spy", "Spies & Lies") or its id in any
    spelling (``black-spy``, ``black_spy``, ``docs/rules/black-spy.md``)."""
    words = game.split("-")
    small = {"of": "of", "and": "(?:&|and)"}
    title = " ".join(small.get(w, re.escape(w.capitalize())) for w in words)
    spelled = "[-_]".join(map(re.escape, words))
    return rf"{title}|(?i:{spelled})(?![-_]\w)"


_NAME = re.compile("|".join(f"(?P<{g.replace('-', '_')}>{_name_pattern(g)})" for g in GAMES))
_NAME_WINDOW = 160
"""How far back (in characters, within one paragraph) a game's name still names a citation."""

_ID = r"\d+(?:\.\d+)*"
_CITATION = re.compile(
    rf"§\s?(?P<section>{_ID})(?:\s?[-–]\s?§?(?P<section_end>{_ID}))?"
    r"|\b(?P<interp>[IU])-(?P<interp_n>\d+)\b"
    r"|\b(?P<example>[WET]\d{1,2})\b"
    r"|\b(?:test|spec) vectors? (?P<vector>\d+)\b"
)

# Ids a reference defines: headings and numbered rules at the start of a line, and bold labels.
_HEADING = re.compile(rf"^#{{1,6}}\s+(?P<id>{_ID})\.?\s", re.M)
_RULE = re.compile(r"^(?:[-*]\s+)?(?:\*\*)?(?P<id>\d+(?:\.\d+)+)\.?(?=[\s*])", re.M)
_LABEL = re.compile(r"^(?:[-*]\s+)?\*\*(?P<id>[IU]-\d+|[WET]\d+|Test vector \d+)\b", re.M)


@dataclass(frozen=True)
class Problem:
    """A citation the reference lacks, or that names no game."""

    path: str
    line: int
    citation: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.citation!r}: {self.message}"


def reference_ids(text: str) -> frozenset[str]:
    """The ids a rule reference defines: ``§5.2``, ``I-6``, ``W7``, ``vector 9``, ...

    A numbered rule also defines its parents (§5.3.1 defines §5.3 and §5).
    """
    ids: set[str] = set()
    for match in (*_HEADING.finditer(text), *_RULE.finditer(text)):
        parts = match["id"].split(".")
        ids.update("§" + ".".join(parts[:n]) for n in range(1, len(parts) + 1))
    for match in _LABEL.finditer(text):
        label = match["id"]
        ids.add("vector " + label.split()[-1] if label.startswith("Test vector") else label)
    return frozenset(ids)


def load_references() -> dict[str, frozenset[str]]:
    """Every game's reference ids, read from ``docs/rules/``."""
    return {game: reference_ids((RULES / f"{game}.md").read_text("utf-8")) for game in GAMES}


def file_game(path: str) -> str | None:
    """The game whose package (or reference) holds ``path`` (relative, with ``/``), if any."""
    if path.startswith("docs/rules/") and path.removeprefix("docs/rules/")[:-3] in GAMES:
        return path.removeprefix("docs/rules/")[:-3]
    for root in GAME_ROOTS:
        if path.startswith(root + "/"):
            package = path[len(root) + 1 :].split("/", 1)[0]
            game = package.replace("_", "-")
            if game in GAMES:
                return game
    return None


def named_game(text: str, start: int) -> str | None:
    """The game named last before ``start`` in the same paragraph, at most a window back."""
    window = text[max(0, start - _NAME_WINDOW) : start]
    window = window[window.rfind("\n\n") + 1 :]
    found = None
    for match in _NAME.finditer(window):
        found = next(g for g in GAMES if match[g.replace("-", "_")])
    return found


def _cited_ids(match: re.Match[str]) -> tuple[str, list[str]]:
    """The kind of a citation and the ids it names."""
    if match["section"]:
        ids = ["§" + match["section"]]
        if match["section_end"]:
            ids.append("§" + match["section_end"])
        return "section", ids
    if match["interp"]:
        kind = "interpretation" if match["interp"] == "I" else "unverified"
        return kind, [f"{match['interp']}-{match['interp_n']}"]
    if match["example"]:
        return "example", [match["example"]]
    return "vector", ["vector " + match["vector"]]


def _kind_used(kind: str, ids: list[str], known: frozenset[str]) -> bool:
    """Whether the reference uses this kind of id at all (``W`` examples, ``U-n``, vectors)."""
    if kind in ("section", "interpretation"):
        return True
    prefix = ids[0].rstrip("0123456789")
    return any(k.startswith(prefix) and k[len(prefix) :].isdigit() for k in known)


def find_problems(path: str, text: str, references: dict[str, frozenset[str]]) -> Iterator[Problem]:
    """Every citation in ``text`` (the file at ``path``) that its game's reference lacks."""
    home = file_game(path)
    for match in _CITATION.finditer(text):
        kind, ids = _cited_ids(match)
        game = named_game(text, match.start()) or home
        line = text.count("\n", 0, match.start()) + 1
        if game is None:
            if kind in ("section", "interpretation"):
                yield Problem(
                    path,
                    line,
                    match[0],
                    "names no game: write e.g. 'Black Spy §5.2' or 'docs/rules/black-spy.md §5.2'",
                )
            continue
        known = references[game]
        if not _kind_used(kind, ids, known):
            continue
        for cited in ids:
            if cited not in known:
                yield Problem(path, line, match[0], f"docs/rules/{game}.md has no {cited}")


def _source_files() -> Iterator[Path]:
    """The Python and Markdown files of ``src/`` and ``tests/``, this one excepted (its
    examples cite missing rules on purpose), and the references themselves (a reference's
    own cross-references must resolve too)."""
    this = Path(__file__).resolve()
    yield from (RULES / f"{game}.md" for game in GAMES)
    for top in ("src", "tests"):
        for file in sorted((ROOT / top).rglob("*")):
            skipped = "__pycache__" in file.parts or file.parent.name.endswith(".egg-info")
            if file.suffix in (".py", ".md") and not skipped and file != this:
                yield file


# --- the checks --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def references() -> dict[str, frozenset[str]]:
    return load_references()


def test_every_citation_names_a_rule_of_its_games_reference(
    references: dict[str, frozenset[str]],
) -> None:
    """The citations of ``src/``, ``tests/`` and the references, against ``docs/rules/``."""
    problems = [
        str(problem)
        for file in _source_files()
        for problem in find_problems(
            file.relative_to(ROOT).as_posix(), file.read_text("utf-8"), references
        )
    ]
    assert not problems, f"{len(problems)} citation(s) without a rule:\n" + "\n".join(problems)


def test_the_references_define_the_ids_the_code_relies_on(
    references: dict[str, frozenset[str]],
) -> None:
    """Spot checks of the parser on each reference's shapes of ids."""
    assert {"§4.2", "§12", "§13.4", "I-1", "I-20", "W1", "W18"} <= references["deck-of-spies"]
    assert {"§5.5", "§8.6", "§10.9", "§10.15", "vector 1", "vector 10"} <= references["black-spy"]
    assert {"§5.1.2", "§4.10", "§11.7", "§14.5", "I-25", "U-6", "E7", "T11"} <= references[
        "spies-and-lies"
    ]
    assert "W19" not in references["deck-of-spies"]
    assert "I-26" not in references["spies-and-lies"]


@pytest.mark.parametrize(
    ("path", "text", "expected"),
    [
        ("src/spies_core/black_spy/rules.py", "follow suit (§5.2, §10.14)", []),
        ("src/spies_core/black_spy/rules.py", "the moon (§6.9)", ["black-spy.md has no §6.9"]),
        ("src/spies_core/black_spy/rules.py", "variants §8.2-8.7", ["black-spy.md has no §8.7"]),
        ("tests/core/deck_of_spies/test_x.py", "W7, I-4", []),
        ("tests/core/deck_of_spies/test_x.py", "W19 and I-21", ["no W19", "no I-21"]),
        ("tests/core/spies_and_lies/test_x.py", "T11, [U-6], §6 step 5a", []),
        ("tests/core/spies_and_lies/test_x.py", "T12", ["spies-and-lies.md has no T12"]),
        ("tests/core/black_spy/test_x.py", "spec vector 11", ["black-spy.md has no vector 11"]),
        ("src/spies_api/x.py", "as in §5.2", ["names no game"]),
        ("src/spies_api/x.py", "[I-9]", ["names no game"]),
        ("src/spies_api/x.py", "Black Spy §5.2; Deck of Spies I-6", []),
        ("src/spies_api/x.py", "docs/rules/spies-and-lies.md §5.1.2", []),
        ("src/spies_api/x.py", "Deck of Spies §10.14", ["deck-of-spies.md has no §10.14"]),
        ("src/spies_api/x.py", "T1 = TypeVar('T1')", []),
        ("src/spies_core/deck_of_spies/x.py", "unlike Black Spy §10.14", []),
        ("docs/rules/black-spy.md", "see §10.16", ["black-spy.md has no §10.16"]),
    ],
)
def test_the_checker_reports_what_the_reference_lacks(
    references: dict[str, frozenset[str]], path: str, text: str, expected: list[str]
) -> None:
    """The checker on made-up files: it names the missing id and the line."""
    problems = list(find_problems(path, "\n" + text, references))
    assert len(problems) == len(expected), problems
    for problem, fragment in zip(problems, expected, strict=True):
        assert fragment in problem.message and problem.line == 2 and problem.path == path
