"""The web client's words: English and German have the same keys (and the same parameters),
every code the API answers has a player's sentence in both (the API's English ``detail`` is
for a code the page does not know), every word of a game's log that comes from the server's
vocabulary is translated, and every section of a German rule summary is a section of the
English rule reference."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spies_api.problems.codes import ERROR_CODES
from spies_core.spies_and_lies.state import ForcedBy, MoveCause, PointSource, SoldierEffect

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


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_code_the_api_answers_has_a_players_sentence(language: str) -> None:
    """A refusal is shown in the page's language: the bot-game limit, an unknown game, a
    taken seat, a server that is down; never the server's English ``detail``."""
    known = problem_codes(I18N / f"{language}.ts")
    assert sorted({entry.code for entry in ERROR_CODES} - known) == []


LOG_WORDS = {
    "slEffectName": SoldierEffect,
    "slForcedBy": ForcedBy,
    "slPointSource": PointSource,
    "slMoveCause": MoveCause,
}
"""The Spies & Lies log's words that come from the server's events, each with its table."""


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("key", sorted(LOG_WORDS))
def test_every_word_of_the_log_from_the_server_is_translated(language: str, key: str) -> None:
    """No raw value of an event ("soldier", "scout", "miner") reaches a German log line."""
    text = (I18N / f"{language}.ts").read_text(encoding="utf-8")
    table = re.search(rf"^  {key}: \(\w+: string\) => pick\(\{{([^}}]*)\}}", text, re.M)
    assert table is not None, f"{key} is not a table of words in {language}.ts"
    words = dict(re.findall(r'([\w-]+): "([^"]*)"', table.group(1)))
    assert sorted(words) == sorted(value.value for value in LOG_WORDS[key])
    if language == "de":
        assert not [v for v in words.values() if v in {m.value for m in LOG_WORDS[key]}]


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


SECTION = re.compile(r"^(?:#+ )?(\d+(?:\.\d+)*)\.? ", re.M)
"""A numbered section of a rule text: a heading "## 5. Tricks" or a paragraph "5.2 ..."."""


def sections(path: Path) -> list[str]:
    return SECTION.findall(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game", ["deck-of-spies", "black-spy", "spies-and-lies"])
def test_each_players_rulebook_section_is_in_the_reference(game: str, lang: str) -> None:
    numbers = sections(ROOT / "web" / "src" / "rules" / lang / f"{game}.md")
    assert len(numbers) > 8
    known = set(sections(ROOT / "docs" / "rules" / f"{game}.md"))
    assert [n for n in numbers if n not in known] == []


@pytest.mark.parametrize("game", ["deck-of-spies", "black-spy", "spies-and-lies"])
def test_the_rulebooks_have_the_same_sections_in_both_languages(game: str) -> None:
    rules = ROOT / "web" / "src" / "rules"
    assert sections(rules / "en" / f"{game}.md") == sections(rules / "de" / f"{game}.md")
