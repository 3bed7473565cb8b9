"""The app's schema plugins: the tagged-union plugin and the plugin that makes the code's
documentation the document's (the configuration is :mod:`spies_api.openapi.config`).

Litestar renders a union of msgspec Structs as a plain ``oneOf``. The
:class:`TaggedUnionSchemaPlugin` adds the ``discriminator`` (``type`` for commands and events,
``game`` for views) with the mapping from each tag to its schema, so generated clients
decode them without trying every member.

The :class:`DocumentedSchemaPlugin` makes the code's documentation the document's:

- a Struct's docstring describes its schema, and the attribute docstring written under each
  field (the string literal after it) describes that property; a field whose docstring starts
  with ``Deprecated:`` is marked ``deprecated``; a field a client may omit (a default in a
  Struct a request body holds, i.e. one a client sends) states its default in the
  description rather than as ``default``, which some generators read as "always present";
  every field of a Struct no request body holds is ``required``, since the server sends it
  even at its default, but for a field left ``UNSET``, which the encoder omits;
- an enum's docstring and its members' docstrings describe its schema, one line per value;
- a Struct or enum that belongs to one game (reached from its options, commands, events or
  view) is named after the game, ``DeckOfSpiesPhase`` rather than ``Phase``, so no two games'
  schemas can clash and none has a generic name;
- a value whose schema depends on the game (:class:`spies_api.schemas.PerGame`) is ``anyOf``
  the games' own schemas, and a request documented per game (``DOCUMENTED_AS``) is ``oneOf``
  its games' variants, discriminated on ``game``.
"""

from __future__ import annotations

import ast
import inspect
import re
import textwrap
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from typing import TYPE_CHECKING, Any, Final, Literal, cast

import msgspec
from litestar.openapi.spec import (
    Discriminator,
    OpenAPIType,
    Reference,
    Schema,
)
from litestar.params import KwargDefinition
from litestar.plugins import OpenAPISchemaPlugin
from litestar.types.empty import Empty
from litestar.typing import FieldDefinition

from spies_api import schemas as schemas_module
from spies_api.openapi.constraints import constrain, tuple_items
from spies_api.openapi.problems import ANY_REQUEST
from spies_api.problems.codes import ERROR_CODES
from spies_api.schemas import DOCUMENTED_AS, PerGame, Problem
from spies_core.registry import GAMES

if TYPE_CHECKING:
    from litestar._openapi.schema_generation import SchemaCreator

__all__ = [
    "DocumentedSchemaPlugin",
    "TaggedUnionSchemaPlugin",
    "field_docs",
    "game_prefix",
    "schema_name",
]


def _struct_members(field_definition: FieldDefinition) -> tuple[type[msgspec.Struct], ...]:
    if not field_definition.is_union or field_definition.is_optional:
        return ()
    members = tuple(field_definition.args)
    if not all(isinstance(m, type) and issubclass(m, msgspec.Struct) for m in members):
        return ()
    return members


@dataclass
class _TagDiscriminator(Discriminator):
    """A discriminator whose mapping follows the references Litestar renames.

    Litestar names components by a long key while it builds the document and shortens the
    names at the end, updating the :class:`Reference` objects it handed out; the mapping is
    therefore read from those objects when the document is rendered.
    """

    references: dict[str, Reference] = field(default_factory=dict)

    @property
    def _exclude_fields(self) -> set[str]:
        return {"references", "mapping"}

    def to_schema(self) -> dict[str, Any]:
        result = super().to_schema()
        if self.references:
            result["mapping"] = {tag: ref.ref for tag, ref in self.references.items()}
        return result


