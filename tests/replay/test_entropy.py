"""Players' entropy (``spies-entropy/1``, format 2): a ``mixed`` game draws from the server's
committed seed mixed with the creator's and each joiner's contribution; the log records each
contribution (``entropy_added``), the committed seed is the one revealed, the export says
``spies-replay/2``, and verify re-derives the mixed seed and refuses a contribution changed,
moved or given to a game that is not ``mixed``.
"""

from __future__ import annotations

import hashlib
import hmac
import io
from pathlib import Path
from typing import Any

import msgspec
import pytest

from spies_api.game import create_game
from spies_api.game.loading import fold_head, kept_head
from spies_core.registry import GAMES, get_game
from spies_core.rng import FairRng, mix_seed
from spies_core.step import setup
from spies_replay.codec import (
    FORMAT_3,
    canonical_bytes,
    chain_hash,
    encode,
    event_tag,
    genesis_hash,
)
from spies_replay.errors import EntropyNotAcceptedError, InvalidExportError
from spies_replay.formats import log_of
from spies_replay.meta import (
    EntropyAdded,
    SeatJoined,
    SeatState,
    SeatType,
    SeedRevealed,
    SeedSource,
)
from spies_replay.reading import read_events
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import EventRow, GameRecord, GameStatus
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.transfer import FORMAT_MIXED, export_lines, import_game, read_export
from spies_replay.verify import verify_game, verify_log
from tests.support.playouts import play_out
from tests.support.seats import change_seat

SERVER_SEED = bytes(range(200, 232))  # not text: a server seed never reads as text
CREATOR = bytes.fromhex("00112233445566778899aabbccddeeff")
JOINER = bytes(range(100, 140))


@pytest.fixture
def store(tmp_path: Path) -> Any:
    with SQLiteEventStore(tmp_path / "spies.db") as opened:
        yield opened


def test_the_mix_is_the_specified_hmac() -> None:
    """HMAC-SHA256(key = server seed, "spies-entropy/1" || len32 || bytes, ...)."""
    message = b"spies-entropy/1" + b"\x00\x00\x00\x10" + CREATOR + b"\x00\x00\x00\x28" + JOINER
    expected = hmac.new(SERVER_SEED, message, hashlib.sha256).digest()
    assert mix_seed(SERVER_SEED, [CREATOR, JOINER]) == expected
    assert mix_seed(SERVER_SEED, [JOINER, CREATOR]) != expected  # the order counts


def test_a_mixed_game_deals_from_the_mix_and_reveals_the_committed_seed(store: EventStore) -> None:
    created = create_game(store, "deck-of-spies", 1, entropy=CREATOR, server_seed=SERVER_SEED)
    game_id = created.record.id
    assert created.record.seed_source is SeedSource.MIXED
    assert created.record.seed_commitment == hashlib.sha256(SERVER_SEED).hexdigest()
    events = [stored.event for stored in read_events(store, game_id)]
    assert events[1] == EntropyAdded(seat=None, entropy=CREATOR.hex())
    spec = get_game("deck-of-spies")
    mixed = setup(spec, 1, {}, FairRng(mix_seed(SERVER_SEED, [CREATOR]), 0))
    plain = setup(spec, 1, {}, FairRng(SERVER_SEED, 0))
    assert events[2 : 2 + len(mixed.events)] == list(mixed.events)
    assert list(mixed.events) != list(plain.events)
    play_out(store, game_id, 7)
    last = read_events(store, game_id)[-1].event
    assert last == SeedRevealed(seed=SERVER_SEED.hex())  # the committed seed, not the mix
    assert verify_game(store, game_id).ok


def lobby(store: EventStore) -> str:
    """A two-seat Spies & Lies game, seat 1 open, created with the creator's entropy."""
    seats = [SeatState(seat=0), SeatState(seat=1, type=SeatType.OPEN)]
    created = create_game(
        store, "spies-and-lies", 2, seats=seats, entropy=CREATOR, server_seed=SERVER_SEED
    )
    return created.record.id


def test_a_lobby_game_deals_at_the_last_join_with_every_joiners_entropy(
    store: EventStore,
) -> None:
    game_id = lobby(store)
    assert [stored.type for stored in read_events(store, game_id)] == [
        "game_created",
        "entropy_added",
    ]
    change_seat(store, game_id, lambda seats, tokens: SeatJoined(seat=1, name="Bo"), entropy=JOINER)
    events = [stored.event for stored in read_events(store, game_id)]
    assert events[2:4] == [
        SeatJoined(seat=1, name="Bo"),
        EntropyAdded(seat=1, entropy=JOINER.hex()),
    ]
    spec = get_game("spies-and-lies")
    dealt = setup(spec, 2, {}, FairRng(mix_seed(SERVER_SEED, [CREATOR, JOINER]), 0))
    assert events[4 : 4 + len(dealt.events)] == list(dealt.events)
    play_out(store, game_id, 7)
    assert verify_game(store, game_id).ok


def test_a_join_with_entropy_to_a_game_that_is_not_mixed_is_refused(store: EventStore) -> None:
    seats = [SeatState(seat=0), SeatState(seat=1, type=SeatType.OPEN)]
    game_id = create_game(store, "spies-and-lies", 2, seats=seats).record.id
    before = store.get_game(game_id).version
    with pytest.raises(EntropyNotAcceptedError):
        change_seat(
            store, game_id, lambda seats, tokens: SeatJoined(seat=1, name="Bo"), entropy=JOINER
        )
    assert store.get_game(game_id).version == before  # nothing appended


