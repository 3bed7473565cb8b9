"""No input is a 500: JSON nested around and far beyond the limit in every body, and path
bytes no path holds, each answered with a 4xx problem, and no request writes a traceback.

Attacks, before: a body nested about 976 levels deep in ``command`` or ``options`` ended in a
``RecursionError`` (500 ``internal-error`` and a traceback in the log), even with no token
and on an unknown game id; ``GET /assets/web/app.js%00.png`` and ``/assets/web/%00`` reached
``open()`` with an embedded null byte (500 and a traceback).
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
import structlog
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings
from spies_api.app import Runtime
from spies_api.logging import configure_logging
from spies_replay.codec import MAX_JSON_DEPTH
from tests.support.apps import read_ahead

from .figures import record

GUARANTEE = "hostile-input"
DEPTHS = sorted(
    {1, 2, 10, MAX_JSON_DEPTH - 2, MAX_JSON_DEPTH - 1, MAX_JSON_DEPTH}
    | {MAX_JSON_DEPTH + 1, MAX_JSON_DEPTH + 2, 100, 976, 1000, 5000, 10_000}
)
NESTED = f"nested deeper than {MAX_JSON_DEPTH} levels"


class Logged:
    """Everything the app logged: structlog's JSON lines and the standard library's records."""

    def __init__(self) -> None:
        self.buffer = io.StringIO()
        self.records: list[logging.LogRecord] = []

    def tracebacks(self) -> list[str]:
        found = [
            line
            for line in self.buffer.getvalue().splitlines()
            if '"exception"' in line or "Traceback" in line or '"level":"error"' in line
        ]
        found += [r.getMessage() for r in self.records if r.exc_info or r.levelno >= logging.ERROR]
        return found


class _Keep(logging.Handler):
    def __init__(self, logged: Logged) -> None:
        super().__init__(logging.DEBUG)
        self.logged = logged

    def emit(self, record: logging.LogRecord) -> None:
        self.logged.records.append(record)


@pytest.fixture
def logged() -> Iterator[Logged]:
    logged = Logged()
    handler = _Keep(logged)
    root = logging.getLogger()
    root.addHandler(handler)
    configure_logging(json=True, stream=logged.buffer)
    try:
        yield logged
    finally:
        root.removeHandler(handler)
        structlog.reset_defaults()


@pytest.fixture
def settings(tmp_path: Path, logged: Logged) -> Settings:
    """The settings of the ``runtime`` and ``app`` fixtures here (after ``logged``: the parts
    bind their loggers as they are built)."""
    return Settings(db_path=tmp_path / "fuzz.db", configure_logging=False)


@pytest.fixture
def client(app: Litestar) -> Iterator[TestClient[Litestar]]:
    with TestClient(app=app, raise_server_exceptions=False) as client:
        read_ahead(app)
        yield client


def nest(levels: int, inner: bytes = b"1") -> bytes:
    """``levels`` arrays and objects around ``inner``, alternating."""
    opening = b"".join(b'{"a":' if n % 2 else b"[" for n in range(levels))
    closing = b"".join(b"}" if n % 2 else b"]" for n in reversed(range(levels)))
    return opening + inner + closing


def post(client: TestClient[Litestar], path: str, body: bytes, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return client.post(path, content=body, headers=headers)


def bodies(levels: int) -> dict[str, bytes]:
    """Bodies with ``levels`` levels inside a field (the body's own object is one more)."""
    inner = nest(levels)
    return {
        "command": b'{"command":' + inner + b"}",
        "command-value": b'{"command":{"type":"counter","cards":' + inner + b"}}",
        "options": b'{"game":"black-spy","players":3,"options":' + inner + b"}",
        "seats": b'{"game":"black-spy","players":3,"seats":' + inner + b"}",
        "top": inner,
        "name": b'{"name":' + inner + b"}",
    }


@pytest.mark.parametrize("levels", DEPTHS)
def test_every_body_nested_around_and_beyond_the_limit_is_a_4xx(
    client: TestClient[Litestar], logged: Logged, levels: int
) -> None:
    created = client.post("/games", json={"game": "deck-of-spies"}).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    made = bodies(levels)
    requests = [
        ("/games", made["options"], None),
        ("/games", made["seats"], None),
        ("/games", made["top"], None),
        (f"/games/{game_id}/commands", made["command"], token),
        (f"/games/{game_id}/commands", made["command-value"], token),
        (f"/games/{game_id}/commands", made["command"], None),  # no token
        ("/games/no-such-game/commands", made["command"], None),  # unknown game
        ("/games/no-such-game/commands", made["command"], "forged"),
        (f"/games/{game_id}/commands", made["top"], token),
        (f"/games/{game_id}/join", made["name"], None),
        (f"/games/{game_id}/seats/0/bot", made["name"], token),
    ]
    for path, body, bearer in requests:
        response = post(client, path, body, bearer)
        assert response.status_code < 500, (path, levels, response.text[:200])
        assert response.headers["content-type"].startswith("application/problem+json")
        problem = response.json()
        depth = levels + (0 if body is made["top"] else 2 if body is made["command-value"] else 1)
        if depth > MAX_JSON_DEPTH:
            assert response.status_code == 400, (path, levels)
            assert problem["code"] == "malformed-body"
            assert NESTED in problem["detail"] and "\n" not in problem["detail"]
        else:
            assert NESTED not in problem["detail"]
    assert logged.tracebacks() == []
    assert client.get(f"/games/{game_id}").json()["version"] == created["version"]


def test_the_limit_is_the_replay_logs_own() -> None:
    """One source: imports and bodies refuse the same depth."""
    from spies_api.http import body

    assert body.MAX_JSON_DEPTH is MAX_JSON_DEPTH


PATHS = (
    "/assets/web/app.js{}.png",
    "/assets/web/{}",
    "/assets/docs/{}swagger-ui.css",
    "/assets/{}",
    "/games/{}",
    "/games/{}/view",
    "/games/abc{}def/events",
    "/play/{}",
    "/replay/x{}",
    "/schema/{}",
    "/{}",
)
CONTROL = [*range(0x20), 0x7F]


def test_path_bytes_are_never_a_500_and_control_bytes_are_404(
    client: TestClient[Litestar], logged: Logged
) -> None:
    seen: dict[int, int] = {}
    for template in PATHS:
        for byte in range(256):
            path = template.format(f"%{byte:02X}")
            response = client.get(path)
            seen[response.status_code] = seen.get(response.status_code, 0) + 1
            assert response.status_code < 500, (path, response.text[:200])
            if byte in CONTROL:
                assert response.status_code == 404, path
                assert response.headers["content-type"].startswith("application/problem+json")
                assert response.json()["code"] == "not-found"
            if response.status_code >= 400 and template.startswith("/games"):
                assert response.headers["content-type"].startswith("application/problem+json")
        for raw in ("%ff%fe", "%c0%af", "%e2%80%ae", "..%2f..%2f", "%2e%2e/%2e%2e/etc/passwd"):
            response = client.get(template.format(raw))
            assert response.status_code < 500, (template, raw)
    assert client.get("/assets/web/app.js%00.png").status_code == 404
    assert client.get("/assets/web/%00").status_code == 404
    assert client.get("/assets/web/app.js").status_code == 200  # the real file still is
    assert logged.tracebacks() == []
    record(
        GUARANTEE,
        "test_no_input_is_a_500.py::test_path_bytes_are_never_a_500_and_control_bytes_are_404",
        paths=sum(seen.values()),
    )


def test_a_traceback_in_the_log_is_caught(
    client: TestClient[Litestar], runtime: Runtime, logged: Logged
) -> None:
    """The check itself: a request that fails inside the app is seen."""
    queries = runtime.queries

    def broken(game_id: str) -> Any:
        raise RuntimeError("boom")

    # a route that fails: what the other tests would see if an input got through
    created = client.post("/games", json={"game": "deck-of-spies"}).json()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(queries, "summary", broken)
        assert client.get(f"/games/{created['id']}").status_code == 500
    assert logged.tracebacks() != []
    # the failure's own line, not the last one: the read-ahead at start-up logs on its own
    # thread and may finish after the request (CI saw its caches_warmed line come last)
    lines = [msgspec.json.decode(line) for line in logged.buffer.getvalue().splitlines()]
    failed = [line for line in lines if line["event"] == "request_failed"]
    assert [line["level"] for line in failed] == ["error"]
    assert failed[0]["exception"][0]["exc_value"] == "boom"