class TaggedUnionSchemaPlugin(OpenAPISchemaPlugin):
    """``oneOf`` with a ``discriminator`` for unions of tagged msgspec Structs."""

    def is_plugin_supported_field(self, field_definition: FieldDefinition) -> bool:
        """Whether the field is a union of Structs that share one tag field."""
        members = _struct_members(field_definition)
        if not members:
            return False
        fields = {msgspec.inspect.type_info(m).tag_field for m in members}  # type: ignore[attr-defined]
        return len(fields) == 1 and None not in fields

    def to_openapi_schema(
        self, field_definition: FieldDefinition, schema_creator: SchemaCreator
    ) -> Schema:
        """The members' schemas, and a discriminator from each tag to its schema."""
        return self.members_schema(_struct_members(field_definition), schema_creator)

    @staticmethod
    def members_schema(
        members: tuple[type[msgspec.Struct], ...], schema_creator: SchemaCreator
    ) -> Schema:
        """``oneOf`` the tagged Structs ``members``, with a discriminator on their tag."""
        one_of: list[Schema | Reference] = []
        discriminator = _TagDiscriminator(property_name="")
        for member in members:
            info = msgspec.inspect.type_info(member)
            schema = schema_creator.for_field_definition(FieldDefinition.from_annotation(member))
            one_of.append(schema)
            discriminator.property_name = info.tag_field  # type: ignore[attr-defined]
            if isinstance(schema, Reference):
                discriminator.references[str(info.tag)] = schema  # type: ignore[attr-defined]
        return Schema(one_of=one_of, discriminator=discriminator)


# -- the code's documentation, as the document's ---------------------------------------------

_JSON_WORDS: Final = {"``None``": "``null``", "``True``": "``true``", "``False``": "``false``"}
"""Python's words in docstrings, as the JSON a client sees."""
_ROLE: Final = re.compile(r":\w+:`~?(?:[\w.]*\.)?(\w+)`")
DEPRECATED: Final = "Deprecated:"
"""A field whose docstring starts with this is marked ``deprecated: true``."""


def _text(doc: str) -> str:
    """A docstring as Markdown: Sphinx roles as code, lines of a paragraph joined."""
    paragraphs = inspect.cleandoc(doc).split("\n\n")
    joined = "\n\n".join(" ".join(line.strip() for line in p.splitlines()) for p in paragraphs)
    for python, json in _JSON_WORDS.items():
        joined = joined.replace(python, json)
    return _ROLE.sub(r"`\1`", joined).replace("``", "`")


@cache
def _own_field_docs(cls: type) -> dict[str, str]:
    """The attribute docstrings written in ``cls``'s own body (none without source)."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):  # built by msgspec.defstruct, or no source file
        return {}
    node = ast.parse(source).body[0]
    if not isinstance(node, ast.ClassDef) or node.name != cls.__name__:
        return {}
    docs: dict[str, str] = {}
    for item, after in zip(node.body, node.body[1:], strict=False):
        match item, after:
            case (
                ast.AnnAssign(target=ast.Name(id=name)) | ast.Assign(targets=[ast.Name(id=name)]),
                ast.Expr(value=ast.Constant(value=str() as doc)),
            ):
                docs[name] = _text(doc)
    return docs


def field_docs(cls: type) -> dict[str, str]:
    """Each field's (or enum member's) attribute docstring, from ``cls`` and its bases.

    The attribute docstring is the string literal written right after the field; a
    subclass's docstring for a field replaces its base's.
    """
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        docs.update(_own_field_docs(klass))
    return docs


def game_prefix(game: str) -> str:
    """The prefix of a game's schema names: ``deck-of-spies`` -> ``DeckOfSpies``."""
    return "".join(word.capitalize() for word in game.split("-"))


def _members(union: Any) -> tuple[Any, ...]:
    return tuple(getattr(union, "__args__", (union,)))


def _named_types(info: msgspec.inspect.Type, found: set[type]) -> None:
    """Collect the Structs and enums a type is made of (``found``), recursively."""
    match info:
        case msgspec.inspect.StructType(cls=cls, fields=fields):
            if cls in found:
                return
            found.add(cls)
            for item in fields:
                _named_types(item.type, found)
        case msgspec.inspect.EnumType(cls=cls):
            found.add(cls)
        case msgspec.inspect.Metadata(type=inner):
            _named_types(inner, found)
        case msgspec.inspect.UnionType(types=types) | msgspec.inspect.TupleType(item_types=types):
            for inner in types:
                _named_types(inner, found)
        case msgspec.inspect.DictType(key_type=key, value_type=value):
            _named_types(key, found)
            _named_types(value, found)
        case _ if isinstance(item_type := getattr(info, "item_type", None), msgspec.inspect.Type):
            _named_types(item_type, found)


