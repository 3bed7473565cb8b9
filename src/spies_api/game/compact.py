"""A game's head as the store keeps it with the game: :class:`CompactHead`, one row of
``heads`` (:mod:`spies_replay.store.heads`) that a process with no head of the game cached
reads instead of folding the log (:func:`spies_api.game.loading.load_head`).

msgspec JSON with explicit types, never a pickle: the database is not this process's
memory, and another process, or another version of the engine, reads what this one wrote.
The state inside is a snapshot's JSON (the same encoding as ``snapshots``), decoded by the
game's snapshot decoder (:attr:`spies_replay.codec.GameCodec.state`). The seed and an
explicit deal are never in it: they stay in ``seeds``, read in the same query. A mixed
game's contributions of entropy are: they are public, in the log, and make its play seed.

It is a cache of what the log says: a reader uses it only when its :attr:`~CompactHead.
format` is this code's and its game id, version and head hash are the game row's, and
folds the log otherwise.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from spies_core.clock import ClockState
from spies_replay.meta import EntropyAdded, SeatState

__all__ = ["HEAD_FORMAT", "CompactHead", "decode_compact", "encode_compact", "encode_state"]

HEAD_FORMAT: Final = 1
"""The layout of :class:`CompactHead` this code writes and reads; a head of another (an
older or newer engine's) is not used: the game is folded, and its head written anew."""

_encoder: Final = msgspec.json.Encoder()


class CompactHead(msgspec.Struct, frozen=True, kw_only=True):
    """What :class:`~spies_api.game.loading.Head` holds but its secrets, as kept with the
    game (each field as the head's of the same name).

    Attributes:
        format: :data:`HEAD_FORMAT` when written.
        state: the folded state, as a snapshot's JSON.
        entropy: a mixed game's contributions to its seed, in log order (public events).
    """

    format: int
    id: str
    version: int
    head_hash: str
    log: str
    state: msgspec.Raw
    seats: tuple[SeatState, ...] = ()
    clock: ClockState | None = None
    acted: tuple[int, ...] = ()
    deal_deferred: bool = False
    open_until: str | None = None
    entropy: tuple[EntropyAdded, ...] = ()


_decoder: Final = msgspec.json.Decoder(CompactHead)


def encode_state(state: Any) -> msgspec.Raw:
    """A state as a snapshot's JSON, to keep in :attr:`CompactHead.state`."""
    return msgspec.Raw(_encoder.encode(state))


def encode_compact(compact: CompactHead) -> str:
    """The text the store keeps."""
    return _encoder.encode(compact).decode()


def decode_compact(text: str) -> CompactHead:
    """A kept head read back (its state still a snapshot's JSON).

    Raises:
        msgspec.DecodeError: the text is not JSON.
        msgspec.ValidationError: it is not a compact head.
    """
    return _decoder.decode(text)
