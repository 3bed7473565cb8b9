"""Every problem the API answers in a run, and the check that the document lists each one for
its operation (``tests/conftest.py`` installs it for the whole run).

:func:`record` wraps ``httpx``'s ``send`` (the Litestar ``TestClient`` is an
``httpx.Client``, and the tests reach real servers with ``httpx`` too), so each
``application/problem+json`` answer any test receives is kept as ``(method, path, status,
code)``, whatever the test asserted of it. At the end of the run (in the xdist controller,
which gets each worker's answers through ``workeroutput``) :func:`undeclared` names every
answer whose code the committed ``openapi/openapi.json`` does not list under that status of
that operation (its ``x-codes``): a raised code missing from the document fails the run.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from functools import wraps
from pathlib import Path
from typing import Any, NamedTuple

import httpx
import pytest

from spies_api.openapi.problems import ANY_REQUEST

from .schema_check import ResponseChecker

__all__ = ["ANSWERS", "Answer", "record", "undeclared"]

PROBLEM_MEDIA_TYPE = "application/problem+json"
DOCUMENT = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"


class Answer(NamedTuple):
    """A problem answered to a request."""

    method: str
    path: str
    status: int
    code: str


ANSWERS: set[Answer] = set()
"""The problems answered in this process so far."""


def _keep(response: httpx.Response, body: bytes) -> None:
    try:
        code = json.loads(body).get("code")
    except (ValueError, AttributeError):
        return
    if isinstance(code, str):
        request = response.request
        ANSWERS.add(Answer(request.method, request.url.path, response.status_code, code))


def _is_problem(response: httpx.Response) -> bool:
    return response.headers.get("content-type", "").startswith(PROBLEM_MEDIA_TYPE)


def record() -> Callable[[], None]:
    """Keep every problem answer of ``httpx`` in :data:`ANSWERS`; returns the undo."""
    sync_send, async_send = httpx.Client.send, httpx.AsyncClient.send

    @wraps(sync_send)
    def send(self: httpx.Client, request: httpx.Request, **kwargs: Any) -> httpx.Response:
        response = sync_send(self, request, **kwargs)
        if _is_problem(response):
            _keep(response, response.read())
        return response

    @wraps(async_send)
    async def asend(
        self: httpx.AsyncClient, request: httpx.Request, **kwargs: Any
    ) -> httpx.Response:
        response = await async_send(self, request, **kwargs)
        if _is_problem(response):
            _keep(response, await response.aread())
        return response

    httpx.Client.send = send  # type: ignore[method-assign]
    httpx.AsyncClient.send = asend  # type: ignore[method-assign]

    def undo() -> None:
        httpx.Client.send = sync_send  # type: ignore[method-assign]
        httpx.AsyncClient.send = async_send  # type: ignore[method-assign]

    return undo


def undeclared(answers: Iterable[Answer], document: dict[str, Any] | None = None) -> list[str]:
    """Each answer whose code the document does not list for its operation and status.

    The codes any request may get (:data:`~spies_api.openapi.problems.ANY_REQUEST`: the
    router's ``not-found``, a bug's ``internal-error``, ...) are listed by no operation. An
    answer to a path of no operation (a page, an asset, the document itself, which the
    document does not describe) must only carry a code of the catalogue.
    """
    document = document or json.loads(DOCUMENT.read_text(encoding="utf-8"))
    checker = ResponseChecker(document)
    anywhere = set(ANY_REQUEST)
    catalogue = set(document["components"]["schemas"]["Problem"]["properties"]["code"]["enum"])
    found: list[str] = []
    for answer in sorted(set(answers)):
        if answer.code in anywhere:
            continue
        # the router takes an empty segment for a parameter (``/games//view``): a game id ""
        operation = checker.operation(answer.method, re.sub(r"/(?=/)", "/_", answer.path))
        if operation is None:  # a page, an asset, the document: not an operation's
            if answer.code not in catalogue:
                found.append(f"{answer}: a code the catalogue does not have")
            continue
        response = operation["responses"].get(str(answer.status), {})
        listed = response.get("x-codes", [])
        if answer.code not in listed:
            found.append(
                f"{operation['operationId']} {answer.status} {answer.code!r}"
                f" ({answer.method} {answer.path}): the document lists {listed}"
            )
    return found


# -- the plugin (``pytest_plugins`` of ``tests/conftest.py``) ----------------------------------

_UNDO = pytest.StashKey[Callable[[], None]]()
_OUTPUT = "problem_answers"


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_UNDO] = record()


def pytest_unconfigure(config: pytest.Config) -> None:
    config.stash[_UNDO]()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """The xdist controller: a worker's answers."""
    ANSWERS.update(Answer(*answer) for answer in node.workeroutput.get(_OUTPUT, ()))


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A worker hands its answers to the controller; the controller, or a run on one
    process, fails the run on an answer the document does not list."""
    config = session.config
    if hasattr(config, "workerinput"):
        config.workeroutput[_OUTPUT] = [list(answer) for answer in ANSWERS]  # type: ignore[attr-defined]
        return
    missing = undeclared(ANSWERS)
    if not missing:
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_sep("=", "problem codes answered but not in openapi/openapi.json", red=True)
        for line in missing:
            reporter.write_line(line)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
