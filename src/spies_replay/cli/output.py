"""What every subcommand of ``spies-replay`` shares: where it writes, its exit statuses, the
refusal that is the user's to fix, and how text read from a file is made safe to print.

Every string a log, an export or a database holds may be hostile: a game id, a seat's name,
a bot's name, a card in a forged event, a hash. Text output never prints one raw:
:func:`shown` escapes every character that is not printable (control characters, CR and LF
included) as ``\\t``, ``\\n``, ``\\r``, ``\\xNN``, ``\\uNNNN`` or ``\\UNNNNNNNN``;
:func:`escaped` does the same for every string inside an event or a view before it is
described or drawn; and :class:`Output` escapes whatever reaches a line but its own line
breaks. JSON output is escaped by the encoder, and :meth:`Output.data` also escapes what JSON
allows raw but a terminal may obey (DEL, the C1 controls, bidirectional overrides).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, Final, TextIO, TypeVar

import msgspec

from spies_replay import EventStore, Rederivation, VerifyReport

__all__ = [
    "EXIT_OK",
    "EXIT_PROBLEM",
    "EXIT_USAGE",
    "REDERIVED_TEXT",
    "Handler",
    "Output",
    "UsageError",
    "escaped",
    "report_lines",
    "shown",
]

T = TypeVar("T")

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


def shown(value: object) -> str:
    """``value`` as text fit for a terminal: every character that is not printable escaped.

    >>> shown("red\\x1b[31m\\r\\n")
    'red\\\\x1b[31m\\\\r\\\\n'
    """
    text = str(value)
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else _escape(char) for char in text)


_SHORT: Final = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(char: str) -> str:
    code = ord(char)
    if char in _SHORT:
        return _SHORT[char]
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def escaped(value: T) -> T:
    """``value`` with every string in it shown safely: the fields of Structs, the items of
    lists, tuples, sets and dicts, at any depth. The same object when nothing needed it."""
    return _escaped(value)  # type: ignore[no-any-return]


def _escaped(value: Any) -> Any:
    if isinstance(value, str):
        return value if value.isprintable() else shown(value)
    if isinstance(value, msgspec.Struct):
        changed = {}
        for name in value.__struct_fields__:
            old = getattr(value, name)
            new = _escaped(old)
            if new is not old:
                changed[name] = new
        return msgspec.structs.replace(value, **changed) if changed else value
    if type(value) in (list, tuple, set, frozenset):
        items = [_escaped(item) for item in value]
        same = all(new is old for new, old in zip(items, value, strict=True))
        return value if same else type(value)(items)
    if type(value) is dict:
        pairs = [(_escaped(key), _escaped(item)) for key, item in value.items()]
        same = all(
            k is k0 and v is v0 for (k, v), (k0, v0) in zip(pairs, value.items(), strict=True)
        )
        return value if same else dict(pairs)
    return value


def report_lines(report: VerifyReport) -> list[str]:
    """The lines under a report's first line: its warnings and caveats, indented."""
    lines = [f"      warning: {shown(warning)}" for warning in report.warnings]
    for caveat in report.caveats:
        where = "" if caveat.seq is None else f" at seq {caveat.seq}"
        lines.append(f"      caveat: {caveat.code}{where}: {shown(caveat.message)}")
    return lines


def proven(report: VerifyReport) -> str:
    """What a clean report proved, in words: how it was re-derived, bots, the head."""
    text = REDERIVED_TEXT[report.rederived]
    if report.bot_moves_rederived:
        moves = report.bot_moves_rederived
        text += f"; {moves} bot move{'' if moves == 1 else 's'} re-derived"
    if report.published_head is not None:
        text += "; ends in the published head"
    return text


class UsageError(Exception):
    """A request the tool cannot carry out as asked (exit 2)."""


class Output:
    """Where the subcommands write: text or JSON lines on stdout, notes on stderr."""

    def __init__(self, stdout: TextIO, stderr: TextIO, as_json: bool) -> None:
        self.stdout = stdout
        self.stderr = stderr
        self.json = as_json

    def line(self, text: str = "") -> None:
        """One line of text on stdout (or several, at its own line breaks)."""
        self.stdout.write(_lines(text) + "\n")

    def data(self, value: object) -> None:
        """One JSON line on stdout."""
        text = _json.encode(value).decode()
        if not text.isprintable():  # in a string: DEL, C1 controls, bidi overrides, ...
            text = "".join(char if char.isprintable() else _json_escape(char) for char in text)
        self.stdout.write(text + "\n")

    def note(self, text: str) -> None:
        """One line on stderr: help, a warning, an error."""
        self.stderr.write(_lines(text) + "\n")


def _json_escape(char: str) -> str:
    """A character as a JSON string escape (a surrogate pair above the BMP)."""
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _lines(text: str) -> str:
    """The last guard: nothing but a line break that is not printable reaches the terminal."""
    return text if text.isprintable() else "\n".join(map(shown, text.split("\n")))


Handler = Callable[[EventStore, argparse.Namespace, Output, TextIO], int]
"""A subcommand on an open store: ``(store, args, out, stdin) -> exit status``."""
