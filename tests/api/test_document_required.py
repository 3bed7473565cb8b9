"""The document is as strict as the answers: what the server always sends is ``required``,
and every card is documented with its game's notation.

A game of each registered game is played over HTTP, through every operation that answers
JSON, with a :class:`~tests.support.schema_check.ResponseChecker` that validates each answer
(every ``required`` property present, every card matching its ``pattern``) and records which
properties each component's objects carried and which pattern each string met. A property
that every object of a component carried must be ``required`` in the document, unless a
request body holds that component too (a client may omit it there: one schema serves both);
every card met in an answer must have met a pattern.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api.openapi.document import openapi_document
from spies_core import cards as dos_cards
from spies_core.black_spy import cards as bs_cards
from spies_core.registry import GAMES
from tests.support.api import Game, assert_problem, bearer, new_game, play_turn
from tests.support.apps import contract_check
from tests.support.schema_check import Observed, ResponseChecker

pytestmark = pytest.mark.slow  # whole games over HTTP

OLD_GAMES_LEAVE_OUT = {"GameCreated.log"}
"""Sent for every game this session plays (all are created in log format 3), left out
(``UNSET``) in the ``game_created`` of a game created before format 3, which a server that
has one serves too (``tests/replay/test_golden_db.py``)."""


def _references(value: Any, schemas: dict[str, Any], found: set[str]) -> set[str]:
    """The components ``value`` refers to, and the ones those refer to."""
    if isinstance(value, dict):
        if "$ref" in value:
            name = value["$ref"].removeprefix("#/components/schemas/")
            if name not in found:
                found.add(name)
                _references(schemas[name], schemas, found)
        for item in value.values():
            _references(item, schemas, found)
    elif isinstance(value, list):
        for item in value:
            _references(item, schemas, found)
    return found


def in_requests(document: dict[str, Any]) -> set[str]:
    """The components a request body holds (their properties with defaults are optional)."""
    found: set[str] = set()
    for item in document["paths"].values():
        for operation in item.values():
            if isinstance(operation, dict) and "requestBody" in operation:
                _references(operation["requestBody"], document["components"]["schemas"], found)
    return found


@pytest.fixture
def recorded(app: Litestar) -> Iterator[tuple[TestClient[Litestar], ResponseChecker]]:
    """A client whose answers are checked against the document and recorded."""
    checker = ResponseChecker(openapi_document())
    checker.seen = Observed()
    with TestClient(app=app) as test_client:
        test_client.event_hooks = {"request": [], "response": [contract_check(checker)]}
        yield test_client, checker


def _look(client: TestClient[Litestar], game: Game) -> None:
    """Every reading of a game, by each seat and by a spectator."""
    for headers in (None, *game.seats.values()):
        client.get(game.url("/view"), headers=headers)
        client.get(game.url("/legal"), headers=headers)
        client.get(game.url("/legal"), headers=headers, params={"form": "compact"})
        client.get(game.url("/events"), headers=headers)
    client.get(game.url())


def _play(client: TestClient[Litestar], game: Game, rng: random.Random) -> None:
    turn = 0
    while client.get(game.url()).json()["status"] == "active":
        if turn % 7 == 0:
            _look(client, game)
        play_turn(client, game, rng)
        turn += 1
    _look(client, game)
    version = client.get(game.url()).json()["version"]
    for seq in sorted({0, 1, version // 2, version}):
        client.get(game.url(f"/replay/{seq}"))
    assert client.get(game.url("/export")).status_code == 200


def _seats_and_players(client: TestClient[Litestar]) -> None:
    """The operations around seats: players, commitments, joins, bots, tickets, rematches."""
    player = client.post("/players", json={"display_name": "Ada"}).json()["token"]
    client.post("/commitments")
    created = client.post(
        "/games",
        headers=bearer(player),
        json={
            "game": "black-spy",
            "players": 3,
            "seats": [{"type": "creator", "name": "Ada"}, {"type": "open"}, {"type": "open"}],
        },
    )
    assert created.status_code == 201, created.text
    created = created.json()
    game_id, mine = created["id"], bearer(created["seats"][0]["token"])
    client.get("/players/me/games", headers=bearer(player))
    joined = client.post(f"/games/{game_id}/seats/1/join", json={"name": "Grace"})
    assert joined.status_code == 200, joined.text
    assert client.post(f"/games/{game_id}/join", json={"name": "Bo"}).status_code == 200
    grace = bearer(joined.json()["token"])
    for answer in (
        client.post(f"/games/{game_id}/seats/1/bot", json={"bot": "random"}, headers=grace),
        client.post(f"/games/{game_id}/seats/0/stream-ticket", headers=mine),
    ):
        assert answer.status_code in (200, 201), answer.text
    # 200, or 409 ``handed-seat-not-moved`` until the bot has moved: both are documented
    client.delete(f"/games/{game_id}/seats/1/bot", headers=grace)
    client.get("/games")
    client.get("/players/me/games", headers=bearer(player))


def _problems(client: TestClient[Litestar], game: Game) -> None:
    """A few refusals: a problem's optional fields come and go."""
    assert_problem(client.get("/games/nosuchgame"), 404, "game-not-found")
    assert_problem(client.get("/games", params={"limit": 0}), 400, "invalid-parameter")
    legal = client.get(game.url("/legal"), headers=game.seats[0]).json()
    if legal["commands"]:
        stale = client.post(
            game.url("/commands"),
            headers=game.seats[0],
            json={"command": legal["commands"][0], "expected_game_version": 1},
        )
        assert_problem(stale, 409, "version-conflict")


