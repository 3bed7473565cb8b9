"""Limits: body size, page sizes, open event streams per game and the per-client rate limit.

Each limit is answered with a problem document and its code, documented in the OpenAPI
document, and leaves the log unchanged.
"""

from __future__ import annotations

import random
import resource
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import httpx
import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings, create_app
from spies_api.app import Runtime
from spies_api.cli import _parser
from spies_api.cli import main as cli_main
from spies_api.http.edge import RateLimiter, rate_key
from spies_api.http.streaming import SUPERSEDED
from spies_api.openapi.document import openapi_document
from spies_api.problems.errors import TooManyClientStreamsError
from spies_api.service.slots import StreamSlots, client_stream_cap, seat_reserve
from spies_api.settings import (
    DEFAULT_RATE_LIMIT,
    DEFAULTS,
    SettingsError,
    parse_rate,
    settings_from,
)
from tests.support.api import assert_problem, live_game, new_game, play_turn, post_legal
from tests.support.logs import log_snapshot
from tests.support.servers import serve_in_thread
from tests.support.streams import RawStream, streaming_server
from tests.support.waiting import until

from .figures import record

GUARANTEE = "limits"
KIB = 1024


# -- body size ---------------------------------------------------------------------------------


def padded(body: dict[str, Any], size: int) -> bytes:
    """``body`` as JSON, padded with whitespace to exactly ``size`` bytes."""
    encoded = msgspec.json.encode(body)
    assert len(encoded) <= size
    return encoded[:-1] + b" " * (size - len(encoded)) + b"}"


def test_bodies_over_64_kib_are_413_and_change_nothing(
    client: TestClient[Litestar], settings: Settings
) -> None:
    game = new_game(client, "black-spy", 3)
    legal = client.get(game.url("/legal"), headers=game.seats[0]).json()
    command = {"command": legal["commands"][0]}
    before = log_snapshot(settings.db_path)
    tried = 0
    for url, body in (
        ("/games", {"game": "black-spy", "players": 3}),
        (game.url("/commands"), command),
    ):
        for size in (64 * KIB + 1, 65 * KIB, 1024 * KIB):
            headers = {**game.seats[0], "content-type": "application/json"}
            response = client.post(url, headers=headers, content=padded(body, size))
            assert_problem(response, 413, "body-too-large")
            tried += 1
    assert log_snapshot(settings.db_path) == before
    # exactly at the limit, the same bodies are read (and accepted)
    at_limit = client.post(
        game.url("/commands"), headers=game.seats[0], content=padded(command, 64 * KIB)
    )
    assert at_limit.status_code == 200, at_limit.text
    created = client.post("/games", content=padded({"game": "black-spy", "players": 3}, 64 * KIB))
    assert created.status_code == 201, created.text
    record(
        GUARANTEE,
        "test_limits.py::test_bodies_over_64_kib_are_413_and_change_nothing",
        oversized_bodies_refused=tried,
    )


def test_a_chunked_body_without_length_is_cut_off_at_64_kib(tmp_path: Path) -> None:
    """Over a real socket, with no Content-Length: the server stops reading at the limit."""
    settings = Settings(db_path=tmp_path / "chunked.db", log_json=True)
    with serve_in_thread(settings) as (base, _app):
        before = log_snapshot(settings.db_path)

        def chunks() -> Iterator[bytes]:
            yield b'{"game": "deck-of-spies", "seed": "'
            for _ in range(200):  # 200 KiB, never announced
                yield b"x" * KIB
            yield b'"}'

        response = httpx.post(f"{base}/games", content=chunks(), timeout=30)
        assert response.status_code == 413, response.text
        assert response.json()["code"] == "body-too-large"
        assert log_snapshot(settings.db_path) == before


# -- page sizes --------------------------------------------------------------------------------


