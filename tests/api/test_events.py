"""The event log, paged and streamed, and the hidden-information rule on both."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings
from spies_api.app import Runtime
from spies_api.game import submit_command
from spies_api.service.answers import DEAL_HIDDEN, outgoing, public_options
from spies_api.service.notify import EventNotifier, SharedReads
from spies_core.registry import GAMES
from spies_replay.meta import GameCreated, SeedSource
from spies_replay.reading import StoredEvent, read_events, redact_for
from spies_replay.store.sqlite import SQLiteEventStore
from tests.support.api import (
    Game,
    assert_problem,
    game_cases,
    live_game,
    new_game,
    parse_sse,
    play_to_end,
    play_turn,
    post_legal,
)
from tests.support.apps import contract_check
from tests.support.schema_check import ResponseChecker
from tests.support.streams import streaming_server
from tests.support.waiting import next_loop_turn, until, until_async


def as_json(value: Any) -> Any:
    """A value as a client decodes it (tuples become lists)."""
    return msgspec.json.decode(msgspec.json.encode(value))


def expected_events(runtime: Runtime, game: Game, seat: int | None) -> list[dict[str, Any]]:
    """The log as ``seat`` should see it while the game is in progress (from the core)."""
    service = runtime
    spec = GAMES[game.game]
    sent = []
    for stored in read_events(service.store, game.id):
        event = redact_for(spec, stored.event, seat)
        if event is not None:
            item = as_json(event)
            sent.append({**item, "seq": stored.seq, "recorded_at": stored.recorded_at})
    return sent


# -- paging ----------------------------------------------------------------------------------


def test_events_are_paged_with_after_limit_and_next_after(client: TestClient[Litestar]) -> None:
    game = new_game(client, "deck-of-spies")
    rng = random.Random(1)
    for _ in range(3):
        play_turn(client, game, rng)
    version = client.get(game.url()).json()["version"]
    seen: list[int] = []
    after = 0
    while True:
        page = client.get(game.url("/events"), params={"after": after, "limit": 4}).json()
        assert page["version"] == version and page["status"] == "active"
        if not page["events"]:
            assert page["next_after"] == after
            break
        assert len(page["events"]) <= 4
        seen += [event["seq"] for event in page["events"]]
        assert page["next_after"] == page["events"][-1]["seq"]
        after = page["next_after"]
    assert seen == list(range(1, version + 1))
    beyond = client.get(game.url("/events"), params={"after": 10**9}).json()
    assert beyond["events"] == [] and beyond["next_after"] == 10**9


@pytest.mark.parametrize(
    "params", [{"after": -1}, {"after": "x"}, {"after": 2**63}, {"limit": 0}, {"limit": "all"}]
)
def test_bad_event_parameters_are_400(client: TestClient[Litestar], params: dict[str, Any]) -> None:
    game = new_game(client)
    assert_problem(client.get(game.url("/events"), params=params), 400, "invalid-parameter")
    if "after" in params:  # the stream takes no limit
        response = client.get(game.url("/events/stream"), params=params)
        assert_problem(response, 400, "invalid-parameter")


# -- hidden information ----------------------------------------------------------------------


@pytest.mark.parametrize(("name", "players"), game_cases())
def test_in_play_each_caller_gets_the_log_redacted_for_it(
    client: TestClient[Litestar], runtime: Runtime, name: str, players: int
) -> None:
    game = new_game(client, name, players)
    rng = random.Random(players)
    for _ in range(12):
        if client.get(game.url()).json()["status"] != "active":
            break
        play_turn(client, game, rng)
    if client.get(game.url()).json()["status"] != "active":
        pytest.skip("the game ended too early to look at it in play")
    limit = {"limit": 100_000}
    spectator = client.get(game.url("/events"), params=limit).json()["events"]
    assert spectator == expected_events(runtime, game, None)
    for seat in range(players):
        mine = client.get(game.url("/events"), params=limit, headers=game.seats[seat])
        assert mine.json()["events"] == expected_events(runtime, game, seat)


def test_once_over_the_log_is_public(client: TestClient[Litestar], runtime: Runtime) -> None:
    game = new_game(client, "black-spy", 3)
    play_to_end(client, game)
    service = runtime
    whole = [
        {**as_json(s.event), "seq": s.seq, "recorded_at": s.recorded_at}
        for s in read_events(service.store, game.id)
    ]
    for headers in ({}, game.seats[0]):
        events = client.get(game.url("/events"), params={"limit": 10**6}, headers=headers).json()
        assert events["events"] == whole


def deck_of_spies_deal() -> dict[str, Any]:
    spy_ranks = ("5", "6", "7", "8", "9", "10", "J", "Q", "K")
    spies = [rank + suit for rank in spy_ranks for suit in "CDHS"]
    draw = [rank + suit for rank in ("4", "3", "2", "A") for suit in "SHDC"]
    return {"spies": spies, "draw": draw}


def test_an_explicit_deal_stays_secret_until_the_end(
    client: TestClient[Litestar], runtime: Runtime
) -> None:
    deal = deck_of_spies_deal()
    game = new_game(client, "deck-of-spies", options={"deal": deal}, seed=None)
    order = msgspec.json.encode(deal["draw"]).decode()[1:-1]  # the draw deck's order
    texts = [
        client.get(game.url()).text,
        client.get("/games").text,
        client.get(game.url("/events")).text,
        client.get(game.url("/events"), headers=game.seats[0]).text,
        client.get(game.url("/view"), headers=game.seats[0]).text,
    ]
    for text in texts:
        assert order not in text and '"deal":{' not in text.replace(" ", "")
    assert client.get(game.url()).json()["options"] == {}
    summary = play_to_end(client, game)
    assert summary["options"] in ({}, {"deal": deal})
    last = client.get(game.url("/events"), params={"after": summary["version"] - 1}).json()
    assert last["events"][-1]["type"] == "seed_revealed"
    assert last["events"][-1]["deal"] == deal


def test_the_api_also_hides_a_deal_recorded_in_the_options_of_older_logs() -> None:
    """Logs from before the replay log kept ``deal`` apart still carry it in the options."""
    deal = deck_of_spies_deal()
    assert public_options({"deal": deal, "strict_necessity": True}, finished=False) == {
        "deal": DEAL_HIDDEN,
        "strict_necessity": True,
    }
    assert public_options({"deal": deal}, finished=True) == {"deal": deal}
    created = GameCreated(
        game="deck-of-spies",
        players=1,
        options={"deal": deal},
        seed_commitment="00",
        seed_source=SeedSource.CLIENT,
        rng="r",
    )
    stored = StoredEvent(
        seq=1, type="game_created", event=created, actor=None, recorded_at="t", hash="h"
    )
    spec = GAMES["deck-of-spies"]
    sent = outgoing(spec, None, [stored], finished=False)
    assert sent[0].options == {"deal": DEAL_HIDDEN}
    assert outgoing(spec, None, [stored], finished=True)[0].options == {"deal": deal}


# -- the stream ------------------------------------------------------------------------------


def test_the_stream_of_a_finished_game_sends_every_event_and_ends(
    client: TestClient[Litestar],
) -> None:
    game = new_game(client, "spies-and-lies", 2)
    summary = play_to_end(client, game)
    response = client.get(game.url("/events/stream"))
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    messages = [m for m in parse_sse(response.text) if "id" in m]
    assert [m["id"] for m in messages] == list(range(1, summary["version"] + 1))
    assert all(m["data"]["seq"] == m["id"] for m in messages)
    assert messages[-1]["data"]["type"] == "seed_revealed"
    events = client.get(game.url("/events"), params={"limit": 10**6}).json()["events"]
    assert [m["data"] for m in messages] == events


def test_the_stream_resumes_after_last_event_id_or_after(client: TestClient[Litestar]) -> None:
    game = new_game(client, "deck-of-spies")
    summary = play_to_end(client, game)
    version = summary["version"]
    first = [m for m in parse_sse(client.get(game.url("/events/stream")).text) if "id" in m]
    dropped_at = first[9]["id"]  # the client had read ten events when its connection dropped
    resumed = client.get(game.url("/events/stream"), headers={"Last-Event-ID": str(dropped_at)})
    rest = [m for m in parse_sse(resumed.text) if "id" in m]
    assert [m["id"] for m in rest] == list(range(dropped_at + 1, version + 1))
    assert first[:10] + rest == first
    by_query = client.get(game.url("/events/stream"), params={"after": dropped_at})
    assert parse_sse(by_query.text) == parse_sse(resumed.text)
    # Last-Event-ID wins over ?after (EventSource keeps the URL it started with)
    both = client.get(
        game.url("/events/stream"), params={"after": 1}, headers={"Last-Event-ID": str(dropped_at)}
    )
    assert parse_sse(both.text) == parse_sse(resumed.text)
    caught_up = client.get(game.url("/events/stream"), headers={"Last-Event-ID": str(version)})
    assert caught_up.status_code == 204 and caught_up.content == b""


@pytest.mark.parametrize(
    "value", ["x", "-1", "1.5", "1e3", "99999999999999999999", "١٢".encode(), b"\xff"]
)
def test_a_garbled_last_event_id_is_400(client: TestClient[Litestar], value: str | bytes) -> None:
    game = new_game(client)
    response = client.get(game.url("/events/stream"), headers={"Last-Event-ID": value})
    assert_problem(response, 400, "invalid-parameter")


def test_the_live_stream_delivers_new_events_with_keepalives_and_ends_at_the_end(
    settings: Settings, checker: ResponseChecker
) -> None:
    with streaming_server(settings) as served:
        served.http.event_hooks = {"request": [], "response": [contract_check(checker)]}
        game = new_game(served.http, "deck-of-spies")  # type: ignore[arg-type]
        start = served.http.get(game.url()).json()["version"]
        stream = served.raw.open(game.url("/events/stream"), game.seats[0])
        assert stream.status == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        served.raw.wait(lambda: stream.keepalives() > 0)  # open and idle: keep-alives flow
        play_to_end(served.http, game, random.Random(9))  # type: ignore[arg-type]
        served.raw.wait(lambda: stream.ended)
    messages = parse_sse(stream.text)
    events = [m for m in messages if "id" in m]
    assert [m["id"] for m in events] == list(range(1, len(events) + 1))
    assert events[-1]["data"]["type"] == "seed_revealed"
    first_new = next(i for i, m in enumerate(messages) if m.get("id") == start + 1)
    assert any(m.get("comment") == "keep-alive" for m in messages[:first_new])
    kinds = [{"comment"}, {"id", "data"}, {"event", "data"}]  # snapshot and state: no id
    assert all(set(m) in kinds for m in messages)


def test_a_spectator_stream_of_a_game_in_play_is_redacted(
    client: TestClient[Litestar], runtime: Runtime
) -> None:
    game = new_game(client, "black-spy", 3)
    rng = random.Random(4)
    read = finished_reads(runtime)

    def play_then_finish() -> None:
        until(lambda: read[game.id], what="the stream's first read of the log")
        for _ in range(5):
            play_turn(client, game, rng)
        expected.extend(expected_events(runtime, game, None))
        play_to_end(client, game, rng)

    expected: list[dict[str, Any]] = []
    player = threading.Thread(target=play_then_finish)
    player.start()
    try:
        response = client.get(game.url("/events/stream"))
    finally:
        player.join()
    sent = [m["data"] for m in parse_sse(response.text) if "id" in m]
    assert sent[: len(expected)] == expected


def test_one_page_of_events_holds_a_whole_game_by_default() -> None:
    longest = max(spec.max_events for spec in GAMES.values())
    assert Settings().events_page_default >= longest


def test_streams_end_when_the_server_shuts_down(
    client: TestClient[Litestar], runtime: Runtime
) -> None:
    game = new_game(client, "black-spy", 3)
    read = finished_reads(runtime)

    def shut_down_later() -> None:  # once the stream has read the log and waits
        until(lambda: read[game.id], what="the stream's first read of the log")
        runtime.notifier.close()

    closer = threading.Thread(target=shut_down_later)
    closer.start()
    try:
        response = client.get(game.url("/events/stream"))  # returns: the stream ended
    finally:
        closer.join()
    ids = [m["id"] for m in parse_sse(response.text) if "id" in m]
    assert ids == list(range(1, game.created["version"] + 1))


# -- pushed, not polled ----------------------------------------------------------------------


def count_reads(runtime: Runtime) -> Counter[str]:
    """Count, by game, every read of the log that an event stream (or anyone) makes."""
    queries = runtime.queries
    read = queries.events
    counts: Counter[str] = Counter()

    def counted(game_id: str, seat: int | None, *, after: int, limit: int) -> Any:
        counts[game_id] += 1
        return read(game_id, seat, after=after, limit=limit)

    queries.events = counted  # type: ignore[method-assign]
    return counts


def finished_reads(runtime: Runtime) -> Counter[str]:
    """Count, by game, every read of the log that has returned (a stream that has read
    the log once has sent what it read before it looks at anything else)."""
    queries = runtime.queries
    read = queries.events
    counts: Counter[str] = Counter()

    def counted(game_id: str, seat: int | None, *, after: int, limit: int) -> Any:
        page = read(game_id, seat, after=after, limit=limit)
        counts[game_id] += 1
        return page

    queries.events = counted  # type: ignore[method-assign]
    return counts


def live_settings(db: Path, *, keepalive: float, poll: float) -> Settings:
    """A server's settings with the stream intervals of a test."""
    return Settings(
        db_path=db, sse_keepalive_seconds=keepalive, sse_poll_seconds=poll, log_json=True
    )


