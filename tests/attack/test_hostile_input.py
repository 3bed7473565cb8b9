"""Hostile input: a property-based run of the whole OpenAPI document against the app
(schemathesis), then the attacks a person would try by hand.

The schemathesis run generates requests for every operation from the committed document,
valid ones and invalid ones (wrong types, missing and extra fields, odd strings), and runs
every check schemathesis has on each response but the one on wall-clock time: no server
error, a documented status and media type, a body and headers that match the documented
schema, invalid requests refused, valid ones accepted (or refused by the game's rules), and
required tokens enforced. What a valid request needs that the document cannot say is given
to the valid cases (``Arena.valid``, explained in ``openapi/README.md``).

So that requests reach real games and not only 404s, most cases get the id of a real game
(active or finished, of every registered game) and some a real seat token of it; some
commands are replaced by a legal one, so the games move on while they are attacked. The run
is reproducible (fixed seed, deterministic generation) and bounded
(``SPIES_SCHEMATHESIS_EXAMPLES`` examples per operation, default 150).

The hand-made attacks (malformed and oversized bodies, wrong types, unknown fields, unknown
games, cards and commands, replayed and forged tokens, another game's or another seat's
token) each get a 4xx problem document with its code, and leave the log unchanged.
"""

from __future__ import annotations

import itertools
import os
import random
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import msgspec
import pytest
import schemathesis
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from litestar import Litestar
from litestar.testing import TestClient
from schemathesis.config import SchemathesisConfig
from schemathesis.generation.meta import CoveragePhaseData, CoverageScenario

from spies_api import Settings, create_app
from spies_api.app import Runtime
from spies_api.openapi.document import openapi_document
from spies_api.problems.hints import command_types
from spies_api.schemas import CreateGameRequest
from spies_core.registry import GAMES
from spies_replay.store.records import hash_token
from tests.support.api import Game, assert_problem, new_game, play_to_end, play_turn
from tests.support.backends import BACKENDS, fresh_backend
from tests.support.logs import log_snapshot

from .figures import record

GUARANTEE = "hostile-input"
EXAMPLES = int(os.environ.get("SPIES_SCHEMATHESIS_EXAMPLES", "150"))
# How long a stream answer is read once it started (see ``CutStreams``).
STREAM_SECONDS = 0.1

CONFIG = SchemathesisConfig.from_dict(
    {
        "seed": 20261129,
        "max-stream-events": 4,
        "request-timeout": 10,
        "generation": {"max-examples": EXAMPLES, "deterministic": True},
        # A request the document allows may still be refused by the rules of its game: a
        # command the rules refuse, a game's options they do not take, an unknown card are
        # 422 (the document says "an object", "a string"; the rules say which).
        "checks": {
            "positive_data_acceptance": {
                "expected-statuses": ["2xx", "3xx", 401, 403, 404, 409, 422, 429]
            }
        },
    }
)
schema = schemathesis.openapi.from_dict(openapi_document(), config=CONFIG)

# Every check schemathesis has: no 5xx; a documented status, media type, headers and body; a
# request that does not match the document refused, and one that does accepted (or refused by
# the rules, above); a token the operation requires enforced. ``max_response_time`` alone is
# left out: it asserts on wall-clock time, which a loaded machine makes flaky. The stateful
# checks (``use_after_free``, ``ensure_resource_availability``, ``object_level_authorization``)
# look at the requests of one run that create and delete things; listed, they hold the
# document to them as it grows links.
CHECKS = [
    schemathesis.checks.not_a_server_error,
    schemathesis.checks.status_code_conformance,
    schemathesis.checks.content_type_conformance,
    schemathesis.checks.response_headers_conformance,
    schemathesis.checks.response_schema_conformance,
    schemathesis.checks.negative_data_rejection,
    schemathesis.checks.missing_required_header,
    schemathesis.checks.unsupported_method,
    schemathesis.checks.allow_header_conformance,
    schemathesis.checks.positive_data_acceptance,
    schemathesis.checks.ignored_auth,
    schemathesis.checks.use_after_free,
    schemathesis.checks.ensure_resource_availability,
    schemathesis.checks.object_level_authorization,
]

_tried = itertools.count()
_statuses: dict[int, int] = {}
_by_hand: list[str] = []


