"""The server's receipt signing key: every answer that appends carries a signed receipt
(:mod:`spies_replay.receipts`), and ``GET /keys`` lists the public keys.

The key lives in the database (:mod:`spies_replay.store.keyring`), so it survives restarts
and every process on one database signs with the same one. A process reads the current key
once, when it opens; ``spies-replay keys rotate`` makes a new one current for the processes
started after it, and the retired key stays listed, so its receipts keep verifying.
"""

from __future__ import annotations

from dataclasses import dataclass

from spies_api.game import Head
from spies_replay.receipts import KeyList, Receipt, Signer, new_key, public_key_of
from spies_replay.store.keyring import KeyDatabase, ensure_key, read_keys
from spies_replay.store.protocols import EventStore

__all__ = ["ReceiptKeys", "signed"]


@dataclass(frozen=True, slots=True)
class ReceiptKeys:
    """Signs receipts with the database's current key, and lists every key.

    Attributes:
        store: the database the keys are kept in.
        signer: the key this process signs with.
    """

    store: KeyDatabase
    signer: Signer

    @classmethod
    def open(cls, store: EventStore) -> ReceiptKeys:
        """The database's current key, made and stored first if it has none.

        Raises:
            TypeError: a store that keeps no keys (every backend of this build does).
        """
        if not isinstance(store, KeyDatabase):
            raise TypeError(f"{type(store).__name__} keeps no signing keys")
        row = ensure_key(store, new_key)
        return cls(store, Signer.of(row.key_id, bytes.fromhex(row.private_key)))

    def receipt(self, game_id: str, seq: int, head_hash: str) -> Receipt:
        """The signed receipt of ``game_id`` at version ``seq`` with head ``head_hash``."""
        return self.signer.receipt(game_id, seq, head_hash)

    def signed(self, head: Head) -> Receipt:
        """The signed receipt of a game's ``head`` (what an answer that appended carries)."""
        return self.signer.receipt(head.id, head.version, head.head_hash)

    def listed(self) -> KeyList:
        """Every key of the database, oldest first: the current one and the retired."""
        rows = read_keys(self.store)
        return KeyList(keys=[public_key_of(row.key_id, row.public_key) for row in rows])


def signed(keys: ReceiptKeys | None, head: Head) -> Receipt | None:
    """The signed receipt of ``head``, or ``None`` where nothing signs (a bare service)."""
    return None if keys is None else keys.signed(head)
