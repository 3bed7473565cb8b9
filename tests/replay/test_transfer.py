"""Export to JSON Lines and import: identical hashes, verified before storing."""

from __future__ import annotations

import io
from pathlib import Path

import msgspec
import pytest

from spies_core.errors import UnknownGameError
from spies_replay.errors import (
    GameExistsError,
    GameNotFinishedError,
    InvalidExportError,
    TamperedLogError,
)
from spies_replay.reading import load_state
from spies_replay.store.protocols import EventStore
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.transfer import export_game, export_lines, import_game
from spies_replay.verify import Rederivation, verify_game
from tests.support.counter import finish, new_game, play
from tests.support.countergame import GAMES


@pytest.fixture
def finished(store: EventStore) -> str:
    game_id = new_game(store, target=25, seed=None).record.id
    play(store, game_id, 20)
    finish(store, game_id)
    return game_id


@pytest.fixture
def other(tmp_path: Path) -> EventStore:
    with SQLiteEventStore(tmp_path / "other.db", snapshot_every=8) as opened:
        yield opened


def lines_of(store: EventStore, game_id: str) -> list[bytes]:
    return list(export_lines(store, game_id))


def test_export_has_a_header_then_every_event_with_seq_and_hash(
    store: EventStore, finished: str
) -> None:
    lines = [msgspec.json.decode(line) for line in lines_of(store, finished)]
    record = store.get_game(finished)
    header = lines[0]
    assert header["format"] == "spies-replay/3"
    assert header["id"] == finished and header["game"] == "counter"
    assert header["options"] == {"target": 25}
    assert header["seed_commitment"] == record.seed_commitment
    assert header["head_hash"] == record.head_hash
    assert [line["seq"] for line in lines[1:]] == list(range(1, record.version + 1))
    assert [line["hash"] for line in lines[1:]] == [r.hash for r in store.read_rows(finished)]
    assert lines[1]["event"]["type"] == "game_created"
    assert lines[-1]["event"]["type"] == "seed_revealed"


def test_export_then_import_gives_identical_hashes(
    store: EventStore, other: EventStore, finished: str
) -> None:
    buffer = io.BytesIO()
    count = export_game(store, finished, buffer)
    assert count == store.get_game(finished).version
    report = import_game(other, buffer.getvalue().splitlines(), games=GAMES)
    assert report.ok and report.rederived is Rederivation.REVEALED_SEED
    assert other.get_game(finished) == store.get_game(finished)
    assert other.read_rows(finished) == store.read_rows(finished)
    assert verify_game(other, finished, games=GAMES).ok
    assert lines_of(other, finished) == lines_of(store, finished)


def test_an_imported_game_replays_from_snapshots(
    store: EventStore, other: EventStore, finished: str
) -> None:
    import_game(other, lines_of(store, finished), games=GAMES)
    assert other.snapshots(finished)
    version = store.get_game(finished).version
    for at in range(0, version + 1, 5):
        assert (
            load_state(other, finished, at=at, games=GAMES).state
            == load_state(store, finished, at=at, games=GAMES).state
        )


def test_a_reformatted_export_still_imports(
    store: EventStore, other: EventStore, finished: str
) -> None:
    lines = lines_of(store, finished)
    spaced = [msgspec.json.format(line.strip(), indent=0).replace(b"\n", b" ") for line in lines]
    assert spaced != [line.strip() for line in lines]
    assert import_game(other, spaced, games=GAMES).ok
    assert other.get_game(finished).head_hash == store.get_game(finished).head_hash


def test_an_active_game_is_not_exported(store: EventStore) -> None:
    game_id = new_game(store).record.id
    with pytest.raises(GameNotFinishedError) as caught:
        list(export_lines(store, game_id))
    assert caught.value.code == "game-not-finished"


def _edit(lines: list[bytes], seq: int, **changes: object) -> list[bytes]:
    data = msgspec.json.decode(lines[seq])
    data["event"].update(changes)
    return [*lines[:seq], msgspec.json.encode(data), *lines[seq + 1 :]]


def test_a_tampered_file_is_refused_and_nothing_is_stored(
    store: EventStore, other: EventStore, finished: str
) -> None:
    lines = lines_of(store, finished)
    seq = next(
        n for n, line in enumerate(lines) if n and b'"counter_bumped"' in line.split(b'"event"')[1]
    )
    with pytest.raises(TamperedLogError) as caught:
        import_game(other, _edit(lines, seq, by=2), games=GAMES)
    assert (caught.value.seq, caught.value.reason) == (seq, "hash-mismatch")
    assert caught.value.code == "tampered-log"
    assert other.list_games().total == 0
    assert other.db.conn.execute("SELECT count(*) FROM events").fetchone()[0] == 0


