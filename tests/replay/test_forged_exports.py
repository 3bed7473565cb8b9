"""Forged exports, as a hostile client would make them, hash chain recomputed: verify
re-derives what the log itself proves (every bot move, the seed's source, the times, the
head a server published) instead of trusting the labels, and import refuses what it cannot
store safely (a game id outside the server's alphabet, a line nested too deep).

The games here are real games of the registry with bot seats, played through the engine as
the server's bot runner plays them (:mod:`tests.support.botgames`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from spies_core.registry import GAMES
from spies_replay.errors import InvalidExportError, TamperedLogError
from spies_replay.meta import META_TYPES
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import EventRow, GameRecord
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.transfer import export_lines, import_game, read_export
from spies_replay.verify import verify_game, verify_log
from tests.fixtures.make_golden import golden_dir
from tests.support.botgames import REGISTERED, edit_payload, export_of, play_with_bots, rechain


@pytest.fixture
def real(tmp_path: Path) -> Iterator[EventStore]:
    """A store of the registered games."""
    with SQLiteEventStore(tmp_path / "real.db") as opened:
        yield opened


@pytest.fixture
def other(tmp_path: Path) -> Iterator[EventStore]:
    """An empty store to import into."""
    with SQLiteEventStore(tmp_path / "other.db") as opened:
        yield opened


def log_of(store: EventStore, game_id: str) -> tuple[GameRecord, list[EventRow]]:
    return read_export(export_lines(store, game_id))


def refusal(other: EventStore, record: GameRecord, rows: list[EventRow]) -> tuple[int | None, str]:
    """Import the forged log; return the seq and the code it is refused with."""
    with pytest.raises(TamperedLogError) as caught:
        import_game(other, export_of(record, rows), bots=REGISTERED)
    assert other.list_games().total == 0, "nothing stored"
    return caught.value.seq, caught.value.reason


def bot_rows(rows: list[EventRow]) -> list[EventRow]:
    return [row for row in rows if row.bot is not None]


def set_created(rows: list[EventRow], **changes: object) -> list[EventRow]:
    return edit_payload(rows, 1, **changes)


# -- bot moves ------------------------------------------------------------------------------


def test_bot_moves_are_marked_with_their_version_and_re_derived(real: EventStore) -> None:
    game_id = play_with_bots(real, "spies-and-lies", ["random", "greedy"])
    _, rows = log_of(real, game_id)
    marks = {row.bot for row in bot_rows(rows)}
    assert marks == {"random@2", "greedy@2"}
    report = verify_game(real, game_id, bots=REGISTERED)
    assert report.ok, report.problem
    assert report.bot_moves_rederived == len(bot_rows(rows))
    assert report.caveats == []


def test_moves_of_version_1_are_re_derived_with_version_1s_generator(
    real: EventStore, other: EventStore
) -> None:
    """A log recorded before the bots drew from the protocol's stream keeps verifying with
    every bot move re-run; the same moves claimed by version 2 are not version 2's."""
    game_id = play_with_bots(
        real, "spies-and-lies", ["random", "greedy"], version=1, mark=lambda n: f"{n}@1"
    )
    record, rows = log_of(real, game_id)
    assert {row.bot for row in bot_rows(rows)} == {"random@1", "greedy@1"}
    report = verify_game(real, game_id, bots=REGISTERED)
    assert report.ok, report.problem
    assert report.bot_moves_rederived == len(bot_rows(rows))
    assert report.caveats == []
    relabelled = [
        msgspec.structs.replace(row, bot=row.bot.replace("@1", "@2")) if row.bot else row
        for row in rows
    ]
    seq, code = refusal(other, *rechain(record, relabelled))
    assert code == "bot-move-mismatch"
    assert relabelled[seq - 1].bot in {"random@2", "greedy@2"}


def test_every_bot_mark_stripped_is_caught(real: EventStore, other: EventStore) -> None:
    """A bot's moves passed off as a person's: the seat events say a bot held the seat."""
    game_id = play_with_bots(real, "black-spy", [None, "random", "greedy"])
    record, rows = log_of(real, game_id)
    first = bot_rows(rows)[0].seq
    forged = rechain(record, rows, keep_marks=False)
    assert refusal(other, *forged) == (first, "bot-mark-missing")
    report = verify_log(GAMES, *forged).report  # without the bots: the seats alone catch it
    assert report.problem is not None and report.problem.code == "bot-mark-missing"


