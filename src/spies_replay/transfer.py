"""Export a finished game to JSON Lines, and import one, verified, with its hashes intact.

Format ``spies-replay/3`` for every game created since format 3; an older game's export is
``spies-replay/1`` (``spies-replay/2`` for one whose players gave entropy: its
``seed_source`` is ``mixed``, and its log holds ``entropy_added`` events) with format 1's
chain (:mod:`spies_replay.formats`). UTF-8, one JSON object per line:

- line 1, the header: ``{"format": "spies-replay/3", "id", "game", "players", "options",
  "status", "version", "head_hash", "seed_commitment", "seed_source", "rng", "outcome",
  "created_at", "updated_at"}`` (the game's record);
- then one line per event, in seq order: ``{"seq", "type", "actor", "command", "event",
  "recorded_at", "hash"}``, where ``event`` is the payload object and ``command`` the
  command object (or ``null``), exactly as stored, and ``"bot"`` (the bot that chose the
  command) on the lines of commands a bot chose.

``docs/protocol.md`` defines the format byte for byte (every field, the hash chain, the
randomness, what verify checks); ``docs/protocol/vectors/`` holds its test vectors.

Seq 1 is ``game_created`` (with the seed commitment) and the last line is ``seed_revealed``,
so the file alone lets anyone recompute the hash chain (:mod:`spies_replay.codec`) and
re-run every shuffle and command (:mod:`spies_replay.verify`). Only finished games are
exported: in a game in progress the seed and the hidden cards are still secret.

What import refuses before it verifies (:class:`~spies_replay.errors.InvalidExportError`,
naming the line): a line that is not UTF-8 JSON of that shape, a line with a field the
format does not have (code ``unknown-field``, naming the event's seq: the hash chain covers
only an event line's own fields, so another would pass unverified and be dropped), a line
nested deeper than :data:`~spies_replay.codec.MAX_JSON_DEPTH` levels (measured before
decoding: the decoder has no depth limit of its own), a line with a key twice in one object,
at any depth (code ``duplicate-key``, naming the event's seq: JSON readers differ on which one
counts, and the decoder would silently keep the last), and a game id outside
:data:`GAME_ID`: 1 to 64 characters of
``[a-z0-9-]``, starting and ending with a letter or digit. That holds the server's own ids
(:func:`~spies_api.game.creation.new_game_id`: 16 characters of ``[a-z2-7]``) and the readable ids
tools and tests give (``active``, ``black-spy-6p-no-good-spies`` in the golden logs), and
keeps out everything a terminal, a shell or a path would read as more than a name: control
characters, ``/`` and ``.``, upper case that another store might fold, a leading ``-`` that a
command line reads as an option, and ids too long to print.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, Final

import msgspec

from spies_core.decider import AnySpec, Outcome
from spies_core.registry import GAMES, get_game
from spies_replay.codec import MAX_JSON_DEPTH, codec_for, duplicated_key, json_depth
from spies_replay.errors import GameNotFinishedError, InvalidExportError, TamperedLogError
from spies_replay.formats import (
    FORMAT_MIXED,
    FORMATS,
    ExportHeader,
    chain_of_format,
    export_format,
    stored_log,
)
from spies_replay.marks import BotPolicies
from spies_replay.meta import META_TYPES, seat_table
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import EventRow, GameRecord, GameSecrets, GameStatus, NewGame
from spies_replay.verify import VerifyReport, verify_log

__all__ = [
    "FORMAT_MIXED",
    "GAME_ID",
    "ExportHeader",
    "ExportedEvent",
    "export_format",
    "export_game",
    "export_lines",
    "import_game",
    "read_export",
]

GAME_ID: Final = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?", re.ASCII)
"""The game ids import accepts (see the module docstring), matched whole."""


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
_fields_decoder: Final = msgspec.json.Decoder(dict[str, msgspec.Raw])


def _field_names(struct: type[msgspec.Struct]) -> frozenset[str]:
    return frozenset(field.encode_name for field in msgspec.structs.fields(struct))


_EVENT_FIELDS: Final = _field_names(ExportedEvent)
_HEADER_FIELDS: Final = _field_names(ExportHeader)
_OUTCOME_FIELDS: Final = _field_names(Outcome)


def export_lines(store: EventStore, game_id: str) -> Iterator[bytes]:
    """The lines of a finished game's export, each ending in ``\\n``.

    Raises:
        GameNotFoundError: no such game.
        GameNotFinishedError: the game is in progress.
    """
    record, rows, _ = store.read_game(game_id)
    if record.status != GameStatus.FINISHED:
        raise GameNotFinishedError(game_id)
    log = stored_log(rows)
    header = ExportHeader(format=export_format(record, log), **msgspec.structs.asdict(record))
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


def read_export(lines: Iterable[bytes | str]) -> tuple[ExportHeader, list[EventRow]]:
    """Parse an export into its header (the game's record and the format, which
    :func:`~spies_replay.verify.verify_log` verifies the chain in) and rows (no
    verification).

    Raises:
        InvalidExportError: not a spies-replay export (names the line).
    """
    record: ExportHeader | None = None
    rows: list[EventRow] = []
    for number, line in _numbered(lines):
        if not line.strip():
            continue
        if json_depth(line) > MAX_JSON_DEPTH:
            raise InvalidExportError(
                f"nested deeper than {MAX_JSON_DEPTH} levels: not a spies-replay line",
                line=number,
            )
        try:
            if record is None:
                header = _header_decoder.decode(line)
                if header.format not in FORMATS:
                    raise InvalidExportError(
                        f"format {header.format!r} is not one of {', '.join(FORMATS)}",
                        line=number,
                    )
                if GAME_ID.fullmatch(header.id) is None:
                    raise InvalidExportError(
                        f"game id {header.id[:80]!r}{'…' if len(header.id) > 80 else ''} is"
                        " not a game id: 1 to 64 of a-z, 0-9 and '-', starting and ending"
                        " with a letter or digit",
                        line=number,
                    )
                _check_keys(line, number, None)
                _check_header_fields(line, number)
                record = header
                chain = chain_of_format(header.format)
                if header.format != export_format(header, chain):
                    raise InvalidExportError(
                        f"format {header.format!r} with seed_source"
                        f" {str(header.seed_source)!r}: in format 1's chain a mixed seed is"
                        f" format {FORMAT_MIXED!r}, every other {chain!r}",
                        line=number,
                    )
                continue
            item = _event_decoder.decode(line)
            _check_fields(line, _EVENT_FIELDS, "an event line", number, item.seq)
        except msgspec.DecodeError as exc:
            raise InvalidExportError(f"not a spies-replay line: {exc}", line=number) from exc
        except RecursionError as exc:  # the depth check's backstop: a deep stack already
            raise InvalidExportError("nested too deeply to decode", line=number) from exc
        _check_keys(line, number, item.seq)
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


def _check_keys(line: bytes | str, number: int, seq: int | None) -> None:
    """Refuse a line with a key twice in one object (the decoder kept the last)."""
    key = duplicated_key(line)
    if key is not None:
        where = "the header" if seq is None else f"seq {seq}"
        raise InvalidExportError(
            f"{where}: the key {key[:80]!r} appears twice in one object: JSON readers differ"
            " on which one counts, so the line has no one meaning",
            line=number,
            code="duplicate-key",
            seq=seq,
        )


def _check_fields(
    text: bytes | str, allowed: frozenset[str], what: str, number: int, seq: int | None
) -> dict[str, msgspec.Raw]:
    """Refuse an object with a field the format does not have; return its fields.

    The decoders skip unknown fields, and the hash chain covers only an event line's own
    fields (the header none), so another field would pass unverified and vanish on import.
    """
    fields = _fields_decoder.decode(text)
    unknown = sorted(name for name in fields if name not in allowed)
    if unknown:
        where = "the header" if seq is None else f"seq {seq}"
        raise InvalidExportError(
            f"{where}: {what} has no field {unknown[0][:80]!r} (its fields are"
            f" {', '.join(sorted(allowed))}); nothing would verify it",
            line=number,
            code="unknown-field",
            seq=seq,
        )
    return fields


def _check_header_fields(text: bytes | str, number: int) -> None:
    """The header's fields, and its outcome's, are the format's."""
    fields = _check_fields(text, _HEADER_FIELDS, "the header", number, None)
    outcome = bytes(fields["outcome"])
    if outcome.strip() != b"null":
        _check_fields(outcome, _OUTCOME_FIELDS, "the header's outcome", number, None)


