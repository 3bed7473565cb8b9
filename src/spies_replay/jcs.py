"""RFC 8785 canonical JSON (JCS): the canonical bytes of log format 3.

``docs/protocol.md`` (canonical JSON, format 3) defines what is hashed; the ``rfc8785``
library writes it, as the npm package ``canonicalize`` does for the TypeScript verifier.

Reading hashes what it parsed with :func:`jcs_bytes`, always: a hostile export may hold
anything. Writing hashes values the engine made, of known types, and most of them cannot
hold what sets JCS apart from msgspec's deterministic JSON (the encoder of format 1): a
float (JCS writes ``3`` where msgspec writes ``3.0``), a non-ASCII key (JCS orders keys by
UTF-16 code units, msgspec by code points: they differ only beyond U+FFFF) or an integer
outside ±(2^53 − 1) (JCS refuses it). For a value with none of these the two encoders give
the same bytes (``tests/replay/test_jcs.py`` shows it over generated values), and msgspec is
several times faster, so :func:`row_bytes` uses it whenever the types of the row's event and
command allow (:func:`exact_type`, decided once per type from ``msgspec.inspect``) and no
run of 16 digits, which every integer beyond the safe range has, is in its output; otherwise
it uses ``rfc8785`` too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import msgspec
import rfc8785

__all__ = ["CanonicalizationError", "exact_type", "jcs_bytes", "parsed_bytes", "row_bytes"]

CanonicalizationError = rfc8785.CanonicalizationError
"""What :func:`jcs_bytes` raises for a value JCS cannot write (a ``ValueError``): an integer
outside ±(2^53 − 1), a float that is not finite, a key that is not a string."""

_deterministic: Final = msgspec.json.Encoder(order="deterministic")
_DIGITS: Final = bytes(0x30 if 0x30 <= byte <= 0x39 else 0x20 for byte in range(256))
"""Maps every digit to ``0`` and every other byte to a space (a translation table)."""
_LONG_RUN: Final = b"0" * 16
"""16 digits in a row: every integer outside JCS's range (2^53 has 16 digits) has them (a
search for it in the translated bytes is ten times faster than a regular expression's)."""
_FLAGS: Final = bytes(
    0x30 if 0x30 <= byte <= 0x39 else 0x21 if byte >= 0xF0 else 0x20 for byte in range(256)
)
"""As :data:`_DIGITS`, and the lead byte of every character beyond U+FFFF (``0xF0`` and up
in UTF-8) to ``!``: where JCS's key order (UTF-16) can differ from msgspec's."""


class _FloatSeenError(Exception):
    """A float literal in a text being read (msgspec's ``float_hook``)."""


def _refuse_float(literal: str) -> float:
    raise _FloatSeenError(literal)


_plain: Final = msgspec.json.Decoder().decode
_floatless: Final = msgspec.json.Decoder(float_hook=_refuse_float).decode
"""Decodes a JSON text as :data:`_plain` does, but stops at its first float literal."""

_SCALARS: Final = (
    msgspec.inspect.IntType,
    msgspec.inspect.StrType,
    msgspec.inspect.BoolType,
    msgspec.inspect.NoneType,
)
_exact: dict[type, bool] = {}


def jcs_bytes(value: Any) -> bytes:
    """The RFC 8785 bytes of a JSON value (dicts, lists, str, int, float, bool, None).

    Raises:
        CanonicalizationError: JCS cannot write the value.
    """
    return rfc8785.dumps(value)


def parsed_bytes(parse: Callable[[Callable[[str | bytes], Any]], Any]) -> bytes:
    """The RFC 8785 bytes of the value ``parse(decode)`` builds from JSON texts read from
    anywhere (an export, a stored row), decoding each with the ``decode`` it is given.

    The reader's fast path: the texts are first decoded with no float allowed, and a value
    with no float whose msgspec bytes hold neither a run of 16 digits nor a character beyond
    U+FFFF is written alike by both encoders (what the module docstring says of the write
    path, checked here on the bytes themselves); any other value is parsed again and written
    by ``rfc8785``, which also refuses what JCS cannot write.

    Raises:
        CanonicalizationError: JCS cannot write the value.
        msgspec.DecodeError: a text is not JSON.
    """
    try:
        value = parse(_floatless)
    except _FloatSeenError:
        return jcs_bytes(parse(_plain))
    fast = _deterministic.encode(value)
    flags = fast.translate(_FLAGS)
    if b"!" in flags or _LONG_RUN in flags:
        return jcs_bytes(value)
    return fast


def exact_type(kind: type) -> bool:
    """Whether every value of ``kind`` (a Struct type, say) is written alike by JCS and by
    msgspec's deterministic JSON once decoded to plain JSON, its integers aside: no float,
    no ``Any``, no free-form dict (its keys could be anything), nothing but integers,
    strings, booleans, null, enums and literals of them, and lists, tuples, unions and
    Structs of those. Decided once per type."""
    found = _exact.get(kind)
    if found is None:
        found = _exact[kind] = _exact_info(msgspec.inspect.type_info(kind), set())
    return found


def _exact_info(info: msgspec.inspect.Type, seen: set[type]) -> bool:
    if isinstance(info, msgspec.inspect.Metadata):  # constraints and schema notes only
        return _exact_info(info.type, seen)
    if isinstance(info, _SCALARS):
        return True
    if isinstance(info, msgspec.inspect.LiteralType):
        return all(type(value) in (str, int) for value in info.values)
    if isinstance(info, msgspec.inspect.EnumType):
        return all(type(member.value) in (str, int) for member in info.cls)
    if isinstance(info, msgspec.inspect.UnionType):
        return all(_exact_info(member, seen) for member in info.types)
    if isinstance(info, msgspec.inspect.ListType | msgspec.inspect.VarTupleType):
        return _exact_info(info.item_type, seen)
    if isinstance(info, msgspec.inspect.TupleType):
        return all(_exact_info(item, seen) for item in info.item_types)
    if isinstance(info, msgspec.inspect.StructType):
        if info.cls in seen:  # a recursive type: decided where it started
            return True
        seen.add(info.cls)
        names = [field.encode_name for field in info.fields]
        if info.tag_field is not None:
            names.append(info.tag_field)
        return all(name.isascii() for name in names) and all(
            _exact_info(field.type, seen) for field in info.fields
        )
    return False


def row_bytes(fields: dict[str, Any], *kinds: type) -> bytes:
    """The JCS bytes of a row object the engine made, whose ``event`` and ``command`` are of
    ``kinds``: msgspec's where that is the same (see the module), else ``rfc8785``'s.

    Raises:
        CanonicalizationError: JCS cannot write the row (an integer out of its range).
    """
    for kind in kinds:
        if not (_exact.get(kind) or exact_type(kind)):
            return jcs_bytes(fields)
    fast = _deterministic.encode(fields)
    return fast if _LONG_RUN not in fast.translate(_DIGITS) else jcs_bytes(fields)
