"""The OpenAPI configuration of the app and the tagged-union schema plugin.

The app serves its document at ``/schema/openapi.json`` and interactive docs at ``/schema``
(Swagger UI, also at ``/schema/swagger``), whose scripts and style sheets come from the
package (``/assets/docs/``, see :mod:`spies_api.webapp`), never from a CDN. Only Swagger UI
is shipped (Redoc's bundle loads its logo from its CDN whatever the options). The committed copy,
``openapi/openapi.json``, is written by :mod:`spies_api.openapi`.

Litestar renders a union of msgspec Structs as a plain ``oneOf``. The
:class:`TaggedUnionSchemaPlugin` adds the ``discriminator`` (``type`` for commands and events,
``game`` for views) with the mapping from each tag to its schema, so generated clients
decode them without trying every member.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

import msgspec
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import SwaggerRenderPlugin
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

from spies_api.settings import DEFAULTS, KIB
from spies_api.webapp import DOCS_ASSETS

if TYPE_CHECKING:
    from litestar._openapi.schema_generation import SchemaCreator

__all__ = ["SEAT_TOKEN", "TaggedUnionSchemaPlugin", "openapi_config"]

_NO_FAVICON = "<link rel='icon' href='data:,'>"
"""Litestar's default favicon is on a CDN; the docs must load nothing from another host."""

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

""" + (
    f"**Limits.** Request bodies over {DEFAULTS.max_body_bytes // KIB} KiB: 413"
    f" `body-too-large`. Pages: `GET /games` returns {DEFAULTS.games_page_default} games unless"
    f" `limit` says otherwise, at most {DEFAULTS.games_page_max}; `GET /games/{{id}}/events`"
    f" returns {DEFAULTS.events_page_default} events (a whole game) unless `limit` says"
    f" otherwise, at most {DEFAULTS.events_page_max}; a larger `limit` is lowered to the maximum"
    " (the answer's `limit` and `next_after` show it). Event streams: at most"
    f" {DEFAULTS.max_streams_per_game} open at once on one game, one more is 503"
    " `too-many-streams` with `Retry-After`. An `Idempotency-Key` has at most"
    f" {DEFAULTS.idempotency_key_max_length} characters. Rate limit: off by default; a server"
    " started with `spies-api --rate-limit 6000/minute` (or `N/second`, `N/hour`, `N/day`)"
    " answers a client (by address) over that rate with 429 `too-many-requests`,"
    " `Retry-After` and the `RateLimit-*` headers. These are the defaults of the server's"
    " settings; an operator may change them.\n"
)


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
        one_of: list[Schema | Reference] = []
        discriminator = _TagDiscriminator(property_name="")
        for member in _struct_members(field_definition):
            info = msgspec.inspect.type_info(member)
            schema = schema_creator.for_field_definition(FieldDefinition.from_annotation(member))
            one_of.append(schema)
            discriminator.property_name = info.tag_field  # type: ignore[attr-defined]
            if isinstance(schema, Reference):
                discriminator.references[str(info.tag)] = schema  # type: ignore[attr-defined]
        return Schema(one_of=one_of, discriminator=discriminator)


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
            SwaggerRenderPlugin(
                path=["/", "/swagger"],
                js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js",
                css_url=f"{DOCS_ASSETS}/swagger-ui.css",
                standalone_preset_js_url=f"{DOCS_ASSETS}/swagger-ui-standalone-preset.js",
                favicon=_NO_FAVICON,
            ),
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