def test_what_every_answer_carries_is_required(
    recorded: tuple[TestClient[Litestar], ResponseChecker],
) -> None:
    client, checker = recorded
    for client_path in ("/healthz", "/readyz", "/bots", "/keys"):
        client.get(client_path)
    games = {}
    for name, spec in GAMES.items():
        games[name] = new_game(client, name, spec.min_players, seed=f"required-{name}")
    _problems(client, games["black-spy"])
    for number, game in enumerate(games.values()):
        _play(client, game, random.Random(number))
        client.post(game.url("/rematch"), headers=game.seats[0])
    _seats_and_players(client)

    assert checker.seen is not None
    document = checker.document
    schemas = document["components"]["schemas"]
    shared = in_requests(document)
    seen = checker.seen.objects
    optional_but_always_sent = {
        f"{name}.{key}"
        for name, objects in seen.items()
        if name not in shared
        for key in set.intersection(*objects) - set(schemas[name].get("required", ()))
    } - OLD_GAMES_LEAVE_OUT
    assert not optional_but_always_sent, (
        "always sent but not required in the document (give the field no default, or make"
        f" it UNSET when it may be left out): {sorted(optional_but_always_sent)}"
    )
    # the walk reached the answers of every kind, each game's view and events among them
    for name in (
        "GameList",
        "CommandResponse",
        "EventsPage",
        "Problem",
        "JoinedSeat",
        "ChangedSeat",
        "RematchResponse",
        "PlayerGames",
        "StreamTicket",
        *(f"{prefix}View" for prefix in ("DeckOfSpies", "BlackSpy", "SpiesAndLies")),
        *(f"{prefix}Summary" for prefix in ("DeckOfSpies", "BlackSpy", "SpiesAndLies")),
        *(f"{prefix}LegalCommands" for prefix in ("DeckOfSpies", "BlackSpy", "SpiesAndLies")),
    ):
        assert name in seen, name
    assert len(seen) > 60
    cards = {*dos_cards.ALL_CARDS, *bs_cards.DISTINCT_CARDS}
    met = {text: where for text, where in checker.seen.strings.items() if text in cards}
    # a compact legal list's ``of`` holds the values of any game's command field: no pattern
    unpatterned = sorted(
        f"{key}: {text}"
        for text, where in met.items()
        for key, pattern in where
        if pattern is None and key != "of"
    )
    assert not unpatterned, f"cards in answers whose schema has no pattern: {unpatterned}"
    assert len(met) > 60  # most of both decks were seen
