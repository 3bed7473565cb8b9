"""Fair, re-derivable randomness: an HMAC-SHA256 stream keyed by the game's secret seed.

Algorithm ``hmac-sha256-fisher-yates/1`` (the version string is recorded with every game):

- The seed is 32 secret bytes drawn with ``secrets`` at creation (or given by the client,
  which makes the game reproducible). Its SHA-256 is published in the game's first event
  and the seed itself is revealed in the last one.
- Every call of ``start`` or ``decide`` gets its own stream, keyed by a *nonce*: 0 for the
  setup, and the game's version before the command (the seq of its last event) for each
  command. Block ``k`` of the stream is ``HMAC-SHA256(seed, "spies/1:<nonce>:<k>")``.
- ``randrange(n)`` reads the next 8 bytes of the stream as a big-endian unsigned integer
  ``x`` and returns ``x % n``, rejecting ``x`` at or above the largest multiple of ``n``
  below ``2**64`` (no modulo bias).
- Shuffles are :func:`spies_core.decider.shuffled`: Fisher-Yates from the last index down.

- Players' entropy (``spies-entropy/1``): a seed the server committed to before any player's
  entropy was known is mixed with the players' contributions by :func:`mix_seed`, and the
  game draws from the mixed seed; the server's seed is the one committed and revealed.

Anyone holding the revealed seed can therefore recompute every shuffle of a game from the
exported log. ``docs/protocol.md`` defines the algorithm and each game's draws byte for byte.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable

__all__ = [
    "ALGORITHM",
    "randrange_of_words",
    "ENTROPY_MAX_BYTES",
    "ENTROPY_MIN_BYTES",
    "MIXING",
    "FairRng",
    "mix_seed",
    "seed_commitment",
]

ALGORITHM = "hmac-sha256-fisher-yates/1"
"""The versioned name of this algorithm, recorded with every game."""

MIXING = "spies-entropy/1"
"""The versioned name of the mixing of players' entropy into a seed (:func:`mix_seed`)."""

ENTROPY_MIN_BYTES = 16
"""The fewest bytes a player's contribution may have."""

ENTROPY_MAX_BYTES = 64
"""The most bytes a player's contribution may have."""

_TWO_64 = 1 << 64


def seed_commitment(seed: bytes) -> str:
    """The public commitment to a seed: its SHA-256, as lower-case hex."""
    return hashlib.sha256(seed).hexdigest()


def mix_seed(server_seed: bytes, contributions: list[bytes] | tuple[bytes, ...]) -> bytes:
    """The seed a game draws from when players gave entropy (``spies-entropy/1``):
    ``HMAC-SHA256(key = server_seed, message = "spies-entropy/1" || for each contribution,
    its length as 4 bytes big-endian || its bytes)``, the contributions in order (the
    creator's, then each joiner's by seat).

    The server committed to ``server_seed`` before it saw any contribution, and the last
    contribution comes after the server's commitment, so neither side alone chose the result.

    >>> mix_seed(bytes(32), [bytes(16)]).hex()[:16]
    '3423939da4fd223c'
    """
    message = MIXING.encode() + b"".join(
        len(part).to_bytes(4, "big") + part for part in contributions
    )
    return hmac.new(server_seed, message, hashlib.sha256).digest()


def randrange_of_words(next_word: Callable[[], int], stop: int) -> int:
    """The protocol's ``randrange(stop)`` over a stream's 8-byte words (``next_word`` reads
    the next one as a big-endian unsigned integer): a word at or above the largest multiple
    of ``stop`` below ``2**64`` is rejected, the first other one is taken modulo ``stop``.
    The game's stream (:class:`FairRng`) and the bots' (``spies_bots.stream``) both draw so.

    >>> words = iter([2**64 - 1, 7])
    >>> randrange_of_words(lambda: next(words), 3)
    1
    """
    if stop <= 0:
        raise ValueError(f"empty range for randrange({stop})")
    limit = _TWO_64 - (_TWO_64 % stop)
    while True:
        value = next_word()
        if value < limit:
            return value % stop


class FairRng:
    """A deterministic random stream for one ``start`` or ``decide`` call.

    >>> FairRng(bytes(32), nonce=0).randrange(52) == FairRng(bytes(32), nonce=0).randrange(52)
    True
    """

    __slots__ = ("_block", "_buffer", "_nonce", "_seed")

    def __init__(self, seed: bytes, nonce: int) -> None:
        self._seed = seed
        self._nonce = nonce
        self._block = 0
        self._buffer = b""

    def _take(self, size: int) -> bytes:
        while len(self._buffer) < size:
            message = f"spies/1:{self._nonce}:{self._block}".encode()
            self._buffer += hmac.new(self._seed, message, hashlib.sha256).digest()
            self._block += 1
        chunk, self._buffer = self._buffer[:size], self._buffer[size:]
        return chunk

    def randrange(self, stop: int, /) -> int:
        """Return a uniformly chosen integer in ``[0, stop)``."""
        return randrange_of_words(self._word, stop)

    def _word(self) -> int:
        return int.from_bytes(self._take(8), "big")