def test_a_file_with_a_missing_line_is_refused(
    store: EventStore, other: EventStore, finished: str
) -> None:
    lines = lines_of(store, finished)
    with pytest.raises(TamperedLogError) as caught:
        import_game(other, [*lines[:5], *lines[6:]], games=GAMES)
    assert (caught.value.seq, caught.value.reason) == (5, "missing-event")


def test_a_file_with_swapped_lines_is_refused(
    store: EventStore, other: EventStore, finished: str
) -> None:
    lines = lines_of(store, finished)
    lines[7], lines[8] = lines[8], lines[7]
    with pytest.raises(TamperedLogError) as caught:
        import_game(other, lines, games=GAMES)
    assert (caught.value.seq, caught.value.reason) == (7, "out-of-order")


def test_a_file_with_a_changed_header_is_refused(
    store: EventStore, other: EventStore, finished: str
) -> None:
    lines = lines_of(store, finished)
    header = msgspec.json.decode(lines[0])
    header["options"] = {"target": 24}
    with pytest.raises(TamperedLogError) as caught:
        import_game(other, [msgspec.json.encode(header), *lines[1:]], games=GAMES)
    assert (caught.value.seq, caught.value.reason) == (1, "header-mismatch")


def test_importing_twice_is_refused(store: EventStore, other: EventStore, finished: str) -> None:
    lines = lines_of(store, finished)
    import_game(other, lines, games=GAMES)
    with pytest.raises(GameExistsError):
        import_game(other, lines, games=GAMES)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ([], "empty"),
        ([b"not json"], "line 1"),
        ([b'{"format": "other/9"}'], "line 1"),
    ],
)
def test_a_file_that_is_not_an_export_is_refused(
    other: EventStore, content: list[bytes], message: str
) -> None:
    with pytest.raises(InvalidExportError, match=message):
        import_game(other, content, games=GAMES)


def test_a_wrong_format_version_is_refused(
    store: EventStore, other: EventStore, finished: str
) -> None:
    lines = lines_of(store, finished)
    header = msgspec.json.decode(lines[0])
    header["format"] = "spies-replay/9"
    with pytest.raises(InvalidExportError, match="line 1"):
        import_game(other, [msgspec.json.encode(header), *lines[1:]], games=GAMES)


def test_an_unregistered_game_is_refused(store: EventStore, tmp_path: Path, finished: str) -> None:
    with SQLiteEventStore(tmp_path / "empty.db") as bare, pytest.raises(UnknownGameError):
        import_game(bare, lines_of(store, finished), games={})


def _with_field(lines: list[bytes], index: int, **fields: object) -> list[bytes]:
    """The export with ``fields`` added to line ``index`` (0: the header), outside ``event``."""
    data = msgspec.json.decode(lines[index])
    data.update(fields)
    return [*lines[:index], msgspec.json.encode(data), *lines[index + 1 :]]


def test_an_event_line_with_a_field_outside_the_hash_is_refused(
    store: EventStore, other: EventStore, finished: str
) -> None:
    """The chain covers an event line's ``seq``, ``type``, ``actor``, ``command``, ``event``,
    ``recorded_at`` and ``bot``: any other field would pass unverified and be dropped."""
    lines = _with_field(lines_of(store, finished), 6, signed_by="the auditor")
    with pytest.raises(InvalidExportError) as caught:
        import_game(other, lines, games=GAMES)
    assert (caught.value.code, caught.value.seq, caught.value.line) == ("unknown-field", 6, 7)
    assert "signed_by" in caught.value.message
    assert other.list_games().total == 0


def test_a_header_with_a_field_it_does_not_have_is_refused(
    store: EventStore, other: EventStore, finished: str
) -> None:
    lines = _with_field(lines_of(store, finished), 0, verified=True)
    with pytest.raises(InvalidExportError) as caught:
        import_game(other, lines, games=GAMES)
    assert (caught.value.code, caught.value.seq, caught.value.line) == ("unknown-field", None, 1)
    header = msgspec.json.decode(lines_of(store, finished)[0])
    header["outcome"]["bonus"] = 1
    with pytest.raises(InvalidExportError) as nested:
        import_game(
            other, [msgspec.json.encode(header), *lines_of(store, finished)[1:]], games=GAMES
        )
    assert (nested.value.code, nested.value.line) == ("unknown-field", 1)


def test_a_null_bot_is_an_absent_bot(store: EventStore, other: EventStore, finished: str) -> None:
    """``"bot": null`` says what an absent ``bot`` says (the chain leaves the key out)."""
    lines = [
        line if not index else _with_field([line], 0, bot=None)[0]
        for index, line in enumerate(lines_of(store, finished))
    ]
    assert import_game(other, lines, games=GAMES).ok
