"""The input of ``spies-replay step``: single keys on a terminal, one command a line otherwise.

:func:`read_commands` yields the same line commands (``n``, ``b``, ``f``, ``l``, ``j 12``,
``q``, ``h``) from either source, so ``step`` interprets one vocabulary. On a terminal, keys
are read one at a time (no Enter) with the terminal in non-canonical mode, no echo, and put
back as it was when the reading ends; a digit or ``j`` starts a step number, ended by Enter.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Final, TextIO

__all__ = ["KEY_COMMANDS", "STEP_KEYS", "STEP_LINE_HELP", "command_for_key", "read_commands"]

RIGHT: Final = ("\x1b[C", "\x1bOC")
LEFT: Final = ("\x1b[D", "\x1bOD")
DOWN: Final = ("\x1b[B", "\x1bOB")
UP: Final = ("\x1b[A", "\x1bOA")
HOME: Final = ("\x1b[H", "\x1bOH", "\x1b[1~", "\x1b[7~")
END: Final = ("\x1b[F", "\x1bOF", "\x1b[4~", "\x1b[8~")
ESC: Final = "\x1b"
ENTER: Final = ("\r", "\n")
BACKSPACE: Final = ("\x7f", "\b")
CTRL_D: Final = "\x04"

KEY_COMMANDS: Final[dict[str, str]] = {
    **dict.fromkeys(("n", " ", *ENTER, *RIGHT, *DOWN), "n"),
    **dict.fromkeys(("b", "p", *LEFT, *UP), "b"),
    **dict.fromkeys(("f", *HOME), "f"),
    **dict.fromkeys(("l", *END), "l"),
    **dict.fromkeys(("q", ESC, CTRL_D), "q"),
    **dict.fromkeys(("h", "?"), "h"),
}
"""The command of each single key (digits and ``j`` start a step number instead)."""

STEP_KEYS: Final[tuple[tuple[str, str], ...]] = (
    ("n, space, Enter or right arrow", "next step"),
    ("b or left arrow", "step back"),
    ("f or Home", "step 0, before the first event"),
    ("l or End", "the last step"),
    ("a digit or j", "type a step number, then Enter"),
    ("q, Esc or Ctrl+D", "quit"),
    ("h", "this help"),
)
"""The keys of ``step`` on a terminal, for its help."""

STEP_LINE_HELP: Final = (
    "n/next (or an empty line), b/back, j SEQ/jump SEQ (or SEQ), f/first (step 0), l/last,"
    " q/quit, h/help"
)
"""The line commands of ``step`` (from a pipe), for its help."""

KEYS_HELP: Final = "; ".join(f"{keys}: {action}" for keys, action in STEP_KEYS)


def command_for_key(key: str) -> str | None:
    """The line command of a single key, or ``None`` for a key that starts a step number."""
    if key.isdigit() or key == "j":
        return None
    return KEY_COMMANDS.get(key, key)


def split_keys(text: str) -> Iterator[str]:
    """Split terminal input into keys: characters, and escape sequences (arrows, Home, End)."""
    index = 0
    while index < len(text):
        if text[index] == ESC and index + 1 < len(text) and text[index + 1] in "[O":
            end = index + 2
            while end < len(text) and not (text[end].isalpha() or text[end] == "~"):
                end += 1
            yield text[index : end + 1]
            index = end + 1
        else:
            yield text[index]
            index += 1


def read_commands(stdin: TextIO, prompt: TextIO) -> Iterator[str]:
    """The commands typed: single keys on a terminal, else one command a line.

    Args:
        stdin: where commands come from.
        prompt: where a step number being typed is echoed (the terminal's output).
    """
    if not stdin.isatty():
        while line := stdin.readline():
            yield line.strip()
        return
    import termios  # here, not above: POSIX only, and pipes work everywhere

    fd = stdin.fileno()
    saved = termios.tcgetattr(fd)
    mode = termios.tcgetattr(fd)
    mode[3] &= ~(termios.ECHO | termios.ICANON)
    mode[6][termios.VMIN] = 1
    mode[6][termios.VTIME] = 0
    termios.tcsetattr(fd, termios.TCSANOW, mode)  # TCSANOW: keys typed ahead are kept
    try:
        keys = _keys(fd)
        for key in keys:
            command = command_for_key(key)
            if command is not None:
                yield command
                continue
            number = _number(keys, prompt, key if key.isdigit() else "")
            if number is not None:
                yield f"j {number}"
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def _keys(fd: int) -> Iterator[str]:
    while chunk := os.read(fd, 64):
        yield from split_keys(chunk.decode(errors="replace"))


def _number(keys: Iterator[str], prompt: TextIO, typed: str) -> str | None:
    """Read a step number key by key (Enter ends it, Esc cancels it)."""
    prompt.write(f"step: {typed}")
    prompt.flush()
    for key in keys:
        if key in ENTER:
            break
        if key.isdigit():
            typed += key
            prompt.write(key)
        elif key in BACKSPACE and typed:
            typed = typed[:-1]
            prompt.write("\b \b")
        elif key in (ESC, "q", CTRL_D):
            typed = ""
            break
        prompt.flush()
    prompt.write("\n")
    prompt.flush()
    return typed or None
