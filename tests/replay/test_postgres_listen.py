"""The store's watch read on the event loop (:class:`LoopListener`): another store's appends
are heard on the loop itself, with what their notice tells; the store's own are left out;
no thread is started; a lost connection is opened again; a listener's fault does not stop
the notices after it. Skipped without ``SPIES_TEST_POSTGRES_URL``."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

import psycopg
import pytest
from structlog.testing import capture_logs

from spies_replay.store.postgres import PostgresEventStore
from spies_replay.store.postgres_listen import LoopListener
from spies_replay.store.records import Appended
from tests.support.backends import POSTGRES_SKIP_REASON, Backend, postgres_base_url
from tests.support.counter import batch, new_game, play
from tests.support.waiting import until, until_async

pytestmark = pytest.mark.skipif(postgres_base_url() is None, reason=POSTGRES_SKIP_REASON)


@contextlib.asynccontextmanager
async def _listening(
    store: PostgresEventStore,
    on_append: Callable[[Appended], None],
    *,
    ready: bool = True,
    on_gap: Callable[[], None] | None = None,
) -> AsyncIterator[asyncio.Task[None]]:
    """The store's loop watch running (listening, when ``ready``), cancelled at the end."""
    listener = store.loop_watch(on_append, on_gap)
    assert isinstance(listener, LoopListener)
    task = listener.start()
    try:
        await asyncio.wait_for(listener.ready.wait(), 10)
        assert not ready or not task.done()
        yield task
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


async def _heard_after(heard: list[Appended], write: Callable[[], None], game_id: str) -> None:
    """Write until ``game_id`` is heard: the first write may come before ``LISTEN``."""
    for _ in range(20):
        await asyncio.to_thread(write)
        try:
            await until_async(lambda: any(a.game_id == game_id for a in heard), timeout=0.5)
        except AssertionError:
            continue
        return
    raise AssertionError(f"{game_id} never heard")


def _failing_first(heard: list[Appended]) -> Callable[[Appended], None]:
    """A listener that keeps what it hears and raises on the first (a listener's bug)."""

    def on_append(appended: Appended) -> None:
        heard.append(appended)
        if len(heard) == 1:
            raise RuntimeError("a listener's bug")

    return on_append


def test_another_stores_appends_are_heard_on_the_loop_and_its_own_left_out(
    postgres: Backend,
) -> None:
    with postgres.open() as mine, postgres.open() as other:
        assert isinstance(mine, PostgresEventStore)
        own_game = new_game(mine).record.id
        other_game = new_game(other).record.id
        heard: list[Appended] = []
        threads: list[str] = []

        def on_append(appended: Appended) -> None:
            threads.append(threading.current_thread().name)
            heard.append(appended)

        async def run() -> None:
            async with _listening(mine, on_append):
                await asyncio.to_thread(play, other, other_game, 1)  # after LISTEN: heard
                await until_async(lambda: heard, timeout=10)
                # our own appends, on a worker thread and on this loop
                await asyncio.to_thread(play, mine, own_game, 1)
                recorder = mine.recorder()
                try:
                    await recorder.append(batch(mine, own_game))
                finally:
                    await recorder.close()
                # notices come in commit order: once the other's is heard, ours were too
                await _heard_after(heard, lambda: play(other, other_game, 1), other_game)
                names = {thread.name for thread in threading.enumerate()}
                assert "spies-store-listen" not in names  # the watch's thread is not started

        asyncio.run(run())
        assert set(threads) == {threading.main_thread().name}  # on the loop, not a thread
        assert own_game not in {appended.game_id for appended in heard}
        last = heard[-1]
        assert last.game_id == other_game and last.told
        assert last.version == other.get_game(other_game).version


def test_a_lost_connection_is_opened_again_and_the_next_append_heard(postgres: Backend) -> None:
    with postgres.open() as mine, postgres.open() as other:
        assert isinstance(mine, PostgresEventStore)
        game_id = new_game(other).record.id
        heard: list[Appended] = []
        gaps: list[int] = []

        async def run() -> list[dict[str, object]]:
            with capture_logs() as logs:
                async with _listening(
                    mine, heard.append, on_gap=lambda: gaps.append(len(gaps) + 1)
                ):
                    await _heard_after(heard, lambda: play(other, game_id, 1), game_id)
                    with psycopg.connect(postgres.location, autocommit=True) as admin:
                        ended = admin.execute(
                            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                            " WHERE datname = current_database() AND query LIKE 'LISTEN %'"
                        ).fetchall()
                    assert ended == [(True,)]
                    await until_async(lambda: any(x["event"] == "listen_lost" for x in logs))
                    heard.clear()
                    await _heard_after(heard, lambda: play(other, game_id, 1), game_id)
            return logs

        logs = asyncio.run(run())
        assert [x["event"] for x in logs].count("listen_lost") == 1
        assert gaps == [1, 2]  # told when it first listened, and again after the loss


