"""Seed commitments: a server seed committed to before any player's entropy is known, so
that a game dealt from both was chosen by nobody alone (``docs/protocol.md``, entropy).

``POST /commitments`` draws 32 secret bytes and keeps them in the database
(:mod:`spies_replay.store.commitments`) with an expiry; the answer publishes only their
sha256. ``POST /games`` with the ``commitment_id`` and the creator's ``entropy`` uses the
commitment, once: the first request that names it marks it used, whatever it then becomes,
so no two games ever share a seed. The decisions are here: how long a commitment lives, how
many one client and the server may hold (unused and unexpired), and what an unknown, used or
expired one answers.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Final

from spies_api.problems.errors import (
    CommitmentExpiredError,
    CommitmentUsedError,
    InvalidEntropyError,
    TooManyCommitmentsError,
    UnknownCommitmentError,
)
from spies_api.settings import Settings
from spies_core.rng import seed_commitment
from spies_replay.clocks import from_ms, to_ms
from spies_replay.meta import check_entropy
from spies_replay.store.commitments import (
    CommitmentRow,
    add_commitment,
    count_live,
    drop_expired,
    read_commitment,
    use_commitment,
)
from spies_replay.store.keyring import KeyDatabase
from spies_replay.store.records import Clock, utc_now

__all__ = ["COMMITMENT_ID_LENGTH", "IssuedCommitment", "SeedCommitments", "parse_entropy"]

COMMITMENT_ID_LENGTH: Final = 22
"""A commitment id: ``secrets.token_urlsafe(16)``, 22 characters (128 bits)."""

SEED_BYTES: Final = 32
"""A committed seed is a server seed: 32 bytes from ``secrets``."""


def parse_entropy(text: str) -> bytes:
    """A client's ``entropy``: 16 to 64 bytes as hex (upper-case digits are read as lower).

    Raises:
        InvalidEntropyError: anything else.
    """
    try:
        return check_entropy(text.lower())
    except ValueError as exc:
        raise InvalidEntropyError(str(exc)) from exc


@dataclass(frozen=True, slots=True)
class IssuedCommitment:
    """A new commitment: its id, the sha256 of its seed, and when it expires."""

    commitment_id: str
    seed_commitment: str
    expires_at: str


@dataclass(eq=False)
class SeedCommitments:
    """Makes and uses seed commitments (blocking: run on a worker thread).

    Args:
        store: the database they are kept in.
        ttl: how many seconds a commitment stays usable.
        per_client: how many unused, unexpired commitments one client may hold.
        in_all: how many the database may hold, all clients together.
        clock: where the time is read.
    """

    store: KeyDatabase
    ttl: float = 600.0
    per_client: int = 20
    in_all: int = 10_000
    clock: Clock = utc_now

    @classmethod
    def open(cls, store: object, settings: Settings, clock: Clock) -> SeedCommitments | None:
        """The commitments of ``store`` with the limits of ``settings`` (``None``: a store
        that keeps none; every backend of this build keeps them)."""
        if not isinstance(store, KeyDatabase):
            return None
        return cls(
            store,
            ttl=settings.commitment_ttl,
            per_client=settings.max_commitments_per_client,
            in_all=settings.max_commitments,
            clock=clock,
        )

    def issue(self, client: str) -> IssuedCommitment:
        """A new commitment for ``client``.

        Raises:
            TooManyCommitmentsError: the client, or the server in all, holds as many as
                allowed.
        """
        now = self.clock()
        retry = max(1, round(self.ttl))
        if count_live(self.store, now, client) >= self.per_client:
            raise TooManyCommitmentsError(
                f"this client holds {self.per_client} unused seed commitments already: use"
                " one (POST /games with its commitment_id) or let them expire",
                retry_after=retry,
            )
        drop_expired(self.store, now)  # keeps the table as small as its live rows
        if count_live(self.store, now) >= self.in_all:
            raise TooManyCommitmentsError(
                "the server holds as many unused seed commitments as it allows; retry later",
                retry_after=retry,
            )
        seed = secrets.token_bytes(SEED_BYTES)
        row = CommitmentRow(
            commitment_id=secrets.token_urlsafe(16),
            seed=seed,
            client=client,
            created_at=now,
            expires_at=from_ms(to_ms(now) + round(self.ttl * 1000)),
            used_at=None,
        )
        add_commitment(self.store, row)
        return IssuedCommitment(
            commitment_id=row.commitment_id,
            seed_commitment=seed_commitment(seed),
            expires_at=row.expires_at,
        )

    def use(self, commitment_id: str) -> bytes:
        """The committed seed, the commitment marked used.

        Raises:
            UnknownCommitmentError: no such commitment.
            CommitmentUsedError: a game used it already.
            CommitmentExpiredError: it expired.
        """
        now = self.clock()
        if use_commitment(self.store, commitment_id, now):
            found = read_commitment(self.store, commitment_id)
            assert found is not None
            return found.seed
        found = read_commitment(self.store, commitment_id)
        if found is None:
            raise UnknownCommitmentError(
                f"no seed commitment {commitment_id[:40]!r}: ask for one with POST /commitments"
            )
        if found.used_at is not None:
            raise CommitmentUsedError(
                f"seed commitment {commitment_id!r} was used at {found.used_at}: each deals one"
                " game; ask for a new one with POST /commitments"
            )
        raise CommitmentExpiredError(
            f"seed commitment {commitment_id!r} expired at {found.expires_at}; ask for a new"
            " one with POST /commitments"
        )
