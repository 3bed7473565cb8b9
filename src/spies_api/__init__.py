"""The Litestar REST API of the spies engine: HTTP in, commands to the core, views out.

``create_app(settings)`` builds the app (:mod:`spies_api.app`); ``spies-api`` serves it with
uvicorn (:mod:`spies_api.cli`). The contract (paths, status codes, fields) is "The public
contract" of ``ARCHITECTURE.md``; the schemas are published in ``openapi/openapi.json``.
Games come from the registry, so a newly registered game needs no change here.
"""

from __future__ import annotations

from spies_api.app import create_app
from spies_api.settings import Settings

__all__ = ["Settings", "create_app"]
