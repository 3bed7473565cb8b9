"""Export a finished game to JSON Lines, and import one, verified, with its hashes intact.

Format ``spies-replay/1``, UTF-8, one JSON object per line:

- line 1, the header: ``{"format": "spies-replay/1", "id", "game", "players", "options",
  "status", "version", "head_hash", "seed_commitment", "seed_source", "rng", "outcome",
  "created_at", "updated_at"}`` (the game's record);
- then one line per event, in seq order: ``{"seq", "type", "actor", "command", "event",
  "recorded_at", "hash"}``, where ``event`` is the payload object and ``command`` the
  command object (or ``null``), exactly as stored, and ``"bot"`` (the bot that chose the
  command) on the lines of commands a bot chose.

Seq 1 is ``game_created`` (with the seed commitment) and the last line is ``seed_revealed``,
so the file alone lets anyone recompute the hash chain (:mod:`spies_replay.codec`) and
re-run every shuffle and command (:mod:`spies_replay.verify`). Only finished games are
exported: in a game in progress the seed and the hidden cards are still secret.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import IO, Final

import msgspec

from spies_replay.codec import CHAIN_VERSION
from spies_replay.errors import GameNotFinishedError, InvalidExportError, TamperedLogError
from spies_replay.meta import META_TYPES, seat_table
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import EventRow, GameRecord, GameSecrets, GameStatus, NewGame
from spies_replay.verify import VerifyReport, verify_log

__all__ = [
    "ExportHeader",
    "ExportedEvent",
    "export_game",
    "export_lines",
    "import_game",
    "read_export",
]


class ExportHeader(GameRecord, frozen=True, kw_only=True):
    """Line 1 of an export: the game's record and the format."""

    format: str


class ExportedEvent(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One event line of an export, its JSON texts embedded as they are stored."""

    seq: int
    type: str
    actor: int | None
    command: msgspec.Raw
    """The command object, or ``null``."""
    event: msgspec.Raw
    recorded_at: str
    hash: str
    bot: str | None = None
    """The bot that chose the command (absent: a person, or not a command's first row)."""


_NULL: Final = msgspec.Raw(b"null")
_encoder: Final = msgspec.json.Encoder()
_header_decoder: Final = msgspec.json.Decoder(ExportHeader)
_event_decoder: Final = msgspec.json.Decoder(ExportedEvent)


def export_lines(store: EventStore, game_id: str) -> Iterator[bytes]:
    """The lines of a finished game's export, each ending in ``\\n``.

    Raises:
        GameNotFoundError: no such game.
        GameNotFinishedError: the game is in progress.
    """
    record, rows, _ = store.read_game(game_id)
    if record.status != GameStatus.FINISHED:
        raise GameNotFinishedError(game_id)
    header = ExportHeader(format=CHAIN_VERSION, **msgspec.structs.asdict(record))
    yield _encoder.encode(header) + b"\n"
    for row in rows:
        line = ExportedEvent(
            seq=row.seq,
            type=row.type,
            actor=row.actor,
            command=_NULL if row.command is None else msgspec.Raw(row.command.encode()),
            event=msgspec.Raw(row.payload.encode()),
            recorded_at=row.recorded_at,
            hash=row.hash,
            bot=row.bot,
        )
        yield _encoder.encode(line) + b"\n"


def export_game(store: EventStore, game_id: str, out: IO[bytes]) -> int:
    """Write a finished game's export to a binary file; return the number of events.

    Raises:
        GameNotFoundError: no such game.
        GameNotFinishedError: the game is in progress.
    """
    lines = 0
    for line in export_lines(store, game_id):
        out.write(line)
        lines += 1
    return lines - 1


def read_export(lines: Iterable[bytes | str]) -> tuple[GameRecord, list[EventRow]]:
    """Parse an export into the game's record and rows (no verification).

    Raises:
        InvalidExportError: not a spies-replay export (names the line).
    """
    record: GameRecord | None = None
    rows: list[EventRow] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            if record is None:
                header = _header_decoder.decode(line)
                if header.format != CHAIN_VERSION:
                    raise InvalidExportError(
                        f"format {header.format!r} is not {CHAIN_VERSION!r}", line=number
                    )
                fields = msgspec.structs.asdict(header)
                del fields["format"]
                record = GameRecord(**fields)
                continue
            item = _event_decoder.decode(line)
        except msgspec.DecodeError as exc:
            raise InvalidExportError(f"not a spies-replay line: {exc}", line=number) from exc
        rows.append(
            EventRow(
                seq=item.seq,
                type=item.type,
                payload=bytes(item.event).decode(),
                recorded_at=item.recorded_at,
                actor=item.actor,
                command=_text_or_none(item.command),
                hash=item.hash,
                bot=item.bot,
            )
        )
    if record is None:
        raise InvalidExportError("the file is empty")
    return record, rows


def _text_or_none(raw: msgspec.Raw) -> str | None:
    text = bytes(raw).decode()
    return None if text.strip() == "null" else text


def import_game(store: EventStore, lines: Iterable[bytes | str]) -> VerifyReport:
    """Verify an export completely, then store the game with its hashes; all or nothing.

    The game keeps its id, every event its ``recorded_at`` and hash, so the head hash is the
    same in both stores. The revealed seed goes to the ``seeds`` table; the game has no seat
    tokens (it is over).

    Returns:
        The verification report (always ``ok``, re-derived from the revealed seed).

    Raises:
        InvalidExportError: not a spies-replay export, or not a finished game.
        UnknownGameError: the game is not registered here.
        TamperedLogError: the log fails verification (first bad seq and reason).
        GameExistsError: a game with that id is already stored.
    """
    record, rows = read_export(lines)
    if record.status != GameStatus.FINISHED:
        raise InvalidExportError(f"game {record.id!r} is not finished; only finished games move")
    store.spec(record.game)
    every = store.snapshot_every
    capture = range(every, record.version + 1, every)
    result = verify_log(store.games, record, rows, capture=capture)
    problem = result.report.problem
    if problem is not None:
        raise TamperedLogError(record.id, problem.seq, problem.code, problem.message)
    revealed = msgspec.json.decode(rows[-1].payload)
    seed = bytes.fromhex(revealed["seed"])
    codec = store.codec(record.game)
    meta = [codec.event.decode(row.payload) for row in rows if row.type in META_TYPES]
    store.insert_game(
        NewGame(
            record=record,
            secrets=GameSecrets(seed=seed, deal=revealed.get("deal")),
            rows=rows,
            seats=seat_table(meta),
            snapshots=sorted(result.states.items()),
        )
    )
    return result.report
