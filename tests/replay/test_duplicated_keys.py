"""``duplicated_key`` finds a key written twice in one object of any JSON text, whichever of
its two readings answers: the fast one (the text reads back to its own bytes, so no pair was
lost) or the one that reads the text pair by pair."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spies_replay.codec import duplicated_key

KEYS = st.sampled_from(["a", "b", "card", "seat", "é", "\\u0061"])
SCALARS = st.one_of(st.integers(-(2**70), 2**70), st.booleans(), st.none(), st.text(max_size=4))


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@st.composite
def texts(draw: st.DrawFn, depth: int = 2) -> str:
    """A JSON text whose objects are written pair by pair, so a key may come twice."""
    if depth == 0 or draw(st.booleans()):
        return _text(draw(SCALARS))
    if draw(st.booleans()):
        items = draw(st.lists(texts(depth - 1), max_size=3))
        return "[" + ",".join(items) + "]"
    pairs = draw(st.lists(st.tuples(KEYS, texts(depth - 1)), max_size=4))
    space = draw(st.sampled_from(["", " "]))
    return "{" + f",{space}".join(f'"{key}":{space}{value}' for key, value in pairs) + "}"


def _twice(text: str) -> str | None:
    """The first key met twice, read pair by pair (the definition)."""
    found: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [key for key, _ in items]
        for index, key in enumerate(keys):
            if key in keys[:index] and not found:
                found.append(key)
        return dict(items)

    json.loads(text, object_pairs_hook=pairs)
    return found[0] if found else None


@settings(suppress_health_check=[HealthCheck.too_slow])  # a loaded CI worker drew 1 in 1.8 s
@given(texts())
def test_a_key_twice_is_found_and_no_other_text_is_refused(text: str) -> None:
    expected = _twice(text)
    assert (duplicated_key(text) is None) == (expected is None), text
    assert (duplicated_key(text.encode()) is None) == (expected is None), text


def test_a_key_written_with_an_escape_is_the_same_key() -> None:
    assert duplicated_key('{"a":1,"\\u0061":2}') == "a"
    assert duplicated_key('{"a":{"b":1},"c":{"b":1}}') is None