@cache
def _game_of_type() -> dict[type, str]:
    """The Structs and enums that belong to exactly one game, with that game's id."""
    owners: dict[type, set[str]] = {}
    for name, spec in GAMES.items():
        roots = (
            spec.options_type,
            spec.view_type,
            *_members(spec.command_type),
            *_members(spec.event_type),
        )
        found: set[type] = set()
        for root in roots:
            _named_types(msgspec.inspect.type_info(root), found)
        for cls in found:
            owners.setdefault(cls, set()).add(name)
    return {cls: next(iter(games)) for cls, games in owners.items() if len(games) == 1}


def _unset_by_default(item: msgspec.inspect.Field) -> bool:
    """Whether a field is ``UNSET`` unless given, so that msgspec leaves it out (inspection
    shows that default as no default on a field that is not required)."""
    return (
        not item.required
        and item.default is msgspec.NODEFAULT
        and item.default_factory is msgspec.NODEFAULT
    )


@cache
def _sent_by_clients() -> frozenset[type]:
    """The Structs and enums a request body may hold: the API's inbound Structs (they forbid
    unknown fields), the games' variants of a request documented per game, each game's
    commands, and whatever they are made of."""
    roots: list[Any] = [
        value
        for value in vars(schemas_module).values()
        if isinstance(value, type)
        and issubclass(value, msgspec.Struct)
        and value.__struct_config__.forbid_unknown_fields
    ]
    roots += [
        member
        for cls, union in DOCUMENTED_AS.items()
        if cls.__struct_config__.forbid_unknown_fields  # a request's, not an answer's
        for member in _members(union)
    ]
    roots += [member for spec in GAMES.values() for member in _members(spec.command_type)]
    found: set[type] = set()
    for root in roots:
        _named_types(msgspec.inspect.type_info(root), found)
    return frozenset(found)


def schema_name(cls: type) -> str:
    """The component name of a Struct or enum: its class name, prefixed with its game's
    name when it belongs to one game (an API subclass of a game's event counts as the
    event)."""
    games = _game_of_type()
    game = next((games[klass] for klass in cls.__mro__ if klass in games), None)
    name = cls.__name__
    if game is None:
        return name
    prefix = game_prefix(game)
    return name if name.startswith(prefix) else prefix + name


@cache
def _documented_by() -> dict[type, type]:
    """Each member of a ``DOCUMENTED_AS`` union, with the type whose docstrings it shares."""
    return {member: cls for cls, union in DOCUMENTED_AS.items() for member in _members(union)}


def _enum_description(cls: type[Enum]) -> str:
    docs = field_docs(cls)
    lines = [_text(cls.__doc__ or cls.__name__)]
    lines += [
        f"- `{member.value}`: {docs[name]}" if name in docs else f"- `{member.value}`"
        for name, member in cls.__members__.items()
    ]
    return "\n".join(lines) if len(lines) > 1 else lines[0]


def _described(schema: Schema | Reference, doc: str) -> Schema | Reference:
    deprecated = doc.startswith(DEPRECATED)
    if isinstance(schema, Reference):
        return Schema(all_of=[schema], description=doc, deprecated=deprecated or None)
    schema.description = doc
    if deprecated:
        schema.deprecated = True
    return schema