def test_page_sizes_are_capped_and_documented(tmp_path: Path) -> None:
    settings = Settings(
        db_path=tmp_path / "pages.db",
        events_page_default=3,
        events_page_max=5,
        games_page_default=2,
        games_page_max=4,
        log_json=True,
    )
    with TestClient(app=create_app(settings)) as client:
        games = [new_game(client, "black-spy", 3, seed=f"page-{i}") for i in range(6)]
        rng = random.Random(0)
        for _ in range(4):
            play_turn(client, games[0], rng)
        assert len(client.get(games[0].url("/events")).json()["events"]) == 3
        capped = client.get(games[0].url("/events"), params={"limit": 10**9}).json()
        assert len(capped["events"]) == 5 and capped["next_after"] == 5
        listed = client.get("/games").json()
        assert (len(listed["games"]), listed["limit"], listed["total"]) == (2, 2, 6)
        listed = client.get("/games", params={"limit": 10**9}).json()
        assert (len(listed["games"]), listed["limit"]) == (4, 4)
        for bad in (0, -1):
            assert_problem(client.get("/games", params={"limit": bad}), 400, "invalid-parameter")
    # the defaults are what the document says
    defaults = Settings()
    document = openapi_document()
    parameters = {
        (path, parameter["name"]): parameter.get("description", "")
        for path, item in document["paths"].items()
        for operation in item.values()
        for parameter in operation.get("parameters", [])
    }
    events_limit = parameters[("/games/{game_id}/events", "limit")]
    games_limit = parameters[("/games", "limit")]
    assert f"{defaults.events_page_default}" in events_limit
    assert f"{defaults.events_page_max}" in events_limit
    assert f"{defaults.games_page_default}" in games_limit
    assert f"{defaults.games_page_max}" in games_limit


# -- event streams per game --------------------------------------------------------------------


class _Listener(threading.Thread):
    """Holds an event stream open until told to stop."""

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.headers = headers or {}
        self.status: int | None = None
        self.opened = threading.Event()
        self.stop = threading.Event()

    def run(self) -> None:
        with (
            httpx.Client(timeout=30) as http,
            http.stream("GET", self.url, headers=self.headers) as response,
        ):
            self.status = response.status_code
            self.opened.set()
            for _ in response.iter_lines():
                if self.stop.is_set():
                    break


def _wait_for(condition: Any, timeout: float = 20.0) -> None:
    until(condition, timeout=timeout)


def test_open_streams_per_game_are_capped_with_503_and_retry_after(tmp_path: Path) -> None:
    cap = 3
    settings = Settings(
        db_path=tmp_path / "streams.db",
        max_streams_per_game=cap,
        sse_keepalive_seconds=0.05,
        sse_poll_seconds=0.05,
        log_json=True,
    )
    with (
        serve_in_thread(settings) as (base, runtime),
        httpx.Client(base_url=base, timeout=30) as http,
    ):
        service = runtime
        created = http.post("/games", json={"game": "black-spy", "players": 3}).json()
        other = http.post("/games", json={"game": "black-spy", "players": 3}).json()
        url = f"{base}/games/{created['id']}/events/stream"
        listeners = [_Listener(url) for _ in range(cap)]
        for listener in listeners:
            listener.start()
            assert listener.opened.wait(30) and listener.status == 200
        _wait_for(lambda: service.streams.open(created["id"]) == cap)
        refused = http.get(url)
        assert refused.status_code == 503
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert refused.json()["code"] == "too-many-streams"
        assert int(refused.headers["retry-after"]) >= 1
        # another game is not affected
        with http.stream("GET", f"/games/{other['id']}/events/stream") as elsewhere:
            assert elsewhere.status_code == 200
        # a closed stream gives its slot back
        listeners[0].stop.set()
        listeners[0].join(timeout=30)
        _wait_for(lambda: service.streams.open(created["id"]) < cap)
        again = _Listener(url)
        again.start()
        assert again.opened.wait(30) and again.status == 200
        for listener in [*listeners[1:], again]:
            listener.stop.set()
        for listener in [*listeners[1:], again]:
            listener.join(timeout=30)
        _wait_for(lambda: service.streams.open(created["id"]) == 0)
    record(
        GUARANTEE,
        "test_limits.py::test_open_streams_per_game_are_capped_with_503_and_retry_after",
        streams_opened=cap + 2,
        streams_refused=2,
    )


def test_a_stream_dropped_before_it_starts_gives_its_slot_back(
    client: TestClient[Litestar], runtime: Runtime
) -> None:
    service = runtime
    game = new_game(client, "deck-of-spies")
    slot = service.streams.take(game.id, client="203.0.113.9")
    assert service.streams.open(game.id) == 1
    del slot
    assert service.streams.open(game.id) == 0


# -- seats before spectators, and the server's cap ---------------------------------------------


def _bearer(created: dict[str, Any], seat: int, **more: str) -> dict[str, str]:
    return {"authorization": f"Bearer {created['seats'][seat]['token']}", **more}


def _from(n: int) -> dict[str, str]:
    """The headers of a request from client ``n`` (of a server that trusts loopback)."""
    return {"x-forwarded-for": f"198.51.{n // 256}.{n % 256}"}


