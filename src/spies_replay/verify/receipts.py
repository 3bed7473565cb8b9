"""Receipts against the log: each receipt the server signed must name a head the log holds
at its seq (``receipt-mismatch``), and, with the server's keys, carry that key's signature
(``receipt-key-unknown``, ``receipt-signature-invalid``). Checked last, after the log is
found whole: a receipt speaks of a log, not of a broken one."""

from __future__ import annotations

from collections.abc import Sequence

from spies_replay.receipts import KeyList, Receipt, receipt_problem
from spies_replay.store.records import EventRow
from spies_replay.verify.report import fail

__all__ = ["check_receipts"]


def check_receipts(
    game_id: str, rows: Sequence[EventRow], receipts: Sequence[Receipt], keys: KeyList | None
) -> None:
    """Each receipt in turn; the first that fails is the verdict."""
    hashes = [row.hash for row in rows]
    for receipt in receipts:
        found = receipt_problem(receipt, game_id, hashes, keys)
        if found is not None:
            code, message = found
            seq = receipt.seq if 1 <= receipt.seq <= len(hashes) else None
            raise fail(seq, code, message)