class Arena:
    """Real games of every registered game (active and finished) to aim requests at."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.runtime = service = Runtime.open(settings)  # the arena's own reads
        self.games: list[tuple[str, list[str]]] = []
        self.kinds: dict[str, str] = {}  # game id -> the registered game it is
        self._app: tuple[str, Litestar] | None = None
        rng = random.Random(5)
        for name, spec in GAMES.items():
            for players in sorted({spec.min_players, spec.max_players}):
                request = CreateGameRequest(
                    game=name, players=players, seed=f"arena-{name}-{players}"
                )
                created = service.creator.create(request)
                self.games.append((created.id, [seat.token for seat in created.seats]))
                self.kinds[created.id] = name
        with TestClient(app=create_app(settings)) as client:  # one finished game: public log
            game = new_game(client, "deck-of-spies", seed="schemathesis-finished")
            play_to_end(client, game, rng)
            self.games.append((game.id, game.tokens))

    def app(self, operation: str) -> Litestar | CutStreams:
        """An app over the arena's database for each operation's cases: schemathesis starts
        an app's lifespan at its first request and ends it (the app's parts closed) at the
        teardown of the test that started it, one test per operation. A stream's app ends
        each answer a while after it started (a stream of a game in play never ends)."""
        if self._app is None or self._app[0] != operation:
            app = create_app(self.settings)
            self._app = (operation, CutStreams(app) if operation.endswith("/stream") else app)
        return self._app[1]

    def aim(self, case: Any) -> None:
        """Point some cases at real games, seats and legal commands (deterministically)."""
        case.operation.app = case.operation.schema.app = self.app(case.operation.label)  # probes
        if "game_id" not in (case.path_parameters or {}):
            return
        digest = zlib.crc32(
            repr(
                (case.operation.label, case.path_parameters, case.query, case.headers, case.body)
            ).encode()
        )
        if digest % 5 == 0:
            return  # keep the generated id: unknown games are attacked too
        game_id, tokens = self.games[(digest >> 3) % len(self.games)]
        case.path_parameters = {**case.path_parameters, "game_id": game_id}
        choice = (digest >> 8) % 4
        if _drops_a_header(case):
            choice = 3  # the case is about the missing header: leave the headers alone
        headers = dict(case.headers or {})
        if choice in (0, 1):
            headers["Authorization"] = f"Bearer {tokens[(digest >> 12) % len(tokens)]}"
        elif choice == 2:
            other = self.games[((digest >> 3) + 1) % len(self.games)][1][0]
            headers["Authorization"] = f"Bearer {other}"
        case.headers = headers
        # a real token is the run's own credential, not generated data: ``ignored_auth``
        # then asks again without it and with a forged one, and wants 401 or 403
        case._has_explicit_auth = choice in (0, 1, 2)
        if case.operation.path.endswith("/commands") and choice == 0 and (digest >> 16) % 2 == 0:
            self._legal_body(case, game_id, tokens)

    def valid(self, case: Any) -> None:
        """What a valid request needs that the document cannot say (``openapi/README.md``):
        ``before`` names a game that exists, a stream is asked with a ticket or a token, not
        both, and a command aimed at a real game is of that game's kind (the path's game
        decides which commands the body may hold; a command of another game is 400
        `malformed-body`). Negative cases are left as they are."""
        if case.meta.generation.mode.is_negative:
            return
        query = dict(case.query or {})
        if "before" in query:
            query["before"] = self.games[len(str(query["before"])) % len(self.games)][0]
        if "ticket" in query and "authorization" in {h.lower() for h in case.headers or {}}:
            del query["ticket"]
        if case.query is not None:
            case.query = query
        game_id = (case.path_parameters or {}).get("game_id")
        command = case.body.get("command") if isinstance(case.body, dict) else None
        if case.operation.path.endswith("/commands") and game_id in self.kinds:
            kind = command.get("type") if isinstance(command, dict) else None
            if kind not in command_types(self.kinds[game_id]):
                fitting = [game for game, name in self.kinds.items() if kind in command_types(name)]
                if fitting:
                    case.path_parameters = {**case.path_parameters, "game_id": fitting[0]}

    def _legal_body(self, case: Any, game_id: str, tokens: list[str]) -> None:
        service = self.runtime
        summary = service.queries.summary(game_id)
        if not summary.to_act:
            return
        seat = summary.to_act[0]
        legal = service.queries.legal(game_id, seat).commands
        if legal:
            case.headers = {**case.headers, "Authorization": f"Bearer {tokens[seat]}"}
            case.body = {"command": msgspec.to_builtins(legal[0])}


class CutStreams:
    """An ASGI app that ends each answer of the app it wraps ``STREAM_SECONDS`` after the
    answer started, keeping what was sent by then: a stream of a game in play never ends.
    The time counts from the answer's start, not the request's, so a refusal that a loaded
    machine is slow to answer is waited for (the request's own timeout) and checked, not
    cut off before it began."""

    def __init__(self, app: Litestar) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started, ended = anyio.Event(), anyio.Event()

        async def sending(message: Any) -> None:
            if ended.is_set():
                return
            if message["type"] == "http.response.start":
                started.set()
            elif not message.get("more_body", False):
                ended.set()
            await send(message)

        async with anyio.create_task_group() as tasks:

            async def cut() -> None:
                await started.wait()
                with anyio.move_on_after(STREAM_SECONDS):
                    await ended.wait()  # the answer's end, or the deadline
                tasks.cancel_scope.cancel()

            tasks.start_soon(cut)
            await self.app(scope, receive, sending)
            tasks.cancel_scope.cancel()
        if started.is_set() and not ended.is_set():
            ended.set()
            await send({"type": "http.response.body", "body": b"", "more_body": False})


def _drops_a_header(case: Any) -> bool:
    data = getattr(getattr(case.meta, "phase", None), "data", None)
    return (
        isinstance(data, CoveragePhaseData) and data.scenario == CoverageScenario.MISSING_PARAMETER
    )


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Arena]:
    settings = Settings(
        db_path=tmp_path_factory.mktemp("schemathesis") / "spies.db",
        sse_keepalive_seconds=0.05,
        sse_poll_seconds=0.05,
        log_json=True,
    )
    arena = Arena(settings)
    yield arena
    arena.runtime.close()


@schema.parametrize()
@hypothesis_settings(deadline=None, suppress_health_check=list(HealthCheck), database=None)
def test_the_whole_document_against_the_app(case: Any, arena: Arena) -> None:
    arena.aim(case)
    arena.valid(case)
    app = arena.app(case.operation.label)
    response = case.call_and_validate(app=app, checks=CHECKS, timeout=10)
    next(_tried)
    _statuses[response.status_code] = _statuses.get(response.status_code, 0) + 1


def test_schemathesis_figures() -> None:
    """Record how many requests the run above tried (it runs first in this module)."""
    tried = next(_tried)
    if tried == 0:
        pytest.skip("the schemathesis run was not selected")
    assert 500 not in _statuses
    record(
        GUARANTEE,
        "test_hostile_input.py::test_the_whole_document_against_the_app",
        requests_tried=tried,
        operations=sum(len(item) for item in openapi_document()["paths"].values()),
        examples_per_operation=EXAMPLES,
        statuses={str(k): v for k, v in sorted(_statuses.items())},
    )


# -- by hand ---------------------------------------------------------------------------------


@pytest.fixture(params=BACKENDS)
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Settings]:
    """The API's settings over a SQLite file, or a fresh PostgreSQL schema."""
    with fresh_backend(request.param, tmp_path) as backend:
        yield Settings(
            db_path=backend.location,
            sse_keepalive_seconds=0.05,
            sse_poll_seconds=0.05,
            snapshot_every=16,
            log_json=True,
        )


@pytest.fixture
def board(client: TestClient[Litestar], settings: Settings) -> Iterator[dict[str, Any]]:
    """Two Black Spy games in play and a finished Deck of Spies game; the log must not change
    while they are attacked."""
    target = new_game(client, "black-spy", 3, seed="target")
    other = new_game(client, "black-spy", 3, seed="other")
    play_turn(client, target, random.Random(1))
    finished = new_game(client, "deck-of-spies", seed="finished")
    play_to_end(client, finished, random.Random(2))
    before = log_snapshot(settings.db_path)
    yield {"target": target, "other": other, "finished": finished, "attacks": _by_hand}
    assert log_snapshot(settings.db_path) == before, "an attack changed the log"
    record(
        GUARANTEE,
        "test_hostile_input.py::test_* (by hand, log unchanged)",
        requests_tried=len(_by_hand),
    )


def _seat_to_act(client: TestClient[Litestar], game: Game) -> tuple[int, int]:
    """A seat to act and one that is not."""
    to_act = client.get(game.url()).json()["to_act"]
    idle = next(seat for seat in game.seats if seat not in to_act)
    return to_act[0], idle


def _attack(
    board: dict[str, Any],
    client: TestClient[Litestar],
    method: str,
    url: str,
    status: int,
    code: str,
    **kwargs: Any,
) -> dict[str, Any]:
    board["attacks"].append(url)
    response = client.request(method, url, **kwargs)
    return assert_problem(response, status, code)


MALFORMED_COMMAND_BODIES = [
    b"",
    b"not json",
    b'{"command": {"type": "play_card", "card": "red-1"}',  # truncated
    b"null",
    b"[]",
    b'"play_card"',
    b'{"command": null}',
    b'{"command": {"type": "play_card", "card": 5}}',  # wrong type
    b'{"command": {"type": "play_card", "card": ["red-1"]}}',
    b'{"command": {"type": "pass_cards", "cards": "red-1"}}',
    b'{"command": {"type": "play_card", "card": "red-1"}, "expected_version": "4"}',
    b'{"command": {"type": "play_card", "card": "red-1"}, "expected_version": 4.5}',
    b'{"command": {"type": "play_card", "card": "red-1"}, "expected_version": true}',
    b'{"command": {"type": "play_card", "card": "red-1", "seat": 1}}',  # unknown field
    b'{"command": {"type": "play_card", "card": "red-1"}, "seat": 1}',
    b'{"command": {"type": "play_card", "card": "red-1"}, "version": 1}',
    b'{"command": {"type": "resign"}}',  # unknown command
    b'{"command": {"type": "PLAY_CARD", "card": "red-1"}}',
    b'{"command": {"card": "red-1"}}',
    b'{"cmd": {"type": "play_card", "card": "red-1"}}',
    b"\xff\xfe{}",
    b'{"command": {"type": "play_card", "card": "\\ud800"}}',
]


@pytest.mark.parametrize("body", MALFORMED_COMMAND_BODIES)
def test_malformed_commands_are_400_malformed_body(
    client: TestClient[Litestar], board: dict[str, Any], body: bytes
) -> None:
    target: Game = board["target"]
    seat, _ = _seat_to_act(client, target)
    headers = {**target.seats[seat], "content-type": "application/json"}
    _attack(
        board,
        client,
        "POST",
        target.url("/commands"),
        400,
        "malformed-body",
        headers=headers,
        content=body,
    )


MALFORMED_CREATE_BODIES = [
    b"{}",
    b'{"game": 5}',
    b'{"game": "black-spy", "players": "3"}',
    b'{"game": "black-spy", "players": 3.0}',
    b'{"game": "black-spy", "seed": 7}',
    b'{"game": "black-spy", "options": []}',
    b'{"game": "black-spy", "token": "x"}',
    b'{"game": "black-spy", "seats": [{"seat": 0, "token": "mine"}]}',
]


@pytest.mark.parametrize("body", MALFORMED_CREATE_BODIES)
def test_malformed_creations_are_400(
    client: TestClient[Litestar], board: dict[str, Any], body: bytes
) -> None:
    _attack(board, client, "POST", "/games", 400, "malformed-body", content=body)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess"}, "unknown-game"),
        ({"game": "DECK-OF-SPIES"}, "unknown-game"),
        ({"game": "black-spy", "players": 9}, "invalid-players"),
        ({"game": "black-spy", "players": -1}, "invalid-players"),
        ({"game": "black-spy", "options": {"jokers": True}}, "unknown-option"),
        ({"game": "black-spy", "options": {"mole": True}}, "unsupported-variant"),
        (
            {"game": "black-spy", "options": {"deal": {"dealer": 0, "hands": [["red-1"]]}}},
            "invalid-deal",
        ),
        ({"game": "deck-of-spies", "seed": ""}, "invalid-seed"),
    ],
)
def test_unknown_games_and_bad_options_are_422(
    client: TestClient[Litestar], board: dict[str, Any], body: dict[str, Any], code: str
) -> None:
    _attack(board, client, "POST", "/games", 422, code, json=body)


