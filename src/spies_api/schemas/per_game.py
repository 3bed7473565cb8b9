"""What the games choose: unions over the registered games, and the marker of a value whose
type is the game's (documented as ``anyOf`` one schema per game)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

import msgspec

from spies_core.decider import GameSpec
from spies_core.registry import GAMES

__all__ = ["AnyView", "PerGame", "members_of", "one_games", "tag_of", "union_of"]


def union_of(types: Iterable[Any]) -> Any:
    """The union of ``types``, or the one type when there is one."""
    members = tuple(types)
    return members[0] if len(members) == 1 else Union[members]  # noqa: UP007


def one_games(
    answer: type[msgspec.Struct], field: str, kind: Any, name: str, *, doc: str, module: str
) -> type[msgspec.Struct]:
    """``answer`` as one game's answer, for the document: the Struct ``name`` with
    ``answer``'s fields, but ``field`` of that game's type ``kind``, described by ``doc``."""
    shown = msgspec.defstruct(
        name,
        [
            (item.name, kind if item.name == field else item.type, item.default)
            for item in msgspec.structs.fields(answer)
        ],
        frozen=True,
        kw_only=True,
        module=module,
    )
    shown.__doc__ = doc
    return shown


def members_of(union: Any) -> tuple[type[msgspec.Struct], ...]:
    """The Structs of a tagged union (or the one Struct)."""
    return tuple(getattr(union, "__args__", (union,)))


def tag_of(cls: type[msgspec.Struct]) -> str:
    """A tagged Struct's tag."""
    return str(cls.__struct_config__.tag)


@dataclass(frozen=True)
class PerGame:
    """Marks a value whose type is chosen by the game (``Annotated[Any, PerGame(...)]``).

    The value is whatever the game's type is; the OpenAPI document shows it as ``anyOf``
    one schema per game, named ``<Game><suffix>`` (e.g. ``BlackSpyCommand``).

    Attributes:
        suffix: the end of each game's schema name.
        type_of: the game's type (a Struct, or a union of tagged Structs).
        description: each game's schema's description; ``{game}`` is the game id.
        only: one game id: the value is that game's type alone (a reference to its schema).
    """

    suffix: str
    type_of: Callable[[GameSpec[Any, Any, Any, Any, Any]], Any]
    description: str
    only: str | None = None


if TYPE_CHECKING:
    AnyView = Any
else:
    AnyView = union_of(spec.view_type for spec in GAMES.values())
