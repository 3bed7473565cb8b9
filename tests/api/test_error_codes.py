"""The error-code table of ``docs/api.md`` cannot drift from the code.

The table is generated from :mod:`spies_api.problems.codes` (statuses computed by the one error
table); these tests check that it lists every code the source raises, and that the document
holds it exactly.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import spies_api.app  # noqa: F401  (imports every module that defines an error class)
from spies_api.problems.codes import (
    ERROR_CODES,
    NOT_ANSWERED,
    ErrorCode,
    markdown_table,
    sample_of,
    status_of,
)
from spies_api.problems.errors import ApiError, RetryLaterError
from spies_api.problems.table import _HTTP_CODES, problem_for
from spies_core.errors import SpiesError

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "api.md"


def codes_in_the_source() -> set[str]:
    """Every literal error code: ``code="..."`` arguments and ``default_code = "..."``."""
    found: set[str] = set()
    for path in (ROOT / "src").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                found |= {
                    keyword.value.value
                    for keyword in node.keywords
                    if keyword.arg == "code"
                    and isinstance(keyword.value, ast.Constant)
                    and isinstance(keyword.value.value, str)
                }
            elif (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Constant)
                and any(getattr(target, "id", None) == "default_code" for target in node.targets)
            ):
                found.add(node.value.value)
    return found


def test_the_table_lists_every_code_the_source_raises() -> None:
    listed = {entry.code for entry in ERROR_CODES}
    raised = codes_in_the_source() | {code for code, _ in _HTTP_CODES.values()}
    assert raised - NOT_ANSWERED - listed == set(), "codes missing from ERROR_CODES"
    assert listed - raised - {"database-busy"} == set(), "codes the source never raises"
    assert listed.isdisjoint(NOT_ANSWERED)
    pairs = [(entry.code, status_of(entry)) for entry in ERROR_CODES]
    assert len(set(pairs)) == len(pairs), "a code listed twice with one status"


def _subclasses(cls: type[SpiesError]) -> Iterator[type[SpiesError]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def test_every_code_answers_one_status_and_one_title() -> None:
    """A client branches on ``code``: a code means one status (and one title), whichever
    exception carries it (``game-over`` was once 409 for a seat change, 422 for a
    command)."""
    answers: defaultdict[str, set[tuple[int, str]]] = defaultdict(set)
    for entry in ERROR_CODES:
        if entry.source == 500:  # problem_for would log the sample as a bug
            continue
        status, problem, _ = problem_for(sample_of(entry))
        answers[entry.code].add((status, problem["title"]))
    for cls in set(_subclasses(SpiesError)) - {ApiError, RetryLaterError}:
        if cls.default_code not in answers:
            continue
        try:
            sample = sample_of(ErrorCode(cls.default_code, cls, ""))
        except TypeError:  # a constructor of its own (a version-conflict's with versions)
            continue
        status, problem, _ = problem_for(sample)
        answers[cls.default_code].add((status, problem["title"]))
    several = {code: found for code, found in answers.items() if len(found) > 1}
    assert several == {}, "a code answered with more than one status or title"
    assert ("game-over" in answers) and answers["game-over"] == {(422, "Game over")}


def test_the_statuses_come_from_the_error_table() -> None:
    statuses = {entry.code: status_of(entry) for entry in ERROR_CODES}
    assert statuses["invalid-seed"] == 422
    assert statuses["malformed-body"] == 400 and statuses["game-not-found"] == 404
    assert statuses["version-conflict"] == 409 and statuses["database-busy"] == 503
    assert statuses["store-unavailable"] == 503 and statuses["storage-full"] == 507
    assert all(400 <= status <= 507 for status in statuses.values())


def test_docs_api_md_holds_the_generated_table() -> None:
    text = DOC.read_text(encoding="utf-8")
    match = re.search(r"<!-- error-codes:begin -->\n(.*?)<!-- error-codes:end -->", text, re.S)
    assert match is not None, "docs/api.md has no error-codes markers"
    assert match.group(1) == markdown_table(), (
        "docs/api.md's error table differs from the code; regenerate it with"
        " python -m spies_api.problems.codes"
    )
    assert "`invalid-seed` | 422" in match.group(1)


def test_docs_api_md_is_the_reference_and_names_no_outside_path() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert "draft" not in text.lower() and "DESIGN.md" not in text
    assert "ARCHITECTURE.md" in text
    # no link out of the repository, no absolute machine path, no team-only shared folder
    assert not re.search(r"\]\(\.\./\.\./|\]\(/|(?<![\w.])/(?:work|home|root|tmp)/|shared/", text)