def _json_text(
    info: msgspec.inspect.StructType, schema: Schema, schema_creator: SchemaCreator
) -> None:
    """A text field that holds a JSON Struct (a stream message's ``data``): its
    ``contentMediaType`` and ``contentSchema``, a reference to that Struct's component."""
    for item in info.fields:
        extra = (
            item.type.extra_json_schema if isinstance(item.type, msgspec.inspect.Metadata) else None
        )
        name = (extra or {}).get("contentSchema")
        held = getattr(schemas_module, name, None) if isinstance(name, str) else None
        field = (schema.properties or {}).get(item.encode_name)
        if held is None or not isinstance(field, Schema):
            continue
        field.content_media_type = "application/json"
        field.content_schema = schema_creator.for_field_definition(
            FieldDefinition.from_annotation(held)
        )


def _closed(cls: type[msgspec.Struct], schema: Schema, *, inbound: bool) -> None:
    """What a Struct's schema does not allow: an unknown field of a body (the decoder refuses
    it), a problem ``code`` outside the catalogue."""
    if inbound:
        schema.additional_properties = False
    code = (schema.properties or {}).get("code")
    if cls is Problem and isinstance(code, Schema):
        code.enum = sorted({entry.code for entry in ERROR_CODES})  # a code may have two sources
        anywhere = ", ".join(f"`{name}` ({why})" for name, why in ANY_REQUEST.items())
        code.description = (
            f"{code.description} Each problem answer of an operation lists the codes it may"
            f" carry as `x-codes`; any request may also get {anywhere}, which no operation"
            " lists."
        )


