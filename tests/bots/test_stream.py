"""The bots' generator from version 2 (``spies_bots.stream``): every draw reads the bot
stream as its module says, it survives the trip to a worker process, and it owes nothing to
CPython's own generator."""

from __future__ import annotations

import hashlib
import hmac
import pickle
import random
from collections.abc import Callable

import pytest

from spies_bots import StreamRandom, bot_stream


def words(seed: bytes, seat: int, v: int, count: int) -> list[int]:
    """The stream's first ``count`` 8-byte words, straight from its definition."""
    data = b"".join(
        hmac.digest(seed, f"spies-bot/1:{seat}:{v}:{k}".encode(), hashlib.sha256)
        for k in range(count // 4 + 1)
    )
    return [int.from_bytes(data[8 * i : 8 * i + 8], "big") for i in range(count)]


def test_random_and_getrandbits_read_whole_words_in_order() -> None:
    w = words(b"seed", 3, 41, 6)
    rng = bot_stream(b"seed", 3, 41)
    assert rng.random() == (w[0] >> 11) / 2**53
    assert rng.getrandbits(64) == w[1]
    assert rng.getrandbits(100) == ((w[2] << 64) | w[3]) >> 28
    assert rng.getrandbits(0) == 0  # reads nothing
    assert rng.getrandbits(1) == w[4] >> 63


def test_choice_shuffle_and_ranges_draw_with_the_specs_randrange() -> None:
    w = words(b"seed", 0, 7, 8)
    rng = bot_stream(b"seed", 0, 7)
    assert rng.choice("abcde") == "abcde"[w[0] % 5]
    assert rng.randrange(10, 40, 3) == 10 + 3 * (w[1] % 10)
    assert rng.randint(1, 6) == 1 + w[2] % 6
    items = list(range(4))
    rng.shuffle(items)
    expected = list(range(4))
    for i, word in zip((3, 2, 1), w[3:6], strict=True):
        j = word % (i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected


def test_it_pickles_where_it_stands_and_seeding_changes_nothing() -> None:
    rng = bot_stream(b"seed", 1, 2)
    rng.random()
    rng.seed(12345)  # Random's API: ignored, the stream is fixed by (seed, seat, v)
    copy = pickle.loads(pickle.dumps(rng))
    assert isinstance(copy, StreamRandom)
    assert [copy.randrange(1000) for _ in range(9)] == [rng.randrange(1000) for _ in range(9)]
    state = rng.getstate()
    first = rng.getrandbits(256)
    rng.setstate(state)
    assert rng.getrandbits(256) == first


def test_it_does_not_read_cpythons_generator() -> None:
    random.seed(1)
    before = random.getstate()
    one = bot_stream(b"seed", 0, 0).random()
    random.seed(2)
    assert bot_stream(b"seed", 0, 0).random() == one
    random.setstate(before)


@pytest.mark.parametrize("call", [lambda r: r.randrange(0), lambda r: r.randrange(5, 5)])
def test_an_empty_range_is_refused(call: Callable[[StreamRandom], object]) -> None:
    with pytest.raises(ValueError, match="empty range"):
        call(bot_stream(b"seed", 0, 0))
