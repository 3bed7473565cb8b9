"""The error of ``spies-sim`` that is neither the core's nor the log's: bad input."""

from __future__ import annotations

from spies_core.errors import SpiesError

__all__ = ["UsageError"]


class UsageError(SpiesError):
    """Bad input on the command line (exit 2), or a checkpoint that cannot be written."""

    default_code = "usage"
