"""The OpenAPI document: its configuration, the tagged-union schema plugin, and the writer.

``openapi/openapi.json`` is generated from the app and committed::

    python -m spies_api.openapi > openapi/openapi.json

``tests/api/test_openapi.py`` regenerates it and fails when the committed file drifts. The
app serves the same document at ``/schema/openapi.json`` and interactive docs at ``/schema``
(Swagger UI; also ``/schema/redoc`` and ``/schema/elements``).

Litestar renders a union of msgspec Structs as a plain ``oneOf``. The
:class:`TaggedUnionSchemaPlugin` adds the ``discriminator`` (``type`` for commands and events,
``game`` for views) with the mapping from each tag to its schema, so generated clients
decode them without trying every member.
"""

from __future__ import annotations

import sys
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

import msgspec
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import RedocRenderPlugin, StoplightRenderPlugin, SwaggerRenderPlugin
from litestar.openapi.spec import (
    Components,
    Discriminator,
    Reference,
    Schema,
    SecurityScheme,
    Tag,
)
from litestar.plugins import OpenAPISchemaPlugin
from litestar.typing import FieldDefinition

if TYPE_CHECKING:
    from litestar._openapi.schema_generation import SchemaCreator

__all__ = ["SEAT_TOKEN", "TaggedUnionSchemaPlugin", "main", "openapi_config", "openapi_document"]

SEAT_TOKEN = "seatToken"
"""The name of the bearer security scheme."""

DESCRIPTION = """\
One engine for three spy-themed games (Deck of Spies, Black Spy, Stratego Spies & Lies).
Every action is an event in an append-only, hash-chained log; any state is rebuilt by
folding those events through the pure rules core.

**Seats and tokens.** `POST /games` returns one secret token per seat. Send it as
`Authorization: Bearer <token>` to act and to see your hidden cards; without it you are a
spectator. A token of another game is 403, any other bad token 401.

**Commands.** Post any item of `GET /games/{id}/legal` as `command`. Send
`expected_version` to refuse stale decisions (409 with `current_version`), and an
`Idempotency-Key` header to retry safely.

**Hidden information.** While a game is in progress, views, commands' events, the event
log, the stream and replays show each caller only what the rules let them see. Once it is
over, its log is public and can be exported with the revealed seed, and
`spies-replay import` / `verify` re-derive every shuffle from it.

**Errors** are RFC 9457 problem details (`application/problem+json`) with a stable `code`.
"""


def _struct_members(field_definition: FieldDefinition) -> tuple[type[msgspec.Struct], ...]:
    if not field_definition.is_union or field_definition.is_optional:
        return ()
    members = tuple(field_definition.args)
    if not all(isinstance(m, type) and issubclass(m, msgspec.Struct) for m in members):
        return ()
    return members


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
        one_of: list[Schema | Reference] = []
        mapping: dict[str, str] = {}
        tag_field = ""
        for member in _struct_members(field_definition):
            info = msgspec.inspect.type_info(member)
            schema = schema_creator.for_field_definition(FieldDefinition.from_annotation(member))
            one_of.append(schema)
            tag_field = info.tag_field  # type: ignore[attr-defined]
            if isinstance(schema, Reference):
                mapping[str(info.tag)] = schema.ref  # type: ignore[attr-defined]
        return Schema(
            one_of=one_of,
            discriminator=Discriminator(property_name=tag_field, mapping=mapping or None),
        )


def _version() -> str:
    try:
        return version("spies-engine")
    except PackageNotFoundError:  # pragma: no cover  (a source tree that is not installed)
        return "0.0.0"


def openapi_config() -> OpenAPIConfig:
    """The app's OpenAPI configuration (docs at ``/schema``)."""
    return OpenAPIConfig(
        title="Spies engine API",
        version=_version(),
        description=DESCRIPTION,
        path="/schema",
        render_plugins=[
            SwaggerRenderPlugin(path=["/", "/swagger"]),
            RedocRenderPlugin(path="/redoc"),
            StoplightRenderPlugin(path="/elements"),
        ],
        components=Components(
            security_schemes={
                SEAT_TOKEN: SecurityScheme(
                    type="http",
                    scheme="bearer",
                    description="A seat token from POST /games; omit it to be a spectator.",
                )
            }
        ),
        tags=[
            Tag(name="games", description="Create, list, summarise and export games."),
            Tag(name="play", description="Views, legal commands, commands and replays."),
            Tag(name="events", description="The event log, paged and live."),
        ],
        use_handler_docstrings=False,
        create_examples=False,
    )


def openapi_document() -> dict[str, Any]:
    """The OpenAPI document of :func:`spies_api.create_app`, as JSON-ready data."""
    from spies_api.app import create_app  # noqa: PLC0415  (the app imports this module)
    from spies_api.settings import Settings  # noqa: PLC0415

    app = create_app(Settings(configure_logging=False))
    document: dict[str, Any] = msgspec.json.decode(
        msgspec.json.encode(app.openapi_schema.to_schema())
    )
    return document


def main() -> None:
    """Write the OpenAPI document to stdout, keys sorted, two-space indents."""
    text = msgspec.json.format(
        msgspec.json.encode(openapi_document(), order="sorted"), indent=2
    ).decode()
    sys.stdout.write(text + "\n")


if __name__ == "__main__":
    main()
