"""Strict JSON request bodies: decoded by msgspec in one pass, straight into the Struct.

Litestar converts a Struct body in msgspec's lax mode (``"5"`` becomes ``5``). The contract
wants wrong types refused, so bodies go through :class:`StrictBody`, a minimal Litestar DTO
that decodes the raw bytes with a ``msgspec.json.Decoder`` built once per body type (strict:
wrong types, unknown fields, invalid UTF-8 and non-JSON are all errors) and publishes the
Struct's own schema in OpenAPI.

msgspec decodes nesting by recursion with no limit of its own, so a body nested a thousand
levels deep would end in a ``RecursionError``. Every body is first measured against the
replay log's own limit for JSON from outside
(:data:`spies_replay.codec.MAX_JSON_DEPTH`, one source for imports and bodies) and refused
with 400 ``malformed-body`` above it, before anything else reads it.

The body's schema is the Struct's ``$ref`` with its examples beside it (OpenAPI 3.1 allows
siblings of ``$ref``), not Litestar's ``allOf`` of the one ``$ref``: openapi-typescript types
a lone ``allOf`` of a discriminated union as the union without its discriminator
(``Omit<CreateGameRequest, "game">``), which refused every typed ``POST /games`` body.

Usage: ``@post(..., dto=StrictBody[CreateGameRequest], return_dto=None)``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Generator
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import msgspec
from litestar import post
from litestar.dto import AbstractDTO, DTOFieldDefinition
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.spec import Reference, Schema
from litestar.typing import FieldDefinition

from spies_api.openapi.operations import documented
from spies_api.problems.errors import MalformedBodyError
from spies_api.problems.hints import explain_body
from spies_replay.codec import MAX_JSON_DEPTH, json_depth

if TYPE_CHECKING:
    from litestar._openapi.schema_generation import SchemaCreator
    from litestar.dto._backend import DTOBackend

__all__ = ["ExampledReference", "StrictBody", "check_depth"]

T = TypeVar("T")


def check_depth(body: bytes) -> None:
    """Refuse a body whose arrays and objects nest deeper than ``MAX_JSON_DEPTH``.

    Raises:
        MalformedBodyError: nested too deeply (one line naming the limit).
    """
    # fast path: a body with fewer brackets than the limit cannot nest deeper than it
    if body.count(b"[") + body.count(b"{") <= MAX_JSON_DEPTH:
        return
    if json_depth(body) > MAX_JSON_DEPTH:
        raise MalformedBodyError(
            f"invalid request body: JSON nested deeper than {MAX_JSON_DEPTH} levels"
        )


def _no_game() -> None:
    """No game is known while the body is decoded: the hint lists every game's types."""
    return


class StrictBody(AbstractDTO[T]):
    """Decode a JSON body strictly into ``T`` (a msgspec Struct); errors are 400."""

    _decoder: ClassVar[msgspec.json.Decoder[Any]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        model_type = getattr(cls, "model_type", None)
        if model_type is not None:
            cls._decoder = msgspec.json.Decoder(model_type)

    def decode_bytes(self, value: bytes) -> Any:
        """Decode the raw body.

        Raises:
            MalformedBodyError: not JSON, a wrong type, a missing or unknown field, nested
                deeper than ``MAX_JSON_DEPTH``.
        """
        check_depth(value)
        try:
            return self._decoder.decode(value)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            # The body is decoded before the handler knows the game (its caller is resolved
            # after the body), so the hint reads nothing: a command's own type is explained
            # by the handler, with the game it holds (spies_api.service.commands.decode).
            hint = explain_body(self.model_type, value, str(exc), _no_game)
            raise MalformedBodyError(f"invalid request body: {hint}") from exc

    def decode_builtins(self, value: dict[str, Any]) -> Any:
        """Convert already parsed data strictly (not used for JSON bodies)."""
        try:
            return msgspec.convert(value, self.model_type, strict=True)
        except msgspec.ValidationError as exc:
            raise MalformedBodyError(f"invalid request body: {exc}") from exc

    @classmethod
    def generate_field_definitions(
        cls, model_type: type[Any]
    ) -> Generator[DTOFieldDefinition, None, None]:
        """No transfer model: the Struct is decoded as it is."""
        yield from ()

    @classmethod
    def detect_nested_field(cls, field_definition: FieldDefinition) -> bool:
        """No transfer model, so nothing is nested."""
        return False

    @classmethod
    def is_supported_model_type_field(cls, field_definition: FieldDefinition) -> bool:
        """Never used for responses."""
        return False

    @classmethod
    def create_for_field_definition(
        cls,
        field_definition: FieldDefinition,
        handler_id: str,
        backend_cls: type[DTOBackend] | None = None,
    ) -> None:
        """Nothing to prepare: the decoder is built with the class."""

    @classmethod
    def create_openapi_schema(
        cls, field_definition: FieldDefinition, handler_id: str, schema_creator: SchemaCreator
    ) -> Reference | Schema:
        """The body's schema is the Struct's own schema: its ``$ref`` and the examples."""
        schema = schema_creator.for_field_definition(
            FieldDefinition.from_annotation(
                cls.model_type, kwarg_definition=field_definition.kwarg_definition
            )
        )
        if isinstance(schema, Schema) and schema.all_of is not None and len(schema.all_of) == 1:
            [only] = schema.all_of
            if isinstance(only, Reference):
                return ExampledReference(
                    **{f.name: getattr(schema, f.name) for f in dataclasses.fields(Schema)}
                    | {"all_of": None},
                    reference=only,
                )
        return schema


@dataclasses.dataclass
class ExampledReference(Schema):
    """A ``$ref`` with keywords beside it (examples, a description): written as one object,
    the reference's name read when the document is written (Litestar names the components
    last)."""

    reference: Reference | None = None

    @property
    def _exclude_fields(self) -> set[str]:
        return {"reference"}

    def to_schema(self) -> dict[str, Any]:
        """The object: ``$ref`` first, then the keywords."""
        assert self.reference is not None
        return {"$ref": self.reference.ref, **super().to_schema()}


def body_post(
    path: str, body: type[msgspec.Struct], operation_id: str, *, status_code: int = 200, **more: Any
) -> HTTPRouteHandler:
    """``@post`` of a route whose JSON body is decoded by :class:`StrictBody` into ``body``,
    documented as ``operation_id`` (:mod:`spies_api.openapi.operations`)."""
    return post(
        path,
        dto=StrictBody[body],  # type: ignore[valid-type]
        return_dto=None,
        status_code=status_code,
        **more,
        **documented(operation_id),
    )