def test_a_persons_moves_passed_off_as_a_bots_are_caught(
    real: EventStore, other: EventStore
) -> None:
    """The seat made a bot's and its commands marked: the bot would have chosen otherwise."""
    game_id = play_with_bots(real, "spies-and-lies", [None, "random"])
    record, rows = log_of(real, game_id)
    created = msgspec.json.decode(rows[0].payload)
    created["seats"][0] = {"seat": 0, "type": "bot", "name": None, "bot": "random"}
    forged = set_created(rows, seats=created["seats"])
    forged = [
        msgspec.structs.replace(row, bot="random@2") if row.actor == 0 else row for row in forged
    ]
    seq, code = refusal(other, *rechain(record, forged))
    assert code == "bot-move-mismatch"
    assert forged[seq - 1].actor == 0


def test_marks_without_a_version_verify_as_not_re_derived(real: EventStore) -> None:
    """A log written before bots had versions: reported, neither passed silently nor failed."""
    game_id = play_with_bots(real, "spies-and-lies", ["random", "greedy"], mark=lambda name: name)
    report = verify_game(real, game_id, bots=REGISTERED)
    assert report.ok, report.problem
    assert report.bot_moves_rederived == 0
    assert {caveat.code for caveat in report.caveats} == {"bot-version-unknown"}
    assert all("not re-derived" in caveat.message for caveat in report.caveats)


def test_a_bot_version_this_build_lacks_is_a_caveat(real: EventStore) -> None:
    game_id = play_with_bots(real, "spies-and-lies", ["random", None], mark=lambda n: f"{n}@9")
    report = verify_game(real, game_id, bots=REGISTERED)
    assert report.ok, report.problem
    [caveat] = report.caveats
    assert caveat.code == "bot-version-not-in-build"
    assert "random@9" in caveat.message and "versions 1, 2 only" in caveat.message


def test_a_bot_this_build_lacks_is_a_caveat(real: EventStore) -> None:
    game_id = play_with_bots(real, "spies-and-lies", [None, "random"])
    record, rows = log_of(real, game_id)
    created = msgspec.json.decode(rows[0].payload)
    created["seats"][1]["bot"] = "wizard"
    forged = [
        msgspec.structs.replace(row, bot="wizard@1") if row.bot else row
        for row in set_created(rows, seats=created["seats"])
    ]
    report = verify_log(GAMES, *rechain(record, forged), bots=REGISTERED).report
    assert report.ok, report.problem
    assert [caveat.code for caveat in report.caveats] == ["bot-not-in-build"]


def test_a_malformed_mark_is_a_problem(real: EventStore, other: EventStore) -> None:
    game_id = play_with_bots(real, "spies-and-lies", ["random", None], mark=lambda n: f"{n}@x")
    record, rows = log_of(real, game_id)
    assert refusal(other, record, rows) == (bot_rows(rows)[0].seq, "bot-mark-invalid")


def test_unmarked_commands_on_a_handed_seat_are_a_caveat(real: EventStore) -> None:
    """The API accepts a holder's own commands on a seat handed to a bot, so an unmarked
    command there may be the holder's: the log cannot prove it either way."""
    game_id = play_with_bots(real, "spies-and-lies", [None, None], person_moves=3)
    record, rows = log_of(real, game_id)
    forged = rechain(record, rows, keep_marks=False)
    report = verify_log(GAMES, *forged, bots=REGISTERED).report
    assert report.ok, report.problem
    assert {caveat.code for caveat in report.caveats} == {"unmarked-on-handed-seat"}


def test_without_the_bots_marked_moves_are_not_re_derived(real: EventStore) -> None:
    game_id = play_with_bots(real, "spies-and-lies", ["random", "greedy"])
    report = verify_game(real, game_id)
    assert report.ok and report.bot_moves_rederived == 0
    assert [caveat.code for caveat in report.caveats] == ["bots-not-given"]


# -- the seed's source ---------------------------------------------------------------------


def relabel(rows: list[EventRow], record: GameRecord, source: str) -> tuple[GameRecord, list]:
    record = msgspec.structs.replace(record, seed_source=source)
    return rechain(record, set_created(rows, seed_source=source))


