"""Format 3's canonical JSON: msgspec's deterministic bytes are RFC 8785's for every value
without a float, a non-ASCII key or an integer beyond ±(2^53 - 1), which is what lets the
write path use msgspec (:mod:`spies_replay.jcs`); the rest goes through ``rfc8785``."""

from __future__ import annotations

import typing
from typing import Any

import msgspec
import pytest
import rfc8785
from hypothesis import given
from hypothesis import strategies as st

from spies_core.clock import TimeControl
from spies_core.deck_of_spies.events import CardsDrawn
from spies_core.registry import GAMES
from spies_replay.codec import FORMAT_3, canonical_bytes, encode, event_tag
from spies_replay.jcs import CanonicalizationError, exact_type, jcs_bytes, row_bytes
from spies_replay.meta import META_EVENTS, GameCreated, SeatJoined, SeedSource

SAFE = 2**53 - 1
deterministic = msgspec.json.Encoder(order="deterministic")

text = st.text(st.characters(blacklist_categories=("Cs",)))
"""Any string of valid Unicode (no lone surrogate), every plane, controls included."""
scalars = st.none() | st.booleans() | st.integers(-SAFE, SAFE) | text
exact_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(st.characters(max_codepoint=127), max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(exact_values)
def test_msgspec_writes_jcs_for_values_without_floats_big_ints_or_non_ascii_keys(
    value: Any,
) -> None:
    assert deterministic.encode(value) == rfc8785.dumps(value)


@given(st.dictionaries(text, st.integers(-3, 3), min_size=2, max_size=6))
def test_non_ascii_keys_are_where_the_orders_can_differ(value: dict[str, int]) -> None:
    """JCS orders keys by UTF-16 code units, msgspec by code points: the same order unless a
    key beyond U+FFFF meets one from U+E000 to U+FFFF."""
    keys = list(value)
    apart = any(ord(c) > 0xFFFF for k in keys for c in k) and any(
        0xE000 <= ord(c) <= 0xFFFF for k in keys for c in k
    )
    if not apart:
        assert deterministic.encode(value) == rfc8785.dumps(value)


def test_the_two_encoders_differ_on_floats_keys_and_big_ints() -> None:
    assert deterministic.encode([3.0, 0.5, 1e21]) == b"[3.0,0.5,1e21]"
    assert rfc8785.dumps([3.0, 0.5, 1e21]) == b"[3,0.5,1e+21]"
    keys = {"\uffff": 1, "\U0001f600": 2}
    assert deterministic.encode(keys) == '{"\uffff":1,"\U0001f600":2}'.encode()
    assert rfc8785.dumps(keys) == '{"\U0001f600":2,"\uffff":1}'.encode()
    with pytest.raises(CanonicalizationError):
        jcs_bytes(2**53)


def test_every_event_and_command_but_creation_and_reveal_takes_the_fast_path() -> None:
    """Only ``game_created`` (a clock's float seconds, free-form options) and
    ``seed_revealed`` (a free-form deal) need ``rfc8785`` on the write path."""
    slow = [kind.__name__ for kind in META_EVENTS if not exact_type(kind)]
    assert slow == ["GameCreated", "SeedRevealed"]
    for spec in GAMES.values():
        for kind in typing.get_args(spec.event_type) + typing.get_args(spec.command_type):
            assert exact_type(kind), kind
    assert not exact_type(TimeControl)


def row(event: msgspec.Struct, **extra: Any) -> dict[str, Any]:
    return {
        "actor": None,
        "command": None,
        "event": msgspec.json.decode(encode(event)),
        "recorded_at": "2026-12-01T12:00:00.000000Z",
        "seq": 1,
        "type": event_tag(event),
        **extra,
    }


def test_the_write_path_gives_the_readers_bytes() -> None:
    created = GameCreated(
        game="deck-of-spies",
        players=1,
        options={"é": 1, "\U0001f600": [0.5]},
        seed_commitment="00" * 32,
        seed_source=SeedSource.SERVER,
        rng="hmac-sha256-fisher-yates/1",
        clock=TimeControl(turn_seconds=3.0, increment_seconds=0.5),
        log=FORMAT_3,
    )
    for event in (created, SeatJoined(seat=0, name="Ada 😀"), CardsDrawn(cards=("10H",), count=1)):
        fields = row(event)
        read = canonical_bytes(
            seq=1,
            type=event_tag(event),
            actor=None,
            command=None,
            payload=encode(event),
            recorded_at=fields["recorded_at"],
            log=FORMAT_3,
        )
        assert row_bytes(fields, type(event)) == read == rfc8785.dumps(fields)
    assert b'"turn_seconds":3}' in row_bytes(row(created), GameCreated)  # not 3.0


def test_an_integer_jcs_cannot_write_is_refused_on_the_fast_path_too() -> None:
    big = CardsDrawn(cards=None, count=2**60)
    with pytest.raises(CanonicalizationError):
        row_bytes(row(big), CardsDrawn)
    near = CardsDrawn(cards=None, count=SAFE)  # 16 digits: checked by rfc8785, and fine
    assert row_bytes(row(near), CardsDrawn) == rfc8785.dumps(row(near))
