"""The documentation builds as a site, strictly, and the README stays a five-minute read.

``mkdocs build --strict`` with every validation of ``mkdocs.yml`` at "warn" fails on a broken
link or anchor, a page missing from the navigation and a link out of ``docs/``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

README_MAX_BYTES = 8_000
"""About five minutes of reading: what it is, the two commands, a first game, where to go."""


def mkdocs_build(project: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` of the site whose ``mkdocs.yml`` is in ``project``."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", *options],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=120,
        check=False,
    )


def test_the_docs_build_as_a_site_in_strict_mode(tmp_path: Path) -> None:
    done = mkdocs_build(ROOT, "--site-dir", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "index.html").is_file()
    assert (tmp_path / "rules" / "black-spy" / "index.html").is_file()


def test_a_broken_anchor_fails_the_build(tmp_path: Path) -> None:
    """The strict build is not a formality: a page linking to a missing anchor fails it."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\n[there](other.md#nowhere)\n")
    (docs / "other.md").write_text("# Other\n")
    config = (ROOT / "mkdocs.yml").read_text()
    config = config.split("\nnav:")[0]  # the site's own settings, no navigation
    (tmp_path / "mkdocs.yml").write_text(config)
    done = mkdocs_build(tmp_path)
    assert done.returncode != 0
    assert "nowhere" in done.stderr


def test_the_readme_is_short() -> None:
    size = len((ROOT / "README.md").read_bytes())
    assert size <= README_MAX_BYTES, f"README.md is {size} bytes: move the rest into docs/"
