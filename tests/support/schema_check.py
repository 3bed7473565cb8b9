"""Check responses against the app's own OpenAPI document (what schemathesis will do).

A small JSON Schema validator for the subset Litestar emits (``$ref``, ``type``, ``const``,
``enum``, ``properties``, ``required``, ``additionalProperties``, ``items``, ``prefixItems``,
``oneOf``/``anyOf``/``allOf``, bounds, ``pattern``), and :class:`ResponseChecker`, which finds
the operation of a response, and checks that its status is documented and that a JSON body
matches the documented schema. :func:`observe` records which properties each component's
objects carried and the pattern each string met, so a test can check that what is always
sent is ``required`` and that every card has its notation's pattern.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

__all__ = ["Observed", "ResponseChecker", "SchemaError", "observe", "validate"]


class SchemaError(AssertionError):
    """A value that does not match its schema."""


_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


def _is_type(value: Any, name: str) -> bool:
    if isinstance(value, bool) and name in {"integer", "number"}:
        return False
    return isinstance(value, _TYPES[name])


def validate(value: Any, schema: dict[str, Any], document: dict[str, Any], path: str = "$") -> None:
    """Raise :class:`SchemaError` unless ``value`` matches ``schema``."""
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/components/schemas/")
        validate(value, document["components"]["schemas"][name], document, path)
    types = schema.get("type")
    if types is not None:
        names = [types] if isinstance(types, str) else types
        if not any(_is_type(value, name) for name in names):
            raise SchemaError(f"{path}: {value!r:.80} is not of type {names}")
    if "const" in schema and value != schema["const"]:
        raise SchemaError(f"{path}: {value!r:.80} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        raise SchemaError(f"{path}: {value!r:.80} is not one of {schema['enum']}")
    for sub in schema.get("allOf", ()):
        validate(value, sub, document, path)
    if "oneOf" in schema:
        _one_of(value, schema, document, path)
    if "anyOf" in schema:
        _any_of(value, schema["anyOf"], document, path)
    _shape(value, schema, document, path)


def _shape(value: Any, schema: dict[str, Any], document: dict[str, Any], path: str) -> None:
    if isinstance(value, dict):
        _object(value, schema, document, path)
    elif isinstance(value, list):
        _array(value, schema, document, path)
    elif isinstance(value, str):
        if not schema.get("minLength", 0) <= len(value) <= schema.get("maxLength", 1e18):
            raise SchemaError(f"{path}: length of {value!r:.80} out of bounds")
        if "pattern" in schema and re.search(schema["pattern"], value) is None:
            raise SchemaError(f"{path}: {value!r:.80} does not match {schema['pattern']!r}")
    elif _is_type(value, "number") and not (
        schema.get("minimum", -1e300) <= value <= schema.get("maximum", 1e300)
    ):
        raise SchemaError(f"{path}: {value} out of bounds")


def _matches(value: Any, schema: dict[str, Any], document: dict[str, Any], path: str) -> bool:
    if isinstance(value, dict) and _tag_differs(value, schema, document):
        return False  # what validate would find, without the rest of the value
    try:
        validate(value, schema, document, path)
    except SchemaError:
        return False
    return True


def _tag_differs(value: dict[str, Any], schema: dict[str, Any], document: dict[str, Any]) -> bool:
    """Whether a property of ``value`` is not the ``const`` (or in the ``enum``) that ``schema``
    (or the schema it refers to) sets for it: a union's member of another tag, rejected
    before the whole value is validated against it."""
    while "$ref" in schema:
        schema = document["components"]["schemas"][
            schema["$ref"].removeprefix("#/components/schemas/")
        ]
    for name, item in schema.get("properties", {}).items():
        if name not in value:
            continue
        if "const" in item and value[name] != item["const"]:
            return True
        if "enum" in item and value[name] not in item["enum"]:
            return True
    return False


def _one_of(value: Any, schema: dict[str, Any], document: dict[str, Any], path: str) -> None:
    discriminator = schema.get("discriminator")
    if discriminator is not None and isinstance(value, dict):
        tag = value.get(discriminator["propertyName"])
        target = discriminator.get("mapping", {}).get(tag)
        if target is None:
            raise SchemaError(f"{path}: tag {tag!r} is not in the discriminator mapping")
        validate(value, {"$ref": target}, document, path)
    matching = sum(_matches(value, sub, document, path) for sub in schema["oneOf"])
    if matching != 1:
        raise SchemaError(f"{path}: {value!r:.120} matches {matching} of oneOf, not 1")


def _any_of(value: Any, options: list[Any], document: dict[str, Any], path: str) -> None:
    if not any(_matches(value, sub, document, path) for sub in options):
        raise SchemaError(f"{path}: {value!r:.120} matches none of anyOf")


def _object(
    value: dict[str, Any], schema: dict[str, Any], document: dict[str, Any], path: str
) -> None:
    properties = schema.get("properties", {})
    for name in schema.get("required", ()):
        if name not in value:
            raise SchemaError(f"{path}: missing required {name!r}")
    extra = schema.get("additionalProperties", True)
    for name, item in value.items():
        if name in properties:
            validate(item, properties[name], document, f"{path}.{name}")
        elif extra is False:
            raise SchemaError(f"{path}: unexpected property {name!r}")
        elif isinstance(extra, dict):
            validate(item, extra, document, f"{path}.{name}")


def _array(value: list[Any], schema: dict[str, Any], document: dict[str, Any], path: str) -> None:
    if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", 1e18):
        raise SchemaError(f"{path}: {len(value)} items out of bounds")
    prefix = schema.get("prefixItems", [])
    for index, item in enumerate(value):
        if index < len(prefix):
            validate(item, prefix[index], document, f"{path}[{index}]")
        elif isinstance(schema.get("items"), dict):
            validate(item, schema["items"], document, f"{path}[{index}]")


class Observed:
    """What :func:`observe` records of the answers."""

    def __init__(self) -> None:
        self.objects: dict[str, list[set[str]]] = {}
        """For each component, the set of properties each object that matched it carried."""
        self.strings: dict[str, set[tuple[str, str | None]]] = {}
        """Each string met, with the property that held it (the nearest one, ``$`` at the
        top) and the ``pattern`` of its schema there (``None``: no pattern)."""


def observe(
    value: Any, schema: dict[str, Any], document: dict[str, Any], seen: Observed, key: str = "$"
) -> None:
    """Record in ``seen`` the objects and strings of ``value`` (valid for ``schema``), each
    with the schema it matched; ``key`` is the property that holds ``value``."""
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/components/schemas/")
        component = document["components"]["schemas"][name]
        if isinstance(value, dict) and "properties" in component:
            seen.objects.setdefault(name, []).append(set(value))
        observe(value, component, document, seen, key)
        return
    for sub in schema.get("allOf", ()):
        observe(value, sub, document, seen, key)
    branches: list[dict[str, Any]] = []
    for keyword in ("oneOf", "anyOf"):
        matching = [s for s in schema.get(keyword, ()) if _matches(value, s, document, "$")]
        if matching:
            branches.append(matching[0])
    for sub in branches:
        observe(value, sub, document, seen, key)
    if branches or schema.get("allOf"):
        return
    if isinstance(value, str):
        seen.strings.setdefault(value, set()).add((key, schema.get("pattern")))
    for item_key, item, item_schema in _parts(value, schema, key):
        observe(item, item_schema, document, seen, item_key)


def _parts(value: Any, schema: dict[str, Any], key: str) -> list[tuple[str, Any, Any]]:
    """An object's properties or an array's items, each with its key and its schema."""
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        return [
            (name, item, properties.get(name, extra))
            for name, item in value.items()
            if isinstance(properties.get(name, extra), dict)
        ]
    if isinstance(value, list):
        prefix = schema.get("prefixItems", [])
        items = [*prefix, *[schema.get("items")] * max(0, len(value) - len(prefix))]
        return [
            (key, item, sub)
            for item, sub in zip(value, items, strict=False)
            if isinstance(sub, dict)
        ]
    return []


class ResponseChecker:
    """Checks responses against an OpenAPI document.

    Args:
        document: the app's OpenAPI document.
    """

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.checked = 0
        self.seen: Observed | None = None
        """Set it to have each JSON body's objects and strings recorded by :func:`observe`."""
        self._routes = [
            (re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "/?$"), template)
            for template in sorted(document["paths"], key=lambda t: -t.count("/"))
        ]

    def operation(self, method: str, path: str) -> dict[str, Any] | None:
        """The documented operation of a request, if any."""
        for pattern, template in self._routes:
            if pattern.match(path):
                operation: dict[str, Any] | None = self.document["paths"][template].get(
                    method.lower()
                )
                return operation
        return None

    def check(self, method: str, path: str, status: int, content_type: str, body: bytes) -> None:
        """Raise :class:`SchemaError` when the response is not what the document says."""
        if path == "/schema" or path.startswith("/schema/"):
            return  # the document and its renderers
        operation = self.operation(method, path)
        if operation is None:  # an unknown route or method: 404/405 problem details
            assert status in {404, 405}, (method, path, status)
            return
        responses = operation["responses"]
        if str(status) not in responses:
            raise SchemaError(f"{method} {path}: status {status} is not documented")
        content = responses[str(status)].get("content")
        if not content:
            assert not body, f"{method} {path}: {status} has an undocumented body"
            return
        media_type = content_type.split(";")[0].strip()
        if media_type not in content:
            raise SchemaError(f"{method} {path}: {status} {media_type} is not documented")
        if media_type.endswith("json") and "ndjson" not in media_type:
            value = msgspec.json.decode(body)
            validate(value, content[media_type]["schema"], self.document, "$")
            if self.seen is not None:
                observe(value, content[media_type]["schema"], self.document, self.seen)
            if media_type == "application/problem+json":
                # every code an operation answers is listed in its document, by status
                listed = responses[str(status)].get("x-codes", [])
                code = value.get("code")
                # ``not-found``: the path only looks like the operation's (``/replay/x``), and
                # the router, not the operation, answers that no route matches
                unrouted = status == 404 and code == "not-found"
                if code not in listed and not unrouted:
                    raise SchemaError(
                        f"{method} {path}: {status} {code!r} is not among the codes the"
                        f" document lists for it: {listed}"
                    )
        self.checked += 1