class DocumentedSchemaPlugin(OpenAPISchemaPlugin):
    """Structs and enums as components named by :func:`schema_name`, described by their
    docstrings; :class:`~spies_api.schemas.PerGame` values as ``anyOf`` the games' schemas."""

    def is_plugin_supported_field(self, field_definition: FieldDefinition) -> bool:
        """A Struct, an enum, or a value marked :class:`~spies_api.schemas.PerGame`."""
        if any(isinstance(m, PerGame) for m in field_definition.metadata):
            return True
        annotation = field_definition.annotation
        return isinstance(annotation, type) and issubclass(annotation, (msgspec.Struct, Enum))

    def to_openapi_schema(
        self, field_definition: FieldDefinition, schema_creator: SchemaCreator
    ) -> Schema:
        """A reference to the component (built on first use), or the ``anyOf``."""
        marks = [m for m in field_definition.metadata if isinstance(m, PerGame)]
        if marks:
            return self._per_game(marks[0], schema_creator)
        cls = field_definition.annotation
        name = schema_name(cls)
        named = FieldDefinition.from_annotation(
            cls, kwarg_definition=KwargDefinition(schema_component_key=name)
        )
        registry = schema_creator.schema_registry
        reference = registry.get_reference_for_field_definition(named)
        if reference is None:
            if issubclass(cls, Enum):
                self._enum(cls, name, registry.get_schema_for_field_definition(named))
            elif cls in DOCUMENTED_AS:
                schema = registry.get_schema_for_field_definition(named)
                members = _members(DOCUMENTED_AS[cls])
                if msgspec.inspect.type_info(members[0]).tag_field is None:  # type: ignore[attr-defined]
                    schema.any_of = [
                        schema_creator.for_field_definition(FieldDefinition.from_annotation(m))
                        for m in members
                    ]
                else:
                    documented = TaggedUnionSchemaPlugin().members_schema(members, schema_creator)
                    schema.one_of = documented.one_of
                    schema.discriminator = documented.discriminator
                schema.title, schema.description = name, _text(cls.__doc__ or name)
            else:
                self._struct(field_definition, named, schema_creator)
            reference = registry.get_reference_for_field_definition(named)
        return cast("Schema", reference)  # Litestar places a Reference as it is

    @staticmethod
    def _enum(cls: type[Enum], name: str, schema: Schema) -> None:
        values = [member.value for member in cls]
        schema.type = (
            OpenAPIType.STRING if all(isinstance(v, str) for v in values) else OpenAPIType.INTEGER
        )
        schema.enum = values
        schema.title = name
        schema.description = _enum_description(cls)

    @staticmethod
    def _struct(
        field_definition: FieldDefinition, named: FieldDefinition, schema_creator: SchemaCreator
    ) -> None:
        cls = field_definition.annotation
        hints = field_definition.get_type_hints(include_extras=True, resolve_generics=True)
        info = cast("msgspec.inspect.StructType", msgspec.inspect.type_info(cls))
        # A client sends an inbound Struct (one a request body holds): a field with a
        # default is one it may omit, so the default goes into the description rather than
        # into ``default``, which some generators read as "always present". The server sends
        # every field of the others (msgspec encodes defaults too), so each is required,
        # but for a field left ``UNSET``, which msgspec omits.
        inbound = cls in _sent_by_clients()
        defaults = {
            item.name: item.default
            for item in info.fields
            if item.default not in (msgspec.NODEFAULT, msgspec.UNSET)
        }
        properties: dict[str, FieldDefinition] = {}
        for item in info.fields:
            default = defaults.get(item.name, Empty)
            properties[item.encode_name] = FieldDefinition.from_annotation(
                hints[item.name], name=item.encode_name, default=Empty if inbound else default
            )
        required = [
            item.encode_name
            for item in info.fields
            if item.required or not (inbound or _unset_by_default(item))
        ]
        if info.tag_field is not None:
            properties[info.tag_field] = FieldDefinition.from_annotation(Literal[info.tag])
            required.append(info.tag_field)
        name = cast("KwargDefinition", named.kwarg_definition).schema_component_key
        schema = schema_creator.create_component_schema(
            named, required=sorted(required), property_fields=properties, title=name
        )
        schema.description = _text(cls.__doc__ or str(name))
        docs = field_docs(_documented_by().get(cls, cls))
        properties_out = schema.properties or {}
        for item in info.fields:
            if isinstance(item.type, msgspec.inspect.Metadata):
                extra = item.type.extra_json_schema or {}
                if described := extra.get("description"):
                    docs[item.name] = _text(described)
            constrain(properties_out[item.encode_name], item.type)
        docs.update(field_docs(cls))
        for value in properties_out.values():
            tuple_items(value)
        _json_text(info, schema, schema_creator)
        for key, default in defaults.items():
            doc = docs.get(key, "")
            if inbound and default is not None and "default" not in doc.lower():
                shown = f"Default: `{msgspec.json.encode(default).decode()}`."
                docs[key] = f"{doc} {shown}".strip()
        if info.tag_field is not None:
            always = f"Always `{info.tag}`"
            docs[info.tag_field] = (
                f"{docs[info.tag_field]} {always} here."
                if info.tag_field in docs
                else f"{always}: says which kind of object this is."
            )
        for item in info.fields:
            key = item.encode_name
            if item.name in docs:
                properties_out[key] = _described(properties_out[key], docs[item.name])
        if info.tag_field is not None:
            tag_field = info.tag_field
            properties_out[tag_field] = _described(properties_out[tag_field], docs[tag_field])
        _closed(cls, schema, inbound=info.forbid_unknown_fields)

    @staticmethod
    def _per_game(mark: PerGame, schema_creator: SchemaCreator) -> Schema:
        registry = schema_creator.schema_registry
        any_of: list[Schema | Reference] = []
        games = GAMES.items() if mark.only is None else [(mark.only, GAMES[mark.only])]
        for game, spec in games:
            name = game_prefix(game) + mark.suffix
            union = mark.type_of(spec)
            named = FieldDefinition.from_annotation(
                union, kwarg_definition=KwargDefinition(schema_component_key=name)
            )
            reference = registry.get_reference_for_field_definition(named)
            if reference is None:
                schema = registry.get_schema_for_field_definition(named)
                documented = TaggedUnionSchemaPlugin().members_schema(
                    _members(union), schema_creator
                )
                schema.one_of, schema.discriminator = documented.one_of, documented.discriminator
                schema.title = name
                schema.description = mark.description.format(game=game)
                reference = registry.get_reference_for_field_definition(named)
            any_of.append(cast("Reference", reference))
        return Schema(any_of=any_of) if mark.only is None else cast("Schema", any_of[0])
