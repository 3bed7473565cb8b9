"""Golden logs: finished games recorded by earlier versions of the engine must still import,
verify (hash chain, and every shuffle and command re-derived from the revealed seed under
today's rules) and replay to the same outcome. A failure here means a change broke the
persisted contract (an event tag or field, a rule, the randomness) for games already played.

Every golden case of every registered game (``spec.golden_cases``) has its file, written once
by ``tests/fixtures/make_golden.py`` and never regenerated. ``SPIES_GOLDEN_DIR`` names another
directory than ``tests/fixtures/golden``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spies_core.registry import get_game
from spies_replay.reading import load_state
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.transfer import import_game, read_export
from spies_replay.verify import Rederivation
from tests.fixtures.make_golden import cases, golden_dir

GOLDEN = sorted(golden_dir().glob("*.jsonl"))


@pytest.mark.parametrize(("game", "name"), [(game, case.name) for game, case in cases()])
def test_every_golden_case_of_every_registered_game_has_its_log(game: str, name: str) -> None:
    path = golden_dir() / f"{name}.jsonl"
    assert path.exists(), f"no golden log {path.name}: run python tests/fixtures/make_golden.py"
    assert read_export(path.read_text().splitlines())[0].game == game


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_log_imports_verifies_and_replays(tmp_path: Path, path: Path) -> None:
    lines = path.read_text().splitlines()
    record, rows = read_export(lines)
    with SQLiteEventStore(tmp_path / "golden.db") as store:
        report = import_game(store, lines)
        assert report.ok, report.problem
        assert report.rederived is Rederivation.REVEALED_SEED
        stored = store.get_game(record.id)
        assert stored.head_hash == record.head_hash == rows[-1].hash
        spec = get_game(record.game)
        assert spec.outcome(load_state(store, record.id).state) == record.outcome