def test_idle_streams_read_the_log_only_when_their_game_changes(tmp_path: Path) -> None:
    """Twenty idle streams over two games send keep-alives and never read the log; a command
    wakes only its game's streams, which share one read of it, and every stream gets every
    event exactly once, to the end."""
    # a fast safety poll: it reads the games' versions, never a stream's log
    settings = live_settings(tmp_path / "idle.db", keepalive=0.1, poll=0.05)
    with streaming_server(settings) as served:
        runtime, raw, http = served.runtime, served.raw, served.http
        service = runtime
        games = [
            live_game(http.post("/games", json={"game": "deck-of-spies", "seed": f"i{i}"}).json())
            for i in range(2)
        ]
        reads = count_reads(runtime)
        streams = {
            game.id: [raw.open(game.url("/events/stream")) for _ in range(10)] for game in games
        }
        assert all(s.status == 200 for group in streams.values() for s in group)
        for game in games:
            version = game.created["version"]
            raw.wait(lambda g=game, v=version: all(s.ids()[-1:] == [v] for s in streams[g.id]))
            raw.wait(lambda g=game: service.notifier.waiting(g.id) == 10)
        every = [s for group in streams.values() for s in group]
        # caught up and idle: every stream has sent keep-alives since
        settled = [s.keepalives() + 5 for s in every]
        raw.wait(lambda: all(s.keepalives() >= n for s, n in zip(every, settled, strict=True)))
        idle_from = Counter(reads)
        keepalives = sum(s.keepalives() for s in every)
        # idle for as long as it takes every stream to send 15 keep-alives (1.5 s at least)
        idled = [s.keepalives() + 15 for s in every]
        raw.wait(lambda: all(s.keepalives() >= n for s, n in zip(every, idled, strict=True)))
        # None, or one per game: the file's watch also reports this process's own appends
        # (here the games' creation), late on a loaded machine, and a game's streams woken
        # together share one read
        assert all(reads[g.id] - idle_from[g.id] <= 1 for g in games), (reads, idle_from)
        idle_from = Counter(reads)
        after_idle = sum(s.keepalives() for group in streams.values() for s in group)
        assert after_idle - keepalives >= 20 * 5  # each still sent its keep-alives

        first, second = games
        version = post_legal(http, first)["version"]
        raw.wait(lambda: all(s.ids()[-1] == version for s in streams[first.id]))
        # a second wake-up for the same append (the file's watch, which looks every 0.25 s)
        # comes and goes while every stream of the game sends 5 more keep-alives
        woken = [s.keepalives() + 5 for s in streams[first.id]]
        raw.wait(
            lambda: all(s.keepalives() >= n for s, n in zip(streams[first.id], woken, strict=True))
        )
        assert reads[second.id] - idle_from[second.id] <= 1  # as above
        assert 1 <= reads[first.id] - idle_from[first.id] <= 4  # woken together, read once

        final = play_to_end(http, first, random.Random(5))  # type: ignore[arg-type]
        raw.wait(lambda: all(s.ended for s in streams[first.id]))
        for stream in streams[first.id]:
            assert stream.ids() == list(range(1, final["version"] + 1))
        assert not any(s.ended for s in streams[second.id])


