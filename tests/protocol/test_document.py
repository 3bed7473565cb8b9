"""``docs/protocol.md`` lists every code verify and import can give, problems and caveats,
and no code they cannot (a code marked pending lands with another change)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = (ROOT / "docs" / "protocol.md").read_text("utf-8")
REPLAY = ROOT / "src" / "spies_replay"


def code_calls() -> tuple[set[str], set[str]]:
    """The problem codes and the caveat codes the verifier's and the reader's source give."""
    verify = "".join(path.read_text("utf-8") for path in sorted((REPLAY / "verify").glob("*.py")))
    transfer = (REPLAY / "transfer.py").read_text("utf-8")
    problems = set(re.findall(r'\bfail\(\s*[^,()]+(?:\([^()]*\))?[^,()]*,\s*"([a-z-]+)"', verify))
    problems |= set(re.findall(r'code="([a-z-]+)"', verify + transfer))
    problems |= set(re.findall(r'ClockMismatchError\(\s*[^,]+,\s*"([a-z-]+)"', verify))
    problems.add("invalid-export")  # InvalidExportError's own code
    receipts = (REPLAY / "receipts.py").read_text("utf-8")  # the receipt checks' codes
    problems |= set(re.findall(r'"(receipt-[a-z-]+)"', receipts))
    caveats = set(re.findall(r'caveat\(\s*[^,]+,\s*"([a-z-]+)"', verify))
    return problems, caveats


def documented() -> tuple[set[str], set[str], set[str]]:
    """The document's problem codes (its table), those of them pending, and its caveats."""
    table = DOCUMENT.split("**Problem codes**", 1)[1].split("**Caveats**", 1)[0]
    rows = re.findall(r"^\| `([a-z-]+)` \| (.*) \|$", table, re.MULTILINE)
    problems = {code for code, _ in rows}
    pending = {code for code, text in rows if "(pending" in text}
    caveats_text = DOCUMENT.split("**Caveats**", 1)[1].split("\n\n", 1)[0]
    return problems, pending, set(re.findall(r"`([a-z]+(?:-[a-z]+)+)`", caveats_text))


def test_the_code_finder_finds_the_codes() -> None:
    problems, caveats = code_calls()
    assert {"hash-mismatch", "clocks-mismatch", "unknown-field", "orphan-events"} <= problems
    assert {"clocks-resumed", "bots-not-given"} <= caveats


def test_every_code_verify_gives_is_in_the_document_and_no_other() -> None:
    problems, caveats = code_calls()
    listed, pending, listed_caveats = documented()
    assert sorted(problems - listed) == [], "codes missing from docs/protocol.md"
    assert sorted(listed - pending - problems) == [], "codes docs/protocol.md lists in vain"
    assert listed_caveats == caveats


def test_every_code_the_document_names_in_its_checks_is_a_listed_one() -> None:
    listed, _, caveats = documented()
    checks = DOCUMENT.split("## Verify", 1)[1].split("**Problem codes**", 1)[0]
    named = set(re.findall(r"`([a-z]+(?:-[a-z]+)+)`", checks))
    named -= {"not-checked", "hmac-sha256-fisher-yates"}
    assert sorted(named - listed - caveats) == []
