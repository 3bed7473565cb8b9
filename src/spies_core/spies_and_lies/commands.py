"""Commands of Spies & Lies: one per decision point of §6.1.

Ranks are plain ints checked by ``decide`` (a rank outside 1-10 is the rule error
``invalid-rank``, not a malformed body).
"""

from __future__ import annotations

import msgspec

from spies_core.spies_and_lies.soldiers import MarshalOption, Rank

__all__ = [
    "BaseCommand",
    "ChooseCaptain",
    "ChooseMarshal",
    "Command",
    "ConfirmIntel",
    "Deceive",
    "DeclineDeception",
    "Deploy",
    "Guess",
    "MarkSergeant",
]


class BaseCommand(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    """Base of every Spies & Lies command."""


class Deploy(BaseCommand, frozen=True, kw_only=True, tag="deploy"):
    """Put soldiers face down under one's missions, in mission order (§5.1).

    With 2 seats: four ranks, under missions 1, 2, 3, 4. In team play (§14.4) each teammate
    sends two: the first teammate for missions 1-2, then the second for missions 3-4.
    """

    soldiers: tuple[Rank, ...]
    """The ranks to deploy, in mission order, e.g. ``[2, 5, 4, 9]``: four with 2 seats, two
    per teammate in team play. From the hand, never an exhausted soldier, and increasing
    except the Sergeant (4), which may go anywhere (§5.1.2)."""


class MarkSergeant(BaseCommand, frozen=True, kw_only=True, tag="mark_sergeant"):
    """Put an intel token on one's deployed Sergeant, or not, freely (§5.2.3, [I-13])."""

    token: bool
    """``true`` puts an intel token on one's deployed Sergeant, ``false`` leaves it bare,
    whatever the intel card shows (§5.2.3)."""


class ConfirmIntel(BaseCommand, frozen=True, kw_only=True, tag="confirm_intel"):
    """Finish one's intel placement when one has no Sergeant deployed (§5.2).

    Every seat answers the intel phase, Sergeant or not, so that who is asked never tells the
    opponent where a Sergeant lies.
    """


class Deceive(BaseCommand, frozen=True, kw_only=True, tag="deceive"):
    """Play a deception token on one's card that is about to be guessed (§6 step 1, §10)."""


class DeclineDeception(BaseCommand, frozen=True, kw_only=True, tag="decline_deception"):
    """Let the guess come without a deception token (§6 step 1)."""


class Guess(BaseCommand, frozen=True, kw_only=True, tag="guess"):
    """Name the rank of the opponent's card at the current mission (§6 step 2, [I-14])."""

    rank: Rank
    """The rank named, 1 to 10 ([I-14])."""


class ChooseMarshal(BaseCommand, frozen=True, kw_only=True, tag="choose_marshal"):
    """Choose the option of one's activated Marshal (§9, rank 10)."""

    option: MarshalOption
    """``points``: gain 10; ``sabotage``: gain 5 and the opponent loses 5 (§9, rank 10)."""


class ChooseCaptain(BaseCommand, frozen=True, kw_only=True, tag="choose_captain"):
    """Take the activated Captain's 6 points (``borrow`` null), or borrow one of one's own
    exhausted soldiers and resolve it as if activated (§9, rank 6, [I-8])."""

    borrow: Rank | None = None
    """One of one's own exhausted soldiers to resolve as if activated ([I-8]); ``null`` or
    omitted: take the Captain's 6 points."""


Command = (
    Deploy
    | MarkSergeant
    | ConfirmIntel
    | Deceive
    | DeclineDeception
    | Guess
    | ChooseMarshal
    | ChooseCaptain
)
"""Every Spies & Lies command (tagged union on ``type``)."""