def test_another_process_appending_to_the_sqlite_file_wakes_the_stream(tmp_path: Path) -> None:
    """No stream polls, and keep-alives are 15 s apart: the event arrives through the
    process's one watch of the file."""
    settings = live_settings(tmp_path / "shared.db", keepalive=15.0, poll=60.0)
    with streaming_server(settings) as served:
        runtime, raw, http = served.runtime, served.raw, served.http
        game = live_game(http.post("/games", json={"game": "deck-of-spies", "seed": "x"}).json())
        stream = raw.open(game.url("/events/stream"), game.seats[0])
        version = game.created["version"]
        raw.wait(lambda: stream.ids()[-1:] == [version])
        raw.wait(lambda: runtime.notifier.waiting(game.id) == 1)
        legal = http.get(game.url("/legal"), headers=game.seats[0]).json()
        command = msgspec.convert(legal["commands"][0], GAMES["deck-of-spies"].command_type)
        with SQLiteEventStore(settings.db_path) as other_process:
            appended = submit_command(other_process, game.id, 0, command).version
        started = time.monotonic()
        raw.wait(lambda: stream.ids()[-1] == appended, timeout=5.0)
        assert time.monotonic() - started < 3.0
        assert stream.ids() == list(range(1, appended + 1))


def test_a_lost_wake_up_delays_an_event_only_until_the_safety_poll(tmp_path: Path) -> None:
    """With every wake-up cut off, the process's slow look at the versions of its streamed
    games still finds the event, and the stream sends it once."""
    settings = live_settings(tmp_path / "lost.db", keepalive=15.0, poll=0.5)
    with streaming_server(settings) as served:
        runtime, raw, http = served.runtime, served.raw, served.http
        service = runtime
        service.unwatch()  # no wake-up from the file's watch
        service.appends.remove(service.notifier.notify)  # nor from this process's appends
        game = live_game(http.post("/games", json={"game": "deck-of-spies", "seed": "y"}).json())
        streams = [raw.open(game.url("/events/stream")) for _ in range(3)]
        version = game.created["version"]
        raw.wait(lambda: all(s.ids()[-1:] == [version] for s in streams))
        raw.wait(lambda: service.notifier.waiting(game.id) == 3)
        appended = post_legal(http, game)["version"]
        raw.wait(lambda: all(s.ids()[-1] == appended for s in streams), timeout=5.0)
        for stream in streams:
            assert stream.ids() == list(range(1, appended + 1))


