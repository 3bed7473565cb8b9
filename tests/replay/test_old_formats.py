"""Logs of formats 1 and 2 keep every hash when they move: an export written before format 3
imports verified and exports again byte for byte (its header still saying ``spies-replay/1``
or ``/2``), and the games of a database written before format 3 copy to another store with
the same heads, still verifying, and go on in format 1 (:mod:`spies_replay.formats`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from spies_replay.codec import CHAIN_VERSION, FORMAT_3
from spies_replay.copying import CopyOutcome, copy_store
from spies_replay.formats import FORMAT_MIXED, stored_log
from spies_replay.store.backends import open_store
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.transfer import export_lines, import_game
from spies_replay.verify import verify_all
from tests.support.botgames import REGISTERED

ROOT = Path(__file__).resolve().parents[2]
FROZEN = ROOT / "docs" / "protocol" / "vectors" / "format-1"
HONEST = [
    entry["file"]
    for entry in json.loads((FROZEN / "exports.json").read_text("utf-8"))["vectors"]
    if entry["verdict"]["ok"]
]
GOLDEN = ROOT / "tests" / "fixtures" / "golden.db"


@pytest.mark.parametrize("name", HONEST, ids=lambda name: Path(name).stem)
def test_an_old_export_imports_and_exports_again_byte_for_byte(name: str, tmp_path: Path) -> None:
    data = (FROZEN / name).read_bytes()
    header = json.loads(data.splitlines()[0])
    assert header["format"] in (CHAIN_VERSION, FORMAT_MIXED)
    with SQLiteEventStore(tmp_path / "imported.db") as store:
        report = import_game(store, data.splitlines(keepends=True), bots=REGISTERED)
        assert report.ok, report.problem
        assert store.get_game(header["id"]).head_hash == header["head_hash"]
        assert stored_log(store.read_rows(header["id"])) == CHAIN_VERSION
        assert b"".join(export_lines(store, header["id"])) == data


def test_an_old_database_copies_with_every_head_and_still_verifies(tmp_path: Path) -> None:
    source_path = tmp_path / "golden.db"
    shutil.copyfile(GOLDEN, source_path)
    with (
        open_store(source_path, create=False) as source,
        SQLiteEventStore(tmp_path / "copy.db") as target,
    ):
        copied = copy_store(source, target).games
        assert copied and all(game.outcome is CopyOutcome.COPIED for game in copied)
        for game in copied:
            assert (
                target.get_game(game.game_id).head_hash == source.get_game(game.game_id).head_hash
            )
            assert stored_log(target.read_rows(game.game_id)) == CHAIN_VERSION != FORMAT_3
        assert all(report.ok for report in verify_all(target))
