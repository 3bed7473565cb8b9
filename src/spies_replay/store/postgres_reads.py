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

from spies_replay.errors import GameNotFoundError
from spies_replay.store.heads import HEAD_ROW_SQL, head_of_row
from spies_replay.store.postgres_append import AsyncRecorder
from spies_replay.store.records import HeadRow, hash_token
from spies_replay.store.sql_rows import SEATS_SQL, seat_of_token

__all__ = ["AsyncReads"]

_HEAD_ROW: Final = HEAD_ROW_SQL.replace("?", "%s")
_SEATS: Final = SEATS_SQL.replace("?", "%s")
_SEATS_AND_HEAD_ROW: Final = HEAD_ROW_SQL.replace(
    " FROM games g",
    ", (SELECT array_agg(t.seat ORDER BY t.seat) FROM seats t WHERE t.game_id = g.id),"
    " (SELECT array_agg(t.token_hash ORDER BY t.seat) FROM seats t WHERE t.game_id = g.id)"
    " FROM games g",
    1,
).replace("?", "%s")
""":data:`HEAD_ROW_SQL` with the game's seats and token hashes (:data:`SEATS_SQL`'s) as two
arrays after its columns: a cold command's two reads in one round trip."""


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

    async def seat_and_head(self, game_id: str, token: str) -> tuple[int | None, HeadRow]:
        """As :meth:`~spies_replay.store.protocols.LoopReads.seat_and_head`: one round trip."""
        rows = await self.recorder.fetch(_SEATS_AND_HEAD_ROW, (game_id,))
        if not rows:
            raise GameNotFoundError(game_id)
        *row, seats, hashes = rows[0]
        pairs = list(zip(seats or (), hashes or (), strict=True))
        return seat_of_token(pairs, hash_token(token)), head_of_row(row, game_id)

    async def check_token(self, game_id: str, token: str) -> int | None:
        """As :meth:`~spies_replay.store.protocols.SeatLedger.check_token`."""
        rows: list[Any] = await self.recorder.fetch(_SEATS, (game_id,))
        return seat_of_token(rows, hash_token(token))