def test_oversized_bodies_are_413(client: TestClient[Litestar], board: dict[str, Any]) -> None:
    target: Game = board["target"]
    seat, _ = _seat_to_act(client, target)
    huge = b'{"command": {"type": "pass_cards", "cards": [' + b'"red-1",' * 20_000 + b'"red-1"]}}'
    _attack(
        board,
        client,
        "POST",
        target.url("/commands"),
        413,
        "body-too-large",
        headers=target.seats[seat],
        content=huge,
    )
    _attack(
        board,
        client,
        "POST",
        "/games",
        413,
        "body-too-large",
        content=b'{"game": "' + b"x" * 70_000 + b'"}',
    )


def test_unknown_cards_and_other_games_commands_are_422(
    client: TestClient[Litestar], board: dict[str, Any]
) -> None:
    target: Game = board["target"]
    seat, _ = _seat_to_act(client, target)
    url, headers = target.url("/commands"), target.seats[seat]
    legal = client.get(target.url("/legal"), headers=headers).json()["commands"][0]
    field = "cards" if "cards" in legal else "card"
    for card in ("purple-3", "red-12", "black-0", "blue-", "AS", "10H", "", "🂡"):
        value = [card] * len(legal["cards"]) if field == "cards" else card
        body = {"command": {**legal, field: value}}
        problem = _attack(
            board, client, "POST", url, 422, "unknown-card", headers=headers, json=body
        )
        assert repr(card) in problem["detail"]
    _attack(
        board,
        client,
        "POST",
        url,
        422,
        "wrong-game-command",
        headers=headers,
        json={"command": {"type": "guess", "rank": 3}},
    )
    _attack(
        board,
        client,
        "POST",
        url,
        422,
        "wrong-game-command",
        headers=headers,
        json={"command": {"type": "counter", "cards": ["AS"]}},
    )


