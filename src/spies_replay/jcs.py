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

from typing import Any, Final

import msgspec
import rfc8785

__all__ = ["CanonicalizationError", "exact_type", "jcs_bytes", "row_bytes"]

CanonicalizationError = rfc8785.CanonicalizationError
"""What :func:`jcs_bytes` raises for a value JCS cannot write (a ``ValueError``): an integer
outside ±(2^53 − 1), a float that is not finite, a key that is not a string."""

_deterministic: Final = msgspec.json.Encoder(order="deterministic")
_DIGITS: Final = bytes(0x30 if 0x30 <= byte <= 0x39 else 0x20 for byte in range(256))
"""Maps every digit to ``0`` and every other byte to a space (a translation table)."""
_LONG_RUN: Final = b"0" * 16
"""16 digits in a row: every integer outside JCS's range (2^53 has 16 digits) has them (a
search for it in the translated bytes is ten times faster than a regular expression's)."""
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
