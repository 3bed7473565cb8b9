"""The paths the rate limit does not count are cheap, and bounded per client too.

Attack, before: ``/readyz`` asked the database on every request, ``/schema/openapi.json``
encoded its 216 KB document on every request and sent it uncompressed, and none of these
paths (nor the pages, the static files, ``/metrics``) had any limit: one address flooding
them raised another client's p50 7 to 26 times (``bench/free_paths.py`` measures it). Now
``/readyz`` answers from a probe result kept for a second, the documents, pages and static
files are built once and served from memory (gzip, ``ETag``, 304), and each client has a
second bucket for these paths (``--free-paths-rate-limit``, 100/second by default).
"""

from __future__ import annotations

import asyncio
import gzip
import threading
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from litestar import Litestar
from litestar._openapi.plugin import OpenAPIPlugin
from litestar.openapi.plugins import JsonRenderPlugin
from litestar.testing import TestClient

from spies_api import Settings, create_app
from spies_api.app import service_of
from spies_api.cli import _parser
from spies_api.http.cached import accepts_gzip, matches
from spies_api.http.edge import NOT_COUNTED
from spies_api.http.health import ReadinessProbe
from spies_api.schemas import Readiness
from spies_api.settings import (
    DEFAULT_FREE_PATHS_RATE_LIMIT,
    DEFAULTS,
    SettingsError,
    settings_from,
)
from spies_replay.errors import StoreUnavailableError

from .figures import record

GUARANTEE = "limits"
PAGES = ["/", "/rules/black-spy", "/schema", "/schema/swagger", "/schema/openapi.json"]
FILES = ["/assets/web/app.js", "/assets/web/app.css", "/assets/docs/swagger-ui-bundle.js"]


def app_on(tmp_path: Path, **fields: Any) -> Litestar:
    return create_app(
        Settings(db_path=tmp_path / "free.db", bot_workers=0, configure_logging=False, **fields)
    )


# -- /readyz: one store question a second ------------------------------------------------------


class CountingStore:
    """A store whose ``pending_migrations`` counts its calls (and can be held)."""

    backend = "sqlite"

    def __init__(self, failure: Exception | None = None) -> None:
        self.calls = 0
        self.failure = failure
        self.asked = threading.Event()
        self.release = threading.Event()
        self.release.set()

    def pending_migrations(self) -> list[str]:
        self.calls += 1
        self.asked.set()
        self.release.wait(30)
        if self.failure is not None:
            raise self.failure
        return []


def test_a_flood_of_readyz_asks_the_store_once_a_second(tmp_path: Path) -> None:
    app = app_on(tmp_path)
    with TestClient(app) as client:
        store = service_of(app).store
        calls: list[int] = []
        real = store.pending_migrations

        def counted() -> list[str]:
            calls.append(1)
            return real()

        store.pending_migrations = counted  # type: ignore[method-assign]
        statuses = {client.get("/readyz").status_code for _ in range(40)}
    assert statuses == {200}
    assert len(calls) == 1  # before: 40
    record(GUARANTEE, "test_free_paths.py::readyz", readyz_requests=40, store_questions=1)


def test_the_probe_is_asked_again_after_a_second_and_keeps_failures_as_well() -> None:
    now = [0.0]
    probe = ReadinessProbe(ttl=1.0, clock=lambda: now[0])
    store = CountingStore(StoreUnavailableError("spies.db", "gone"))

    async def ask() -> str:
        try:
            await probe.check(store)  # type: ignore[arg-type]
        except Exception as exc:  # noqa: BLE001  (the refusal is what is checked)
            return getattr(exc, "reason", "?")
        return "ready"

    assert [asyncio.run(ask()) for _ in range(3)] == ["store-unavailable"] * 3
    assert store.calls == 1
    now[0] = 0.99
    asyncio.run(ask())
    assert store.calls == 1
    now[0] = 1.0
    store.failure = None
    assert asyncio.run(ask()) == "ready"
    assert store.calls == 2


def test_callers_that_come_while_the_store_is_asked_share_its_answer() -> None:
    probe = ReadinessProbe()
    store = CountingStore()
    store.release.clear()

    async def flood() -> list[Readiness]:
        tasks = [asyncio.create_task(probe.check(store)) for _ in range(10)]  # type: ignore[arg-type]
        await anyio.to_thread.run_sync(store.asked.wait)  # the first is asking; all started
        store.release.set()
        return list(await asyncio.gather(*tasks))

    answers = asyncio.run(flood())
    assert len(answers) == 10 and store.calls == 1