def test_a_typed_seed_relabelled_server_is_caught(real: EventStore, other: EventStore) -> None:
    game_id = play_with_bots(real, "spies-and-lies", ["random", "random"], seed="rigged")
    record, rows = log_of(real, game_id)
    assert refusal(other, *relabel(rows, record, "server")) == (len(rows), "seed-source-mismatch")


@pytest.mark.parametrize(
    "seed", ["a" * 32, "a" * 31 + "\n", "é" * 16], ids=["ascii", "newline", "utf-8"]
)
def test_a_32_byte_typed_seed_relabelled_server_is_caught(
    real: EventStore, other: EventStore, seed: str
) -> None:
    assert len(seed.encode()) == 32
    game_id = play_with_bots(real, "spies-and-lies", ["random", "random"], seed=seed)
    record, rows = log_of(real, game_id)
    assert refusal(other, *relabel(rows, record, "server")) == (len(rows), "seed-source-mismatch")


def test_a_server_seed_is_32_bytes_that_are_not_text(real: EventStore, other: EventStore) -> None:
    game_id = play_with_bots(real, "spies-and-lies", ["random", "random"])
    assert import_game(other, export_lines(real, game_id), bots=REGISTERED).ok


def test_a_client_seed_is_any_text_the_client_gave(real: EventStore, other: EventStore) -> None:
    game_id = play_with_bots(real, "spies-and-lies", ["random", "random"], seed="tab\tand\x00nul")
    assert import_game(other, export_lines(real, game_id), bots=REGISTERED).ok


def test_a_deal_label_needs_a_deal_commitment(real: EventStore, other: EventStore) -> None:
    game_id = play_with_bots(real, "spies-and-lies", ["random", "random"], seed="no deal")
    record, rows = log_of(real, game_id)
    assert refusal(other, *relabel(rows, record, "deal")) == (1, "seed-source-mismatch")


def test_a_deal_game_labelled_deal_verifies(other: EventStore) -> None:
    record, rows = read_export(
        (golden_dir() / "deck-of-spies-deal.jsonl").read_bytes().split(b"\n")
    )
    report = import_game(other, export_of(*relabel(rows, record, "deal")), bots=REGISTERED)
    assert report.ok and report.caveats == []


def test_a_deal_game_labelled_client_is_a_caveat(other: EventStore) -> None:
    """The golden deal game was written before the ``deal`` source: its label says ``client``
    and verify says what the log proves, that its creator laid out the cards."""
    lines = (golden_dir() / "deck-of-spies-deal.jsonl").read_bytes().split(b"\n")
    report = import_game(other, lines, bots=REGISTERED)
    assert report.ok, report.problem
    assert [caveat.code for caveat in report.caveats] == ["seed-source-predates-deal"]


# -- times ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "stamp",
    [
        "yesterday",
        "",
        "2026-11-29 17:00:00Z",
        "2026-11-29T17:00:00+01:00",
        "2026-13-01T00:00:00Z",
        "2026-11-29T17:00:00.000000Z\x1b[2J",
    ],
)
def test_a_recorded_at_that_is_not_rfc_3339_utc_is_caught(
    real: EventStore, other: EventStore, stamp: str
) -> None:
    game_id = play_with_bots(real, "spies-and-lies", ["random", "random"])
    record, rows = log_of(real, game_id)
    rows[9] = msgspec.structs.replace(rows[9], recorded_at=stamp)
    assert refusal(other, *rechain(record, rows)) == (10, "invalid-timestamp")


def test_a_created_at_that_is_not_rfc_3339_utc_is_caught(
    real: EventStore, other: EventStore
) -> None:
    game_id = play_with_bots(real, "spies-and-lies", ["random", "random"])
    record, rows = log_of(real, game_id)
    record = msgspec.structs.replace(record, created_at="long ago")
    assert refusal(other, *rechain(record, set_created(rows, created_at="long ago"))) == (
        1,
        "invalid-timestamp",
    )


def test_time_that_runs_backwards_is_caught(real: EventStore, other: EventStore) -> None:
    game_id = play_with_bots(real, "spies-and-lies", ["random", "random"])
    record, rows = log_of(real, game_id)
    rows[20] = msgspec.structs.replace(rows[20], recorded_at="2000-01-01T00:00:00.000000Z")
    assert refusal(other, *rechain(record, rows)) == (21, "time-backwards")


