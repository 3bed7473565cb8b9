"""Write the app's OpenAPI document: ``python -m spies_api.openapi > openapi/openapi.json``.

The committed ``openapi/openapi.json`` is generated from :func:`spies_api.create_app`;
``tests/api/test_openapi.py`` regenerates it and fails when the file drifts from the app.
Keys are sorted and indented by two spaces, so a change to the API is a readable diff.
"""

from __future__ import annotations

import sys
from typing import Any

import msgspec

from spies_api.app import create_app
from spies_api.settings import Settings

__all__ = ["main", "openapi_document", "openapi_text"]


def openapi_document() -> dict[str, Any]:
    """The OpenAPI document of :func:`spies_api.create_app`, as JSON-ready data."""
    app = create_app(Settings(configure_logging=False))
    document: dict[str, Any] = msgspec.json.decode(
        msgspec.json.encode(app.openapi_schema.to_schema())
    )
    return document


def openapi_text() -> str:
    """The document as committed: keys sorted, two-space indents, a final newline."""
    encoded = msgspec.json.encode(openapi_document(), order="sorted")
    return msgspec.json.format(encoded, indent=2).decode() + "\n"


def main() -> None:
    """Write the OpenAPI document to stdout."""
    sys.stdout.write(openapi_text())


if __name__ == "__main__":
    main()