# -- the documents, pages and files: built once, gzip, ETag, 304, HEAD -------------------------


def test_the_openapi_document_is_built_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    renders: list[int] = []
    real = JsonRenderPlugin.render

    def counted(self: JsonRenderPlugin, request: Any, schema: dict[str, Any]) -> bytes:
        renders.append(1)
        return real(self, request, schema)

    monkeypatch.setattr(JsonRenderPlugin, "render", counted)
    with TestClient(app_on(tmp_path)) as client:
        bodies = {client.get("/schema/openapi.json").content for _ in range(20)}
    assert len(bodies) == 1
    assert len(renders) == 1  # before: 20


def test_the_openapi_document_is_built_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Litestar builds the document when it is first asked for (seconds of CPU on a loaded
    machine: ``bench/free_paths.py`` saw every other client wait 3.5 s); it is built on a
    worker thread, where no event loop runs."""
    built_on_loop: list[bool] = []
    real = OpenAPIPlugin.provide_openapi

    def watched(self: OpenAPIPlugin) -> Any:
        if not self._openapi:  # about to be built
            try:
                asyncio.get_running_loop()
                built_on_loop.append(True)
            except RuntimeError:
                built_on_loop.append(False)
        return real(self)

    monkeypatch.setattr(OpenAPIPlugin, "provide_openapi", watched)
    with TestClient(app_on(tmp_path)) as client:
        assert client.get("/schema/openapi.json").status_code == 200
        assert client.get("/schema").status_code == 200
    assert built_on_loop == [False]  # before: [True]


@pytest.mark.parametrize("path", PAGES + FILES)
def test_pages_and_files_are_gzipped_tagged_and_revalidated(tmp_path: Path, path: str) -> None:
    with TestClient(app_on(tmp_path)) as client:
        plain = client.get(path, headers={"Accept-Encoding": "identity"})
        assert plain.status_code == 200
        assert "content-encoding" not in plain.headers
        squeezed = client.get(path, headers={"Accept-Encoding": "br, gzip;q=0.8"})
        assert squeezed.headers["content-encoding"] == "gzip"
        assert squeezed.headers["vary"].lower() == "accept-encoding"
        assert squeezed.headers["content-type"] == plain.headers["content-type"]
        assert squeezed.content == plain.content  # the client decoded it
        raw = int(squeezed.headers["content-length"])
        assert raw < len(plain.content)
        assert squeezed.headers["etag"] != plain.headers["etag"]  # one tag per variant
        assert squeezed.headers["x-content-type-options"] == "nosniff"
        refused = client.get(path, headers={"Accept-Encoding": "gzip;q=0, identity"})
        assert "content-encoding" not in refused.headers
        for sent, variant in (("gzip", squeezed), ("identity", plain)):
            again = client.get(
                path,
                headers={"Accept-Encoding": sent, "If-None-Match": variant.headers["etag"]},
            )
            assert again.status_code == 304 and again.content == b""
            assert again.headers["etag"] == variant.headers["etag"]
            assert again.headers["x-frame-options"] == "DENY"
        stale = client.get(path, headers={"If-None-Match": '"not-this-one"'})
        assert stale.status_code == 200 and stale.content == plain.content


def test_the_gzip_variant_is_the_page_itself(tmp_path: Path) -> None:
    app = app_on(tmp_path)

    async def raw(path: str) -> httpx.Response:
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://spies"
        ) as http:
            request = http.build_request("GET", path, headers={"Accept-Encoding": "gzip"})
            return await http.send(request, stream=True)

    for path in ("/schema/openapi.json", "/rules/spies-and-lies"):
        answer = asyncio.run(raw(path))
        body = b"".join(asyncio.run(_chunks(answer)))
        plain = TestClient(app).get(path, headers={"Accept-Encoding": "identity"}).content
        assert gzip.decompress(body) == plain


async def _chunks(answer: httpx.Response) -> list[bytes]:
    return [chunk async for chunk in answer.aiter_raw()]


def test_what_is_not_a_200_is_passed_on_and_not_kept(tmp_path: Path) -> None:
    with TestClient(app_on(tmp_path)) as client:
        for _ in range(2):
            missing = client.get("/rules/chess")
            assert missing.status_code == 404 and "etag" not in missing.headers
            assert client.get("/assets/web/missing.js").status_code == 404
            assert client.get("/schema/nothing-here").status_code == 404


@pytest.mark.parametrize(
    "path", ["/", "/play/abc", "/join/abc/1", "/replay/abc", *PAGES[1:], FILES[0]]
)
def test_head_on_a_page_is_its_get_without_the_body(tmp_path: Path, path: str) -> None:
    with TestClient(app_on(tmp_path)) as client:
        got = client.get(path, headers={"Accept-Encoding": "gzip"})
        head = client.head(path, headers={"Accept-Encoding": "gzip"})
    assert head.status_code == 200  # before: 405 on the pages
    assert head.content == b""
    for name in ("content-type", "content-length", "etag", "content-encoding", "vary"):
        assert head.headers.get(name) == got.headers.get(name), name
    assert head.headers["content-security-policy"] == got.headers["content-security-policy"]


def test_head_is_not_made_a_get_on_the_api(tmp_path: Path) -> None:
    with TestClient(app_on(tmp_path)) as client:
        assert client.head("/games").status_code == 405


def test_accept_encoding_and_if_none_match_are_read_as_the_rfc_says() -> None:
    assert accepts_gzip(b"gzip") and accepts_gzip(b"deflate, gzip;q=0.5")
    assert accepts_gzip(b"*") and accepts_gzip(b"x-gzip") and accepts_gzip(b" GZIP ; q=1")
    assert not accepts_gzip(b"") and not accepts_gzip(b"identity") and not accepts_gzip(b"br")
    assert not accepts_gzip(b"gzip;q=0") and not accepts_gzip(b"gzip;q=0.000")
    assert not accepts_gzip(b"*, gzip;q=0") and not accepts_gzip(b"gzip;q=junk")
    assert not accepts_gzip(b"*;q=0")
    assert matches(b'"a", "b"', b'"b"') and matches(b'W/"b"', b'"b"') and matches(b"*", b'"x"')
    assert not matches(b'"a"', b'"b"') and not matches(b"", b'"b"')


# -- every free path has a bucket per client ---------------------------------------------------


async def statuses(app: Litestar, peer: str, path: str, count: int) -> list[int]:
    transport = httpx.ASGITransport(app=app, client=(peer, 40000))
    async with httpx.AsyncClient(transport=transport, base_url="http://spies") as http:
        return [(await http.get(path)).status_code for _ in range(count)]


@pytest.mark.parametrize(
    "path",
    ["/readyz", "/healthz", "/schema/openapi.json", "/rules/black-spy", "/assets/web/app.js"],
)
def test_a_flood_of_a_free_path_is_refused_to_its_client_only(tmp_path: Path, path: str) -> None:
    app = app_on(tmp_path, free_paths_rate_limit="5/minute", rate_limit="5/minute")
    flooded = asyncio.run(statuses(app, "203.0.113.66", path, 8))
    assert flooded == [200] * 5 + [429] * 3  # before: 200 every time
    assert asyncio.run(statuses(app, "198.51.100.7", path, 1)) == [200]  # another client
    # the flooder's own game API bucket is its other one, still full
    assert asyncio.run(statuses(app, "203.0.113.66", "/games", 1)) == [200]

    async def refusal() -> httpx.Response:
        transport = httpx.ASGITransport(app=app, client=("203.0.113.66", 1))
        async with httpx.AsyncClient(transport=transport, base_url="http://spies") as http:
            return await http.get(path)

    refused = asyncio.run(refusal())
    assert refused.headers["content-type"].startswith("application/problem+json")
    assert refused.json()["code"] == "too-many-requests"
    assert int(refused.headers["retry-after"]) >= 1
    assert refused.headers["x-content-type-options"] == "nosniff"
    record(GUARANTEE, f"test_free_paths.py::flood[{path}]", free_path_requests_refused=3)


def test_the_free_paths_bucket_is_a_setting_an_option_and_an_environment_variable() -> None:
    assert DEFAULTS.free_paths_rate_limit == DEFAULT_FREE_PATHS_RATE_LIMIT == "100/second"
    assert _parser().parse_args([]).free_paths_rate_limit is None
    assert settings_from({"free_paths_rate_limit": "off"}, {}).free_paths_rate_limit is None
    env = {"SPIES_FREE_PATHS_RATE_LIMIT": "30/second"}
    assert settings_from({}, env).free_paths_rate_limit == "30/second"
    with pytest.raises(SettingsError, match="--free-paths-rate-limit 'lots'"):
        settings_from({"free_paths_rate_limit": "lots"}, {})
    for path in ("/", "/schema", "/schema/openapi.json", "/readyz", "/metrics", "/assets/x"):
        assert NOT_COUNTED.match(path), path
    assert not NOT_COUNTED.match("/games") and not NOT_COUNTED.match("/schemas")
