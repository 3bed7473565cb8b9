"""Each operation lists exactly the codes it can answer (``x-codes``, by status), built from
what it raises (:mod:`spies_api.openapi.problems`).

The run-wide check (``tests/support/answers.py``) fails on a code the API answered that its
operation does not list; these tests check the document itself: every code of the catalogue
is listed by an operation or is one any request may get, each under the status the error
table answers it with, and each answer's example and description agree with its list.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from spies_api.openapi.document import openapi_document
from spies_api.openapi.problems import ANY_REQUEST, codes_of
from spies_api.problems.codes import ERROR_CODES, status_of
from spies_core.errors import RuleError
from tests.support.answers import Answer, undeclared

STATUS_OF = {entry.code: status_of(entry) for entry in ERROR_CODES}


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return openapi_document()


def problem_answers(document: dict[str, Any]) -> Iterator[tuple[str, int, dict[str, Any]]]:
    """``(operation id, status, answer)`` of every problem answer of the document."""
    for operations in document["paths"].values():
        for operation in operations.values():
            for status, answer in operation.get("responses", {}).items():
                if "application/problem+json" in answer.get("content", {}):
                    yield operation["operationId"], int(status), answer


def test_every_code_is_answered_by_an_operation_or_by_any_request(
    document: dict[str, Any],
) -> None:
    listed = {code for _, _, answer in problem_answers(document) for code in answer["x-codes"]}
    enum = set(document["components"]["schemas"]["Problem"]["properties"]["code"]["enum"])
    assert enum - listed - set(ANY_REQUEST) == set(), "codes no operation answers"
    assert listed & set(ANY_REQUEST) == set(), "a code of any request listed by an operation"
    assert listed | set(ANY_REQUEST) == enum


def test_each_code_is_listed_under_the_status_it_is_answered_with(
    document: dict[str, Any],
) -> None:
    for operation_id, status, answer in problem_answers(document):
        wrong = {code: STATUS_OF[code] for code in answer["x-codes"] if STATUS_OF[code] != status}
        assert wrong == {}, (operation_id, status)
        assert answer["x-codes"], (operation_id, status)
    game_over = {
        (operation_id, status)
        for operation_id, status, answer in problem_answers(document)
        if "game-over" in answer["x-codes"]
    }
    assert {status for _, status in game_over} == {422}
    assert {operation_id for operation_id, _ in game_over} == {
        "postCommand",
        "joinSeat",
        "joinGame",
        "handSeatToBot",
        "takeSeatBack",
    }


def test_each_answer_shows_and_says_its_own_codes(document: dict[str, Any]) -> None:
    for operation_id, status, answer in problem_answers(document):
        content = answer["content"]["application/problem+json"]
        (shown,) = content["examples"].values()
        assert shown["value"]["code"] in answer["x-codes"], (operation_id, status)
        assert shown["value"]["status"] == status
        said = answer["description"].split("Codes: ")[1]
        where = [said.find(f"`{code}`") for code in answer["x-codes"]]
        assert -1 not in where and where == sorted(where), (operation_id, status, said)


def test_a_class_stands_for_every_code_it_carries() -> None:
    rules = codes_of(RuleError)
    assert {"not-your-turn", "game-over", "wrong-game-command", "must-follow"} <= set(rules)
    assert "invalid-options" not in rules
    with pytest.raises(KeyError):
        codes_of("no-such-code")


def test_the_run_wide_check_names_an_answer_its_operation_does_not_list(
    document: dict[str, Any],
) -> None:
    answers = [
        Answer("POST", "/games/abc/seats/1/bot", 422, "unknown-bot"),
        Answer("GET", "/games/abc/view", 404, "not-found"),  # any request's
        Answer("GET", "/games/abc/view", 500, "internal-error"),
    ]
    assert undeclared(answers, document) == []
    lacking = copy.deepcopy(document)
    hand = lacking["paths"]["/games/{game_id}/seats/{seat}/bot"]["post"]
    hand["responses"]["422"]["x-codes"].remove("unknown-bot")
    (found,) = undeclared(answers, lacking)
    assert "handSeatToBot 422 'unknown-bot'" in found
    assert undeclared([Answer("GET", "/games///view", 404, "game-not-found")], document) == []
    assert undeclared([Answer("GET", "/rules/black-spy", 429, "too-many-requests")]) == []
    assert undeclared([Answer("GET", "/elsewhere", 400, "no-such-code")], document) != []
