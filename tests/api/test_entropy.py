"""Players' entropy through the API: ``POST /commitments`` commits to a server seed; ``POST
/games`` with its ``commitment_id`` and ``entropy`` deals from the committed seed mixed with
the creator's and each joiner's entropy (``seed_source`` ``mixed``); a commitment is used
once and expires; the game reveals the committed seed and verifies.

Every answer also goes through the OpenAPI check of the ``client`` fixture.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import random
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings, create_app
from spies_api.problems.errors import (
    CommitmentExpiredError,
    CommitmentUsedError,
    UnknownCommitmentError,
)
from spies_api.service.commitments import SeedCommitments
from spies_replay.codec import FORMAT_3
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.transfer import import_game
from tests.support.api import FakeClock, Game, assert_problem, bearer, create, play_to_end
from tests.support.backends import fresh_backend

CREATOR = "00112233445566778899aabbccddeeff"
JOINER = "ffeeddccbbaa99887766554433221100ffeeddcc"
LOBBY = [{"type": "creator", "name": "Ada"}, {"type": "open"}]


def commit(client: TestClient[Litestar]) -> dict[str, Any]:
    response = client.post("/commitments")
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    assert set(body) == {"commitment_id", "seed_commitment", "expires_at"}
    return body


def events(client: TestClient[Litestar], game_id: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = client.get(f"/games/{game_id}/events").json()["events"]
    return found


def test_a_game_with_a_commitment_commits_to_its_seed_and_reveals_it(
    client: TestClient[Litestar],
) -> None:
    commitment = commit(client)
    created = create(
        client,
        {"game": "deck-of-spies", "commitment_id": commitment["commitment_id"], "entropy": CREATOR},
    )
    summary = client.get(f"/games/{created['id']}").json()
    assert summary["seed_source"] == "mixed"
    assert summary["seed_commitment"] == commitment["seed_commitment"]
    logged = events(client, created["id"])
    assert logged[1]["type"] == "entropy_added" and logged[1]["seat"] is None
    assert logged[1]["entropy"] == CREATOR
    game = Game(
        id=created["id"],
        game="deck-of-spies",
        seats={0: bearer(created["seats"][0]["token"])},
        tokens=[created["seats"][0]["token"]],
    )
    play_to_end(client, game, random.Random(3))
    seed = bytes.fromhex(events(client, created["id"])[-1]["seed"])
    assert hashlib.sha256(seed).hexdigest() == commitment["seed_commitment"]
    export = client.get(f"/games/{created['id']}/export")
    header = msgspec.json.decode(export.content.splitlines()[0])
    assert (header["format"], header["seed_source"]) == (FORMAT_3, "mixed")


def test_a_commitment_is_used_once(client: TestClient[Litestar]) -> None:
    commitment = commit(client)
    body = {"game": "deck-of-spies", "commitment_id": commitment["commitment_id"]}
    create(client, {**body, "entropy": CREATOR})
    again = client.post("/games", json={**body, "entropy": JOINER})
    assert_problem(again, 409, "commitment-used")


def test_an_unknown_commitment_and_bad_entropy_are_refused(client: TestClient[Litestar]) -> None:
    unknown = {"game": "deck-of-spies", "commitment_id": "no-such-thing", "entropy": CREATOR}
    assert_problem(client.post("/games", json=unknown), 422, "unknown-commitment")
    commitment = commit(client)["commitment_id"]
    for body, code in (
        ({"entropy": CREATOR}, "invalid-entropy"),
        ({"commitment_id": commitment}, "invalid-entropy"),
        ({"commitment_id": commitment, "entropy": "00" * 15}, "invalid-entropy"),
        ({"commitment_id": commitment, "entropy": "zz" * 16}, "invalid-entropy"),
        ({"commitment_id": commitment, "entropy": CREATOR, "seed": "s"}, "entropy-not-accepted"),
    ):
        response = client.post("/games", json={"game": "deck-of-spies", **body})
        assert_problem(response, 422, code)
    # none of those used the commitment
    create(client, {"game": "deck-of-spies", "commitment_id": commitment, "entropy": CREATOR})


def test_a_commitment_expires(settings: Settings) -> None:
    clock = FakeClock()
    app = create_app(replace(settings, commitment_ttl=60.0), clock=clock)
    with TestClient(app=app) as client:
        commitment = commit(client)["commitment_id"]
        clock.advance(60)
        response = client.post(
            "/games",
            json={"game": "deck-of-spies", "commitment_id": commitment, "entropy": CREATOR},
        )
        assert_problem(response, 409, "commitment-expired")


def test_commitments_are_bounded_per_client(settings: Settings) -> None:
    with TestClient(app=create_app(replace(settings, max_commitments_per_client=2))) as client:
        commit(client)
        commit(client)
        response = client.post("/commitments")
        assert_problem(response, 429, "too-many-commitments")
        assert int(response.headers["Retry-After"]) >= 1


def test_a_lobby_game_deals_at_its_last_join_with_the_joiners_entropy(
    client: TestClient[Litestar], tmp_path: Any
) -> None:
    commitment = commit(client)["commitment_id"]
    created = create(
        client,
        {
            "game": "spies-and-lies",
            "players": 2,
            "seats": LOBBY,
            "commitment_id": commitment,
            "entropy": CREATOR,
        },
    )
    game_id = created["id"]
    assert [e["type"] for e in events(client, game_id)] == ["game_created", "entropy_added"]
    joined = client.post(f"/games/{game_id}/join", json={"name": "Bo", "entropy": JOINER})
    assert joined.status_code == 200, joined.text
    logged = events(client, game_id)
    assert [e["type"] for e in logged[2:4]] == ["seat_joined", "entropy_added"]
    assert logged[3]["seat"] == 1 and logged[3]["entropy"] == JOINER
    assert len(logged) > 4  # dealt in the join's batch
    tokens = [created["seats"][0]["token"], joined.json()["token"]]
    game = Game(
        id=game_id,
        game="spies-and-lies",
        seats={seat: bearer(token) for seat, token in enumerate(tokens)},
        tokens=tokens,
    )
    play_to_end(client, game, random.Random(4))
    export = client.get(f"/games/{game_id}/export").content
    with SQLiteEventStore(tmp_path / "other.db") as other:
        report = import_game(other, io.BytesIO(export))
    assert report.ok, report.problem


def test_a_joiners_entropy_to_a_game_without_a_commitment_is_refused(
    client: TestClient[Litestar],
) -> None:
    created = create(client, {"game": "spies-and-lies", "players": 2, "seats": LOBBY})
    before = client.get(f"/games/{created['id']}").json()["version"]
    response = client.post(f"/games/{created['id']}/join", json={"name": "Bo", "entropy": JOINER})
    assert_problem(response, 422, "entropy-not-accepted")
    after = client.get(f"/games/{created['id']}").json()
    assert after["version"] == before and after["seats"][1]["type"] == "open"


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_commitment_is_used_once_and_expires_on_both_backends(
    backend: str, tmp_path: Path
) -> None:
    """The service over each backend's table: the committed seed once, then
    ``commitment-used``; two racing uses, one winner; past ``expires_at``, expired."""
    clock = FakeClock()
    with fresh_backend(backend, tmp_path) as database:
        store = database.open()
        try:
            commitments = SeedCommitments(store, ttl=60.0, per_client=3, clock=clock)
            issued = commitments.issue("client-a")
            seed = commitments.use(issued.commitment_id)
            assert hashlib.sha256(seed).hexdigest() == issued.seed_commitment
            with pytest.raises(CommitmentUsedError):
                commitments.use(issued.commitment_id)
            racing = commitments.issue("client-a").commitment_id
            won: list[bytes] = []
            start = threading.Barrier(4)

            def use() -> None:
                start.wait()
                with contextlib.suppress(CommitmentUsedError):
                    won.append(commitments.use(racing))

            threads = [threading.Thread(target=use) for _ in range(4)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert len(won) == 1
            late = commitments.issue("client-a").commitment_id
            clock.advance(60)
            with pytest.raises(CommitmentExpiredError):
                commitments.use(late)
            with pytest.raises(UnknownCommitmentError):
                commitments.use("never-given")
        finally:
            store.close()
