"""The hash chain, walked over the whole log before any other check, so that an edit that
breaks it is named at its own seq even when a later check would read ahead.

Seqs run 1, 2, 3, … with no gap (``missing-event``) and in order (``out-of-order``: a seq
that exists but not in its place, or twice); every payload and command is JSON nested at
most :data:`~spies_replay.codec.MAX_JSON_DEPTH` levels (``malformed-row``) with no key twice
in one object (``duplicate-key``: readers differ on which counts); every row's hash chains
from the previous one (``hash-mismatch``, see :mod:`spies_replay.codec`), in the log's chain:
format 3's (RFC 8785: a value it cannot write is ``malformed-row``) or format 1's.

At the end, the log must end in the head hash its server published, when one is given
(``published-head-mismatch``; the message says when that hash is an earlier row's: a log
that goes on past what was published). That anchor is the server's, not the file's: no
rewrite can forge it.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from spies_replay.codec import (
    CHAIN_VERSION,
    MAX_JSON_DEPTH,
    canonical_bytes,
    chain_hash,
    duplicated_key,
    genesis_hash,
    json_depth,
)
from spies_replay.jcs import CanonicalizationError
from spies_replay.store.records import EventRow
from spies_replay.verify.report import fail

__all__ = ["Chain"]


class Chain:
    """A game's hash chain, walked row by row from its genesis hash."""

    def __init__(self, game_id: str, published: str | None, log: str = CHAIN_VERSION) -> None:
        self.log = log
        """The chain's version (:data:`~spies_replay.codec.CHAINS`)."""
        self.previous = genesis_hash(game_id, log)
        """The hash of the last row walked (the genesis hash before any)."""
        self.rows = 0
        """How many rows were walked and found chained."""
        self.published = published
        """The head hash a server published, if one was given."""
        self._hashes: dict[str, int] = {}
        """Each row's hash to its seq (kept only to name a published head's seq)."""

    def walk(self, rows: Sequence[EventRow]) -> None:
        """Walk every row, in the order stored."""
        seqs = frozenset(row.seq for row in rows)
        for index, row in enumerate(rows):
            self._link(row, index + 1, seqs)

    def _link(self, row: EventRow, expected_seq: int, seqs: frozenset[int]) -> None:
        if row.seq != expected_seq:
            if row.seq > expected_seq and expected_seq not in seqs:
                raise fail(
                    expected_seq,
                    "missing-event",
                    f"seq {expected_seq} is missing: the next event is seq {row.seq}",
                )
            raise fail(
                expected_seq,
                "out-of-order",
                f"expected seq {expected_seq} here but found seq {row.seq}",
            )
        for name, text in (("payload", row.payload), ("command", row.command or "")):
            if json_depth(text) > MAX_JSON_DEPTH:
                raise fail(
                    row.seq,
                    "malformed-row",
                    f"payload or command nested deeper than {MAX_JSON_DEPTH} levels",
                )
            key = duplicated_key(text)
            if key is not None:
                raise fail(
                    row.seq,
                    "duplicate-key",
                    f"the {name} has the key {key[:80]!r} twice in one object: JSON readers"
                    " differ on which one counts, so the row has no one meaning",
                )
        try:
            canonical = canonical_bytes(
                seq=row.seq,
                type=row.type,
                actor=row.actor,
                command=row.command,
                payload=row.payload,
                recorded_at=row.recorded_at,
                bot=row.bot,
                log=self.log,
            )
        except msgspec.DecodeError as exc:
            raise fail(row.seq, "malformed-row", f"payload or command is not JSON: {exc}") from exc
        except CanonicalizationError as exc:
            raise fail(
                row.seq,
                "malformed-row",
                f"RFC 8785 cannot write the payload or command ({exc}): an integer beyond"
                " ±(2^53 - 1)?",
            ) from exc
        digest = chain_hash(self.previous, canonical)
        if self.published is not None:
            self._hashes.setdefault(row.hash, row.seq)
        if digest != row.hash:
            raise fail(
                row.seq,
                "hash-mismatch",
                f"stored hash {row.hash[:16]}… is not sha256(previous hash || event):"
                f" expected {digest[:16]}…",
            )
        self.previous = digest
        self.rows = expected_seq

    def check_published(self) -> None:
        """The log must end in the head a server published, if one was given."""
        published = self.published
        if published is None or published.lower() == self.previous:
            return
        where = self._hashes.get(published.lower())
        found = (
            f": that is the hash at seq {where}, so this log goes on past the game the server"
            f" published at version {where}"
            if where is not None
            else ", nor the hash of any of its events"
        )
        raise fail(
            self.rows,
            "published-head-mismatch",
            f"the log ends in head {self.previous[:16]}… (seq {self.rows}), not in the head"
            f" {published[:16]}… the server published{found}",
        )
