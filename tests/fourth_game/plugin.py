"""A pytest plugin that registers Card Duel, the test-only fourth game, in every generic suite.

Load it with ``pytest -p tests.fourth_game.plugin ...``. A ``-p`` plugin's
:func:`pytest_load_initial_conftests` runs before the first ``conftest.py`` is loaded, so the
game is in :data:`spies_core.registry.GAMES` before ``spies_api`` (which the conftests import)
builds its schemas from the registry. Registering happens in that hook, not on import, so
that merely importing this module (the doctest collection of a normal run does) registers
nothing.

The golden logs of the run are the committed ones (``tests/fixtures/golden``) and Card Duel's
(``tests/fourth_game/golden``), copied into one temporary directory named by
``SPIES_GOLDEN_DIR``. Card Duel's were written once, like every golden log::

    SPIES_GOLDEN_DIR=tests/fourth_game/golden python -c "import tests.fourth_game.plugin as p; \\
        p.register_fourth_game(); import tests.fixtures.make_golden as m; m.main(['card-duel'])"
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from spies_core.registry import GAMES, register
from tests.fourth_game.card_duel import SPEC

__all__ = ["register_fourth_game"]

HERE = Path(__file__).resolve().parent
COMMITTED_GOLDEN = HERE.parent / "fixtures" / "golden"


def register_fourth_game() -> None:
    """Register Card Duel (once)."""
    if SPEC.name not in GAMES:
        register(SPEC)


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config) -> None:
    """Register the game, and gather every golden log into one directory for this run."""
    register_fourth_game()
    golden = Path(tempfile.mkdtemp(prefix="spies-golden-"))
    for source in (COMMITTED_GOLDEN, HERE / "golden"):
        for path in source.glob("*.jsonl"):
            shutil.copyfile(path, golden / path.name)
    os.environ["SPIES_GOLDEN_DIR"] = str(golden)
    early_config.add_cleanup(lambda: shutil.rmtree(golden, ignore_errors=True))
