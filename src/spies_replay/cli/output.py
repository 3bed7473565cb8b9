"""What every subcommand of ``spies-replay`` shares: where it writes, its exit statuses, and
the refusal that is the user's to fix."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TextIO

import msgspec

from spies_replay import EventStore, Rederivation

__all__ = [
    "EXIT_OK",
    "EXIT_PROBLEM",
    "EXIT_USAGE",
    "REDERIVED_TEXT",
    "Handler",
    "Output",
    "UsageError",
]

EXIT_OK = 0
EXIT_PROBLEM = 1
EXIT_USAGE = 2

REDERIVED_TEXT = {
    Rederivation.REVEALED_SEED: "every shuffle and command re-derived from the revealed seed",
    Rederivation.OPERATOR_SEED: (
        "every shuffle and command re-derived from the server's secret seed (operator audit)"
    ),
    Rederivation.NOT_CHECKED: "shuffles not re-derived (no seed available)",
}
"""How a verified or imported log was re-derived, in words (``verify`` and ``import``)."""

_json = msgspec.json.Encoder()


class UsageError(Exception):
    """A request the tool cannot carry out as asked (exit 2)."""


class Output:
    """Where the subcommands write: text or JSON lines on stdout, notes on stderr."""

    def __init__(self, stdout: TextIO, stderr: TextIO, as_json: bool) -> None:
        self.stdout = stdout
        self.stderr = stderr
        self.json = as_json

    def line(self, text: str = "") -> None:
        """One line of text on stdout."""
        self.stdout.write(text + "\n")

    def data(self, value: object) -> None:
        """One JSON line on stdout."""
        self.stdout.write(_json.encode(value).decode() + "\n")

    def note(self, text: str) -> None:
        """One line on stderr: help, a warning, an error."""
        self.stderr.write(text + "\n")


Handler = Callable[[EventStore, argparse.Namespace, Output, TextIO], int]
"""A subcommand on an open store: ``(store, args, out, stdin) -> exit status``."""
