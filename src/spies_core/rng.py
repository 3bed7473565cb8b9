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

Anyone holding the revealed seed can therefore recompute every shuffle of a game from the
exported log. ``docs/protocol.md`` defines the algorithm and each game's draws byte for byte.
"""

from __future__ import annotations

import hashlib
import hmac

__all__ = ["ALGORITHM", "FairRng", "seed_commitment"]

ALGORITHM = "hmac-sha256-fisher-yates/1"
"""The versioned name of this algorithm, recorded with every game."""

_TWO_64 = 1 << 64


def seed_commitment(seed: bytes) -> str:
    """The public commitment to a seed: its SHA-256, as lower-case hex."""
    return hashlib.sha256(seed).hexdigest()


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
        if stop <= 0:
            raise ValueError(f"empty range for randrange({stop})")
        limit = _TWO_64 - (_TWO_64 % stop)
        while True:
            value = int.from_bytes(self._take(8), "big")
            if value < limit:
                return value % stop