def test_unknown_game_ids_are_404(client: TestClient[Litestar], board: dict[str, Any]) -> None:
    target: Game = board["target"]
    for game_id in ("nope", "a" * 16, target.id.upper(), target.id + "x", "%2e%2e"):
        for suffix in ("", "/view", "/legal", "/events", "/replay/1", "/export"):
            _attack(
                board,
                client,
                "GET",
                f"/games/{game_id}{suffix}",
                404,
                "game-not-found",
                headers=target.seats[0],
            )
        _attack(
            board,
            client,
            "POST",
            f"/games/{game_id}/commands",
            404,
            "game-not-found",
            headers=target.seats[0],
            json={"command": {"type": "play_card", "card": "red-1"}},
        )


def test_forged_tokens_are_401_and_another_games_token_is_403(
    client: TestClient[Litestar], board: dict[str, Any], settings: Settings
) -> None:
    target: Game = board["target"]
    other: Game = board["other"]
    seat, _ = _seat_to_act(client, target)
    token = target.tokens[seat]
    flipped = token[:-1] + ("A" if token[-1] != "A" else "B")
    forged = [
        "Bearer " + flipped,  # one character off
        "Bearer " + token[:-1],  # truncated
        "Bearer " + token + "x",
        "Bearer " + hash_token(token),  # the stored hash is not the token
        "Bearer " + "A" * 43,
        "Bearer",
        "Bearer ",
        "Basic " + token,
        "Token " + token,
        "Bearer " + token + " " + token,
        token,
        "Bearer " + token.lower() if token.lower() != token else "Bearer x",
    ]
    body = {
        "command": client.get(target.url("/legal"), headers=target.seats[seat]).json()["commands"][
            0
        ]
    }
    for header in forged:
        for method, suffix, kwargs in (
            ("POST", "/commands", {"json": body}),
            ("GET", "/view", {}),
            ("GET", "/legal", {}),
            ("GET", "/events", {}),
            ("GET", "/replay/1", {}),
        ):
            problem = _attack(
                board,
                client,
                method,
                target.url(suffix),
                401,
                "unauthorized",
                headers={"Authorization": header},
                **kwargs,
            )
            assert token not in problem["detail"]
    # a real token, of another game
    for suffix in ("/view", "/legal", "/events"):
        _attack(board, client, "GET", target.url(suffix), 403, "forbidden", headers=other.seats[0])
    _attack(
        board,
        client,
        "POST",
        target.url("/commands"),
        403,
        "forbidden",
        headers=other.seats[seat],
        json=body,
    )
    # no token at all: a spectator may look but not act
    _attack(board, client, "POST", target.url("/commands"), 401, "unauthorized", json=body)