PROXIED: Final = ("127.0.0.1",)
"""``trusted_proxies`` of a test server whose clients are told apart by ``X-Forwarded-For``."""


def _assert_refused(stream: RawStream) -> None:
    assert stream.status == 503, stream.text
    assert stream.headers["content-type"].startswith("application/problem+json")
    assert msgspec.json.decode(stream.body)["code"] == "too-many-streams"
    assert int(stream.headers["retry-after"]) >= 1


def test_spectators_filling_a_game_never_refuse_its_seats(tmp_path: Path) -> None:
    """The default cap of spectators per game, reached (by many clients): the next spectator
    is 503, and every seat of the game still connects and is served."""
    settings = Settings(db_path=tmp_path / "seats.db", trusted_proxies=PROXIED, log_json=True)
    with streaming_server(settings) as served:
        runtime, raw, http = served.runtime, served.raw, served.http
        created = http.post("/games", json={"game": "black-spy", "players": 3}).json()
        path = f"/games/{created['id']}/events/stream"
        spectators = [raw.open(path, _from(n)) for n in range(settings.max_streams_per_game)]
        assert {stream.status for stream in spectators} == {200}
        _assert_refused(raw.open(path))
        seats = [raw.open(path, _bearer(created, seat)) for seat in range(3)]
        assert [stream.status for stream in seats] == [200, 200, 200]
        version = created["version"]
        raw.wait(lambda: all(stream.ids()[-1:] == [version] for stream in seats))
        assert runtime.streams.open(created["id"]) == settings.max_streams_per_game + 3
        _assert_refused(raw.open(path))  # the seats took no spectator's place either
    record(
        GUARANTEE,
        "test_limits.py::test_spectators_filling_a_game_never_refuse_its_seats",
        spectator_streams=settings.max_streams_per_game,
        seat_streams_served_beside_them=3,
    )


def test_a_seats_newest_stream_ends_its_oldest(tmp_path: Path) -> None:
    """A seat is never refused for its own streams: past its allowance, the oldest ends."""
    settings = Settings(db_path=tmp_path / "own.db", max_streams_per_seat=2, log_json=True)
    with streaming_server(settings) as served:
        runtime, raw, http = served.runtime, served.raw, served.http
        created = http.post("/games", json={"game": "black-spy", "players": 3}).json()
        path = f"/games/{created['id']}/events/stream"
        mine = [raw.open(path, _bearer(created, 0)) for _ in range(2)]
        other_seat = raw.open(path, _bearer(created, 1))
        newest = raw.open(path, _bearer(created, 0))
        assert {s.status for s in (*mine, other_seat, newest)} == {200}
        raw.wait(lambda: mine[0].ended)
        assert not mine[1].ended and not other_seat.ended and not newest.ended
        raw.wait(lambda: runtime.streams.open(created["id"]) == 3)
        version = post_legal(http, live_game(created))["version"]
        raw.wait(lambda: all(s.ids()[-1:] == [version] for s in (mine[1], other_seat, newest)))
        assert mine[0].ids() == list(range(1, created["version"] + 1))


def test_the_server_caps_its_streams_and_keeps_a_tenth_for_seats(tmp_path: Path) -> None:
    """``max_streams`` 10: spectators of any games (one stream per client: a tenth of 10 is
    one stream kept for seats, so one client may hold just one) take 9, the last is a
    seat's; a seat is refused only when the server is full."""
    settings = Settings(
        db_path=tmp_path / "server.db", max_streams=10, trusted_proxies=PROXIED, log_json=True
    )
    with streaming_server(settings) as served:
        runtime, raw, http = served.runtime, served.raw, served.http
        streams = runtime.streams
        assert streams.per_client == 1
        games = [
            http.post("/games", json={"game": "black-spy", "players": 3}).json() for _ in range(4)
        ]
        paths = [f"/games/{game['id']}/events/stream" for game in games]
        spectators = [raw.open(paths[i % 3], _from(i)) for i in range(9)]
        assert {stream.status for stream in spectators} == {200}
        _assert_refused(raw.open(paths[0], _from(20)))
        # a game with no stream at all: the server is full
        _assert_refused(raw.open(paths[3], _from(21)))
        seat = raw.open(paths[3], _bearer(games[3], 0, **_from(22)))
        assert seat.status == 200 and streams.total() == 10
        _assert_refused(raw.open(paths[0], _bearer(games[0], 0, **_from(23))))  # full for seats
        raw.close(spectators[0])
        raw.wait(lambda: streams.total() == 9)
        again = raw.open(paths[0], _bearer(games[0], 0, **_from(23)))
        assert again.status == 200
        _assert_refused(raw.open(paths[1], _from(24)))
        raw.close(seat)
        raw.wait(lambda: streams.total() == 9)
        # 8 spectators and a seat: room for a ninth
        assert raw.open(paths[1], _from(24)).status == 200
        raw.close(again)
        raw.wait(lambda: streams.total() == 9)
        # 9 spectators, 9 streams: the tenth is a seat's
        _assert_refused(raw.open(paths[1], _from(25)))
    record(
        GUARANTEE,
        "test_limits.py::test_the_server_caps_its_streams_and_keeps_a_tenth_for_seats",
        server_stream_cap=10,
        spectators_refused_at=9,
    )