def _numbered(lines: Iterable[bytes | str]) -> Iterator[tuple[int, bytes | str]]:
    """The lines with their numbers; a file that is not UTF-8 is refused at its line."""
    number = 0
    iterator = iter(lines)
    while True:
        number += 1
        try:
            line = next(iterator)
        except StopIteration:
            return
        except UnicodeDecodeError as exc:
            raise InvalidExportError("not UTF-8 text", line=number) from exc
        yield number, line


def _text_or_none(raw: msgspec.Raw) -> str | None:
    text = bytes(raw).decode()
    return None if text.strip() == "null" else text


def import_game(
    store: EventStore,
    lines: Iterable[bytes | str],
    *,
    bots: BotPolicies | None = None,
    head: str | None = None,
    games: Mapping[str, AnySpec] | None = None,
) -> VerifyReport:
    """Verify an export completely, then store the game with its hashes; all or nothing.

    The game keeps its id, every event its ``recorded_at`` and hash, so the head hash is the
    same in both stores. The revealed seed goes to the ``seeds`` table; the game has no seat
    tokens (it is over).

    Args:
        store: where to store the game.
        lines: the export's lines.
        bots: the bots to re-run the marked commands with (see
            :func:`~spies_replay.verify.verify_log`).
        head: the head hash the server that played the game published: the export must
            end in it.
        games: the games the export's game is looked up among (default: the registry).

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
    known = GAMES if games is None else games
    codec = codec_for(get_game(record.game, known))
    every = store.snapshot_every
    capture = range(every, record.version + 1, every)
    result = verify_log(known, record, rows, capture=capture, bots=bots, head=head)
    problem = result.report.problem
    if problem is not None:
        raise TamperedLogError(record.id, problem.seq, problem.code, problem.message)
    revealed = msgspec.json.decode(rows[-1].payload)
    seed = bytes.fromhex(revealed["seed"])
    fields = msgspec.structs.asdict(record)
    del fields["format"]  # the store keeps the record; the log says its format
    meta = [codec.event.decode(row.payload) for row in rows if row.type in META_TYPES]
    store.insert_game(
        NewGame(
            record=GameRecord(**fields),
            secrets=GameSecrets(seed=seed, deal=revealed.get("deal")),
            rows=rows,
            seats=seat_table(meta),
            snapshots=sorted(result.states.items()),
        )
    )
    return result.report
