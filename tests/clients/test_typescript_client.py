"""The TypeScript client example: types that openapi-typescript generates from
``openapi/openapi.json``, compiled with ``examples/typescript/src/play.ts`` under strict
``tsc`` (the flags of its ``tsconfig.json``), then run against a real ``spies-api``; every
TypeScript block of README.md and docs/ (a ``ts`` or ``typescript`` fence) is compiled with
it, one module each, and run against the server too.

The example is copied into a temporary directory and installed there with ``npm ci`` from
its lockfile, so the test writes nothing into the repository. It needs Node.js and npm
(``.ci/run`` installs Debian's when they are missing) and the npm registry.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.support.servers import json_under_rate_limit

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = ROOT / "openapi" / "openapi.json"
EXAMPLE = ROOT / "examples" / "typescript"
SOURCES = ("package.json", "package-lock.json", "tsconfig.json", "src/play.ts")
PAGES = (ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")))
TYPESCRIPT = re.compile(r"^```(?:ts|typescript)\b[^\n]*\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def doc_blocks() -> dict[str, str]:
    """Every TypeScript block of the docs, by the module name it is compiled as
    (``docs_<page>_<n>``)."""
    found = {}
    for page in PAGES:
        for number, block in enumerate(TYPESCRIPT.findall(page.read_text()), start=1):
            stem = re.sub(r"\W", "_", page.relative_to(ROOT).with_suffix("").as_posix())
            found[f"docs_{stem}_{number}"] = block
    return found


def _run(command: list[str], cwd: Path, timeout: float = 600) -> str:
    done = subprocess.run(
        command,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}"
    return done.stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example with freshly generated types, type-checked and compiled."""
    npm = shutil.which("npm")
    assert npm is not None, "npm is missing: apt-get install -y nodejs npm, as .ci/run does"
    work = tmp_path_factory.mktemp("typescript-client")
    for name in SOURCES:
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(EXAMPLE / name, work / name)
    for module, block in doc_blocks().items():  # each a module beside play.ts
        (work / "src" / f"{module}.ts").write_text(block)
    _run([npm, "ci", "--no-audit", "--no-fund"], work)
    _run(["npx", "openapi-typescript", str(DOCUMENT), "-o", "src/schema.d.ts"], work)
    # strict (its tsconfig): the example matches the document; a type error fails the build
    # with its message, emitted or not, so one compile both checks and builds
    _run(["npx", "tsc", "--outDir", "dist"], work)
    return work


def test_the_example_compiles_under_strict_tsc_with_the_generated_types(built: Path) -> None:
    config = json.loads((built / "tsconfig.json").read_text())["compilerOptions"]
    assert config["strict"] and config["noUncheckedIndexedAccess"]
    assert (built / "src" / "schema.d.ts").stat().st_size > 0
    assert (built / "dist" / "play.js").is_file()


def test_every_typescript_block_of_the_docs_compiles_and_runs(built: Path, server: str) -> None:
    """The docs' TypeScript passed the strict compile (the fixture's), and each block runs:
    docs/http.md's creates a table with an inline seats literal and reads a tuple."""
    blocks = doc_blocks()
    assert "docs_docs_http_1" in blocks  # the docs show TypeScript: this test has work
    for module in blocks:
        assert (built / "dist" / f"{module}.js").is_file(), module
        output = _run(["node", f"dist/{module}.js", server], built, timeout=120)
        assert output.strip(), module
    told = _run(["node", "dist/docs_docs_http_1.js", server], built, timeout=120).strip()
    assert re.fullmatch(r"\w+: red's first exhausted soldier \d+, blue's \d+", told), told


def test_the_example_plays_a_deck_of_spies_game_to_the_end(built: Path, server: str) -> None:
    output = _run(["node", "dist/play.js", server], built, timeout=300)
    first, last = output.strip().splitlines()[0], output.strip().splitlines()[-1]
    played: dict[str, Any] = json.loads(last)
    assert first.startswith(f"game {played['id']}: spy ")
    summary = json_under_rate_limit(f"{server}/games/{played['id']}")
    assert (summary["game"], summary["status"]) == ("deck-of-spies", "finished")
    assert summary["outcome"] == played["outcome"] and played["commands"] > 0


def test_the_example_unpaced_waits_out_the_rate_limit(built: Path, rate_limited: str) -> None:
    """With no pacing (``0`` requests a second) against a server limited to 5 requests a
    second, the server answers 429: the example waits each ``Retry-After`` out and still
    plays the game to its end."""
    output = _run(["node", "dist/play.js", rate_limited, "0"], built, timeout=300)
    played: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    assert played["waits"] > 0
    summary = json_under_rate_limit(f"{rate_limited}/games/{played['id']}")
    assert summary["status"] == "finished" and summary["outcome"] == played["outcome"]
