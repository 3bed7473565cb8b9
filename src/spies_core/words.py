"""Counted nouns and lists of seats in English, for the texts people read.

One place for the plural, so that no message says "1 points" or writes a plural with an
"s" in brackets.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["counted", "listed", "seat_list"]


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` with ``noun`` in the singular for 1 and -1, else in the plural:
    ``counted(1, "point")`` is ``"1 point"``, ``counted(2, "step")`` ``"2 steps"``."""
    word = noun if abs(count) == 1 else (plural or f"{noun}s")
    return f"{count} {word}"


def listed(items: Iterable[object]) -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``; ``"none"`` for no item."""
    words = [str(item) for item in items]
    if not words:
        return "none"
    if len(words) == 1:
        return words[0]
    return f"{', '.join(words[:-1])} and {words[-1]}"


def seat_list(numbers: Iterable[int]) -> str:
    """``"seat 1"``, ``"seats 1 and 2"``, ``"seats 0, 2 and 3"``; ``"no seat"`` for none."""
    ordered = sorted(numbers)
    if not ordered:
        return "no seat"
    return f"{'seat' if len(ordered) == 1 else 'seats'} {listed(ordered)}"