def test_rfc_3339_utc_without_a_fraction_is_accepted(real: EventStore) -> None:
    game_id = play_with_bots(real, "spies-and-lies", ["random", "random"])
    record, rows = log_of(real, game_id)
    stamp = "2099-01-01T00:00:00Z"
    rows[-1] = msgspec.structs.replace(rows[-1], recorded_at=stamp)
    record = msgspec.structs.replace(record, updated_at=stamp)
    assert verify_log(GAMES, *rechain(record, rows), bots=REGISTERED).report.ok


@pytest.mark.parametrize(
    "stamp", ["1999-01-01T00:00:00.000000Z", "2099-01-01T00:00:00.000000Z", "first-of-seq-1"]
)
def test_a_header_updated_at_that_is_not_the_last_events_time_is_caught(
    real: EventStore, other: EventStore, stamp: str
) -> None:
    """The header's ``updated_at`` is not in the hash chain: it must be the time of the
    game's last event, as the store writes it, else the header says something the log does
    not (even with the head a server published)."""
    game_id = play_with_bots(real, "spies-and-lies", ["random", "random"])
    record, rows = log_of(real, game_id)
    if stamp == "first-of-seq-1":
        stamp = rows[0].recorded_at
    forged = msgspec.structs.replace(record, updated_at=stamp)
    report = verify_log(GAMES, forged, rows, bots=REGISTERED, head=record.head_hash).report
    assert report.problem is not None
    assert (report.problem.seq, report.problem.code) == (len(rows), "header-mismatch")
    assert "updated_at" in report.problem.message
    assert refusal(other, forged, rows) == (len(rows), "header-mismatch")


# -- the head a server published -----------------------------------------------------------


def test_a_log_is_checked_against_the_head_a_server_published(real: EventStore) -> None:
    game_id = play_with_bots(real, "spies-and-lies", ["random", "random"])
    record, rows = log_of(real, game_id)
    assert verify_log(GAMES, record, rows, head=record.head_hash).report.ok
    report = verify_log(GAMES, record, rows, head="ab" * 32).report
    assert report.problem is not None and report.problem.code == "published-head-mismatch"
    earlier = verify_log(GAMES, record, rows, head=rows[9].hash).report
    assert earlier.problem is not None and "seq 10" in earlier.problem.message


# -- actor and mark where no command is ----------------------------------------------------


def a_later_event_of_a_batch(rows: list[EventRow]) -> EventRow:
    """A game event after its command's first row, in the same batch (no command)."""
    return next(
        row
        for before, row in zip(rows, rows[1:], strict=False)
        if before.command is not None and row.command is None and row.type not in META_TYPES
    )


@pytest.mark.parametrize("stray", [{"actor": 0}, {"actor": 2}, {"bot": "random@1"}])
def test_an_actor_or_a_mark_on_a_game_event_without_a_command_is_refused(
    real: EventStore, other: EventStore, stray: dict[str, object]
) -> None:
    """``actor`` and ``bot`` are hashed on every row but mean something only on a command's
    first row: set on another game event's row (hashes recomputed), they would let a forger
    say who played what without the rules ever checking it."""
    game_id = play_with_bots(real, "spies-and-lies", ["random", "random"])
    record, rows = log_of(real, game_id)
    target = a_later_event_of_a_batch(rows)
    forged = [msgspec.structs.replace(row, **stray) if row is target else row for row in rows]
    report = verify_log(GAMES, *rechain(record, forged), bots=REGISTERED).report
    assert report.problem is not None
    assert (report.problem.seq, report.problem.code) == (target.seq, "misplaced-actor")
    assert refusal(other, *rechain(record, forged)) == (target.seq, "misplaced-actor")


def test_an_actor_on_a_set_up_event_is_refused(real: EventStore, other: EventStore) -> None:
    game_id = play_with_bots(real, "spies-and-lies", ["random", "random"])
    record, rows = log_of(real, game_id)
    assert rows[1].type not in META_TYPES and rows[1].command is None
    forged = [rows[0], msgspec.structs.replace(rows[1], actor=1), *rows[2:]]
    assert refusal(other, *rechain(record, forged)) == (2, "misplaced-actor")


