"""The compact form of a legal list: commands that are every choice of some items of a list.

A Black Spy pass lists every 3 cards of the hand (680 commands for 17 distinct cards); its
compact form is one :class:`~spies_api.schemas.CommandChoice`, "any 3 of these 17". The
grouping knows no game: commands of one shape (the same fields but one list of strings) are
one choice when their lists are exactly every choice of that many items of their union (a
value at most as often as one list holds it), each in the order of the union. Anything else
stays a command of its own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import msgspec

from spies_api.schemas import CommandChoice

__all__ = ["compact"]


def compact(commands: Sequence[Any]) -> tuple[list[Any], list[CommandChoice]]:
    """``commands`` as the commands left one by one and the choices that stand for the rest
    (each group of two commands or more that is a whole choice)."""
    groups: dict[tuple[str, str], list[int]] = {}
    plain = [msgspec.to_builtins(command) for command in commands]
    for index, fields in enumerate(plain):
        lists = [
            name
            for name, value in fields.items()
            if isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value)
        ]
        if len(lists) == 1:
            rest = {name: value for name, value in fields.items() if name != lists[0]}
            key = (lists[0], msgspec.json.encode(rest, order="sorted").decode())
            groups.setdefault(key, []).append(index)
    chosen: set[int] = set()
    choices: list[CommandChoice] = []
    for (field, _), members in groups.items():
        choice = _choice(field, [plain[i] for i in members])
        if choice is not None:
            choices.append(choice)
            chosen.update(members)
    return [c for i, c in enumerate(commands) if i not in chosen], choices


def _choice(field: str, members: list[dict[str, Any]]) -> CommandChoice | None:
    """The choice these commands are, or ``None`` when they are not a whole one."""
    lists: list[list[str]] = [list(member[field]) for member in members]
    size = len(lists[0])
    if len(lists) < 2 or size == 0 or any(len(items) != size for items in lists):
        return None
    most: Counter[str] = Counter()
    for items in lists:
        most |= Counter(items)  # each value as often as one list holds it at most
    of = [value for value in dict.fromkeys(v for items in lists for v in items)]
    position = {value: index for index, value in enumerate(of)}
    distinct = {tuple(items) for items in lists}
    in_order = all(
        all(position[a] <= position[b] for a, b in zip(items, items[1:], strict=False))
        for items in lists
    )
    if not in_order or len(distinct) != len(lists) or len(lists) != _count(most, size):
        return None
    rest = {name: value for name, value in members[0].items() if name != field}
    items = [value for value in of for _ in range(most[value])]
    return CommandChoice(command=rest, field=field, choose=size, of=items)


def _count(most: Counter[str], size: int) -> int:
    """How many distinct choices of ``size`` items there are, each value at most ``most``
    times: the coefficient of x^size in the product of (1 + x + ... + x^m)."""
    ways = [1] + [0] * size
    for limit in most.values():
        ways = [sum(ways[k - j] for j in range(min(limit, k) + 1)) for k in range(size + 1)]
    return ways[size]
