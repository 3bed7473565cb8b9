"""The web client's words: English and German have the same keys (and the same parameters),
and every section of a German rule summary is a section of the English rule reference."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
I18N = ROOT / "web" / "src" / "i18n"
KEY = re.compile(r"^  (\w+):\s*(\([^)]*\) =>)?", re.M)
PROBLEM = re.compile(r'^    "([a-z-]+)": ', re.M)


def keys(path: Path) -> dict[str, str]:
    """Each top-level key of a language's object, with its parameter list ("" for a string)."""
    text = path.read_text(encoding="utf-8")
    body = text[text.index("= {") :]
    return {name: (params or "") for name, params in KEY.findall(body)}


def problem_codes(path: Path) -> set[str]:
    return set(PROBLEM.findall(path.read_text(encoding="utf-8")))


def test_every_key_is_in_both_languages() -> None:
    english = keys(I18N / "en.ts")
    german = keys(I18N / "de.ts")
    assert len(english) > 300
    assert sorted(set(english) - set(german)) == []
    assert sorted(set(german) - set(english)) == []
    # The same parameters, so that no German sentence drops a figure the English one shows.
    differ = {k: (english[k], german[k]) for k in english if english[k] != german[k]}
    assert differ == {}


def test_every_refusal_code_is_in_both_languages() -> None:
    english = problem_codes(I18N / "en.ts")
    german = problem_codes(I18N / "de.ts")
    assert "must-follow" in english
    assert english == german


def test_no_english_sentence_is_left_in_german() -> None:
    """A German string equal to its English one is a word both languages share, or a slip."""
    shared = {
        "Spies",
        "Lobby",
        "Bot ",
        "Seed ",
        "Deck of Spies",
        "Black Spy",
        "Stratego Spies & Lies",
        "Version",
    }
    text_en = (I18N / "en.ts").read_text(encoding="utf-8")
    text_de = (I18N / "de.ts").read_text(encoding="utf-8")
    string = re.compile(r'^  (\w+): "([^"]*)",$', re.M)
    english = dict(string.findall(text_en))
    german = dict(string.findall(text_de))
    same = {k: v for k, v in german.items() if english.get(k) == v and v not in shared and v}
    assert same == {}


@pytest.mark.parametrize("game", ["deck-of-spies", "black-spy", "spies-and-lies"])
def test_each_german_summary_section_is_in_the_reference(game: str) -> None:
    summary = (ROOT / "web" / "src" / "rules" / "de" / f"{game}.md").read_text(encoding="utf-8")
    reference = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    numbers = re.findall(r"^(?:#+ )?(\d+(?:\.\d+)*)\.? ", summary, re.M)
    assert len(numbers) > 8
    known = set(re.findall(r"^(?:#+ )?(\d+(?:\.\d+)*)\.? ", reference, re.M))
    assert [n for n in numbers if n not in known] == []
