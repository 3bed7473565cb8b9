"""What a schema states beyond its types: a field's document-only constraints (the
``extra_json_schema`` of each ``Annotated`` part of its type, at any depth: a card's
``pattern`` in a list of cards), and ``items`` beside a tuple's ``prefixItems``."""

from __future__ import annotations

from typing import Final

import msgspec
from litestar.openapi.spec import Reference, Schema

__all__ = ["constrain", "tuple_items"]


_KEYWORDS: Final = {
    "enum": "enum",
    "minimum": "minimum",
    "maximum": "maximum",
    "minLength": "min_length",
    "maxLength": "max_length",
    "pattern": "pattern",
}
"""The JSON Schema keywords a field's ``extra_json_schema`` may add to its schema."""


def tuple_items(schema: Schema | Reference) -> None:
    """A tuple's schema (``prefixItems`` and as many ``maxItems``) gets ``items`` too, the
    union of its members' schemas: JSON Schema needs none, but linters and generators that
    predate ``prefixItems`` read an array without ``items`` as untyped."""
    if not isinstance(schema, Schema):
        return
    for member in (*(schema.one_of or ()), *(schema.any_of or ())):
        tuple_items(member)
    if schema.prefix_items and schema.items is None:
        distinct: list[Schema | Reference] = []
        for item in schema.prefix_items:
            if item not in distinct:
                distinct.append(item)
        schema.items = distinct[0] if len(distinct) == 1 else Schema(one_of=distinct)


def _non_null(schema: Schema) -> Schema:
    """The non-null member of an optional value's ``oneOf``, or the schema itself."""
    members = [m for m in schema.one_of or () if isinstance(m, Schema) and m.type != "null"]
    return members[0] if len(members) == 1 else schema


def constrain(schema: Schema | Reference, info: msgspec.inspect.Type) -> None:
    """Put a type's document-only constraints (the ``extra_json_schema`` of each
    ``Annotated`` part of it: msgspec does not check them, the API does, with its own codes)
    on its schema, at any depth: the value, an optional value's non-null member, the items
    of a sequence (a card in a list of cards)."""
    if not isinstance(schema, Schema):
        return
    match info:
        case msgspec.inspect.Metadata(type=inner, extra_json_schema=extra):
            target = _non_null(schema)
            for keyword, attribute in _KEYWORDS.items():
                if keyword in (extra or {}):
                    setattr(target, attribute, (extra or {})[keyword])
            constrain(schema, inner)
        case msgspec.inspect.UnionType(types=types):
            members = [t for t in types if not isinstance(t, msgspec.inspect.NoneType)]
            if len(members) == 1:
                constrain(_non_null(schema), members[0])
        case msgspec.inspect.TupleType(item_types=types):
            for item, item_type in zip(schema.prefix_items or (), types, strict=False):
                constrain(item, item_type)
        case (
            msgspec.inspect.ListType(item_type=item_type)
            | msgspec.inspect.VarTupleType(item_type=item_type)
            | msgspec.inspect.SetType(item_type=item_type)
            | msgspec.inspect.FrozenSetType(item_type=item_type)
        ) if isinstance(schema.items, Schema):
            constrain(schema.items, item_type)
