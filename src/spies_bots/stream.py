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

import hmac
import struct
from random import Random
from typing import Any, Final

from spies_core.rng import randrange_of_words

__all__ = ["BOT_STREAM", "StreamRandom", "bot_stream"]

BOT_STREAM: Final = "spies-bot/1"
"""The label of the bots' stream messages (a new label is a new stream)."""

_WORDS_PER_BLOCK: Final = 4
_four_words: Final = struct.Struct(">4Q").unpack
"""An HMAC-SHA256 block (32 bytes) as four 8-byte big-endian words."""


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
        """The next block to compute."""
        self._words: tuple[int, ...] = ()
        """The last block computed, as its four 8-byte big-endian words."""
        self._next = _WORDS_PER_BLOCK
        """The next of :attr:`_words` to read (all read: compute the next block)."""
        self._mac: hmac.HMAC | None = None
        super().__init__()

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Ignored: the stream is fixed by ``(seed, seat, v)`` (``Random.__init__`` calls
        this, and nothing here reads CPython's own generator)."""

    def _word(self) -> int:
        """The stream's next 8 bytes, as a big-endian unsigned integer (every draw reads
        whole words, so the stream is kept as words)."""
        at = self._next
        if at == _WORDS_PER_BLOCK:
            self._words = _four_words(self._block_bytes(self._block))
            self._block += 1
            at = 0
        self._next = at + 1
        return self._words[at]

    def _block_bytes(self, k: int) -> bytes:
        """Block ``k``: an HMAC keyed once, the message's common prefix taken in once, copied
        for each block (cheaper than keying it again)."""
        if self._mac is None:
            self._mac = hmac.new(self._key, self._prefix, "sha256")
        mac = self._mac.copy()
        mac.update(str(k).encode())
        return mac.digest()

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
        value = 0
        for _ in range(words):
            value = (value << 64) | self._word()
        return value >> (64 * words - k)

    def getstate(self) -> tuple[Any, ...]:
        """Where the stream is: the next block, the last block's words and the next of them
        to read (and ``gauss``'s state)."""
        return (self._block, self._words, self._next, self.gauss_next)

    def setstate(self, state: tuple[Any, ...]) -> None:
        """Go back to a state :meth:`getstate` gave, of the stream of the same key."""
        self._block, self._words, self._next, self.gauss_next = state

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its key and position (the server sends it to a worker process)."""
        return (self.__class__, (self._key, self._seat, self._v), self.getstate())


def bot_stream(seed: bytes, seat: int, v: int) -> StreamRandom:
    """The generator a bot of version 2 gets for ``seat`` when asked at the game's ``v``.

    >>> bot_stream(b"readme-demo", 0, 5).randrange(1000)  # block 0 starts d14134759477b194
    460
    """
    return StreamRandom(seed, seat, v)
