"""Signed receipts: the server's word, in Ed25519, that a game's log held a head at a seq.

A receipt (``docs/protocol.md``, receipts) is ``{"game_id", "seq", "head_hash", "key_id",
"signature"}``, the signature over the UTF-8 bytes of
``spies-receipt/1\\n{game_id}\\n{seq}\\n{head_hash}``. Whoever keeps one can later show
that an export which does not hold that head at that seq is not the log the server
acknowledged (``receipt-mismatch``). A key is named by :func:`key_id_of` its public key, and
``GET /keys`` lists every key the server signed with, in :class:`KeyList`.

Pure functions and frozen types; the keys themselves are stored by
:mod:`spies_replay.store.keyring`.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

__all__ = [
    "SIGNATURE_ALGORITHM",
    "RECEIPT_DOMAIN",
    "KeyList",
    "PublicKey",
    "Receipt",
    "Signer",
    "b64url",
    "from_b64url",
    "key_id_of",
    "new_key",
    "public_key_of",
    "receipt_message",
    "receipt_problem",
]

RECEIPT_DOMAIN: Final = "spies-receipt/1"
"""The first line of every signed message: a change of the message is a new string."""

SIGNATURE_ALGORITHM: Final = "ed25519"
"""The one signature algorithm of receipts."""

_HEX64: Final = re.compile(r"[0-9a-f]{64}")


class Receipt(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The server's signed word that game ``game_id`` was at ``seq`` with head ``head_hash``."""

    game_id: str
    """The game's id."""
    seq: int
    """The game's version the receipt is for: the seq of the last event then."""
    head_hash: str
    """The hash of event ``seq`` (64 lower-case hex digits)."""
    key_id: str
    """The signing key's id, as ``GET /keys`` lists it."""
    signature: str
    """The Ed25519 signature of the receipt's message, base64url without padding."""


class PublicKey(msgspec.Struct, frozen=True, kw_only=True):
    """A receipt signing key's public half."""

    key_id: str
    """The key's id: the first 16 hex digits of sha256 of the raw public key."""
    algorithm: str
    """``ed25519``."""
    public_key: str
    """The raw 32-byte public key, base64url without padding."""


class KeyList(msgspec.Struct, frozen=True, kw_only=True):
    """Every key the server signs or signed receipts with: the current one and the retired."""

    keys: list[PublicKey]
    """The keys, oldest first; a retired key stays listed so its receipts keep verifying."""


def b64url(data: bytes) -> str:
    """``data`` in base64url without padding (RFC 4648 section 5)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def from_b64url(text: str) -> bytes | None:
    """The bytes of unpadded base64url ``text``, or ``None`` when it is not that."""
    if not re.fullmatch(r"[A-Za-z0-9_-]*", text) or len(text) % 4 == 1:
        return None
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None


def receipt_message(game_id: str, seq: int, head_hash: str) -> bytes:
    """The bytes a receipt signs: ``spies-receipt/1\\n{game_id}\\n{seq}\\n{head_hash}``."""
    return f"{RECEIPT_DOMAIN}\n{game_id}\n{seq}\n{head_hash.lower()}".encode()


def key_id_of(public_key: bytes) -> str:
    """A key's id: the first 16 lower-case hex digits of sha256 of its raw public key."""
    return hashlib.sha256(public_key).hexdigest()[:16]


def new_key() -> tuple[str, str, str]:
    """A fresh key pair as stored: ``(key_id, private key hex, public key hex)``."""
    private = Ed25519PrivateKey.generate()
    raw = private.private_bytes_raw()
    public = private.public_key().public_bytes_raw()
    return key_id_of(public), raw.hex(), public.hex()


@dataclass(frozen=True, slots=True)
class Signer:
    """Signs receipts with one private key.

    Attributes:
        key_id: the key's id.
        key: the Ed25519 private key.
    """

    key_id: str
    key: Ed25519PrivateKey

    @classmethod
    def of(cls, key_id: str, private_key: bytes) -> Signer:
        """The signer of the raw 32-byte private key ``private_key``."""
        return cls(key_id, Ed25519PrivateKey.from_private_bytes(private_key))

    def receipt(self, game_id: str, seq: int, head_hash: str) -> Receipt:
        """The signed receipt of ``game_id`` at ``seq`` with head ``head_hash``."""
        signature = self.key.sign(receipt_message(game_id, seq, head_hash))
        return Receipt(
            game_id=game_id,
            seq=seq,
            head_hash=head_hash.lower(),
            key_id=self.key_id,
            signature=b64url(signature),
        )


def public_key_of(key_id: str, public_hex: str) -> PublicKey:
    """A stored public key (raw hex) as ``GET /keys`` lists it."""
    return PublicKey(
        key_id=key_id, algorithm=SIGNATURE_ALGORITHM, public_key=b64url(bytes.fromhex(public_hex))
    )


def _signature_problem(receipt: Receipt, keys: KeyList) -> tuple[str, str] | None:
    listed = [key for key in keys.keys if key.key_id == receipt.key_id]
    if not listed or listed[0].algorithm != SIGNATURE_ALGORITHM:
        return "receipt-key-unknown", f"no {SIGNATURE_ALGORITHM} key {receipt.key_id!r} is listed"
    public = from_b64url(listed[0].public_key)
    signature = from_b64url(receipt.signature)
    if public is None or len(public) != 32 or signature is None or len(signature) != 64:
        return "receipt-signature-invalid", "the key or the signature is not of its size"
    message = receipt_message(receipt.game_id, receipt.seq, receipt.head_hash)
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
    except InvalidSignature:
        return "receipt-signature-invalid", "the signature is not the key's over the receipt"
    return None


def receipt_problem(
    receipt: Receipt, game_id: str, hashes: Sequence[str], keys: KeyList | None
) -> tuple[str, str] | None:
    """What is wrong with ``receipt`` against a chained log, as ``(code, message)``, or
    ``None`` when the log holds it.

    Args:
        receipt: the receipt to check.
        game_id: the log's game id.
        hashes: the log's row hashes, in seq order (checked to be chained already).
        keys: the server's keys (``GET /keys``): when given, the signature is checked first.
    """
    if keys is not None:
        found = _signature_problem(receipt, keys)
        if found is not None:
            return found
    if not _HEX64.fullmatch(receipt.head_hash):
        return "receipt-mismatch", "the receipt's head hash is not 64 lower-case hex digits"
    if receipt.game_id != game_id:
        return "receipt-mismatch", f"the receipt is game {receipt.game_id!r}'s, not this one's"
    if not 1 <= receipt.seq <= len(hashes):
        return "receipt-mismatch", f"the log has no seq {receipt.seq}: it ends at {len(hashes)}"
    if hashes[receipt.seq - 1] != receipt.head_hash:
        return (
            "receipt-mismatch",
            f"the log's hash at seq {receipt.seq} is {hashes[receipt.seq - 1][:16]}…, not the"
            f" receipt's {receipt.head_hash[:16]}…",
        )
    return None
