"""The bots ``verify`` and ``import`` re-run recorded bot moves with: the registry of
``spies_bots``.

This is the one module of ``spies_replay`` that imports the bots. The log's own modules take
them as a parameter (:class:`~spies_replay.marks.BotPolicies`), so the replay log stays below
the bots in the import graph and a caller may hand in any bots (tests hand in their own).
"""

from __future__ import annotations

from spies_bots import find_policy
from spies_replay.marks import BotPolicies

__all__ = ["REGISTERED_BOTS"]

REGISTERED_BOTS = BotPolicies(lookup=find_policy)
"""Every bot of this build, at its current version and the earlier ones it keeps, each with
the generator the server gave it."""
