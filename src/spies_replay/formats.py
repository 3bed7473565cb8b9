"""The log formats, and which one a log is in: an export's header says it, a stored game's
``game_created`` does.

``docs/protocol.md`` defines them:

- ``spies-replay/1``: format 1, its chain (genesis ``spies-replay/1:genesis:``) hashing
  msgspec's deterministic JSON;
- ``spies-replay/2``: format 1's chain and encoding, for a game whose players gave entropy
  (``seed_source`` ``mixed``): only the export's header says it;
- ``spies-replay/3``: format 3, every game created since: its own genesis
  (``spies-replay/3:genesis:``), RFC 8785 canonical JSON, a strictly hex seed. Its
  ``game_created`` says ``"log": "spies-replay/3"``, with or without entropy.

A game keeps its format for ever, and so do its exports: an old game goes on in format 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import msgspec

from spies_replay.codec import CHAIN_VERSION, CHAINS, FORMAT_3, MAX_JSON_DEPTH, json_depth
from spies_replay.meta import SeedSource
from spies_replay.store.records import EventRow, GameRecord

__all__ = [
    "FORMATS",
    "FORMAT_MIXED",
    "ExportHeader",
    "chain_of_format",
    "export_format",
    "log_of",
    "stored_log",
]

FORMAT_MIXED: Final = "spies-replay/2"
"""The header's ``format`` for a game of format 1's chain with players' entropy
(``seed_source`` ``mixed``); every other game of that chain says
:data:`~spies_replay.codec.CHAIN_VERSION`."""
FORMATS: Final = (CHAIN_VERSION, FORMAT_MIXED, FORMAT_3)
"""Every export ``format`` a reader accepts."""


class ExportHeader(GameRecord, frozen=True, kw_only=True):
    """Line 1 of an export: the game's record and the format."""

    format: str


def chain_of_format(format: str) -> str:
    """The chain an export of ``format`` is hashed in (format 2 is format 1's)."""
    return FORMAT_3 if format == FORMAT_3 else CHAIN_VERSION


def export_format(record: GameRecord, log: str) -> str:
    """The ``format`` an export says of a game sealed in the chain ``log``: format 3 for a
    game of format 3, else format 2 exactly for a ``mixed`` seed, else format 1."""
    if log == FORMAT_3:
        return FORMAT_3
    return FORMAT_MIXED if record.seed_source is SeedSource.MIXED else CHAIN_VERSION


_created_log: Final = msgspec.json.Decoder(dict[str, msgspec.Raw])


def stored_log(rows: Sequence[EventRow]) -> str:
    """The chain a stored game's rows say they are in: its ``game_created``'s ``log`` when
    that names a chain, else format 1's (a log written before format 3, or one whose first
    row is broken: the chain and ``game_created``'s checks name what is wrong)."""
    if not rows or json_depth(rows[0].payload) > MAX_JSON_DEPTH:
        return CHAIN_VERSION
    try:
        raw = _created_log.decode(rows[0].payload).get("log")
        log = None if raw is None else msgspec.json.decode(raw)
    except (msgspec.DecodeError, RecursionError):
        return CHAIN_VERSION
    return log if isinstance(log, str) and log in CHAINS else CHAIN_VERSION


def log_of(record: GameRecord, rows: Sequence[EventRow]) -> str:
    """The chain to verify a log in: the one its export's header says (so a header that
    lies about the format breaks the chain at seq 1), or for a stored game's record, the one
    its ``game_created`` says."""
    if isinstance(record, ExportHeader):
        return chain_of_format(record.format)
    return stored_log(rows)
