"""Verify over a store: one stored game, or all of them and the events whose game row is
gone (``orphan-events``).

A game in progress is re-derived from the server's own seed (an operator audit). Snapshots
are a cache, not part of the log: they are compared with the fold, and a disagreement is a
warning.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from spies_core.decider import AnySpec
from spies_core.registry import GAMES
from spies_replay.codec import codec_for
from spies_replay.errors import GameNotFoundError
from spies_replay.marks import BotPolicies
from spies_replay.receipts import KeyList, Receipt
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import GameRecord
from spies_replay.verify.report import Problem, Rederivation, VerifyReport, VerifyResult
from spies_replay.verify.walk import verify_log

__all__ = ["verify_all", "verify_game"]


def verify_game(
    store: EventStore,
    game_id: str,
    *,
    bots: BotPolicies | None = None,
    head: str | None = None,
    games: Mapping[str, AnySpec] | None = None,
    receipts: Sequence[Receipt] = (),
    keys: KeyList | None = None,
) -> VerifyReport:
    """Verify one stored game, re-deriving it from the revealed or the stored seed.

    Args:
        store: the store.
        game_id: the game.
        bots: the bots to re-run marked commands with (see
            :func:`~spies_replay.verify.verify_log`).
        head: the head hash a server published for the game (see
            :func:`~spies_replay.verify.verify_log`).
        games: the games that can be decoded, by id (default: the registry).
        receipts: receipts the server signed, and ``keys`` its keys (see
            :func:`~spies_replay.verify.verify_log`).

    Raises:
        GameNotFoundError: no such game (and no orphaned events under that id).
    """
    try:
        record, rows, secrets = store.read_game(game_id)
    except GameNotFoundError:
        if game_id in store.orphan_game_ids():
            return _orphan_report(store, game_id)
        raise
    capture = {seq for seq, _ in store.snapshots(game_id)}
    seed, deal = (None, None) if secrets is None else (secrets.seed, secrets.deal)
    known = GAMES if games is None else games
    result = verify_log(
        known,
        record,
        rows,
        seed=seed,
        deal=deal,
        capture=capture,
        bots=bots,
        head=head,
        receipts=receipts,
        keys=keys,
    )
    if result.report.ok:
        _check_snapshots(store, known[record.game], record, result)
    return result.report


def verify_all(
    store: EventStore,
    *,
    bots: BotPolicies | None = None,
    games: Mapping[str, AnySpec] | None = None,
) -> list[VerifyReport]:
    """Verify every stored game, and report events whose game row is missing.

    Args:
        store: the store.
        bots: the bots to re-run marked commands with (see
            :func:`~spies_replay.verify.verify_log`).
        games: the games that can be decoded, by id (default: the registry).
    """
    reports = [verify_game(store, game_id, bots=bots, games=games) for game_id in store.game_ids()]
    reports += [_orphan_report(store, game_id) for game_id in store.orphan_game_ids()]
    return reports


def _check_snapshots(
    store: EventStore, spec: AnySpec, record: GameRecord, result: VerifyResult
) -> None:
    decode: Callable[[str], Any] = codec_for(spec).state.decode
    for seq, text in store.snapshots(record.id):
        try:
            state = decode(text)
        except (msgspec.DecodeError, msgspec.ValidationError):
            result.report.warnings.append(f"snapshot at seq {seq} no longer decodes (ignored)")
            continue
        if seq not in result.states or state != result.states[seq]:
            result.report.warnings.append(f"snapshot at seq {seq} disagrees with the fold")


def _orphan_report(store: EventStore, game_id: str) -> VerifyReport:
    return VerifyReport(
        game_id=game_id,
        game=None,
        status=None,
        ok=False,
        events=len(store.read_rows(game_id)),
        head_hash=None,
        rederived=Rederivation.NOT_CHECKED,
        problem=Problem(
            seq=None, code="orphan-events", message="events without a games row (deleted?)"
        ),
    )