@pytest.mark.parametrize("where", ["first", "last"])
def test_a_mark_on_game_created_or_seed_revealed_is_refused(
    real: EventStore, other: EventStore, where: str
) -> None:
    """A meta event carries no command, actor or mark (``misplaced-command``), the creation
    and the reveal included."""
    game_id = play_with_bots(real, "spies-and-lies", ["random", "random"])
    record, rows = log_of(real, game_id)
    index = 0 if where == "first" else len(rows) - 1
    assert rows[index].type == ("game_created" if where == "first" else "seed_revealed")
    forged = list(rows)
    forged[index] = msgspec.structs.replace(rows[index], bot="random@1")
    assert refusal(other, *rechain(record, forged)) == (index + 1, "misplaced-command")


# -- game ids ------------------------------------------------------------------------------


def renamed(store: EventStore, game_id: str) -> list[bytes]:
    """The export of a finished game under another id, its chain recomputed for that id."""
    record, rows = log_of(store, play_with_bots(store, "spies-and-lies", ["random", "random"]))
    return export_of(*rechain(msgspec.structs.replace(record, id=game_id), rows))


@pytest.mark.parametrize(
    "game_id",
    ["", "a\r\nb", "a\x00b", "../../tmp/x", "a" * 5000, "\x1b[31mred\x1b[0m", "-rf", "Upper"],
    ids=["empty", "crlf", "nul", "path", "long", "escape", "dash", "upper"],
)
def test_import_refuses_a_game_id_outside_the_servers_alphabet(
    real: EventStore, other: EventStore, game_id: str
) -> None:
    with pytest.raises(InvalidExportError) as caught:
        import_game(other, renamed(real, game_id), bots=REGISTERED)
    assert caught.value.line == 1 and "game id" in str(caught.value)
    assert other.list_games().total == 0


@pytest.mark.parametrize("game_id", ["abcdefghijklmn23", "black-spy-6p-no-good-spies", "a", "x1"])
def test_import_accepts_server_and_tool_made_ids(
    real: EventStore, other: EventStore, game_id: str
) -> None:
    assert import_game(other, renamed(real, game_id), bots=REGISTERED).ok


# -- nesting ---------------------------------------------------------------------------------


def nested(depth: int) -> bytes:
    """A JSON value ``depth`` containers deep."""
    return b"[" * depth + b"]" * depth


def with_field(line: bytes, value: bytes) -> bytes:
    """A line's object with one more field first: ``{"x": value, ...}``."""
    return b'{"x":' + value + b"," + line.strip()[1:]


def with_nested_event(lines: list[bytes], value: bytes, *, rechained: bool) -> list[bytes]:
    """The export with one more (ignored) key in game_created's payload, ``{"x": value,
    ...}``: its line nests two levels deeper than ``value`` (the line's own object, then its
    ``event``). ``rechained``: the hashes recomputed, as the chain covers the payload."""
    if not rechained:
        line = lines[1]
        start = line.index(b'"event":{') + len(b'"event":{')
        return [lines[0], line[:start] + b'"x":' + value + b"," + line[start:], *lines[2:]]
    record, rows = read_export(lines)
    created = rows[0]
    payload = with_field(created.payload.encode(), value).decode()
    return export_of(
        *rechain(record, [msgspec.structs.replace(created, payload=payload), *rows[1:]])
    )


@pytest.mark.parametrize("depth", [1, 62])
def test_lines_nested_up_to_the_limit_import(
    real: EventStore, other: EventStore, depth: int
) -> None:
    """64 levels in all: the line's own object is the first, its event the second."""
    lines = list(export_lines(real, play_with_bots(real, "spies-and-lies", ["random", "random"])))
    nested_lines = with_nested_event(lines, nested(depth), rechained=True)
    assert import_game(other, nested_lines, bots=REGISTERED).ok


@pytest.mark.parametrize("depth", [63, 1000, 100_000])
def test_lines_nested_past_the_limit_are_refused(
    real: EventStore, other: EventStore, depth: int
) -> None:
    lines = list(export_lines(real, play_with_bots(real, "spies-and-lies", ["random", "random"])))
    with pytest.raises(InvalidExportError) as caught:
        import_game(other, with_nested_event(lines, nested(depth), rechained=False))
    assert caught.value.line == 2 and "nested deeper than 64" in str(caught.value)