def test_another_seats_token_acts_only_as_that_seat(
    client: TestClient[Litestar], board: dict[str, Any]
) -> None:
    """A seat's token is the seat: the idle seat cannot play the acting seat's command."""
    target: Game = board["target"]
    seat, idle = _seat_to_act(client, target)
    command = client.get(target.url("/legal"), headers=target.seats[seat]).json()["commands"][0]
    board["attacks"].append("another seat")
    response = client.post(
        target.url("/commands"), headers=target.seats[idle], json={"command": command}
    )
    problem = assert_problem(response, 422, response.json().get("code", ""))
    assert problem["code"] in {"not-your-turn", "already-passed"}, problem
    view = client.get(target.url("/view"), headers=target.seats[idle]).json()
    assert view["seat"] == idle  # and sees only its own hand
    legal = client.get(target.url("/legal"), headers=target.seats[idle]).json()
    assert legal["commands"] == [] and legal["seat"] == idle


def test_replayed_requests_append_nothing(
    client: TestClient[Litestar], settings: Settings, board: dict[str, Any]
) -> None:
    """A captured command sent again: with its version, 409; with its Idempotency-Key, the
    stored answer; in a finished game, game-over. The log does not change."""
    target: Game = board["target"]
    finished: Game = board["finished"]
    version = client.get(target.url()).json()["version"]
    # the request that produced the current version, replayed at its own expected_version
    last = client.get(target.url("/events"), params={"after": version - 1}).json()["events"]
    assert last
    seat, _ = _seat_to_act(client, target)
    command = client.get(target.url("/legal"), headers=target.seats[seat]).json()["commands"][0]
    stale = {"command": command, "expected_game_version": version - 1}
    problem = _attack(
        board,
        client,
        "POST",
        target.url("/commands"),
        409,
        "version-conflict",
        headers=target.seats[seat],
        json=stale,
    )
    assert problem["current_version"] == version
    finished_version = client.get(finished.url()).json()["version"]
    _attack(
        board,
        client,
        "POST",
        finished.url("/commands"),
        422,
        "game-over",
        headers=finished.seats[0],
        json={"command": {"type": "counter", "cards": ["AS"]}},
    )
    _attack(board, client, "GET", target.url(f"/replay/{version + 1}"), 404, "seq-out-of-range")
    assert client.get(finished.url()).json()["version"] == finished_version