def test_one_client_at_its_stream_cap_cannot_keep_another_clients_seat_out(
    tmp_path: Path,
) -> None:
    """One address opens the streams of its own games' seats until refused: it gets its cap
    (a seat's stream that ends its own oldest adds none), then 429 ``too-many-client-streams``
    for seats and spectators alike; spectators of many addresses take all they may; another
    address's seat still opens its own stream.

    Attack, before: a seat's streams counted only against the server's cap, so one address
    holding the seats of its own games took every stream (768 of them in 7.7 s under a
    ``nofile`` of 1,024) and every other seat got 503 ``too-many-streams``."""
    settings = Settings(
        db_path=tmp_path / "hog.db",
        max_streams=50,
        max_streams_per_client=4,
        max_streams_per_seat=2,
        trusted_proxies=PROXIED,
        rate_limit=None,
        log_json=True,
    )
    hostile, other = _from(200), _from(201)
    with streaming_server(settings) as served:
        runtime, raw, http = served.runtime, served.raw, served.http
        streams = runtime.streams
        assert streams.per_client == 4  # below the seats' tenth of 50
        three = {"game": "black-spy", "players": 3}
        games = [http.post("/games", json=three, headers=hostile).json() for _ in range(20)]
        seats = [(game, seat) for game in games for seat in range(3) for _ in range(2)]
        held = []
        for game, seat in seats:  # every seat of every game, twice, until refused
            stream = raw.open(f"/games/{game['id']}/events/stream", _bearer(game, seat, **hostile))
            if stream.status != 200:
                break
            held.append(stream)
        assert len(held) == settings.max_streams_per_client
        assert stream.status == 429, stream.text
        assert stream.headers["content-type"].startswith("application/problem+json")
        assert msgspec.json.decode(stream.body)["code"] == "too-many-client-streams"
        assert int(stream.headers["retry-after"]) >= 1
        first = f"/games/{games[0]['id']}/events/stream"
        spectator = raw.open(first, hostile)
        assert spectator.status == 429  # seats and spectators together
        # a seat's next stream that ends this client's oldest of that seat adds none
        assert raw.open(first, _bearer(games[0], 0, **hostile)).status == 200
        raw.wait(lambda: held[0].ended)
        assert streams.held_by("198.51.0.200") == settings.max_streams_per_client
        # spectators of many other addresses take all spectators may
        mine = http.post("/games", json=three, headers=other).json()
        path = f"/games/{mine['id']}/events/stream"
        n = 0
        while (watching := raw.open(first, _from(n))).status == 200:
            n += 1
        assert msgspec.json.decode(watching.body)["code"] == "too-many-streams"
        assert n == streams.spectator_limit
        assert streams.total() == settings.max_streams - 1  # one place left, in the seats' tenth
        # and the other client's seat still has its stream
        own = raw.open(path, _bearer(mine, 0, **other))
        assert own.status == 200, own.text
        raw.wait(lambda: own.ids()[-1:] == [mine["version"]])
    record(
        GUARANTEE,
        "test_limits.py::test_one_client_at_its_stream_cap_cannot_keep_another_clients_seat_out",
        streams_per_client=settings.max_streams_per_client,
        server_streams=settings.max_streams,
        spectators_of_other_clients=n,
    )


