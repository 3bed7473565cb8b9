"""The store contract, written once and run on every backend: creation, appends, conflicts
at a taken seq, idempotency, snapshots, the hash chain and head hash, append-only in the
database, tamper detection, seat changes and racing joins, export and import.

SQLite always; PostgreSQL when ``SPIES_TEST_POSTGRES_URL`` is set (skipped otherwise, with the
reason). What only one backend has is tested in ``test_sqlite_store.py`` and
``test_postgres_store.py``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import msgspec
import pytest

from spies_api.game import (
    Head,
    IdempotencyRequest,
    abort_game,
    create_game,
    load_head,
    prepare_command,
    submit_command,
)
from spies_api.game.loading import fold_head
from spies_core.decider import fold
from spies_core.errors import GameOverError, InvalidOptionsError, UnknownGameError
from spies_core.rng import ALGORITHM
from spies_replay.codec import FORMAT_3, codec_for, genesis_hash, seal
from spies_replay.copying import copy_game
from spies_replay.errors import (
    GameExistsError,
    GameFinishedError,
    GameNotFoundError,
    IdempotencyKeyExistsError,
    ReplayError,
    SeatTakenError,
    SeqOutOfRangeError,
    StoreClosedError,
    VersionConflictError,
)
from spies_replay.meta import GameCreated, SeatJoined, SeatState, SeatType, SeedRevealed, SeedSource
from spies_replay.reading import load_state, read_events, view_at
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import Append, Appended, GameStatus, Reply, hash_token, utc_now
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.transfer import export_lines, import_game, read_export
from spies_replay.verify import verify_game
from tests.support.backends import Backend, fresh_backend
from tests.support.counter import append, finish, new_game, play
from tests.support.countergame import (
    GAMES,
    SPEC,
    Bump,
    CounterBumped,
    CounterStarted,
    CounterTurnPassed,
    Draw,
)
from tests.support.seats import change_seat
from tests.support.waiting import until


@pytest.fixture
def store(backend: Backend) -> Iterator[EventStore]:
    with backend.open(snapshot_every=8) as opened:
        yield opened


# -- creation ------------------------------------------------------------------------------


def test_create_writes_game_created_then_setup_events(store: EventStore) -> None:
    created = new_game(store, seed="puzzle-1")
    record = created.record
    events = read_events(store, record.id, games=GAMES)
    assert [e.seq for e in events] == [1, 2, 3]
    first = events[0].event
    assert isinstance(first, GameCreated)
    assert first.game == "counter" and first.players == 2 and first.options == {"target": 12}
    assert first.seed_commitment == hashlib.sha256(b"puzzle-1").hexdigest()
    assert first.seed_source is SeedSource.CLIENT
    assert first.rng == ALGORITHM
    assert isinstance(events[1].event, CounterStarted)
    assert record.version == 3 and record.head_hash == events[-1].hash
    assert record.status is GameStatus.ACTIVE and record.outcome is None
    assert created.state == fold(SPEC, [e.event for e in events[1:]])


def test_server_seed_is_secret_and_stored_apart(store: EventStore, backend: Backend) -> None:
    record = new_game(store, seed=None).record
    found = store.secrets(record.id)
    seed = None if found is None else found.seed
    assert seed is not None and len(seed) == 32
    assert record.seed_source is SeedSource.SERVER
    assert record.seed_commitment == hashlib.sha256(seed).hexdigest()
    payloads = " ".join(row[0] for row in backend.execute("SELECT payload FROM events"))
    assert seed.hex() not in payloads


def test_tokens_are_returned_once_and_stored_hashed(store: EventStore, backend: Backend) -> None:
    created = new_game(store, players=3)
    assert len(created.tokens) == 3 and len(set(created.tokens)) == 3
    stored = [row[0] for row in backend.execute("SELECT token_hash FROM seats ORDER BY seat")]
    assert stored == [hashlib.sha256(t.encode()).hexdigest() for t in created.tokens]
    for seat, token in enumerate(created.tokens):
        assert store.check_token(created.record.id, token) == seat
    assert store.check_token(created.record.id, "not-a-token") is None
    assert store.check_token("no-such-game", created.tokens[0]) is None


@pytest.mark.parametrize(
    ("game", "players", "options", "error"),
    [
        ("nope", None, None, UnknownGameError),
        ("counter", 7, None, InvalidOptionsError),
        ("counter", None, {"colour": "red"}, InvalidOptionsError),
        ("counter", None, {"target": 0}, InvalidOptionsError),
    ],
)
def test_invalid_creation_writes_nothing(
    store: EventStore,
    backend: Backend,
    game: str,
    players: int | None,
    options: object,
    error: type[Exception],
) -> None:
    with pytest.raises(error):
        create_game(store, game, players, options, games=GAMES)
    assert store.list_games().total == 0
    assert backend.execute("SELECT count(*) FROM events")[0][0] == 0


def test_empty_client_seed_is_refused(store: EventStore) -> None:
    with pytest.raises(InvalidOptionsError) as caught:
        create_game(store, "counter", seed="", games=GAMES)
    assert caught.value.code == "invalid-seed"


def test_client_seed_makes_a_game_reproducible(store: EventStore) -> None:
    a = new_game(store, seed="same").record.id
    b = new_game(store, seed="same").record.id
    play(store, a, 9)
    play(store, b, 9)
    payloads = [[row.payload for row in store.read_rows(g, after=1)] for g in (a, b)]
    assert payloads[0] == payloads[1]
    assert store.get_game(a).head_hash != store.get_game(b).head_hash  # bound to the game id


# -- appends -------------------------------------------------------------------------------


def test_submit_appends_the_commands_events_with_actor_and_command(store: EventStore) -> None:
    created = new_game(store)
    result = submit_command(
        store,
        created.record.id,
        0,
        Draw(),
        state=created.state,
        version=created.record.version,
        games=GAMES,
    )
    assert [e.seq for e in result.events] == [4, 5]
    rows = store.read_rows(created.record.id, after=3)
    assert rows[0].actor == 0 and msgspec.json.decode(rows[0].command) == {"type": "draw"}
    assert rows[1].actor is None and rows[1].command is None
    assert result.version == 5 == store.get_game(created.record.id).version


def test_second_writer_at_the_same_version_gets_a_conflict(store: EventStore) -> None:
    created = new_game(store)
    game_id, state, version = created.record.id, created.state, created.record.version
    submit_command(store, game_id, 0, Bump(by=1), state=state, version=version, games=GAMES)
    with pytest.raises(VersionConflictError) as caught:
        submit_command(store, game_id, 0, Bump(by=2), state=state, version=version, games=GAMES)
    assert caught.value.code == "version-conflict"
    assert caught.value.current_version == version + 2
    assert caught.value.expected_version == version


def test_last_commands_name_each_seats_last_command(store: EventStore) -> None:
    created = new_game(store)
    game_id = created.record.id
    assert store.last_commands(game_id) == {}
    play(store, game_id, 3)  # seat 0 draws (seq 4), seat 1 shuffles (6), seat 0 bumps (8)
    rows = store.read_rows(game_id)
    firsts = {row.actor: row.seq for row in rows if row.actor is not None}
    assert store.last_commands(game_id) == firsts == {0: 8, 1: 6}
    assert store.last_commands("no-such-game") == {}


def test_concurrent_writers_from_threads_exactly_one_wins(store: EventStore) -> None:
    created = new_game(store)
    game_id, version = created.record.id, created.record.version
    barrier = threading.Barrier(8)

    def attempt(_: int) -> str:
        barrier.wait()
        try:
            append(store, game_id, version, [CounterBumped(seat=0, by=1, total=1)])
        except VersionConflictError:
            return "conflict"
        return "ok"

    with ThreadPoolExecutor(8) as pool:
        outcomes = list(pool.map(attempt, range(8)))
    assert sorted(outcomes) == ["conflict"] * 7 + ["ok"]
    assert store.get_game(game_id).version == version + 1


def test_multi_event_append_is_all_or_nothing(store: EventStore, backend: Backend) -> None:
    created = new_game(store)
    game_id, version = created.record.id, created.record.version
    # A rogue row at version + 2 makes the second insert of the batch collide.
    backend.execute(
        "INSERT INTO events (game_id, seq, type, payload, recorded_at, hash)"
        " VALUES (?, ?, 'x', '{}', 'now', 'h')",
        (game_id, version + 2),
    )
    batch = [CounterBumped(seat=0, by=1, total=1), CounterTurnPassed(seat=0)]
    with pytest.raises(VersionConflictError):
        append(store, game_id, version, batch)
    seqs = [row.seq for row in store.read_rows(game_id)]
    assert version + 1 not in seqs
    assert store.get_game(game_id).version == version


def test_idempotency_record_is_written_with_the_append(store: EventStore) -> None:
    created = new_game(store)
    game_id = created.record.id
    request = IdempotencyRequest(key="k1", fingerprint="f1")
    result = submit_command(store, game_id, 0, Bump(by=1), idempotency=request, games=GAMES)
    record = store.get_idempotency(game_id, "k1")
    assert record is not None
    assert msgspec.json.decode(record.result) == {
        "version": result.version,
        "seqs": [event.seq for event in result.events],
    }
    assert record.request_fingerprint == "f1"
    with pytest.raises(IdempotencyKeyExistsError) as caught:
        submit_command(store, game_id, 1, Bump(by=1), idempotency=request, games=GAMES)
    assert caught.value.record == record
    assert store.get_game(game_id).version == result.version


def test_finishing_appends_seed_revealed_and_closes_the_log(store: EventStore) -> None:
    game_id = new_game(store, target=6, seed="end").record.id
    version = finish(store, game_id)
    record = store.get_game(game_id)
    last = read_events(store, game_id, games=GAMES)[-1]
    assert isinstance(last.event, SeedRevealed)
    assert bytes.fromhex(last.event.seed) == b"end"
    assert record.status is GameStatus.FINISHED and record.version == version == last.seq
    assert record.outcome is not None and record.outcome.reason == "target-reached"
    with pytest.raises(GameOverError) as caught:
        submit_command(store, game_id, 0, Bump(by=1), games=GAMES)
    assert caught.value.code == "game-over"


def test_rule_errors_append_nothing(store: EventStore) -> None:
    created = new_game(store)
    with pytest.raises(GameOverError.__mro__[1]):  # RuleError
        submit_command(store, created.record.id, 0, Bump(by=9), games=GAMES)
    assert store.get_game(created.record.id).version == created.record.version


# -- the store's three rules ----------------------------------------------------------------
#
# The store alone decides a batch's version, a finished game and an idempotency key, once per
# backend (SQLite's append, PostgreSQL's spies_append): these are the only tests of those
# rules as the store's, each through the blocking append a tool uses and through the
# recorder the API appends with on its event loop.

PATHS = ["append", "recorder"]


def write(store: EventStore, path: str, batch: Append) -> None:
    """Append ``batch`` as a tool does (``append``) or as the API does (the recorder)."""
    if path == "append":
        store.append(batch)
        return

    async def recorded() -> None:
        recorder = store.recorder()
        try:
            await recorder.append(batch)
        finally:
            await recorder.close()

    asyncio.run(recorded())


def sealed(
    game_id: str, version: int, head_hash: str, events: list[Any], reply: Reply | None = None
) -> Append:
    """``events`` sealed after ``version``, chained from ``head_hash``, as a writer does."""
    rows = seal(head_hash, version + 1, events, recorded_at=utc_now(), log=FORMAT_3)
    return Append(game_id=game_id, version=version, head_hash=head_hash, rows=rows, reply=reply)


@pytest.mark.parametrize("path", PATHS)
def test_a_stale_version_is_refused_with_the_current_one_and_nothing_is_written(
    store: EventStore, path: str
) -> None:
    record = new_game(store).record
    game_id, version, head = record.id, record.version, record.head_hash
    first = sealed(game_id, version, head, [CounterTurnPassed(seat=0)])
    store.append(first)
    before = store.read_rows(game_id)
    stale = sealed(game_id, version, head, [CounterTurnPassed(seat=0)], Reply("k", "f", b"{}"))
    with pytest.raises(VersionConflictError) as caught:
        write(store, path, stale)
    assert caught.value.code == "version-conflict"
    assert (caught.value.expected_version, caught.value.current_version) == (version, version + 1)
    # at the current version, but chained from another head: the same refusal
    forked = sealed(game_id, version + 1, head, [CounterTurnPassed(seat=1)])
    with pytest.raises(VersionConflictError) as caught:
        write(store, path, forked)
    assert caught.value.current_version == version + 1
    assert store.read_rows(game_id) == before
    assert store.get_idempotency(game_id, "k") is None
    assert store.get_game(game_id).head_hash == first.new_head_hash


@pytest.mark.parametrize("path", PATHS)
def test_a_finished_game_refuses_every_batch_and_nothing_is_written(
    store: EventStore, path: str
) -> None:
    game_id = new_game(store, target=5).record.id
    finish(store, game_id)
    record = store.get_game(game_id)
    before = store.read_rows(game_id)
    late = sealed(
        game_id,
        record.version,
        record.head_hash,
        [CounterTurnPassed(seat=0)],
        Reply("k", "f", b"1"),
    )
    with pytest.raises(GameFinishedError) as caught:
        write(store, path, late)
    assert caught.value.code == "game-over"
    assert store.read_rows(game_id) == before
    assert store.get_idempotency(game_id, "k") is None
    assert store.get_game(game_id) == record


@pytest.mark.parametrize("path", PATHS)
def test_a_replayed_key_gets_the_kept_record_and_nothing_is_written(
    store: EventStore, path: str
) -> None:
    record = new_game(store).record
    game_id, version = record.id, record.version
    first = sealed(
        game_id, version, record.head_hash, [CounterTurnPassed(seat=0)], Reply("k", "f1", b"[1]")
    )
    store.append(first)
    before = store.read_rows(game_id)
    again = sealed(
        game_id,
        version + 1,
        first.new_head_hash,
        [CounterTurnPassed(seat=1)],
        Reply("k", "f2", b"[2]"),
    )
    with pytest.raises(IdempotencyKeyExistsError) as caught:
        write(store, path, again)
    kept = caught.value.record
    assert (kept.key, kept.request_fingerprint, kept.result) == ("k", "f1", b"[1]")
    assert kept == store.get_idempotency(game_id, "k")
    # the key is read before the version: the first attempt sent again, stale by now, gets it
    with pytest.raises(IdempotencyKeyExistsError):
        write(store, path, first)
    assert store.read_rows(game_id) == before
    assert store.get_game(game_id).version == version + 1


@pytest.mark.parametrize("path", PATHS)
def test_a_batch_for_no_game_or_with_seqs_out_of_line_is_refused(
    store: EventStore, path: str
) -> None:
    with pytest.raises(GameNotFoundError):
        write(store, path, Append(game_id="nope", version=0, head_hash="x", rows=()))
    record = new_game(store).record
    gap = sealed(record.id, record.version + 1, record.head_hash, [CounterTurnPassed(seat=0)])
    with pytest.raises(ValueError, match="follow"):
        write(store, path, Append(**{**_fields(gap), "version": record.version}))
    assert store.get_game(record.id) == record


def _fields(append: Append) -> dict[str, Any]:
    return {name: getattr(append, name) for name in append.__dataclass_fields__}


# -- append-only and ordering --------------------------------------------------------------


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE events SET payload = '{}' WHERE seq = 2",
        "UPDATE events SET seq = 99 WHERE seq = 2",
        "DELETE FROM events WHERE seq = 3",
        "DELETE FROM events",
        "an insert over a taken seq",
    ],
)
def test_the_database_itself_refuses_to_change_events(
    store: EventStore, backend: Backend, statement: str
) -> None:
    game_id = new_game(store).record.id
    before = store.read_rows(game_id)
    if statement == "an insert over a taken seq":
        statement = backend.insert_over_taken_seq()
    with pytest.raises(backend.refused, match="append-only"):
        backend.execute(statement)
    assert store.read_rows(game_id) == before


def test_a_plain_insert_over_a_taken_seq_fails_by_the_key(
    store: EventStore, backend: Backend
) -> None:
    game_id = new_game(store).record.id
    before = store.read_rows(game_id)
    with pytest.raises(backend.refused):
        backend.execute(
            "INSERT INTO events (game_id, seq, type, payload, recorded_at, hash)"
            " VALUES (?, 2, 'x', '{}', 'now', 'h')",
            (game_id,),
        )
    assert store.read_rows(game_id) == before


def test_events_are_read_in_seq_order_from_any_point(store: EventStore) -> None:
    game_id = new_game(store).record.id
    version = play(store, game_id, 7)
    seqs = [e.seq for e in read_events(store, game_id, games=GAMES)]
    assert seqs == list(range(1, version + 1))
    assert [e.seq for e in read_events(store, game_id, after=5, limit=3, games=GAMES)] == [6, 7, 8]
    assert read_events(store, game_id, after=version, games=GAMES) == []
    with pytest.raises(GameNotFoundError) as caught:
        read_events(store, "missing", games=GAMES)
    assert caught.value.code == "game-not-found"


def test_hash_chain_links_every_row(store: EventStore) -> None:
    from spies_replay.codec import FORMAT_3, canonical_bytes, chain_hash

    game_id = new_game(store).record.id
    play(store, game_id, 4)
    previous = genesis_hash(game_id, FORMAT_3)
    for row in store.read_rows(game_id):
        canonical = canonical_bytes(
            seq=row.seq,
            type=row.type,
            actor=row.actor,
            command=row.command,
            payload=row.payload,
            recorded_at=row.recorded_at,
            log=FORMAT_3,
        )
        assert row.hash == hashlib.sha256(bytes.fromhex(previous) + canonical).hexdigest()
        assert row.hash == chain_hash(previous, canonical)
        previous = row.hash
    assert store.get_game(game_id).head_hash == previous


def test_type_column_agrees_with_the_payload_tag(store: EventStore) -> None:
    game_id = new_game(store).record.id
    play(store, game_id, 5)
    for row in store.read_rows(game_id):
        assert msgspec.json.decode(row.payload)["type"] == row.type


def test_list_games_filters_and_pages(store: EventStore) -> None:
    ids = [new_game(store, target=5, seed=f"g{i}").record.id for i in range(5)]
    newest = ids[::-1]
    finish(store, ids[1])
    finish(store, ids[3])
    page = store.list_games(limit=2)
    assert page.total == 5 and [g.id for g in page.games] == newest[:2]
    assert [g.id for g in store.list_games(limit=2, offset=4).games] == newest[4:]
    finished = store.list_games(status="finished")
    assert finished.total == 2 and [g.id for g in finished.games] == [ids[3], ids[1]]
    assert store.list_games(game="other").total == 0
    assert store.list_games(game="counter", status=GameStatus.ACTIVE).total == 3


def _created_at(second: int) -> str:
    return f"2026-11-29T17:00:{second:02d}.000000Z"


def test_list_games_is_newest_first_and_its_cursor_neither_skips_nor_repeats(
    store: EventStore,
) -> None:
    """The newest game comes first (creation time, then id, both descending), and reading
    page after page by ``next_before`` lists every game once while new games arrive."""
    made = [
        create_game(
            store, "counter", 2, {"target": 5}, seed="x", created_at=_created_at(s), games=GAMES
        )
        for s in (1, 2, 2, 3, 4)
    ]
    order = sorted(made, key=lambda c: (c.record.created_at, c.record.id), reverse=True)
    expected = [c.record.id for c in order]
    first = store.list_games(limit=2)
    assert [g.id for g in first.games] == expected[:2] and first.next_before == expected[1]
    # new games arrive between pages: an offset would now list expected[1] again
    for second in (5, 6):
        create_game(
            store,
            "counter",
            2,
            {"target": 5},
            seed="y",
            created_at=_created_at(second),
            games=GAMES,
        )
    seen = [g.id for g in first.games]
    cursor = first.next_before
    while cursor is not None:
        page = store.list_games(limit=2, before=cursor)
        assert page.total == 7
        seen += [g.id for g in page.games]
        cursor = page.next_before
    assert seen == expected
    assert store.list_games(limit=5, before=expected[4]).games == []
    assert store.list_games(limit=1, before=expected[3]).next_before is None
    with pytest.raises(GameNotFoundError):
        store.list_games(before="no-such-game")


# -- states --------------------------------------------------------------------------------


def test_load_state_at_any_seq_equals_the_fold(store: EventStore) -> None:
    game_id = new_game(store, target=40).record.id
    version = play(store, game_id, 30)
    events = [e.event for e in read_events(store, game_id, games=GAMES) if e.seq > 1]
    for at in range(version + 1):
        expected = fold(SPEC, [e for e in events[: max(at - 1, 0)]])
        assert load_state(store, game_id, at=at, games=GAMES).state == expected, at
    with pytest.raises(SeqOutOfRangeError):
        load_state(store, game_id, at=version + 1, games=GAMES)
    with pytest.raises(SeqOutOfRangeError):
        load_state(store, game_id, at=-1, games=GAMES)


def test_snapshots_are_kept_and_a_broken_one_is_ignored(
    store: EventStore, backend: Backend
) -> None:
    game_id = new_game(store, target=40).record.id
    version = play(store, game_id, 30)
    snapshots = store.snapshots(game_id)
    assert len(snapshots) >= version // store.snapshot_every - 1
    expected = load_state(store, game_id, at=version - 1, games=GAMES).state
    backend.execute(
        'UPDATE snapshots SET state = \'{"players": "x"}\' WHERE game_id = ?', (game_id,)
    )
    assert load_state(store, game_id, at=version - 1, games=GAMES).state == expected
    rebuilt = store.snapshots(game_id)
    assert rebuilt and all('"x"' not in state for _, state in rebuilt)


# -- compact heads ---------------------------------------------------------------------------


def kept_head(store: EventStore, game_id: str) -> Head | None:
    """The head kept with the game, as one read finds it (``None``: none to use)."""
    return Head.unpacked(store.head_row(game_id), codec_for(SPEC))


def test_the_kept_head_is_the_fold_after_every_append_and_holds_no_secret(
    store: EventStore,
) -> None:
    # a seed long enough that its hex cannot occur in a hash by chance ("s1" is 4 hex digits,
    # found once in a head hash of 64)
    game_id = new_game(store, target=12, seed="a seed no head may hold, " * 2).record.id
    seed = store.secrets(game_id)
    assert seed is not None and len(seed.seed.hex()) >= 64
    for turn in range(20):
        found = store.head_row(game_id)
        assert found.head is not None, turn  # written with the append (or the creation)
        assert seed.seed.hex() not in found.head
        head = kept_head(store, game_id)
        assert head is not None and head == fold_head(store, game_id, games=GAMES), turn
        assert load_head(store, game_id, games=GAMES) == head
        if head.finished:
            break
        state = head.state
        command = Bump(by=3) if turn > 8 else (Draw() if state.deck else Bump(by=1))
        submit_command(store, game_id, state.turn, command, games=GAMES)
    assert store.get_game(game_id).status == GameStatus.FINISHED
    assert kept_head(store, game_id) == fold_head(store, game_id, games=GAMES)


@pytest.mark.parametrize("kept", ["behind", "not-json", "other-hash", "other-version", "format"])
def test_a_kept_head_not_at_the_games_row_is_folded_instead_and_written_back(
    store: EventStore, kept: str
) -> None:
    game_id = new_game(store, target=40).record.id
    version = play(store, game_id, 6)
    earlier = store.head_row(game_id).head  # its state differs from the next one's
    assert earlier is not None
    version = play(store, game_id, 1)
    if kept == "behind":  # a writer that keeps no head: an older server's
        head = load_head(store, game_id, games=GAMES)
        prepared = prepare_command(SPEC, head, head.state.turn, Bump(by=1))
        store.append(dataclasses.replace(prepared.append, head=None))
        assert store.head_row(game_id).head is None
    else:
        forged = msgspec.json.decode(earlier)
        forged["version"] = version  # the row's version, the state of the version before
        if kept == "not-json":
            text = "{not json"
        else:
            if kept == "other-hash":
                forged["head_hash"] = "0" * 64
            elif kept == "other-version":
                forged["version"] = version + 1
            else:
                forged["format"] = 99
                forged["head_hash"] = store.get_game(game_id).head_hash
            text = msgspec.json.encode(forged).decode()
        store.save_head(game_id, version, text)
        assert store.head_row(game_id).head == text
        assert kept_head(store, game_id) is None
    folded = fold_head(store, game_id, games=GAMES)
    assert load_head(store, game_id, games=GAMES) == folded
    assert kept_head(store, game_id) == folded  # written back by the load
    assert verify_game(store, game_id, games=GAMES).ok  # verify never reads it


def test_a_written_back_head_never_replaces_a_newer_one(store: EventStore) -> None:
    game_id = new_game(store, target=40).record.id
    version = play(store, game_id, 3)
    old = store.head_row(game_id).head
    assert old is not None
    play(store, game_id, 1)
    newer = store.head_row(game_id).head
    store.save_head(game_id, version, old)  # a reader that folded before the last append
    assert store.head_row(game_id).head == newer is not None


def test_a_database_from_before_the_heads_migrates_and_its_games_fold_once(
    backend: Backend,
) -> None:
    with backend.open() as store:
        game_id = new_game(store, target=40).record.id
        play(store, game_id, 3)
    backend.execute("DROP TABLE heads")  # as a database an older version made
    backend.execute("DELETE FROM schema_migrations WHERE name = 'm011_heads'")
    with backend.open() as store:
        assert "m011_heads" in backend.migrations()
        assert store.head_row(game_id).head is None
        assert load_head(store, game_id, games=GAMES) == fold_head(store, game_id, games=GAMES)
        assert kept_head(store, game_id) is not None  # written back
        play(store, game_id, 1)
        assert kept_head(store, game_id) == fold_head(store, game_id, games=GAMES)


def test_copy_import_and_abort_leave_no_stale_head_in_use(
    store: EventStore, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    played = new_game(store, target=40).record.id
    play(store, played, 4)
    finished = new_game(store, target=5).record.id
    finish(store, finished)
    aborted = abort_game(store, played, detail="a test", games=GAMES).head
    assert aborted.finished and kept_head(store, played) == aborted
    assert aborted == fold_head(store, played, games=GAMES)
    with fresh_backend(request.node.callspec.params["backend"], tmp_path / "x") as second:
        (tmp_path / "x").mkdir(exist_ok=True)
        with second.open() as target:
            copy_game(store, target, played)
            assert import_game(target, list(export_lines(store, finished)), games=GAMES).ok
            for game_id in (played, finished):
                assert target.head_row(game_id).head is None  # none copied: the first load folds
                assert load_head(target, game_id, games=GAMES) == load_head(
                    store, game_id, games=GAMES
                )
                assert kept_head(target, game_id) == fold_head(target, game_id, games=GAMES)


def test_view_at_respects_the_viewer(store: EventStore) -> None:
    game_id = new_game(store).record.id
    play(store, game_id, 1)  # seat 0 draws
    assert view_at(store, game_id, seat=0, games=GAMES).view.hand != ()
    assert view_at(store, game_id, seat=1, games=GAMES).view.hand == ()
    spectator = view_at(store, game_id, games=GAMES)
    assert spectator.view.hand is None and spectator.view.version == spectator.seq


def test_store_is_usable_from_many_threads(store: EventStore) -> None:
    ids = [new_game(store, seed=f"t{i}").record.id for i in range(4)]

    def work(game_id: str) -> int:
        return play(store, game_id, 6)

    with ThreadPoolExecutor(4) as pool:
        versions = list(pool.map(work, ids))
    assert versions == [store.get_game(g).version for g in ids]


def test_an_explicit_game_id_that_is_taken_is_refused(store: EventStore) -> None:
    from spies_replay.errors import GameExistsError

    create_game(store, "counter", game_id="fixed", games=GAMES)
    with pytest.raises(GameExistsError) as caught:
        create_game(store, "counter", game_id="fixed", games=GAMES)
    assert caught.value.code == "game-exists"
    assert store.list_games().total == 1


def test_submit_with_an_expected_version_but_no_cached_state(store: EventStore) -> None:
    created = new_game(store)
    game_id, version = created.record.id, created.record.version
    result = submit_command(store, game_id, 0, Bump(by=1), version=version, games=GAMES)
    assert result.version == version + 2
    with pytest.raises(VersionConflictError):
        submit_command(store, game_id, 1, Bump(by=1), version=version, games=GAMES)


def test_meta_events_are_public_to_every_viewer(store: EventStore) -> None:
    from spies_replay.reading import redact_for

    game_id = new_game(store, target=3).record.id
    finish(store, game_id)
    events = read_events(store, game_id, games=GAMES)
    for viewer in (None, 0, 1):
        assert redact_for(SPEC, events[0].event, viewer) == events[0].event
        assert redact_for(SPEC, events[-1].event, viewer) == events[-1].event
        assert redact_for(SPEC, events[2].event, viewer).order is None  # the game's own rule


# -- the rest of the contract ------------------------------------------------------------------


def test_the_head_hash_is_the_last_rows_hash_and_verify_passes(store: EventStore) -> None:
    game_id = new_game(store).record.id
    play(store, game_id, 5)
    rows = store.read_rows(game_id)
    record = store.get_game(game_id)
    assert record.head_hash == rows[-1].hash and record.version == rows[-1].seq
    report = verify_game(store, game_id, games=GAMES)
    assert report.ok and report.head_hash == record.head_hash


def test_verify_catches_an_edited_payload(store: EventStore, backend: Backend) -> None:
    game_id = new_game(store).record.id
    play(store, game_id, 4)
    backend.force(
        "UPDATE events SET payload = replace(payload, '\"by\":1', '\"by\":2')"
        " WHERE game_id = ? AND type = 'counter_bumped'",
        (game_id,),
    )
    report = verify_game(store, game_id, games=GAMES)
    assert not report.ok and report.first_bad_seq is not None
    assert report.problem is not None and report.problem.code == "hash-mismatch"


def test_racing_joins_of_one_seat_seat_exactly_one(store: EventStore) -> None:
    seats = [SeatState(seat=0), SeatState(seat=1, type=SeatType.OPEN)]
    created = create_game(store, "counter", 2, {}, seats=seats, tokens={0: "creator"}, games=GAMES)
    game_id = created.record.id
    barrier = threading.Barrier(6)

    def join(index: int) -> str:
        def choose(current: list[SeatState], tokens: dict[int, str]) -> SeatJoined:
            if current[1].type is not SeatType.OPEN:
                raise SeatTakenError("seat 1 is taken")
            return SeatJoined(seat=1, name=f"player-{index}")

        barrier.wait()
        try:
            change_seat(
                store, game_id, choose, token_hash=hash_token(f"token-{index}"), games=GAMES
            )
        except SeatTakenError:
            return "taken"
        return "joined"

    with ThreadPoolExecutor(6) as pool:
        outcomes = sorted(pool.map(join, range(6)))
    assert outcomes == ["joined"] + ["taken"] * 5
    holders = store.seat_states(game_id)
    assert holders[1].type is SeatType.JOINED
    winner = int(holders[1].name.rsplit("-", 1)[1])
    assert store.check_token(game_id, f"token-{winner}") == 1
    assert [e.type for e in read_events(store, game_id, games=GAMES)].count("seat_joined") == 1
    assert verify_game(store, game_id, games=GAMES).ok


def test_an_idempotent_retry_racing_itself_appends_once(store: EventStore) -> None:
    created = new_game(store)
    game_id, version = created.record.id, created.record.version
    barrier = threading.Barrier(6)

    def attempt(_: int) -> str:
        pending = Reply("same-key", "same-request", b"1")
        barrier.wait()
        try:
            append(store, game_id, version, [CounterTurnPassed(seat=0)], reply=pending)
        except IdempotencyKeyExistsError as exc:
            return f"replayed {exc.record.result.decode()}"
        except VersionConflictError:
            return "conflict"
        return "appended"

    with ThreadPoolExecutor(6) as pool:
        outcomes = sorted(pool.map(attempt, range(6)))
    assert outcomes == ["appended"] + ["replayed 1"] * 5
    assert store.get_game(game_id).version == version + 1


def test_export_keeps_every_hash_and_import_refuses_a_taken_id(store: EventStore) -> None:
    game_id = new_game(store, target=5).record.id
    finish(store, game_id)
    lines = list(export_lines(store, game_id))
    rows = store.read_rows(game_id)
    with pytest.raises(GameExistsError):  # the same database: the id is taken
        import_game(store, lines, games=GAMES)
    record, exported = read_export(lines)
    assert [row.hash for row in exported] == [row.hash for row in rows]
    assert record.head_hash == store.get_game(game_id).head_hash


def test_import_into_an_empty_store_verifies(
    store: EventStore, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    game_id = new_game(store, target=5).record.id
    finish(store, game_id)
    lines = list(export_lines(store, game_id))
    with fresh_backend(request.node.callspec.params["backend"], tmp_path / "x") as second:
        (tmp_path / "x").mkdir(exist_ok=True)
        with second.open() as target:
            report = import_game(target, lines, games=GAMES)
            assert report.ok
            assert target.get_game(game_id).head_hash == store.get_game(game_id).head_hash
            assert target.read_rows(game_id) == store.read_rows(game_id)
            assert target.secrets(game_id) == store.secrets(game_id)


def test_a_closed_store_refuses_every_call(backend: Backend) -> None:
    store = backend.open()
    game_id = new_game(store).record.id
    store.close()
    store.close()
    with pytest.raises(StoreClosedError):
        store.get_game(game_id)


def test_migrations_are_recorded_once(backend: Backend) -> None:
    backend.open().close()
    first = backend.migrations()
    backend.open().close()
    assert backend.migrations() == first and first


def test_a_database_from_a_newer_version_is_refused(backend: Backend) -> None:
    backend.open().close()
    backend.execute(
        "INSERT INTO schema_migrations (name, applied_at) VALUES ('m999_future', 'later')"
    )
    with pytest.raises(ReplayError) as caught:
        backend.open()
    assert caught.value.code == "schema-too-new"


# -- the watch -------------------------------------------------------------------------------


def test_the_watch_tells_another_stores_append_with_the_games_row_after_it(
    backend: Backend,
) -> None:
    """Another process keeps its cache and its scheduler in step from the notice alone: the
    game, its version, head hash and due mark after the append, and whether it is over."""
    heard: list[Appended] = []
    due = "2030-01-02T03:04:05.000000Z"

    def bump(store: EventStore, game_id: str) -> None:
        record = store.get_game(game_id)
        rows = seal(
            record.head_hash,
            record.version + 1,
            [CounterBumped(seat=0, by=1, total=record.version)],
            recorded_at=utc_now(),
            log=FORMAT_3,
        )
        store.append(
            Append(
                game_id=game_id,
                version=record.version,
                head_hash=record.head_hash,
                rows=rows,
                due_at=due,
            )
        )

    def told(game_id: str, version: int) -> Appended | None:
        return next((a for a in heard if a.game_id == game_id and a.version == version), None)

    with backend.open() as mine, backend.open() as other:
        if isinstance(mine, SQLiteEventStore):
            mine.watch_seconds = 0.01
        game_id = new_game(other).record.id
        unwatch = mine.watch(heard.append)
        try:
            # LISTEN may begin after a first append: append until one is heard
            until(lambda: heard or bump(other, game_id), timeout=10, every=0.05, what="a notice")
            record = other.get_game(game_id)
            notice = until(lambda: told(game_id, record.version), timeout=10, what="the last")
            assert notice == Appended(
                game_id=game_id, version=record.version, head_hash=record.head_hash, due_at=due
            )
            finish(other, game_id)
            record = other.get_game(game_id)
            notice = until(lambda: told(game_id, record.version), timeout=10, what="the end")
        finally:
            unwatch()
    assert notice == Appended(
        game_id=game_id, version=record.version, head_hash=record.head_hash, finished=True
    )
