"""The Litestar REST API of the spies engine: HTTP in, commands to the core, views out.
``create_app(settings)`` builds the app (:mod:`spies_api.app`); ``spies-api`` serves it with
uvicorn (:mod:`spies_api.cli`). The contract (paths, status codes, fields) is "The public
contract" of ``ARCHITECTURE.md``; the schemas are published in ``openapi/openapi.json``.
Games come from the registry, so a newly registered game needs no change here.

The application layer below HTTP, :mod:`spies_api.game`, is imported by ``spies_sim`` and the
``spies-replay`` console program too, so the app is imported on first use of ``create_app``
or ``Settings`` (PEP 562), not with the package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spies_api.app import create_app
    from spies_api.settings import Settings

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> object:
    """``create_app`` and ``Settings``, imported when first asked for."""
    if name == "create_app":
        from spies_api.app import create_app

        return create_app
    if name == "Settings":
        from spies_api.settings import Settings

        return Settings
    raise AttributeError(f"module 'spies_api' has no attribute {name!r}")
