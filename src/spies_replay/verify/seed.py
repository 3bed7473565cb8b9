"""The seed, its commitment and the deal: which seed re-derives the log, and whether the
seed and the deal are the ones ``game_created`` committed to and labels.

For a finished game the seed is the one revealed in its log (after checking it against the
commitment: ``seed-mismatch``; and the revealed deal against its commitment:
``deal-mismatch``, both named at the reveal; a finished game without a reveal is
``seed-not-revealed``, :mod:`~spies_replay.verify.ending`): anyone can re-derive it. For a
game in progress the seed can only come from the server's own database, the ``seeds``
table, as an operator audit; :attr:`~spies_replay.verify.VerifyReport.rederived` says which.
The algorithm must be this build's (``unsupported-rng``). In format 3 the revealed seed is
lower-case hex of whole bytes (``seed-not-hex``); format 1 reads it leniently (upper case,
white space between byte pairs), as ``bytes.fromhex`` does.

``seed_source`` must agree with the log (``seed-source-mismatch``): a ``server`` seed is the
32 random bytes the server draws, so a revealed one of another length, or one that reads as
text (``rigged``: a seed a person typed), is not one; a ``client`` seed is the UTF-8 text
the client gave; ``deal`` labels a game exactly when ``game_created`` commits to an explicit
deal (named at seq 1; a ``server`` or ``client`` seed is checked at the reveal, or at seq 1
against the operator's seed). The caveat ``seed-source-predates-deal``: ``game_created``
commits to an explicit deal but labels its seed ``server`` or ``client`` (written before the
``deal`` label): its hidden cards were laid out by its creator, not drawn from the seed.

A ``mixed`` seed is a server seed (checked as one) that the game does not draw from
directly: it draws from ``mix_seed(seed, contributions)``, the players' ``entropy_added``
events read ahead of the pass (:attr:`ChosenSeed.play`); the pass checks each one's place
and bytes (:mod:`~spies_replay.verify.walk`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import msgspec

from spies_core.rng import ALGORITHM
from spies_replay.codec import FORMAT_3, GameCodec, chain_of, deal_commitment
from spies_replay.meta import EntropyAdded, GameCreated, SeedRevealed, SeedSource, mixed_seed
from spies_replay.store.records import EventRow
from spies_replay.verify.report import CaveatTally, Rederivation, fail

__all__ = [
    "SERVER_SEED_BYTES",
    "ChosenSeed",
    "check_deal_label",
    "check_revealed",
    "check_seed_source",
    "choose_seed",
    "seeded_options",
]

SERVER_SEED_BYTES: Final = 32
"""A server seed is ``secrets.token_bytes(32)``."""
STRICT_HEX: Final = re.compile(r"(?:[0-9a-f]{2})+", re.ASCII)
"""A format 3 seed, matched whole: lower-case hex of one or more whole bytes."""


@dataclass(frozen=True)
class ChosenSeed:
    """The seed a log is re-derived with, and the deal that goes with it."""

    seed: bytes | None = None
    deal: Any = None
    deal_seq: int | None = None
    """The seq of the ``seed_revealed`` row the deal was read from (``None``: the
    operator's deal); a deal that does not match its commitment is reported there."""
    rederived: Rederivation = Rederivation.NOT_CHECKED
    warning: str | None = None
    play: bytes | None = None
    """The seed the game draws from: :attr:`seed`, or in a ``mixed`` game the seed mixed
    with the logged contributions."""


def _with_play(chosen: ChosenSeed, created: GameCreated, added: list[EntropyAdded]) -> ChosenSeed:
    seed = chosen.seed
    if seed is None:
        return chosen
    play = seed
    if created.seed_source is SeedSource.MIXED:
        try:
            play = mixed_seed(seed, added)
        except ValueError:  # the pass names the contribution
            play = seed
    return dataclasses.replace(chosen, play=play)


def _contributions(codec: GameCodec, rows: Sequence[EventRow]) -> list[EntropyAdded]:
    """The ``entropy_added`` events of the log, read ahead of the pass (which checks them)."""
    found = []
    for row in rows:
        if row.type != "entropy_added":
            continue
        try:
            event = codec.event.decode(row.payload)
        except (msgspec.DecodeError, msgspec.ValidationError):
            continue
        if isinstance(event, EntropyAdded):
            found.append(event)
    return found


def choose_seed(
    codec: GameCodec, rows: Sequence[EventRow], operator_seed: bytes | None, operator_deal: Any
) -> ChosenSeed:
    """Pick the seed to re-derive with, before the pass (the reveal is the last row): the
    revealed one when it commits, else the operator's (which must commit)."""
    if not rows:
        return ChosenSeed()
    try:
        created = codec.event.decode(rows[0].payload)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return ChosenSeed()  # the pass reports it at seq 1
    if not isinstance(created, GameCreated):
        return ChosenSeed()
    added = _contributions(codec, rows)
    return _with_play(_choose(codec, rows, created, operator_seed, operator_deal), created, added)


def _choose(
    codec: GameCodec,
    rows: Sequence[EventRow],
    created: GameCreated,
    operator_seed: bytes | None,
    operator_deal: Any,
) -> ChosenSeed:
    last = rows[-1]
    if last.type == "seed_revealed":
        revealed = _revealed_seed(codec, last, strict=created.log == FORMAT_3)
        if revealed is not None and _commits(revealed, created):
            disagrees = operator_seed is not None and operator_seed != revealed
            return ChosenSeed(
                seed=revealed,
                deal=_revealed_deal(codec, last),
                deal_seq=last.seq,
                rederived=Rederivation.REVEALED_SEED,
                warning="the seeds table disagrees with the revealed seed" if disagrees else None,
            )
    if operator_seed is not None:
        if not _commits(operator_seed, created):
            raise fail(None, "seed-mismatch", "the stored seed does not match the commitment")
        return ChosenSeed(
            seed=operator_seed, deal=operator_deal, rederived=Rederivation.OPERATOR_SEED
        )
    return ChosenSeed(
        warning="no seed available: shuffles and commands were not re-derived",
    )


def check_deal_label(created: GameCreated, tally: CaveatTally) -> None:
    """A ``deal`` source exactly when game_created commits to an explicit deal (and no
    ``mixed`` seed with a deal)."""
    source = created.seed_source
    if source is SeedSource.MIXED and created.deal_commitment is not None:
        raise fail(
            1,
            "seed-source-mismatch",
            "game_created labels its seed 'mixed' but commits to an explicit deal: the"
            " creator laid out the cards, so no entropy decides them",
        )
    if source is SeedSource.DEAL and created.deal_commitment is None:
        raise fail(
            1,
            "seed-source-mismatch",
            "game_created labels its seed source 'deal' but commits to no explicit deal",
        )
    if source is not SeedSource.DEAL and created.deal_commitment is not None:
        tally.caveat(
            1,
            "seed-source-predates-deal",
            "",
            lambda _: (
                f"game_created commits to an explicit deal but labels its seed"
                f" {str(source)!r} (a log written before the 'deal' source): the hidden cards"
                " were laid out by the game's creator, not drawn from the seed"
            ),
        )


def seeded_options(created: GameCreated, chosen: ChosenSeed) -> dict[str, Any]:
    """The options to re-run the set-up with (the deal included), once the operator's seed
    fits its label, the algorithm is known and the deal matches its commitment."""
    seed = chosen.seed
    assert seed is not None
    if chosen.rederived is Rederivation.OPERATOR_SEED:
        check_seed_source(1, created.seed_source, seed, "the server's stored seed")
    if created.rng != ALGORITHM:
        raise fail(1, "unsupported-rng", f"unknown randomness algorithm {created.rng!r}")
    options = dict(created.options)
    if created.deal_commitment is not None or chosen.deal is not None:
        log = chain_of(created.log)  # checked against the chain at seq 1
        if chosen.deal is None or created.deal_commitment != _deal_commitment(
            seed, chosen.deal, log
        ):
            raise fail(
                chosen.deal_seq or 1,
                "deal-mismatch",
                "the revealed deal does not match the deal commitment",
            )
        options["deal"] = chosen.deal
    return options


def _deal_commitment(seed: bytes, deal: Any, log: str) -> str | None:
    """The deal's commitment, or ``None`` when the chain's JSON cannot write the deal."""
    try:
        return deal_commitment(seed, deal, log)
    except ValueError:
        return None


def check_revealed(codec: GameCodec, row: EventRow, created: GameCreated) -> None:
    """The revealed seed is written as its format requires, commits and fits its label."""
    if chain_of(created.log) == FORMAT_3:
        event = codec.event.decode(row.payload)
        if isinstance(event, SeedRevealed) and STRICT_HEX.fullmatch(event.seed) is None:
            raise fail(
                row.seq,
                "seed-not-hex",
                f"the revealed seed {event.seed[:40]!r} is not lower-case hex of whole bytes,"
                " as format 3 writes it",
            )
    seed = _revealed_seed(codec, row)
    if seed is None or not _commits(seed, created):
        raise fail(row.seq, "seed-mismatch", "the revealed seed does not match the commitment")
    check_seed_source(row.seq, created.seed_source, seed, "the revealed seed")


def check_seed_source(seq: int, source: SeedSource, seed: bytes, which: str) -> None:
    """The seed must be one its label allows: a ``server`` seed 32 bytes that do not read as
    text, a ``client`` seed UTF-8 text (what the client gave).

    A person types text, and 32 random bytes read as text (UTF-8 whose every character is
    printable or white space: ``rigged\\n`` read from a file is text too) by a chance of
    about five in a hundred billion. A client seed chosen with a control character in it,
    later relabelled ``server``, would pass: the head hash the server published is the
    anchor for that.
    """
    problem = None
    text = _as_text(seed)
    if source in (SeedSource.SERVER, SeedSource.MIXED):
        if text is not None:
            problem = (
                f"the text {text[:40]!r} ({len(seed)} bytes): a seed a person typed, not the"
                f" {SERVER_SEED_BYTES} random bytes the server draws"
            )
        elif len(seed) != SERVER_SEED_BYTES:
            problem = (
                f"{len(seed)} bytes, not the {SERVER_SEED_BYTES} random bytes the server draws"
            )
    elif source is SeedSource.CLIENT and not _is_utf8(seed):
        problem = "not the UTF-8 text a client gives"
    if problem is not None:
        raise fail(
            seq,
            "seed-source-mismatch",
            f"game_created labels the seed {str(source)!r}, but {which} is {problem}",
        )


def _is_utf8(seed: bytes) -> bool:
    try:
        seed.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return bool(seed)


def _as_text(seed: bytes) -> str | None:
    """The seed as the text it reads as (every character printable or white space), or
    ``None`` when it does not read as text."""
    try:
        text = seed.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if all(char.isprintable() or char.isspace() for char in text) else None


def _revealed_seed(codec: GameCodec, row: EventRow, *, strict: bool = False) -> bytes | None:
    """The revealed seed's bytes; ``None`` when it does not decode (``strict``, format 3's:
    lower-case hex of whole bytes only; else as ``bytes.fromhex`` reads it)."""
    try:
        event = codec.event.decode(row.payload)
        if not isinstance(event, SeedRevealed):
            return None
        if strict and STRICT_HEX.fullmatch(event.seed) is None:
            return None
        return bytes.fromhex(event.seed)
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError):
        return None


def _revealed_deal(codec: GameCodec, row: EventRow) -> Any:
    event = codec.event.decode(row.payload)
    return event.deal if isinstance(event, SeedRevealed) else None


def _commits(seed: bytes, created: GameCreated) -> bool:
    return hashlib.sha256(seed).hexdigest() == created.seed_commitment
