"""What the games choose: unions over the registered games, and the marker of a value whose
type is the game's (documented as ``anyOf`` one schema per game)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
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
    answer: type[msgspec.Struct],
    kinds: Mapping[str, Any],
    name: str,
    *,
    doc: str,
    module: str,
    drop: str | None = None,
    **config: Any,
) -> type[msgspec.Struct]:
    """``answer`` as one game's, for the document: the Struct ``name`` with ``answer``'s
    fields in their order, but each field named in ``kinds`` of the type given there (that
    game's), without the field ``drop`` (the game's tag, when ``config`` makes it the
    tag), described by ``doc``. ``config`` is passed to :func:`msgspec.defstruct` (e.g.
    ``tag_field``, ``tag``, ``forbid_unknown_fields``)."""
    shown = msgspec.defstruct(
        name,
        [
            (item.name, kinds.get(item.name, item.type), item.default)
            for item in msgspec.structs.fields(answer)
            if item.name != drop
        ],
        frozen=True,
        kw_only=True,
        module=module,
        **config,
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
