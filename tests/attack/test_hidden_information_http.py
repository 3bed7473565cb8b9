"""Hidden information over HTTP, generic over the registry (the core-level twin is
``tests/core/test_hidden_information.py``, which scrambles states with ``spec.scramble``).

(a) **The API adds nothing.** For random playouts of every game and seat count, at every
    step, for every seat and the spectator: the view, the legal list, the new events, a
    replay and the acting seat's command answer are exactly the core's ``view`` /
    ``legal_commands`` / ``redact`` of the server's state at that version; the event stream
    sends the same redacted events, and its ``snapshot`` and ``state`` messages are each
    viewer's own view and legal list (a spectator's: none), with no hidden list in them.
(b) **Twin deals.** Two games created with explicit ``options.deal``s that differ only in
    what one viewer cannot see (another seat's cards, the bottom of a deck; each game's
    ``spec.twin_deals`` makes them) and the same seed give that viewer identical answers
    (ids, hashes, times and commitments aside) for as long as its view is the same in both.
(c) **No secret leaves before the end.** No answer before the end holds the seed (as hex or
    as the client's string), the explicit deal, or any hidden list the log holds for the
    game (a deck order, another seat's hand) that the caller may not see.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from typing import Any

import httpx
import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings
from spies_api.app import Runtime
from spies_core.decider import fold
from spies_core.registry import GAMES
from spies_core.step import Table, view_at
from spies_replay.meta import is_meta
from spies_replay.reading import read_events, redact_for, seat_names_at
from tests.support.api import Game, messages, new_game
from tests.support.servers import serve_in_thread

from .figures import record

GUARANTEE = "hidden-information"
_encoder = msgspec.json.Encoder()


def as_json(value: Any) -> Any:
    return msgspec.json.decode(_encoder.encode(value))


def seat_counts() -> list[Any]:
    return [
        pytest.param(name, players, id=f"{name}-{players}p")
        for name, spec in GAMES.items()
        for players in sorted(spec.seat_counts)
    ]


class Server:
    """What the server holds for a game: the stored events and the folded state."""

    def __init__(self, runtime: Runtime, game: Game) -> None:
        self.service = runtime
        self.game = game
        self.spec = GAMES[game.game]

    def table(self, at: int | None = None) -> Table:
        """The game's seats, public options and seat names after event ``at`` (default: the
        head): what its views show before the deal, and the names every view shows."""
        store = self.service.store
        record = store.get_game(self.game.id)
        seq = record.version if at is None else at
        return Table(record.players, record.options, seat_names_at(store, self.game.id, seq))

    def state(self) -> tuple[int, Any]:
        _, entry = self.service.states.current(self.game.id)
        return entry.version, entry.state

    def stored(self, after: int = 0) -> list[Any]:
        return read_events(self.service.store, self.game.id, after=after)

    def sent(self, viewer: int | None, after: int = 0, upto: int | None = None) -> list[Any]:
        """The stored events as ``viewer`` should get them while the game is on."""
        out = []
        for stored in self.stored(after):
            if upto is not None and stored.seq > upto:
                break
            event = redact_for(self.spec, stored.event, viewer)
            if event is None:
                continue
            item = as_json(event)
            if item.get("type") == "game_created" and "deal" in item.get("options", {}):
                item["options"]["deal"] = "hidden until the game ends"
            out.append({**item, "seq": stored.seq, "recorded_at": stored.recorded_at})
        return out

    def state_at(self, seq: int) -> Any:
        events = [s.event for s in self.stored() if s.seq <= seq and not is_meta(s.event)]
        return fold(self.spec, events)

    def secrets(self, viewer: int | None) -> set[str]:
        """JSON texts the viewer must not find before the end: the seed, and every hidden
        list of the stored events that redaction takes from it (a deck order, another
        seat's hand), of eight items or more, so that a few cards which later turn face up
        (drawn cards that are then played) do not count; eight cards in a given order do not
        turn up by chance."""
        found = set()
        secrets = self.service.store.secrets(self.game.id)
        assert secrets is not None
        found.add(secrets.seed.hex())
        for stored in self.stored():
            if is_meta(stored.event):
                continue
            shown = redact_for(self.spec, stored.event, viewer)
            whole = msgspec.structs.asdict(stored.event)
            seen = {} if shown is None else msgspec.structs.asdict(shown)
            for name, hidden in whole.items():
                if (
                    isinstance(hidden, (list, tuple))
                    and len(hidden) >= 8
                    and seen.get(name) != hidden
                ):
                    found.add(_encoder.encode(hidden).decode())
        return found


# -- (a) the API adds nothing ----------------------------------------------------------------------


@pytest.fixture
def plain(app: Litestar) -> Iterator[TestClient[Litestar]]:
    """A test client without the OpenAPI check of every answer (tests/api makes it): these
    playouts send tens of thousands of requests, and compare each answer with the core."""
    with TestClient(app=app) as test_client:
        yield test_client


def check_step(
    client: TestClient[Litestar], server: Server, before: int, texts: dict[Any, list[str]]
) -> int:
    """Every viewer's answers at the current version against the core; returns checks made."""
    game, spec = server.game, server.spec
    version, state = server.state()
    viewers: list[int | None] = [*range(len(game.seats)), None]
    checks = 0
    for viewer in viewers:
        headers = game.seats[viewer] if viewer is not None else None
        view = client.get(game.url("/view"), headers=headers)
        expected = as_json(view_at(spec, state, viewer, version, None, server.table()))
        assert view.json() == expected, f"view of {viewer} at {version}"
        legal = client.get(game.url("/legal"), headers=headers)
        commands = [] if viewer is None else as_json(spec.legal_commands(state, viewer))
        answer = legal.json()
        note = answer.pop("note", None)  # a hint from public facts (who is to act), or None
        assert answer == {"version": version, "seat": viewer, "commands": commands}
        assert (note is None) == bool(commands), f"note of {viewer} at {version}: {note!r}"
        events = client.get(game.url("/events"), params={"after": before}, headers=headers)
        assert events.json()["events"] == server.sent(viewer, after=before), f"events for {viewer}"
        texts[viewer] += [view.text, legal.text, events.text]
        checks += 3
    return checks


def check_replays(
    client: TestClient[Litestar], server: Server, rng: random.Random, texts: dict[Any, list[str]]
) -> int:
    version, _ = server.state()
    at = rng.randrange(version + 1)
    state = server.state_at(at)
    for viewer in [*range(len(server.game.seats)), None]:
        headers = server.game.seats[viewer] if viewer is not None else None
        replay = client.get(server.game.url(f"/replay/{at}"), headers=headers)
        expected = as_json(view_at(server.spec, state, viewer, at, None, server.table(at)))
        assert replay.json() == expected, f"replay {at} for {viewer}"
        texts[viewer].append(replay.text)
    return len(server.game.seats) + 1


@pytest.mark.parametrize(("name", "players"), seat_counts())
def test_every_answer_is_the_cores_view_of_the_servers_state(
    plain: TestClient[Litestar], runtime: Runtime, name: str, players: int
) -> None:
    client = plain
    rng = random.Random(f"{name}-{players}")
    secret_seed = f"s3cr3t-seed-{name}-{players}"
    game = new_game(client, name, players, seed=secret_seed)
    server = Server(runtime, game)
    texts: dict[Any, list[str]] = {viewer: [] for viewer in [*range(players), None]}
    checks = steps = 0
    before = 0
    for _ in range(GAMES[name].max_events):
        if client.get(game.url()).json()["status"] != "active":
            break
        checks += check_step(client, server, before, texts)
        if steps % 10 == 0:
            checks += check_replays(client, server, rng, texts)
        version, state = server.state()
        seat = rng.choice(sorted(server.spec.to_act(state)))
        command = rng.choice(
            client.get(game.url("/legal"), headers=game.seats[seat]).json()["commands"]
        )
        response = client.post(
            game.url("/commands"),
            headers=game.seats[seat],
            json={"command": command, "expected_version": version},
        )
        assert response.status_code == 200, response.text
        answer = response.json()
        if answer["status"] == "active":  # the acting seat's answer: its redaction, no more
            assert answer["events"] == server.sent(seat, after=version), "command answer"
            texts[seat].append(response.text)
            checks += 1
        before = version
        steps += 1
    else:
        raise AssertionError("the game did not end")
    # (c) nothing secret in anything a viewer got before the end
    for viewer, seen in texts.items():
        joined = "\n".join(seen)
        assert secret_seed not in joined
        for secret in server.secrets(viewer):
            assert secret not in joined, (
                f"viewer {viewer} got a hidden list or the seed: {secret[:80]}"
            )
    record(
        GUARANTEE,
        f"test_hidden_information_http.py::test_every_answer_is_the_cores_view_of_the_servers_state[{name}-{players}p]",
        steps=steps,
        answers_compared=checks,
        viewers=players + 1,
    )


def check_pushed_state(server: Server, pushed: dict[str, Any], viewer: int | None, at: int) -> None:
    """A stream's ``snapshot`` or ``state`` is the core's view and legal list of ``viewer``
    at ``at`` (the game's version: it has not moved since), and holds no secret of it."""
    version, state = server.state()
    assert version == at == pushed["version"]
    spec = server.spec
    assert pushed["seat"] == viewer
    assert pushed["status"] == "active"
    assert pushed["to_act"] == sorted(spec.to_act(state))
    view = dict(pushed["view"])
    view.pop("clock", None)  # these games run without a clock: null
    expected = as_json(view_at(spec, state, viewer, version, None, server.table()))
    expected.pop("clock", None)
    assert view == expected, f"pushed view of {viewer}"
    legal = None if viewer is None else as_json(spec.legal_commands(state, viewer))
    assert pushed["legal"] == legal, f"pushed legal commands of {viewer}"
    text = _encoder.encode(pushed).decode()
    for secret in server.secrets(viewer):
        assert secret not in text, f"viewer {viewer}'s pushed state holds a hidden list"


@pytest.mark.parametrize("name", list(GAMES))
def test_the_stream_sends_each_viewer_its_redaction(tmp_path: Any, name: str) -> None:
    settings = Settings(
        db_path=tmp_path / "stream.db",
        sse_keepalive_seconds=0.05,
        sse_poll_seconds=0.05,
        log_json=True,
    )
    spec = GAMES[name]
    rng = random.Random(name)
    with (
        serve_in_thread(settings) as (base, runtime),
        httpx.Client(base_url=base, timeout=30) as http,
    ):
        created = http.post(
            "/games", json={"game": name, "players": spec.max_players, "seed": f"stream-{name}"}
        ).json()
        tokens = [seat["token"] for seat in created["seats"]]
        game = Game(
            created["id"],
            name,
            {s: {"Authorization": f"Bearer {t}"} for s, t in enumerate(tokens)},
            tokens,
        )
        server = Server(runtime, game)
        compared = 0
        for _ in range(4):
            for _ in range(rng.randrange(1, 12)):
                summary = http.get(game.url()).json()
                if summary["status"] != "active":
                    break
                seat = rng.choice(summary["to_act"])
                legal = http.get(game.url("/legal"), headers=game.seats[seat]).json()
                http.post(
                    game.url("/commands"),
                    headers=game.seats[seat],
                    json={"command": rng.choice(legal["commands"])},
                )
            version, _ = server.state()
            if http.get(game.url()).json()["status"] != "active":
                break
            viewers = [*range(len(tokens)), None]
            with contextlib.ExitStack() as opened:
                streams = {
                    viewer: messages(
                        opened.enter_context(
                            http.stream(
                                "GET",
                                game.url("/events/stream"),
                                headers=game.seats[viewer] if viewer is not None else {},
                            )
                        )
                    )
                    for viewer in viewers
                }
                for viewer, stream in streams.items():
                    got = []
                    snapshot = next(stream)
                    assert snapshot["event"] == "snapshot", snapshot
                    for message in stream:
                        if "id" in message:
                            got.append(message["data"])
                            if message["id"] >= version:
                                break
                    assert got == server.sent(viewer, upto=version), f"stream of {viewer}"
                    check_pushed_state(server, snapshot["data"], viewer, version)
                    compared += 1
                # one more move: every stream follows its batch with its reader's state
                summary = http.get(game.url()).json()
                if summary["status"] != "active":
                    break
                seat = rng.choice(summary["to_act"])
                legal = http.get(game.url("/legal"), headers=game.seats[seat]).json()
                moved = http.post(
                    game.url("/commands"),
                    headers=game.seats[seat],
                    json={"command": rng.choice(legal["commands"])},
                ).json()["version"]
                for viewer, stream in streams.items():
                    pushed = next(m for m in stream if m.get("event") == "state")
                    assert pushed["data"]["version"] == moved
                    check_pushed_state(server, pushed["data"], viewer, moved)
                    compared += 1
    record(
        GUARANTEE,
        f"test_hidden_information_http.py::test_the_stream_sends_each_viewer_its_redaction[{name}]",
        streams_compared=compared,
    )


# -- (b) twin deals --------------------------------------------------------------------------------


_VOLATILE = {
    "id",
    "recorded_at",
    "created_at",
    "updated_at",
    "head_hash",
    "seed_commitment",
    "deal_commitment",
}


def _stable(value: Any) -> Any:
    """An answer without what differs between any two games (ids, times, hashes)."""
    if isinstance(value, dict):
        return {k: _stable(v) for k, v in value.items() if k not in _VOLATILE}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    return value


def test_every_registered_game_has_twin_deals() -> None:
    assert [name for name, spec in GAMES.items() if spec.twin_deals is None] == []


def twin_cases() -> list[Any]:
    cases = []
    for name, spec in GAMES.items():
        players = spec.max_players
        for viewer in [*range(players), None]:
            cases.append(
                pytest.param(name, players, viewer, id=f"{name}-{players}p-viewer-{viewer}")
            )
    return cases


@pytest.mark.parametrize(("name", "players", "viewer"), twin_cases())
def test_twin_deals_look_the_same_to_a_viewer_who_cannot_tell_them_apart(
    client: TestClient[Litestar], name: str, players: int, viewer: int | None
) -> None:
    rng = random.Random(f"twins-{name}-{viewer}")
    make_twins = GAMES[name].twin_deals
    assert make_twins is not None
    twins = make_twins(players, viewer, rng)
    deal, twin_deal = twins.deal, twins.twin
    seed = f"twin-seed-{name}"
    worlds = [
        new_game(client, name, players, seed=seed, options={"deal": d}) for d in (deal, twin_deal)
    ]
    headers = worlds[0].seats[viewer] if viewer is not None else None

    def answers(game: Game) -> dict[str, Any]:
        auth = game.seats[viewer] if viewer is not None else None
        return {
            "summary": _stable(client.get(game.url()).json()),
            "view": _stable(client.get(game.url("/view"), headers=auth).json()),
            "legal": _stable(client.get(game.url("/legal"), headers=auth).json()),
            "events": _stable(client.get(game.url("/events"), headers=auth).json()),
        }

    steps = 0
    texts: list[str] = []
    for _ in range(GAMES[name].max_events):
        seen = [answers(world) for world in worlds]
        if seen[0]["summary"]["status"] == "active":  # once over, everything is public
            texts.append(_encoder.encode(seen).decode())
        if seen[0]["view"] != seen[1]["view"] or seen[0]["summary"]["status"] != "active":
            break  # the viewer can now tell the worlds apart (or the game is over)
        assert seen[0] == seen[1], f"viewer {viewer} tells the twins apart at step {steps}"
        to_act = seen[0]["summary"]["to_act"]
        seat = rng.choice(to_act)
        legal = [
            client.get(w.url("/legal"), headers=w.seats[seat]).json()["commands"] for w in worlds
        ]
        common = [command for command in legal[0] if command in legal[1]]
        if not common:
            break  # the acting seat's hands differ: the worlds part here
        command = rng.choice(common)
        results = [
            client.post(w.url("/commands"), headers=w.seats[seat], json={"command": command})
            for w in worlds
        ]
        assert [r.status_code for r in results] == [200, 200]
        if seat == viewer:
            after = [_stable(r.json()) for r in results]
            views = [client.get(w.url("/view"), headers=headers).json() for w in worlds]
            if _stable(views[0]) == _stable(views[1]):
                assert after[0] == after[1], "the viewer's own command answers differ"
        steps += 1
    assert steps >= 3, f"the twins parted too early ({steps} steps) to show anything"
    # (c) the deal's hidden parts never show (its orders, every hand but the viewer's own)
    joined = "\n".join(texts)
    for secret in twins.hidden:
        shown = _encoder.encode(secret).decode()
        assert shown not in joined, f"a hidden part of the deal leaked: {shown[:80]}"
    record(
        GUARANTEE,
        f"test_hidden_information_http.py::test_twin_deals_look_the_same_to_a_viewer_who_cannot_tell_them_apart[{name}-{players}p-viewer-{viewer}]",
        steps_indistinguishable=steps,
    )