def test_a_header_nested_too_deep_is_refused(real: EventStore, other: EventStore) -> None:
    lines = list(export_lines(real, play_with_bots(real, "spies-and-lies", ["random", "random"])))
    lines[0] = with_field(lines[0], nested(5000))
    with pytest.raises(InvalidExportError) as caught:
        import_game(other, lines)
    assert caught.value.line == 1


def test_a_stored_row_nested_too_deep_is_a_problem_not_a_traceback(real: EventStore) -> None:
    game_id = play_with_bots(real, "spies-and-lies", ["random", "random"])
    record, rows = log_of(real, game_id)
    deep = '{"type":"x","deep":' + nested(5000).decode() + "}"
    rows[4] = msgspec.structs.replace(rows[4], payload=deep)
    report = verify_log(GAMES, record, rows).report
    assert report.problem is not None
    assert (report.problem.seq, report.problem.code) == (5, "malformed-row")


# -- duplicated keys ---------------------------------------------------------------------------


def with_decoy(text: str) -> str:
    """A JSON object whose first key other than ``type`` comes twice: a decoy first (another
    number for a number, else the same value), the real value last (the one msgspec keeps,
    so the row still decodes and its hash still matches)."""
    key, value = next(item for item in msgspec.json.decode(text).items() if item[0] != "type")
    decoy = value + 1 if type(value) is int else value
    return "{" + msgspec.json.encode({key: decoy}).decode()[1:-1] + "," + text[1:]


def test_a_duplicated_key_in_an_event_is_refused_at_import(
    real: EventStore, other: EventStore
) -> None:
    """JSON readers differ on which of two equal keys counts: a line with one means two
    things, so it is refused, naming the line and its seq, though its hash matches."""
    game_id = play_with_bots(real, "black-spy", ["random", "random", "random"])
    record, rows = log_of(real, game_id)
    rows[11] = msgspec.structs.replace(rows[11], payload=with_decoy(rows[11].payload))
    assert verify_log(GAMES, record, rows).report.problem is not None  # verify, below
    lines = export_of(record, rows)
    with pytest.raises(InvalidExportError) as caught:
        import_game(other, lines, bots=REGISTERED)
    assert caught.value.line == 13 and caught.value.code == "duplicate-key"
    assert "seq 12" in str(caught.value) and "appears twice" in str(caught.value)
    assert other.list_games().total == 0


@pytest.mark.parametrize("field", ["event", "seq", "command"])
def test_a_duplicated_field_of_an_event_line_is_refused(
    real: EventStore, other: EventStore, field: str
) -> None:
    lines = list(export_lines(real, play_with_bots(real, "spies-and-lies", ["random", "random"])))
    line = msgspec.json.decode(lines[5])
    decoy = msgspec.json.encode({field: {"type": "decoy"} if field != "seq" else 999})
    lines[5] = decoy[:-1] + b"," + lines[5].strip()[1:]
    with pytest.raises(InvalidExportError) as caught:
        import_game(other, lines, bots=REGISTERED)
    assert caught.value.line == 6 and caught.value.code == "duplicate-key"
    assert f"seq {line['seq']}" in str(caught.value)


def test_a_duplicated_key_in_a_header_is_refused(real: EventStore, other: EventStore) -> None:
    lines = list(export_lines(real, play_with_bots(real, "spies-and-lies", ["random", "random"])))
    lines[0] = b'{"updated_at":"1999-01-01T00:00:00.000000Z",' + lines[0].strip()[1:]
    with pytest.raises(InvalidExportError) as caught:
        import_game(other, lines, bots=REGISTERED)
    assert caught.value.line == 1 and caught.value.code == "duplicate-key"


@pytest.mark.parametrize("column", ["payload", "command"])
def test_a_stored_row_with_a_duplicated_key_is_a_problem(real: EventStore, column: str) -> None:
    game_id = play_with_bots(real, "spies-and-lies", ["random", "random"])
    record, rows = log_of(real, game_id)
    index = next(
        i
        for i, row in enumerate(rows)
        if row.command is not None and len(msgspec.json.decode(getattr(row, column))) > 1
    )
    text = getattr(rows[index], column)
    rows[index] = msgspec.structs.replace(rows[index], **{column: with_decoy(text)})
    report = verify_log(GAMES, record, rows, bots=REGISTERED).report
    assert report.problem is not None
    assert (report.problem.seq, report.problem.code) == (index + 1, "duplicate-key")
