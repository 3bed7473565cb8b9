"""The web client's data (``web/src/generated/rules.ts``) is what the server's sources say.

``python -m spies_api.webdata`` writes it from the registry of games and the API; this fails
when the committed file differs, as ``tests/api/test_openapi.py`` does for the document.
"""

from __future__ import annotations

from pathlib import Path

from spies_api.problems.codes import ERROR_CODES
from spies_api.webdata import game_data, typescript
from spies_core.registry import GAMES

GENERATED = Path(__file__).resolve().parents[2] / "web" / "src" / "generated" / "rules.ts"


def test_the_committed_web_data_is_what_the_server_writes() -> None:
    assert GENERATED.read_text(encoding="utf-8") == typescript(), (
        "web/src/generated/rules.ts is stale: run `python -m spies_api.webdata >"
        " web/src/generated/rules.ts`, then (cd web && npm run build)"
    )


def test_every_cited_refusal_is_a_code_the_api_answers() -> None:
    codes = {entry.code for entry in ERROR_CODES}
    cited = {(name, code) for name, spec in GAMES.items() for code in spec.reference.refusals}
    assert {(name, code) for name, code in cited if code not in codes} == set()


def test_every_game_cites_the_rule_of_its_endings_and_refusals() -> None:
    # the citations themselves are checked against docs/rules by tests/test_rule_citations.py
    for name, spec in GAMES.items():
        assert spec.reference.endings, f"{name} cites no rule for its endings"
        assert spec.reference.refusals, f"{name} cites no rule for its refusals"


def test_the_data_holds_seat_counts_defaults_and_sections() -> None:
    data = game_data(GAMES["spies-and-lies"])
    assert data["seatCounts"] == [2, 4]
    assert data["options"]["deception_reserve"] == {
        "default": "shared",
        "choices": ["shared", "per-side"],
    }
    assert "deal" not in data["options"]
    assert data["refusals"]["borrow-not-exhausted"] == "9.6"
    assert data["endings"]["flag-captured"] == "12.1"
