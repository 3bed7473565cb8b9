"""The figures of the last run of the attack tests, for ``docs/guarantees.md``.

Each test records what it tried (requests, races, crashes, tampers, ...) under its
guarantee's name; the figures are merged into ``build/attack-figures.json`` (git-ignored),
which ``python bench/attack_report.py`` prints as the guarantees table.
"""

from __future__ import annotations

import fcntl
import json
import os
import threading
from pathlib import Path
from typing import Any

__all__ = ["FIGURES_PATH", "record"]

FIGURES_PATH = Path(
    os.environ.get(
        "SPIES_ATTACK_FIGURES",
        Path(__file__).resolve().parents[2] / "build" / "attack-figures.json",
    )
)
_lock = threading.Lock()


def record(guarantee: str, test: str, **figures: Any) -> None:
    """Merge ``figures`` of ``test`` (``file::name``) under ``guarantee``; never fails a test.

    The merge holds a lock on the file's ``.lock`` beside it: the xdist workers of a run
    record at once."""
    with _lock:
        try:
            FIGURES_PATH.parent.mkdir(parents=True, exist_ok=True)
            with FIGURES_PATH.with_suffix(".lock").open("a") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                data: dict[str, Any] = {}
                if FIGURES_PATH.exists():
                    data = json.loads(FIGURES_PATH.read_text() or "{}")
                data.setdefault(guarantee, {})[test] = figures
                temporary = FIGURES_PATH.with_suffix(f".{os.getpid()}.tmp")
                temporary.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
                temporary.replace(FIGURES_PATH)
        except (OSError, ValueError):  # a read-only tree: the figures are a by-product
            pass