def test_a_client_holds_what_its_streams_hold() -> None:
    """The per-client count follows every stream: a seat's stream that ends the same
    client's oldest of that seat adds none; one that ends another client's moves the place
    (and is refused when this client is at its cap); a released stream frees its place."""
    slots = StreamSlots(per_game=10, per_seat=1, total=100, retry_after=5, per_client=2)
    first = slots.take("g", 0, client="a")
    held = [slots.take("g", client="a")]  # held: a slot dropped is given back
    with pytest.raises(TooManyClientStreamsError):
        slots.take("h", client="a")
    with pytest.raises(TooManyClientStreamsError):
        slots.take("g", 1, client="a")  # a seat with no stream yet: one more
    again = slots.take("g", 0, client="a")  # ends a's own oldest of seat 0
    assert first.revoked and slots.held_by("a") == 2
    held += [slots.take("h", 0, client="b"), slots.take("h", 1, client="b")]
    with pytest.raises(TooManyClientStreamsError):
        slots.take("g", 0, client="b")  # it would end a's stream, and hold one more
    assert not again.revoked
    held.append(slots.take("g", 0, client="c"))  # c ends a's stream of seat 0: it moves
    assert again.revoked and slots.held_by("a") == 1 and slots.held_by("c") == 1
    again.release()  # given back already, when it was ended
    assert slots.held_by("a") == 1 and slots.total() == 4


def test_the_client_cap_stays_below_the_seats_share() -> None:
    assert client_stream_cap(64, 10_000) == 64
    assert client_stream_cap(64, 768) == 64  # under the common nofile of 1,024
    assert client_stream_cap(100, 768) == seat_reserve(768) - 1 == 76
    assert client_stream_cap(64, 10) == 1  # one stream kept for seats: a client may hold 1
    assert StreamSlots.of(Settings(max_streams=200, max_streams_per_client=64)).per_client == 19
    assert DEFAULTS.max_streams_per_client == 64
    unlimited = settings_from({"max_streams_per_client": "off"}, {})
    assert StreamSlots.of(unlimited).per_client == StreamSlots.of(unlimited).limit


