"""PostgreSQL appends are one statement, one round trip (``spies_append``), on a worker
thread's connection and on the event loop's (the store's recorder, :class:`AsyncRecorder`);
appends that wait for a connection share one, each refused or written alone. (The store's
rules themselves, and their typed refusals, are the contract suite's:
``test_store_contract.py``.) Skipped without ``SPIES_TEST_POSTGRES_URL``."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from spies_replay.codec import FORMAT_3, seal
from spies_replay.errors import SeatTakenError, VersionConflictError
from spies_replay.meta import SeatState, SeatType
from spies_replay.store.postgres import PostgresEventStore
from spies_replay.store.postgres_append import AsyncRecorder
from spies_replay.store.postgres_listen import heard as heard_notice
from spies_replay.store.records import Append, Appended, Reply, hash_token, utc_now
from tests.support.backends import POSTGRES_SKIP_REASON, Backend, fresh_backend, postgres_base_url
from tests.support.counter import batch, new_game, play
from tests.support.countergame import CounterBumped
from tests.support.waiting import until

pytestmark = pytest.mark.skipif(postgres_base_url() is None, reason=POSTGRES_SKIP_REASON)


@pytest.fixture
def backend(tmp_path: Path) -> Iterator[Backend]:
    with fresh_backend("postgres", tmp_path) as found:
        yield found


@pytest.fixture
def store(backend: Backend) -> Iterator[PostgresEventStore]:
    with backend.open(snapshot_every=4) as opened:
        assert isinstance(opened, PostgresEventStore)
        yield opened


class Statements:
    """Counts the statements psycopg sends (each one a round trip to the server)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sent: list[str] = []
        for cursor in (psycopg.Cursor, psycopg.ServerCursor):
            self._wrap(monkeypatch, cursor, "execute")
            self._wrap(monkeypatch, cursor, "executemany")
        for cursor in (psycopg.AsyncCursor,):
            self._wrap_async(monkeypatch, cursor, "execute")
            self._wrap_async(monkeypatch, cursor, "executemany")

    def _wrap(self, monkeypatch: pytest.MonkeyPatch, cls: type, name: str) -> None:
        original = getattr(cls, name)
        sent = self.sent

        def counted(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
            sent.append(str(query))
            return original(self, query, *args, **kwargs)

        monkeypatch.setattr(cls, name, counted)

    def _wrap_async(self, monkeypatch: pytest.MonkeyPatch, cls: type, name: str) -> None:
        original = getattr(cls, name)
        sent = self.sent

        async def counted(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
            sent.append(str(query))
            return await original(self, query, *args, **kwargs)

        monkeypatch.setattr(cls, name, counted)


def test_an_append_is_one_statement_with_everything_in_it(
    store: PostgresEventStore, backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = new_game(store).record.id
    version = play(store, game_id, 2)
    due = "2030-01-01T00:00:00.000000Z"
    one = batch(store, game_id, reply=Reply("k1", "fp", b'{"version":9}'), due_at=due)
    with psycopg.connect(backend.location, autocommit=True) as listener:
        listener.execute("LISTEN spies_events")
        statements = Statements(monkeypatch)
        store.append(one)
        assert len(statements.sent) == 1
        assert "spies_append" in statements.sent[0]
        heard = None  # other tests and processes may notify the same database's channel
        for note in listener.notifies(timeout=10.0):
            if heard_notice(note.payload).game_id == game_id:
                heard = heard_notice(note.payload)
                break
    monkeypatch.undo()
    record = store.get_game(game_id)
    # the notice tells other processes the game's row after the append: no query of theirs
    assert heard == Appended(
        game_id=game_id, version=record.version, head_hash=record.head_hash, due_at=due
    )
    assert record.version == version + 1
    assert record.head_hash == one.rows[-1].hash
    assert record.updated_at == one.rows[-1].recorded_at
    assert store.due_at(game_id) == due
    assert [row.hash for row in store.read_rows(game_id, after=version)] == [one.rows[0].hash]
    kept = store.get_idempotency(game_id, "k1")
    assert kept is not None and kept.result == b'{"version":9}' and kept.request_fingerprint == "fp"


def test_a_snapshot_is_kept_when_the_append_crosses_the_interval(
    store: PostgresEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = new_game(store).record.id
    version = play(store, game_id, 3)  # the created game's events and 3 commands
    while (version + 1) % store.snapshot_every != 0:
        version = play(store, game_id, 1)
    before = store.snapshots(game_id)
    statements = Statements(monkeypatch)
    store.append(batch(store, game_id, state={"marker": 1}))
    monkeypatch.undo()
    assert [s for s in statements.sent if "spies_append" in s] == statements.sent[-1:]
    assert store.snapshots(game_id)[len(before) :] == [(version + 1, '{"marker":1}')]


def test_a_taken_seat_rolls_back_the_whole_append(store: PostgresEventStore) -> None:
    game_id = new_game(store).record.id
    version = store.get_game(game_id).version
    seat = SeatState(seat=0, type=SeatType.JOINED, name="x")
    taken = batch(
        store, game_id, reply=Reply("k2", "fp", b"{}"), seat=seat, token_hash=hash_token("t")
    )
    with pytest.raises(SeatTakenError):  # seat 0 is the creator's, with its token
        store.append(taken)
    assert store.get_game(game_id).version == version
    assert store.get_idempotency(game_id, "k2") is None
    assert store.seat_states(game_id)[0].type is SeatType.CREATOR


def test_the_recorder_appends_in_one_statement_on_the_loop(
    store: PostgresEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = new_game(store).record.id
    version = play(store, game_id, 2)
    first = batch(store, game_id, reply=Reply("k1", "fp", b'{"a":1}'))

    async def run() -> int:
        recorder = store.recorder()
        assert isinstance(recorder, AsyncRecorder)
        try:
            statements = Statements(monkeypatch)
            await recorder.append(first)
            sent = len(statements.sent)
            monkeypatch.undo()
            return sent
        finally:
            await recorder.close()

    assert asyncio.run(run()) == 1
    assert store.get_game(game_id).version == version + 1
    kept = store.get_idempotency(game_id, "k1")
    assert kept is not None and kept.result == b'{"a":1}'


def test_the_watch_leaves_out_its_own_appends(backend: Backend) -> None:
    with backend.open() as mine, backend.open() as other:
        heard: list[str] = []
        unwatch = mine.watch(lambda appended: heard.append(appended.game_id))
        try:
            own_game = new_game(mine).record.id
            other_game = new_game(other).record.id
            _heard_after(heard, lambda: play(other, other_game, 1), other_game)  # listening
            heard.clear()
            play(mine, own_game, 1)

            async def on_loop() -> None:
                recorder = mine.recorder()
                try:
                    await recorder.append(batch(mine, own_game))
                finally:
                    await recorder.close()

            asyncio.run(on_loop())
            # notifications arrive in commit order: once the other's is heard, ours were too
            assert _heard_after(heard, lambda: play(other, other_game, 1), other_game)
        finally:
            unwatch()
    assert own_game not in heard


def _heard_after(heard: list[str], write: Any, game_id: str) -> bool:
    """Write until ``game_id`` is heard (at most 5 s); whether it was."""
    deadline = time.monotonic() + 5.0
    while time.monotonic() < deadline:
        write()
        try:
            until(lambda: game_id in heard, timeout=0.5)
        except AssertionError:
            continue  # not heard within half a second: write again
        return True
    return False


def test_the_texts_come_out_of_the_document_exactly(store: PostgresEventStore) -> None:
    game_id = new_game(store).record.id
    record = store.get_game(game_id)
    payload = '{"type":"counter_bumped","seat":0,"by":1,"total":1,"note":"é \\" \\\\ \\u00e9 ☃"}'
    row = seal(
        record.head_hash,
        record.version + 1,
        [CounterBumped(seat=0, by=1, total=1)],
        recorded_at=utc_now(),
        log=FORMAT_3,
    )[0]
    odd = type(row)(**{**{f: getattr(row, f) for f in row.__struct_fields__}, "payload": payload})
    response = b'{"a":"\\u2603 \\"x\\""}  '
    store.append(
        Append(
            game_id=game_id,
            version=record.version,
            head_hash=record.head_hash,
            rows=[odd],
            reply=Reply("k", "fp", response),
        )
    )
    assert store.read_rows(game_id, after=record.version)[0].payload == payload
    kept = store.get_idempotency(game_id, "k")
    assert kept is not None and kept.result == response


def test_appends_waiting_for_a_connection_share_one_round_trip(
    store: PostgresEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = [new_game(store).record.id for _ in range(5)]
    fresh = [batch(store, game_id) for game_id in games]
    stale = batch(store, games[0], by=2)  # at fresh[0]'s version: stale once it is written
    seat = SeatState(seat=0, type=SeatType.JOINED, name="x")
    taken = batch(store, games[1], seat=seat, token_hash=hash_token("t"))  # seat 0 is held

    async def run() -> list[BaseException | None]:
        appends = AsyncRecorder(  # one connection: they wait and share it
            store.server, snapshot_every=store.snapshot_every, pool_size=1
        )
        try:
            statements = Statements(monkeypatch)
            outcomes = await asyncio.gather(
                *(appends.append(b) for b in [fresh[0], stale, taken, *fresh[1:]]),
                return_exceptions=True,
            )
            monkeypatch.undo()
            assert len(statements.sent) == 1  # all seven in one statement
            assert "spies_append_many" in statements.sent[0]
            return list(outcomes)
        finally:
            await appends.close()

    outcomes = asyncio.run(run())
    assert outcomes[0] is None and outcomes[3:] == [None] * 4
    assert isinstance(outcomes[1], VersionConflictError)
    assert outcomes[1].current_version == fresh[0].version + 1
    assert isinstance(outcomes[2], SeatTakenError)  # undone alone: games[1]'s next one is written
    for game_id, written in zip(games, fresh, strict=True):
        assert store.get_game(game_id).head_hash == written.rows[-1].hash
    assert store.seat_states(games[1])[0].type is SeatType.CREATOR