def test_an_idempotent_replay_returns_the_stored_answer_and_appends_nothing(
    client: TestClient[Litestar], settings: Settings
) -> None:
    game = new_game(client, "black-spy", 3, seed="replayed")
    seat = client.get(game.url()).json()["to_act"][0]
    command = client.get(game.url("/legal"), headers=game.seats[seat]).json()["commands"][0]
    headers = {**game.seats[seat], "Idempotency-Key": "captured"}
    first = client.post(game.url("/commands"), headers=headers, json={"command": command})
    assert first.status_code == 200
    before = log_snapshot(settings.db_path)
    for _ in range(5):
        again = client.post(game.url("/commands"), headers=headers, json={"command": command})
        assert again.status_code == 200 and again.json() == first.json()
        assert again.headers["idempotent-replayed"] == "true"
    assert log_snapshot(settings.db_path) == before


def test_options_lists_exactly_the_documented_methods(app: Litestar) -> None:
    """Litestar's own OPTIONS handler listed only POST on /games (fixed in GamesController)."""
    document = openapi_document()
    with TestClient(app=app) as client:
        for template, item in document["paths"].items():
            path = template.replace("{game_id}", "g").replace("{seq}", "1").replace("{seat}", "1")
            response = client.options(path)
            allowed = {method.strip() for method in response.headers["allow"].split(",")}
            assert allowed == {m.upper() for m in item} | {"OPTIONS"}, (template, allowed)
