"""A game's head carries each seat's last command (:attr:`spies_api.game.loading.Head.acted`):
kept in step by every batch a head is moved on by, equal to what the log says when a head
is loaded, and counting every command recorded as the seat's, a forced move after its
clock ran out included. The API refuses a stale ``expected_version`` of a seat that acted
since by it, without reading the log. The head kept with the game is the fold's after each
of those batches."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from spies_api.game import create_game, load_head, prepare_command, prepare_timeout
from spies_api.game.loading import fold_head
from spies_bots import bot_stream, policy_for
from spies_core.clock import TimeControl, deadline_ms
from spies_core.registry import GAMES
from spies_core.step import view_at
from spies_replay.clocks import from_ms, to_ms
from spies_replay.meta import SeatHandedToBot
from spies_replay.store.protocols import EventStore
from spies_replay.store.sqlite import SQLiteEventStore
from tests.support.seats import change_seat


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EventStore]:
    with SQLiteEventStore(tmp_path / "heads.db") as opened:
        yield opened


def test_the_head_moved_on_by_each_batch_is_the_head_loaded_from_the_log(
    store: EventStore,
) -> None:
    spec = GAMES["black-spy"]
    created = create_game(store, "black-spy", 4, seed="heads")
    head = created.head
    assert head.acted == (0, 0, 0, 0)
    for turn in range(40):
        if turn == 5:  # a seat event moves the version, not a seat's last command
            change_seat(store, head.id, lambda *_: SeatHandedToBot(seat=2, bot="random"))
            head = load_head(store, head.id)
        seat = min(spec.to_act(head.state))
        chosen_at = head.version
        prepared = prepare_command(spec, head, seat, spec.legal_commands(head.state, seat)[0])
        store.append(prepared.append)
        head = prepared.head
        assert head.acted[seat] == chosen_at + 1
        assert head.acted_since(seat, chosen_at) and not head.acted_since(seat, chosen_at + 1)
        assert load_head(store, head.id).acted == head.acted
        # the head kept with the game is the fold's, a seat event's version included
        assert load_head(store, head.id) == fold_head(store, head.id) == head
    assert all(head.acted)


def test_a_forced_move_after_a_timeout_is_the_seats_command(store: EventStore) -> None:
    spec, game = GAMES["deck-of-spies"], "deck-of-spies"
    control = TimeControl(turn_seconds=10, timeout_bot="random")
    start = to_ms("2026-12-01T12:00:00.000000Z")
    created = create_game(store, game, 1, clock=control, created_at=from_ms(start))
    head = created.head
    assert head.clock is not None
    deadline = deadline_ms(head.clock, 0)
    assert deadline is not None
    version = head.version + 1  # the forced move follows clock_expired
    view = view_at(spec, head.state, 0, version)
    legal = list(spec.legal_commands(head.state, 0))
    forced = policy_for("random", game)(view, legal, bot_stream(created.secrets.seed, 0, version))
    prepared = prepare_timeout(
        spec, head, 0, forced=forced, bot="random@2", recorded_at=from_ms(deadline + 1)
    )
    store.append(prepared.append)
    rows = store.read_rows(head.id, after=head.version)
    assert [rows[0].type, rows[1].actor] == ["clock_expired", 0]
    assert prepared.head.acted == (rows[1].seq,) == load_head(store, head.id).acted
    assert prepared.head.acted_since(0, head.version)
    assert load_head(store, head.id) == fold_head(store, head.id) == prepared.head  # clocks too
