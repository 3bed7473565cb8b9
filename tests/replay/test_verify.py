"""Tamper and fairness tests: verify finds every edit, deletion, insertion and reordering
at the right seq, and re-derives every shuffle from the revealed seed."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from spies_api.game import create_game
from spies_core.decider import start_game
from spies_core.rng import FairRng
from spies_replay.codec import FORMAT_3, canonical_bytes, chain_hash, genesis_hash
from spies_replay.reading import read_events
from spies_replay.store.protocols import EventStore
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.verify import Rederivation, verify_all, verify_game
from tests.support.counter import finish, new_game, play
from tests.support.countergame import GAMES, SPEC, CounterDeckShuffled


@pytest.fixture
def tamper(db_path: Path, store: EventStore) -> Iterator[sqlite3.Connection]:
    """A raw connection with the append-only triggers dropped, as an attacker would."""
    conn = sqlite3.connect(db_path, isolation_level=None)
    for name in ("events_no_update", "events_no_delete", "events_no_replace"):
        conn.execute(f"DROP TRIGGER {name}")
    yield conn
    conn.close()


def rows_of(conn: sqlite3.Connection, game_id: str) -> list[tuple]:
    return conn.execute(
        "SELECT seq, type, payload, recorded_at, actor, command, hash FROM events"
        " WHERE game_id = ? ORDER BY seq",
        (game_id,),
    ).fetchall()


def rechain(conn: sqlite3.Connection, game_id: str) -> None:
    """Recompute every hash and the head, as a careful attacker would after an edit."""
    previous = genesis_hash(game_id, FORMAT_3)  # the chain of every game created today
    for seq, kind, payload, recorded_at, actor, command, _ in rows_of(conn, game_id):
        previous = chain_hash(
            previous,
            canonical_bytes(
                seq=seq,
                type=kind,
                actor=actor,
                command=command,
                payload=payload,
                recorded_at=recorded_at,
                log=FORMAT_3,
            ),
        )
        conn.execute(
            "UPDATE events SET hash = ? WHERE game_id = ? AND seq = ?", (previous, game_id, seq)
        )
    conn.execute("UPDATE games SET head_hash = ? WHERE id = ?", (previous, game_id))


def edit_payload(conn: sqlite3.Connection, game_id: str, seq: int, **changes: object) -> None:
    (payload,) = conn.execute(
        "SELECT payload FROM events WHERE game_id = ? AND seq = ?", (game_id, seq)
    ).fetchone()
    data = msgspec.json.decode(payload)
    data.update(changes)
    conn.execute(
        "UPDATE events SET payload = ? WHERE game_id = ? AND seq = ?",
        (msgspec.json.encode(data).decode(), game_id, seq),
    )


def seq_of(store: EventStore, game_id: str, kind: str, nth: int = 0) -> int:
    return [row.seq for row in store.read_rows(game_id) if row.type == kind][nth]


def assert_bad(store: EventStore, game_id: str, seq: int | None, code: str) -> None:
    report = verify_game(store, game_id, games=GAMES)
    assert not report.ok
    assert report.problem is not None
    assert (report.problem.seq, report.problem.code) == (seq, code), report.problem


@pytest.fixture
def active(store: EventStore) -> str:
    game_id = new_game(store, target=30).record.id
    play(store, game_id, 12)
    return game_id


@pytest.fixture
def finished(store: EventStore) -> str:
    game_id = new_game(store, target=20, seed=None).record.id
    play(store, game_id, 9)
    finish(store, game_id)
    return game_id


# -- clean logs ----------------------------------------------------------------------------


def test_a_finished_game_re_derives_from_its_revealed_seed(
    store: EventStore, finished: str
) -> None:
    report = verify_game(store, finished, games=GAMES)
    assert report.ok, report.problem
    assert report.rederived is Rederivation.REVEALED_SEED
    assert report.events == store.get_game(finished).version
    assert report.warnings == []


def test_an_active_game_is_audited_from_the_operator_seed(store: EventStore, active: str) -> None:
    report = verify_game(store, active, games=GAMES)
    assert report.ok and report.rederived is Rederivation.OPERATOR_SEED


def test_without_a_seed_an_active_game_is_checked_but_not_re_derived(
    store: EventStore, active: str, tamper: sqlite3.Connection
) -> None:
    tamper.execute("DELETE FROM seeds WHERE game_id = ?", (active,))
    report = verify_game(store, active, games=GAMES)
    assert report.ok and report.rederived is Rederivation.NOT_CHECKED
    assert report.warnings


def test_revealed_seed_reproduces_every_logged_shuffle(store: EventStore, finished: str) -> None:
    events = read_events(store, finished, games=GAMES)
    seed = bytes.fromhex(events[-1].event.seed)
    setup = start_game(SPEC, 2, {"target": 20}, FairRng(seed, 0))
    assert setup == [e.event for e in events[1 : 1 + len(setup)]]
    shuffles = [e for e in events if isinstance(e.event, CounterDeckShuffled)]
    assert len(shuffles) > 1


def test_verify_all_covers_every_game(store: EventStore, active: str, finished: str) -> None:
    reports = verify_all(store, games=GAMES)
    assert {r.game_id for r in reports} == {active, finished}
    assert all(r.ok for r in reports)


# -- tampering -----------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["active", "finished"])
def test_an_edited_event_is_caught_at_its_seq(
    store: EventStore, tamper: sqlite3.Connection, which: str, request: pytest.FixtureRequest
) -> None:
    game_id = request.getfixturevalue(which)
    seq = seq_of(store, game_id, "counter_bumped")
    edit_payload(tamper, game_id, seq, by=3)
    assert_bad(store, game_id, seq, "hash-mismatch")


@pytest.mark.parametrize("which", ["active", "finished"])
def test_an_edit_with_a_recomputed_chain_is_caught_by_re_derivation(
    store: EventStore, tamper: sqlite3.Connection, which: str, request: pytest.FixtureRequest
) -> None:
    game_id = request.getfixturevalue(which)
    seq = seq_of(store, game_id, "counter_card_drawn")
    edit_payload(tamper, game_id, seq, card=99)
    rechain(tamper, game_id)
    assert_bad(store, game_id, seq, "rederivation-mismatch")


def test_a_changed_actor_is_caught(
    store: EventStore, active: str, tamper: sqlite3.Connection
) -> None:
    seq = seq_of(store, active, "counter_card_drawn")
    tamper.execute("UPDATE events SET actor = 1 WHERE game_id = ? AND seq = ?", (active, seq))
    assert_bad(store, active, seq, "hash-mismatch")
    rechain(tamper, active)
    assert_bad(store, active, seq, "command-refused")


def test_a_changed_logged_shuffle_is_caught(
    store: EventStore, finished: str, tamper: sqlite3.Connection
) -> None:
    seq = seq_of(store, finished, "counter_deck_shuffled", nth=1)
    (payload,) = tamper.execute(
        "SELECT payload FROM events WHERE game_id = ? AND seq = ?", (finished, seq)
    ).fetchone()
    order = msgspec.json.decode(payload)["order"]
    edit_payload(tamper, finished, seq, order=[*order[1:], order[0]])
    rechain(tamper, finished)
    assert_bad(store, finished, seq, "rederivation-mismatch")


def test_a_changed_revealed_seed_is_caught(
    store: EventStore, finished: str, tamper: sqlite3.Connection
) -> None:
    seq = store.get_game(finished).version
    edit_payload(tamper, finished, seq, seed="00" * 32)
    rechain(tamper, finished)
    assert_bad(store, finished, seq, "seed-mismatch")


@pytest.mark.parametrize("which", ["active", "finished"])
def test_a_deleted_event_is_caught_at_its_seq(
    store: EventStore, tamper: sqlite3.Connection, which: str, request: pytest.FixtureRequest
) -> None:
    game_id = request.getfixturevalue(which)
    tamper.execute("DELETE FROM events WHERE game_id = ? AND seq = 7", (game_id,))
    assert_bad(store, game_id, 7, "missing-event")


def test_a_deleted_last_event_is_caught(
    store: EventStore, finished: str, tamper: sqlite3.Connection
) -> None:
    version = store.get_game(finished).version
    tamper.execute("DELETE FROM events WHERE game_id = ? AND seq = ?", (finished, version))
    assert_bad(store, finished, version, "missing-event")
    tamper.execute(
        "UPDATE games SET version = version - 1,"
        " head_hash = (SELECT hash FROM events WHERE game_id = games.id AND seq = version - 1)"
        " WHERE id = ?",
        (finished,),
    )
    assert_bad(store, finished, version, "seed-not-revealed")  # where the reveal should be


def _shift(conn: sqlite3.Connection, game_id: str, from_seq: int, by: int) -> None:
    conn.execute(
        "UPDATE events SET seq = -(seq + ?) WHERE game_id = ? AND seq >= ?",
        (by, game_id, from_seq),
    )
    conn.execute("UPDATE events SET seq = -seq WHERE game_id = ? AND seq < 0", (game_id,))


def test_an_inserted_event_is_caught_at_its_seq(
    store: EventStore, active: str, tamper: sqlite3.Connection
) -> None:
    _shift(tamper, active, 6, 1)
    tamper.execute(
        "INSERT INTO events (game_id, seq, type, payload, recorded_at, actor, command, hash)"
        " SELECT game_id, 6, type, payload, recorded_at, actor, command, hash FROM events"
        " WHERE game_id = ? AND seq = 5",
        (active,),
    )
    assert_bad(store, active, 6, "hash-mismatch")


def test_an_event_appended_behind_the_stores_back_is_caught(
    store: EventStore, active: str, tamper: sqlite3.Connection
) -> None:
    version = store.get_game(active).version
    tamper.execute(
        "INSERT INTO events (game_id, seq, type, payload, recorded_at, actor, command, hash)"
        " SELECT game_id, ?, type, payload, recorded_at, NULL, NULL, 'x' FROM events"
        " WHERE game_id = ? AND seq = ?",
        (version + 1, active, version),
    )
    assert_bad(store, active, version + 1, "hash-mismatch")
    rechain(tamper, active)
    assert_bad(store, active, version + 1, "rederivation-mismatch")
    tamper.execute("DELETE FROM seeds WHERE game_id = ?", (active,))  # no re-derivation
    assert_bad(store, active, version + 1, "unexpected-event")


@pytest.mark.parametrize("which", ["active", "finished"])
def test_reordered_events_are_caught_at_the_first_moved_seq(
    store: EventStore, tamper: sqlite3.Connection, which: str, request: pytest.FixtureRequest
) -> None:
    game_id = request.getfixturevalue(which)
    tamper.execute("UPDATE events SET seq = -8 WHERE game_id = ? AND seq = 8", (game_id,))
    tamper.execute("UPDATE events SET seq = 8 WHERE game_id = ? AND seq = 9", (game_id,))
    tamper.execute("UPDATE events SET seq = 9 WHERE game_id = ? AND seq = -8", (game_id,))
    assert_bad(store, game_id, 8, "hash-mismatch")
    rechain(tamper, game_id)
    report = verify_game(store, game_id, games=GAMES)
    assert not report.ok and report.problem is not None and report.problem.seq == 8


def test_a_changed_head_hash_is_caught(
    store: EventStore, active: str, tamper: sqlite3.Connection
) -> None:
    tamper.execute("UPDATE games SET head_hash = ? WHERE id = ?", ("ab" * 32, active))
    assert_bad(store, active, store.get_game(active).version, "head-mismatch")


def test_a_type_column_edit_is_caught(
    store: EventStore, active: str, tamper: sqlite3.Connection
) -> None:
    tamper.execute(
        "UPDATE events SET type = 'counter_won' WHERE game_id = ? AND seq = 4", (active,)
    )
    assert_bad(store, active, 4, "hash-mismatch")
    rechain(tamper, active)
    assert_bad(store, active, 4, "type-mismatch")


def test_a_changed_game_row_is_caught(
    store: EventStore, active: str, tamper: sqlite3.Connection
) -> None:
    tamper.execute("UPDATE games SET players = 3 WHERE id = ?", (active,))
    assert_bad(store, active, 1, "header-mismatch")


def test_a_deleted_game_row_leaves_orphans_that_verify_all_reports(
    store: EventStore, active: str, tamper: sqlite3.Connection
) -> None:
    tamper.execute("DELETE FROM games WHERE id = ?", (active,))
    reports = verify_all(store, games=GAMES)
    assert [(r.game_id, r.ok, r.problem.code if r.problem else None) for r in reports] == [
        (active, False, "orphan-events")
    ]


def test_an_unregistered_game_is_reported(store: EventStore, db_path: Path, active: str) -> None:
    other = SQLiteEventStore(db_path)
    report = verify_game(other, active, games={})
    assert not report.ok and report.problem is not None
    assert report.problem.code == "unknown-game"
    other.close()


def test_a_tampered_snapshot_is_a_warning(
    store: EventStore, active: str, tamper: sqlite3.Connection
) -> None:
    seq, state = store.snapshots(active)[0]
    tampered = msgspec.json.decode(state)
    tampered["total"] += 1
    tamper.execute(
        "UPDATE snapshots SET state = ? WHERE game_id = ? AND seq = ?",
        (msgspec.json.encode(tampered).decode(), active, seq),
    )
    report = verify_game(store, active, games=GAMES)
    assert report.ok and report.warnings == [f"snapshot at seq {seq} disagrees with the fold"]


def test_a_game_finished_at_setup_verifies(store: EventStore) -> None:
    # target 1 cannot end at setup in the counter game; a reproducible game still verifies.
    game_id = create_game(store, "counter", 1, {"target": 3}, seed="x", games=GAMES).record.id
    finish(store, game_id)
    assert verify_game(store, game_id, games=GAMES).ok