def finished_export(store: EventStore) -> list[bytes]:
    game_id = lobby(store)
    change_seat(store, game_id, lambda seats, tokens: SeatJoined(seat=1, name="Bo"), entropy=JOINER)
    play_out(store, game_id, 7)
    assert store.get_game(game_id).status is GameStatus.FINISHED
    return list(export_lines(store, game_id))


def test_a_new_mixed_export_is_format_3_and_imports_verified(
    store: EventStore, tmp_path: Path
) -> None:
    """Format 2 names an older game's entropy; a game created since is format 3 whatever its
    seed, and its ``seed_source`` ``mixed`` says entropy went in."""
    lines = finished_export(store)
    header = msgspec.json.decode(lines[0])
    assert (header["format"], header["seed_source"]) == (FORMAT_3, "mixed")
    assert FORMAT_MIXED != FORMAT_3
    with SQLiteEventStore(tmp_path / "other.db") as other:
        report = import_game(other, io.BytesIO(b"".join(lines)))
    assert report.ok, report.problem


def test_a_format_1_header_on_a_mixed_log_is_refused(store: EventStore) -> None:
    lines = finished_export(store)
    header = msgspec.json.decode(lines[0])
    header["format"] = "spies-replay/1"
    with pytest.raises(InvalidExportError):
        read_export([msgspec.json.encode(header), *lines[1:]])


def rechained(record: GameRecord, rows: list[EventRow], events: list[Any]) -> tuple[Any, Any]:
    """The log with ``events`` as its payloads, every hash recomputed (a forger's rewrite)."""
    log = log_of(record, rows)
    fixed, previous = [], genesis_hash(record.id, log)
    for row, event in zip(rows, events, strict=True):
        payload = encode(event)
        canonical = canonical_bytes(
            seq=row.seq,
            type=event_tag(event),
            actor=row.actor,
            command=row.command,
            payload=payload,
            recorded_at=row.recorded_at,
            bot=row.bot,
            log=log,
        )
        previous = chain_hash(previous, canonical)
        fixed.append(
            msgspec.structs.replace(row, payload=payload, type=event_tag(event), hash=previous)
        )
    return msgspec.structs.replace(record, head_hash=previous), fixed


def verdict(store: EventStore, change: Any) -> tuple[str | None, int | None]:
    record, rows = read_export(finished_export(store))
    codec_events = [e.event for e in read_events(store, record.id)]
    events = change(list(codec_events))
    forged_record, forged_rows = rechained(record, rows, events)
    report = verify_log(GAMES, forged_record, forged_rows).report
    return (None, None) if report.problem is None else (report.problem.code, report.problem.seq)


def test_a_joiners_entropy_changed_after_the_fact_fails_rederivation(store: EventStore) -> None:
    def change(events: list[Any]) -> list[Any]:
        events[3] = EntropyAdded(seat=1, entropy=bytes(20).hex())
        return events

    code, seq = verdict(store, change)
    assert code == "rederivation-mismatch" and seq == 5


@pytest.mark.parametrize(
    ("event", "code"),
    [
        (EntropyAdded(seat=1, entropy="00" * 15), "entropy-invalid"),
        (EntropyAdded(seat=1, entropy="AB" * 16), "entropy-invalid"),
        (EntropyAdded(seat=0, entropy="00" * 16), "misplaced-meta-event"),
    ],
)
def test_verify_refuses_a_bad_or_misplaced_contribution(
    store: EventStore, event: EntropyAdded, code: str
) -> None:
    def change(events: list[Any]) -> list[Any]:
        events[3] = event
        return events

    assert verdict(store, change)[0] == code


def test_verify_refuses_a_mixed_label_without_the_creators_entropy(store: EventStore) -> None:
    def change(events: list[Any]) -> list[Any]:
        events[1] = EntropyAdded(seat=1, entropy=CREATOR.hex())
        return events

    assert verdict(store, change) == ("seed-source-mismatch", 2)


def test_the_deal_waits_for_the_last_open_seat_and_orders_the_joiners_by_seat(
    store: EventStore,
) -> None:
    """Seats 1 and 2 open: seat 2 joins first (no deal yet), then seat 1 deals, from the mix
    of the creator's, seat 1's and seat 2's entropy in that order."""
    seats = [SeatState(seat=0), *(SeatState(seat=s, type=SeatType.OPEN) for s in (1, 2))]
    game_id = create_game(
        store, "black-spy", 3, seats=seats, entropy=CREATOR, server_seed=SERVER_SEED
    ).record.id
    second, first = bytes(range(16)), bytes(range(50, 90))
    change_seat(store, game_id, lambda s, t: SeatJoined(seat=2, name="Cy"), entropy=second)
    assert [e.type for e in read_events(store, game_id)][-2:] == ["seat_joined", "entropy_added"]
    assert len(read_events(store, game_id)) == 4  # nothing dealt with a seat still open
    change_seat(store, game_id, lambda s, t: SeatJoined(seat=1, name="Bo"), entropy=first)
    # the last join kept the head after it: dealt from the mixed seed, its entropy in it
    found = store.head_row(game_id)
    assert found.head is not None and kept_head(found) == fold_head(store, game_id)
    events = [stored.event for stored in read_events(store, game_id)]
    spec = get_game("black-spy")
    mix = mix_seed(SERVER_SEED, [CREATOR, first, second])
    dealt = setup(spec, 3, {}, FairRng(mix, 0))
    assert events[6 : 6 + len(dealt.events)] == list(dealt.events)
    by_join = setup(spec, 3, {}, FairRng(mix_seed(SERVER_SEED, [CREATOR, second, first]), 0))
    assert list(by_join.events) != list(dealt.events)
    play_out(store, game_id, 7)
    assert verify_game(store, game_id).ok