def test_the_server_cap_fits_the_open_file_limit() -> None:
    """More streams than the process has sockets for would fail at accept, seats' too."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    slots = StreamSlots.of(Settings(max_streams=soft * 10))
    assert slots.limit == soft * 3 // 4
    assert slots.limit - slots.spectator_limit == seat_reserve(slots.limit) >= 1
    assert StreamSlots.of(Settings(max_streams=10)).limit == 10


@pytest.mark.parametrize(
    ("field", "flag", "value"),
    [
        ("max_streams", "--max-streams", 7),
        ("max_streams_per_seat", "--max-streams-per-seat", 3),
        ("max_streams_per_game", "--max-streams-per-game", 5),
        ("max_streams_per_client", "--max-streams-per-client", 6),
    ],
)
def test_the_stream_caps_are_options_and_environment_variables(
    field: str, flag: str, value: int
) -> None:
    env = "SPIES_" + flag.removeprefix("--").upper().replace("-", "_")
    assert getattr(settings_from({field: str(value)}, {}), field) == value
    assert getattr(settings_from({}, {env: str(value)}), field) == value
    with pytest.raises(SettingsError):
        settings_from({field: "0"}, {})
    assert _parser().parse_args([flag, str(value)]).__dict__[field] == str(value)


# -- rate limit ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["5/second", "6000/minute", " 1 / hour ", "100/day"])
def test_rates_parse(text: str) -> None:
    unit, count = parse_rate(text)
    assert count >= 1 and unit in text


@pytest.mark.parametrize(
    "text", ["", "0/second", "5", "5/week", "-1/minute", "1.5/second", "x/minute"]
)
def test_bad_rates_are_refused_by_the_settings_and_the_command_line(text: str) -> None:
    with pytest.raises(ValueError):
        Settings(rate_limit=text)
    assert cli_main(["--rate-limit", text], environ={}) == 2


def test_a_bot_at_full_speed_is_never_slowed_with_the_limit_off(
    client: TestClient[Litestar],
) -> None:
    """``--rate-limit off`` (tests, benches): hundreds of requests, no 429."""
    game = new_game(client, "black-spy", 3)
    rng = random.Random(4)
    statuses = set()
    requests = 0
    for _ in range(60):
        play_turn(client, game, rng)  # 3 requests each
        statuses.add(client.get(game.url("/view")).status_code)
        requests += 4
    assert statuses == {200}
    assert settings_from({"rate_limit": "off"}, {}).rate_limit is None
    assert settings_from({}, {"SPIES_RATE_LIMIT": "OFF"}).rate_limit is None
    record(
        GUARANTEE,
        "test_limits.py::test_a_bot_at_full_speed_is_never_slowed_with_the_limit_off",
        requests_unlimited=requests,
    )


def test_a_server_started_with_no_option_has_a_rate_limit() -> None:
    assert DEFAULTS.rate_limit == DEFAULT_RATE_LIMIT == "50/second"
    assert settings_from({}, {}, DEFAULTS).rate_limit == "50/second"
    assert _parser().parse_args([]).rate_limit is None  # not given: the default applies


def test_over_the_rate_limit_a_client_gets_429_with_retry_after(tmp_path: Path) -> None:
    settings = Settings(db_path=tmp_path / "rate.db", rate_limit="5/minute", log_json=True)
    with TestClient(app=create_app(settings)) as client:
        created = client.post("/games", json={"game": "deck-of-spies"})
        assert created.status_code == 201
        game_id = created.json()["id"]
        token = created.json()["seats"][0]["token"]
        for _ in range(4):
            assert client.get(f"/games/{game_id}").status_code == 200
        before = log_snapshot(settings.db_path)
        refused = [
            client.get(f"/games/{game_id}"),
            client.post("/games", json={"game": "deck-of-spies"}),
            client.post(
                f"/games/{game_id}/commands",
                headers={"Authorization": f"Bearer {token}"},
                json={"command": {"type": "counter", "cards": ["AS"]}},
            ),
            client.get("/games/no-such-game"),
        ]
        for response in refused:
            assert response.status_code == 429
            assert response.headers["content-type"].startswith("application/problem+json")
            problem = response.json()
            assert problem["code"] == "too-many-requests" and problem["status"] == 429
            assert 1 <= int(response.headers["retry-after"]) <= 12  # one of 5 a minute
            assert response.headers["x-content-type-options"] == "nosniff"
        assert log_snapshot(settings.db_path) == before
        # the docs, static files and the web client's pages are not counted
        for path in ("/schema/openapi.json", "/schema", "/", f"/play/{game_id}"):
            assert client.get(path).status_code == 200, path
        assert client.get("/assets/web/app.js").status_code == 200
    record(
        GUARANTEE,
        "test_limits.py::test_over_the_rate_limit_a_client_gets_429_with_retry_after",
        rate_limited_requests=len(refused),
    )


def test_the_bucket_refills_at_its_rate_and_holds_its_burst() -> None:
    now = [0.0]
    limiter = RateLimiter(2.0, 3, clock=lambda: now[0])
    assert [limiter.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limiter.take("a") == pytest.approx(0.5)  # one token every half second
    assert limiter.take("b") == 0.0  # another client has its own bucket
    now[0] = 0.5
    assert limiter.take("a") == 0.0 and limiter.take("a") > 0
    now[0] = 100.0  # idle: back to the burst, no more
    assert [limiter.take("a") for _ in range(4)][-1] > 0


def test_ipv6_clients_are_counted_by_their_slash_64() -> None:
    assert rate_key("2001:db8:1:2:aaaa::1") == rate_key("2001:db8:1:2:bbbb::9")
    assert rate_key("2001:db8:1:3::1") != rate_key("2001:db8:1:2::1")
    assert rate_key("203.0.113.9") == "203.0.113.9"


def test_many_clients_do_not_grow_the_limiter_without_bound() -> None:
    now = [0.0]
    limiter = RateLimiter(1.0, 5, max_clients=100, clock=lambda: now[0])
    for n in range(1000):
        now[0] += 0.001
        limiter.take(f"10.0.{n // 256}.{n % 256}")
    assert len(limiter._buckets) <= 100


def test_every_limit_is_documented_on_its_operations() -> None:
    document = openapi_document()
    description = document["info"]["description"]
    for words in (
        "64 KiB",
        "413",
        "429",
        "Retry-After",
        "--rate-limit",
        "too-many-streams",
        "200",
        "10000",
    ):
        assert words in description, words
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if operation["tags"] != ["operations"]:  # health and readiness: never limited
                assert "429" in operation["responses"], (method, path)
    paths = document["paths"]
    assert "413" in paths["/games"]["post"]["responses"]
    assert "413" in paths["/games/{game_id}/commands"]["post"]["responses"]
    stream = paths["/games/{game_id}/events/stream"]["get"]["responses"]["503"]
    assert "too-many-streams" in stream["description"]


def test_seats_before_spectators_is_documented_on_the_stream() -> None:
    operation = openapi_document()["paths"]["/games/{game_id}/events/stream"]["get"]
    description = operation["description"]
    for words in (
        "Seats before spectators",
        "`max_streams_per_game`",
        "`max_streams_per_seat`",
        "`max_streams`",
        "a tenth",
        SUPERSEDED,
        "Retry-After",
        "pushed",
    ):
        assert words in description, words
