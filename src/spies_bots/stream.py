"""The bots' generator from version 2 on: a :class:`random.Random` whose every draw reads the
protocol's own HMAC-SHA256 stream (docs/protocol.md, "Bot moves").

Version 1 of every bot drew from CPython's Mersenne Twister (:func:`spies_bots.base.bot_rng`),
whose ``randrange`` Python does not promise to keep across versions and which a verifier in
another language has to reproduce word for word. :class:`StreamRandom` draws from bytes the
protocol defines instead: block ``k`` of the stream of a bot at ``seat`` asked at the game's
version ``v`` is ``HMAC-SHA256(key = seed, ASCII("spies-bot/1:" + seat + ":" + v + ":" + k))``
(the seed the game draws from: the mixed one in a game with players' entropy), the blocks
read in order, and:

- ``randrange(n)`` is exactly the spec's ``randrange`` (as the game's own stream draws,
  :func:`spies_core.rng.randrange_of_words`): 8-byte big-endian words, each rejected while it
  is at or above ``2^64 - (2^64 mod n)``, the result ``x mod n``. ``choice``, ``shuffle`` and
  ``sample`` draw their indices with it (CPython's ``_randbelow`` hook); ``randrange(a, b,
  step)`` and ``randint`` draw the index into their range with it.
- ``random()`` reads the next 8-byte word and keeps its top 53 bits (``x >> 11``, divided by
  ``2^53``); ``getrandbits(k)`` reads ``ceil(k / 64)`` words, joined big-endian, and keeps
  the top ``k`` bits; ``choices``, ``gauss`` and the other distributions read these.

Only ``randrange`` is normative (the ``random`` bot's one draw); ``greedy`` and ``expert``
read this stream too, but how they draw is theirs.
"""

from __future__ import annotations

import hashlib
import hmac
from random import Random
from typing import Any, Final

from spies_core.rng import randrange_of_words

__all__ = ["BOT_STREAM", "StreamRandom", "bot_stream"]

BOT_STREAM: Final = "spies-bot/1"
"""The label of the bots' stream messages (a new label is a new stream)."""


class StreamRandom(Random):
    """A :class:`random.Random` reading the bot stream of ``(seed, seat, v)`` from its first
    byte (see the module docstring for what each method reads).

    >>> first, again = StreamRandom(b"seed", 0, 5), StreamRandom(b"seed", 0, 5)
    >>> [first.randrange(52) for _ in range(3)] == [again.randrange(52) for _ in range(3)]
    True
    """

    def __init__(self, seed: bytes, seat: int, v: int) -> None:
        self._key = bytes(seed)
        self._prefix = f"{BOT_STREAM}:{seat}:{v}:".encode()
        self._seat, self._v = seat, v
        self._block = 0
        self._buffer = b""
        self._at = 0
        super().__init__()

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Ignored: the stream is fixed by ``(seed, seat, v)`` (``Random.__init__`` calls
        this, and nothing here reads CPython's own generator)."""

    def _take(self, size: int) -> bytes:
        """The stream's next ``size`` bytes."""
        while len(self._buffer) - self._at < size:
            message = self._prefix + str(self._block).encode()
            block = hmac.digest(self._key, message, hashlib.sha256)
            self._buffer = self._buffer[self._at :] + block
            self._at = 0
            self._block += 1
        start = self._at
        self._at += size
        return self._buffer[start : self._at]

    def _word(self) -> int:
        return int.from_bytes(self._take(8), "big")

    def _randbelow(self, n: int) -> int:
        """The spec's ``randrange(n)``: the hook ``choice``, ``shuffle`` and ``sample`` use."""
        return randrange_of_words(self._word, n)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        """``randrange(n)`` is the spec's; ``randrange(start, stop, step)`` is ``start +
        step * randrange(len(range(start, stop, step)))``."""
        if stop is None:
            if step != 1:
                raise TypeError("randrange with one argument takes no step")
            return self._randbelow(start)
        span = range(start, stop, step)
        if not span:
            raise ValueError(f"empty range for randrange({start}, {stop}, {step})")
        return span[self._randbelow(len(span))]

    def random(self) -> float:
        """The next word's top 53 bits, over ``2^53``: in ``[0, 1)``."""
        return (self._word() >> 11) * (1.0 / (1 << 53))

    def getrandbits(self, k: int, /) -> int:
        """The top ``k`` bits of the next ``ceil(k / 64)`` words, joined big-endian."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        words = -(-k // 64)
        return int.from_bytes(self._take(8 * words), "big") >> (64 * words - k)

    def getstate(self) -> tuple[Any, ...]:
        """Where the stream is: the block count and the unread bytes (and ``gauss``'s)."""
        return (self._block, self._buffer[self._at :], self.gauss_next)

    def setstate(self, state: tuple[Any, ...]) -> None:
        """Go back to a state :meth:`getstate` gave, of the stream of the same key."""
        self._block, self._buffer, self.gauss_next = state
        self._at = 0

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its key and position (the server sends it to a worker process)."""
        return (self.__class__, (self._key, self._seat, self._v), self.getstate())


def bot_stream(seed: bytes, seat: int, v: int) -> StreamRandom:
    """The generator a bot of version 2 gets for ``seat`` when asked at the game's ``v``.

    >>> bot_stream(b"readme-demo", 0, 5).randrange(1000)  # block 0 starts d14134759477b194
    460
    """
    return StreamRandom(seed, seat, v)
