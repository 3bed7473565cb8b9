"""PostgreSQL's reads of a cache miss awaited on the event loop: no worker thread.

A process that has no head of a game cached reads it (the game's row with its secrets and
the head kept with it: :data:`~spies_replay.store.heads.HEAD_ROW_SQL`) and the caller's
seat token: a round trip each. On a worker thread each round trip also hands the GIL
between that thread and the event loop, which costs more CPU than the read itself;
:class:`AsyncReads` awaits them on the loop instead, over the connections of the store's
:class:`~spies_replay.store.postgres_append.AsyncRecorder` (opened on the running loop at
first use), with the same answers and the same errors as the store's blocking reads.
"""

from __future__ import annotations

from typing import Any, Final

from spies_replay.store.heads import HEAD_ROW_SQL, head_of_row
from spies_replay.store.postgres_append import AsyncRecorder
from spies_replay.store.records import HeadRow, hash_token
from spies_replay.store.sql_rows import SEATS_SQL, seat_of_token

__all__ = ["AsyncReads"]

_HEAD_ROW: Final = HEAD_ROW_SQL.replace("?", "%s")
_SEATS: Final = SEATS_SQL.replace("?", "%s")


class AsyncReads:
    """A cache miss's reads on the event loop (:class:`~spies_replay.store.protocols.
    LoopReads`), over ``recorder``'s connections.

    Args:
        recorder: the store's recorder on the loop (its pool, its server's errors).
    """

    def __init__(self, recorder: AsyncRecorder) -> None:
        self.recorder = recorder

    async def head_row(self, game_id: str) -> HeadRow:
        """As :meth:`~spies_replay.store.protocols.SnapshotCache.head_row`."""
        rows = await self.recorder.fetch(_HEAD_ROW, (game_id,))
        return head_of_row(rows[0] if rows else None, game_id)

    async def check_token(self, game_id: str, token: str) -> int | None:
        """As :meth:`~spies_replay.store.protocols.SeatLedger.check_token`."""
        rows: list[Any] = await self.recorder.fetch(_SEATS, (game_id,))
        return seat_of_token(rows, hash_token(token))
