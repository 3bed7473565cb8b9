"""The heads of games in use: what a command or a read needs, cached in memory.

A game's head (:class:`spies_api.game.loading.Head`: its folded state, version, head hash and
secrets) is kept for recently used games in a bounded LRU cache. After a restart, or for a
game the cache dropped, it is loaded (:meth:`GameStates.fetch`): the head the store keeps
with the game, one read (:func:`spies_api.game.loading.load_head`), or, when none is kept
at the game's version, folded from the log's nearest snapshot; on the event loop itself
when the store reads there without waiting (SQLite's twin,
:meth:`~spies_replay.store.protocols.EventStore.loop_reader`) and a fold would be short (at
most one snapshot interval of events, a fold of the order of a thread hop; figures in
docs/speed.md), else on a worker thread. A head the cache drops is first kept packed
within a memory budget, as the store keeps it with the game
(:meth:`spies_api.game.loading.Head.packed`, a fraction of the head's own memory, with its
secrets beside it): unpacking it costs less than reading it, and no read of the log. The
log stays the authority: a head is used only at the version the game's record has, and an
append the store refuses drops it.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Final

import structlog

from spies_api.game import Head, load_head
from spies_api.game.loading import kept_head
from spies_api.service.placement import blocking
from spies_core.registry import get_game
from spies_replay.codec import codec_for
from spies_replay.errors import StoreBusyError
from spies_replay.reading import LongFoldError
from spies_replay.store.protocols import EventStore, LoopReads
from spies_replay.store.records import GameRecord, GameSecrets, GameStatus, HeadRow, KeptHeads

__all__ = ["PACKED_ENTRY", "GameStates", "Packed"]

PACKED_ENTRY: Final = 200
"""Bytes a packed head holds besides its text: its key, the record and the cache's node
(its secrets are counted in the head's own memory: they are the same object)."""

PAIRING_ROUNDS: Final = 8
"""How often :meth:`GameStates.paired` reads a game's record again before it gives up."""

_log = structlog.get_logger("spies_api.states")


@dataclass(frozen=True, slots=True)
class Packed:
    """A head the cache dropped, kept packed (:meth:`Head.packed`) with what that leaves
    out; or one the store keeps with its game, read ahead (:meth:`GameStates.warm`)."""

    version: int
    game: str
    finished: bool
    secrets: GameSecrets
    text: str
    head_hash: str

    @classmethod
    def of(cls, head: Head) -> Packed:
        packed = head.packed()
        return cls(head.version, head.game, head.finished, head.secrets, packed, head.head_hash)

    @classmethod
    def kept(cls, found: HeadRow) -> Packed | None:
        """The head kept with a game (``found``, a row of the store's ``kept_heads``), still
        packed: checked when it is unpacked; ``None`` without a head or secrets."""
        record = found.record
        if found.head is None or found.secrets is None:
            return None
        finished = record.status == GameStatus.FINISHED
        return cls(
            record.version, record.game, finished, found.secrets, found.head, record.head_hash
        )

    def unpack(self, game_id: str) -> Head | None:
        """The head; ``None`` when it does not decode or is not the one it was kept as (a
        head read ahead is checked here, against its game's row: logged, as
        :meth:`Head.unpacked` does)."""
        codec = codec_for(get_game(self.game))
        at = (game_id, self.version, self.head_hash)
        return Head.checked(self.text, codec, self.secrets, at, finished=self.finished)

    @property
    def size(self) -> int:
        return PACKED_ENTRY + sys.getsizeof(self.text)


class GameStates:
    """The cached heads of games over one store (thread-safe).

    Args:
        store: the replay log.
        capacity: the most games kept; the least recently used is dropped beyond it.
        reader: the log read on the event loop (``None``: every fold on a worker thread).
        reads: the reads of a miss awaited on the event loop (PostgreSQL's: the head kept
            with the game; a fold still goes to a worker thread).
        packed_bytes: the memory of the heads dropped beyond ``capacity`` and kept packed
            (``0``: none; the least recently used is dropped beyond it).
    """

    def __init__(
        self,
        store: EventStore,
        capacity: int,
        *,
        reader: EventStore | None = None,
        reads: LoopReads | None = None,
        packed_bytes: int = 0,
    ) -> None:
        if capacity < 1:
            raise ValueError(f"capacity must be at least 1, not {capacity}")
        self.store = store
        self.capacity = capacity
        self.reader = reader
        self.reads = reads
        self.packed_bytes = packed_bytes
        self._heads: OrderedDict[str, Head] = OrderedDict()
        self._packed: OrderedDict[str, Packed] = OrderedDict()
        self._packed_size = 0
        self._lock = threading.Lock()
        self._warming: set[str] | None = None  # games made stale while a page is read

    def cached(self, game_id: str) -> Head | None:
        """The cached head (unpacked if it was packed), marked as recently used, or
        ``None`` (no store access)."""
        with self._lock:
            head = self._heads.get(game_id)
            if head is not None:
                self._heads.move_to_end(game_id)
                return head
            packed = self._unpack(game_id)
        if packed is None:
            return None
        unpacked = packed.unpack(game_id)
        if unpacked is not None:
            self.put(unpacked)
        return unpacked

    @property
    def packed(self) -> int:
        """How many heads are kept packed."""
        return len(self._packed)

    @property
    def packed_size(self) -> int:
        """The bytes the packed heads hold, as counted against ``packed_bytes``."""
        return self._packed_size

    def _unpack(self, game_id: str) -> Packed | None:
        found = self._packed.pop(game_id, None)
        if found is None:
            return None
        self._packed_size -= found.size
        return found

    def _pack(self, head: Head) -> None:
        """Keep a head the cache drops packed, within the budget (under the lock)."""
        if not self.packed_bytes:
            return
        packed = Packed.of(head)
        self._unpack(head.id)
        self._packed[head.id] = packed
        self._packed_size += packed.size
        while self._packed_size > self.packed_bytes:
            self._unpack(next(iter(self._packed)))

    def put(self, head: Head) -> None:
        """Keep ``head`` unless a newer head of the game is already cached.

        A reader that folded the log while a command was being appended must not put its
        older state over the command's newer one.
        """
        with self._lock:
            current = self._heads.get(head.id)
            if current is not None and current.version > head.version:
                self._heads.move_to_end(head.id)
                return
            self._heads[head.id] = head
            self._heads.move_to_end(head.id)
            self._unpack(head.id)
            while len(self._heads) > self.capacity:
                self._pack(self._heads.popitem(last=False)[1])

    def discard(self, game_id: str) -> None:
        """Forget a game (its cached head is known to be stale)."""
        with self._lock:
            self._heard(game_id)
            self._heads.pop(game_id, None)
            self._unpack(game_id)

    def stale(self, game_id: str, version: int | None) -> None:
        """Another process appended to the game, up to ``version`` (``None``: not told):
        forget its cached head unless it is that far already."""
        if self._warming is None and game_id not in self._heads and game_id not in self._packed:
            return  # most: no lock
        with self._lock:
            self._heard(game_id)
            head = self._heads.get(game_id)
            if head is not None and (version is None or head.version < version):
                del self._heads[game_id]
            packed = self._packed.get(game_id)
            if packed is not None and (version is None or packed.version < version):
                self._unpack(game_id)

    def forget_all(self) -> None:
        """Forget every cached head, and every head of a page being read ahead: another
        process's appends may have gone unheard (the store's watch was not listening), so
        any of them may be stale."""
        with self._lock:
            self._heads.clear()
            self._packed.clear()
            self._packed_size = 0
            if self._warming is not None:
                self._warming = _Every()

    def _heard(self, game_id: str) -> None:
        """Note a game made stale while a page is read ahead (under the lock)."""
        if self._warming is not None:
            self._warming.add(game_id)  # a page read before this may hold an older head

    # -- read ahead (see spies_api.service.warming) -----------------------------------------

    def warming(self, *, on: bool = True) -> None:
        """Note the games made stale from now on (``on``; else no more), until the next
        :meth:`warm`: a page of kept heads read meanwhile may be older than they were told."""
        with self._lock:
            self._warming = set() if on else None

    def warm(self, page: KeptHeads) -> int:
        """Keep the heads of ``page`` (read since :meth:`warming`) packed, behind every head
        used (the first dropped), unless the game is cached already or was made stale
        meanwhile, while they fit in ``packed_bytes`` (a used head is never dropped for one).

        Returns:
            How many heads of the page were considered: fewer than its rows when the budget
            is full (warming stops there).
        """
        # under the lock throughout, still noting: a notice that comes meanwhile waits for
        # the lock, and then finds the head kept (and drops it) like any other
        with self._lock:
            heard = self._warming if self._warming is not None else set()
            try:
                return self._keep(page, heard)
            finally:
                self._warming = None

    def _keep(self, page: KeptHeads, heard: set[str]) -> int:
        for count, found in enumerate(page.rows):
            game_id = found.record.id
            if game_id in heard or game_id in self._heads or game_id in self._packed:
                continue
            packed = Packed.kept(found)
            if packed is None:
                continue
            if self._packed_size + packed.size > self.packed_bytes:
                return count
            self._packed[game_id] = packed
            self._packed.move_to_end(game_id, last=False)
            self._packed_size += packed.size
        return len(page.rows)

    def __len__(self) -> int:
        with self._lock:
            return len(self._heads)

    # -- on the event loop ---------------------------------------------------------------

    async def fetch(self, game_id: str) -> Head:
        """The cached head, else :meth:`refresh`.

        Raises:
            GameNotFoundError: no such game.
        """
        head = self.cached(game_id)
        return await self.refresh(game_id) if head is None else head

    async def refresh(self, game_id: str) -> Head:
        """Load the game's head (:func:`~spies_api.game.loading.load_head`) and cache it: on
        the loop from :attr:`reader` when it has one and the head is kept or at most a
        snapshot interval of events follow the nearest snapshot; the head kept with the
        game awaited on the loop from :attr:`reads` when it has them; else (a long fold, a
        file another connection holds, no head kept) on a worker thread.

        Raises:
            GameNotFoundError: no such game.
        """
        if self.reader is not None:
            try:
                head = load_head(self.reader, game_id, most=self.reader.snapshot_every)
            except (LongFoldError, StoreBusyError):
                pass  # a long fold, or the rare read that would wait: a worker thread's
            else:
                self.put(head)
                return head
        elif self.reads is not None:
            kept = self.adopt(await self.reads.head_row(game_id))
            if kept is not None:
                return kept
        return await blocking(self.load, game_id)

    def adopt(self, found: HeadRow) -> Head | None:
        """Cache the head kept with the game of ``found`` (a row read on the loop:
        :meth:`~spies_replay.store.protocols.LoopReads.head_row`, or with the caller's
        token, :meth:`~spies_replay.store.protocols.LoopReads.seat_and_head`) when it is to
        be used (:func:`~spies_api.game.loading.kept_head`); ``None`` when not (the
        command's :meth:`fetch` folds it then)."""
        kept = kept_head(found)
        if kept is not None:
            self.put(kept)
        return kept

    # -- blocking: worker threads ----------------------------------------------------------

    def load(self, game_id: str, *, keep: bool = True) -> Head:
        """Fold the game's head from the log (and cache it when ``keep``).

        Raises:
            GameNotFoundError: no such game.
        """
        head = load_head(self.store, game_id)
        if keep:
            self.put(head)
        return head

    def head_of(self, record: GameRecord, *, keep: bool = True) -> Head:
        """The head at ``record.version``: the cached one when it is at that version."""
        head = self.cached(record.id)
        if head is not None and head.version == record.version:
            return head
        return self.load(record.id, keep=keep)

    def current(self, game_id: str, *, keep: bool = True) -> tuple[GameRecord, Head]:
        """The game's record and its head at the same version (cached when possible).

        Raises:
            GameNotFoundError: no such game.
        """
        return self.paired(self.store.get_game(game_id), keep=keep)

    def paired(self, record: GameRecord, *, keep: bool = True) -> tuple[GameRecord, Head]:
        """``record``, or a newer read of it, with its head at the same version.

        A head loaded from the store is at the game's version when it is read, which an
        append made after ``record`` was read has moved on: the record is read again until
        both agree, so that what is said of the game (finished or not, its seats to act)
        never mixes two versions. Each round needs another append to the game between two
        reads of it; after :data:`PAIRING_ROUNDS` the pair is answered as it is, and logged
        (``record_head_apart``): a row whose version its log never reaches (a database edited
        by hand) must not hold a request for ever.
        """
        head = self.head_of(record, keep=keep)
        for _ in range(PAIRING_ROUNDS):
            if head.version == record.version:
                return record, head
            record = self.store.get_game(record.id)
            head = self.head_of(record, keep=keep)
        if head.version != record.version:
            _log.warning(
                "record_head_apart", game_id=record.id, record=record.version, head=head.version
            )
        return record, head


class _Every(set[str]):
    """The games made stale while a page was read ahead, when that may be any game."""

    def __contains__(self, game_id: object) -> bool:
        return True