def test_a_listeners_fault_does_not_stop_the_notices_after_it(postgres: Backend) -> None:
    with postgres.open() as mine, postgres.open() as other:
        assert isinstance(mine, PostgresEventStore)
        game_id = new_game(other).record.id
        heard: list[Appended] = []

        on_append = _failing_first(heard)

        async def run() -> list[dict[str, object]]:
            with capture_logs() as logs:
                async with _listening(mine, on_append):
                    await _heard_after(heard, lambda: play(other, game_id, 1), game_id)
                    await asyncio.to_thread(play, other, game_id, 1)
                    await until_async(lambda: len(heard) >= 2, timeout=10)
            return logs

        logs = asyncio.run(run())
        assert [x["event"] for x in logs].count("heard_failed") == 1
        assert heard[-1].version == other.get_game(game_id).version


def test_a_store_that_cannot_listen_sets_ready_and_keeps_trying(postgres: Backend) -> None:
    with postgres.open() as mine:
        assert isinstance(mine, PostgresEventStore)
        mine.server.url = mine.server.url.replace(
            mine.server.url.rsplit("/", 1)[1], "spies_no_such_database"
        )

        async def run() -> list[dict[str, object]]:
            with capture_logs() as logs:
                async with _listening(mine, lambda appended: None, ready=False) as task:
                    assert not task.done()  # ready, not listening: it tries again
            return logs

        logs = asyncio.run(run())
        assert [x["event"] for x in logs] == ["listen_lost"]


def test_the_thread_is_told_of_the_gap_when_it_starts_listening(postgres: Backend) -> None:
    with postgres.open() as mine, postgres.open() as other:
        game_id = new_game(other).record.id
        heard: list[Appended] = []
        gaps: list[str] = []
        unwatch = mine.watch(heard.append, lambda: gaps.append(threading.current_thread().name))
        try:
            asyncio.run(_heard_after(heard, lambda: play(other, game_id, 1), game_id))
        finally:
            unwatch()
        assert gaps == ["spies-store-listen"]


def test_a_socket_the_loop_cannot_watch_is_tried_again(
    postgres: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    from asyncio import selector_events

    add_reader = selector_events.BaseSelectorEventLoop.add_reader
    failed: list[int] = []

    def failing_once(self: Any, fd: Any, callback: Any, *args: Any) -> Any:
        # the listener's own reader (psycopg adds readers of its own while it connects)
        if not failed and getattr(callback, "__func__", None) is LoopListener._readable:
            failed.append(fd)
            raise OSError("the selector refused the socket (the test's)")
        return add_reader(self, fd, callback, *args)

    monkeypatch.setattr(selector_events.BaseSelectorEventLoop, "add_reader", failing_once)
    with postgres.open() as mine, postgres.open() as other:
        assert isinstance(mine, PostgresEventStore)
        game_id = new_game(other).record.id
        heard: list[Appended] = []

        async def run() -> list[dict[str, object]]:
            with capture_logs() as logs:
                async with _listening(mine, heard.append):
                    await _heard_after(heard, lambda: play(other, game_id, 1), game_id)
            return logs

        logs = asyncio.run(run())
    assert failed and [x["event"] for x in logs].count("listen_lost") == 1


def test_the_threads_listener_fault_does_not_stop_the_notices_after_it(postgres: Backend) -> None:
    with postgres.open() as mine, postgres.open() as other:
        game_id = new_game(other).record.id
        heard: list[Appended] = []

        on_append = _failing_first(heard)

        with capture_logs() as logs:
            unwatch = mine.watch(on_append)
            try:
                asyncio.run(_heard_after(heard, lambda: play(other, game_id, 1), game_id))
                play(other, game_id, 1)
                until(lambda: len(heard) >= 2, timeout=10, what="the notice after the fault")
            finally:
                unwatch()
        assert [x["event"] for x in logs].count("heard_failed") == 1
