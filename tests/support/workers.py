"""Decisions for the bot pool's worker processes in tests (importable by a spawned worker).

Each takes the marker file from ``SPIES_TEST_MARKER`` (set before the pool starts, so the
worker inherits it): the first decision creates the file, then hangs or kills its worker;
every later one returns the first legal command.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path
from random import Random
from typing import Any

__all__ = ["MARKER", "dies_once", "hangs_once"]

MARKER = "SPIES_TEST_MARKER"


def _first(marker: Path) -> bool:
    try:
        marker.touch(exist_ok=False)
    except FileExistsError:
        return False
    return True


def hangs_once(bot: str, game: str, view: Any, legal: Sequence[Any], rng: Random) -> Any:
    """Hangs on the first decision (until its worker is stopped)."""
    if _first(Path(os.environ[MARKER])):
        time.sleep(600)
    return legal[0]


def dies_once(bot: str, game: str, view: Any, legal: Sequence[Any], rng: Random) -> Any:
    """Kills its own worker on the first decision (a crash, the kernel's OOM killer)."""
    if _first(Path(os.environ[MARKER])):
        os._exit(1)
    return legal[0]
