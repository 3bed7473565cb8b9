"""``keys``: the database's receipt signing keys (:mod:`spies_replay.store.keyring`).

``keys list`` prints every key, the current one marked; ``keys rotate`` makes a new key the
current one. A rotated key stays listed (``GET /keys``), so the receipts it signed keep
verifying; a running ``spies-api`` keeps signing with the key it started with until it is
restarted (docs/operations.md, receipts).
"""

from __future__ import annotations

import argparse
from typing import TextIO

from spies_replay import EventStore
from spies_replay.cli.output import EXIT_OK, Output, UsageError
from spies_replay.receipts import new_key, public_key_of
from spies_replay.store.keyring import KeyDatabase, add_key, read_keys

__all__ = ["keys"]


def keys(store: EventStore, args: argparse.Namespace, out: Output, stdin: TextIO) -> int:
    """``keys list`` or ``keys rotate``."""
    if not isinstance(store, KeyDatabase):
        raise UsageError("this database keeps no signing keys")
    if args.action == "rotate":
        made = add_key(store, *new_key())
        if not out.json:
            out.line(f"rotated: key {made.key_id} signs from the next start of spies-api")
    rows = read_keys(store)
    if out.json:
        out.data(
            {
                "keys": [public_key_of(row.key_id, row.public_key) for row in rows],
                "current": next((row.key_id for row in rows if row.current), None),
            }
        )
    elif args.action == "list":
        for row in rows:
            state = "current" if row.current else "retired"
            out.line(f"{row.key_id}  {state:<7}  created {row.created_at}")
        if not rows:
            out.line("no key yet: spies-api makes one when it first starts")
    return EXIT_OK