def test_the_safety_poll_wakes_only_the_streams_behind_their_games_version() -> None:
    """One look at the versions, per process: a stream that has read up to its game's
    version is left asleep; one behind is woken; a game nobody streams is not looked up."""
    looked_up: list[list[str]] = []
    versions = {"a": 5, "b": 7}

    def current(game_ids: Sequence[str]) -> dict[str, int]:
        looked_up.append(sorted(game_ids))
        return {game_id: versions[game_id] for game_id in game_ids}

    notifier = EventNotifier(current, recheck_seconds=3600)

    async def scenario() -> list[bool]:
        with (
            notifier.subscribe("a") as caught_up,
            notifier.subscribe("a") as behind,
            notifier.subscribe("b") as other,
            notifier.subscribe("b") as unread,
        ):
            caught_up.seen, behind.seen, other.seen = 5, 4, 7  # unread: not read yet
            assert notifier.recheck() == 1
            await next_loop_turn()  # the wake-up is set on the loop
            return [w.event.is_set() for w in (caught_up, behind, other, unread)]

    assert asyncio.run(scenario()) == [False, True, False, False]
    assert looked_up == [["a", "b"]]
    assert notifier.recheck() == 0 and looked_up == [["a", "b"]]  # nobody waits: no lookup
    notifier.close()


def test_a_shared_read_is_joined_only_by_streams_woken_before_it_began() -> None:
    """A stream woken after a read began must not take that read's page (it may predate the
    append that woke the stream): it reads afresh; streams woken before share the read."""
    reads = SharedReads()
    release = threading.Event()
    begun: list[int] = []

    def read() -> Any:
        begun.append(len(begun))
        number = len(begun)
        release.wait(5)
        return f"page {number}"

    async def scenario() -> list[Any]:
        woken_before = reads.tick()
        first = asyncio.create_task(reads.read("key", woken_before, read))
        await until_async(lambda: len(begun) == 1)  # the read has begun
        joined = asyncio.create_task(reads.read("key", woken_before, read))
        woken_after = reads.tick()
        fresh = asyncio.create_task(reads.read("key", woken_after, read))
        elsewhere = asyncio.create_task(reads.read("other", woken_before, read))
        await until_async(lambda: len(begun) == 3)  # joined waits; fresh and elsewhere read
        release.set()
        return list(await asyncio.gather(first, joined, fresh, elsewhere))

    pages = asyncio.run(scenario())
    assert len(begun) == 3  # first (joined by one), fresh, elsewhere
    assert pages[0] == pages[1] and pages[2] != pages[0] and pages[3] != pages[0]
