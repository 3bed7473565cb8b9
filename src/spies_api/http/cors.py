"""Cross-origin requests (CORS): which web origins' pages may call the API from a browser.

The operator lists the origins (``Settings.cors_origins``; none by default, so a browser lets
only the server's own pages read its answers). Litestar's ``CORSConfig`` answers the
preflights and marks the answers of a listed origin's requests; :data:`EXPOSED_HEADERS` are
the headers such a page may read, :data:`ALLOWED_HEADERS` those it may send. The API takes
bearer tokens, never cookies, so no credentials are allowed.

Litestar's CORS layer sets ``Vary: Origin`` over any ``Vary`` the app sent (the kept answers'
``Vary: Accept-Encoding``), so :func:`vary_kept` (inside it) sets the app's ``Vary`` aside
and :func:`vary_merged` (outside it) puts both back in one header. A preflight from an
unlisted origin is answered as if CORS were off (:func:`unlisted_origins_unmarked`), never
with that layer's plain-text 400.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from litestar.config.cors import CORSConfig
from litestar.enums import ScopeType
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from spies_api.settings import Settings

__all__ = [
    "ALLOWED_HEADERS",
    "EXPOSED_HEADERS",
    "cors_config",
    "unlisted_origins_unmarked",
    "vary_kept",
    "vary_merged",
]

EXPOSED_HEADERS: Final = (
    "Content-Disposition",
    "ETag",
    "Idempotent-Replayed",
    "Link",
    "Location",
    "Retry-After",
    "WWW-Authenticate",
)
"""The answers' headers a page of another origin may read."""

ALLOWED_HEADERS: Final = (
    "Authorization",
    "Content-Type",
    "Idempotency-Key",
    "If-None-Match",
    "Last-Event-ID",
)
"""The headers a page of another origin may send."""

PREFLIGHT_MAX_AGE: Final = 600
"""How long, in seconds, a browser may keep a preflight's answer."""

_VARY: Final = b"vary"
_KEPT_VARY: Final = b"x-spies-kept-vary"


def cors_config(settings: Settings) -> CORSConfig | None:
    """The app's CORS configuration, or ``None`` when no origin is listed (no CORS)."""
    if not settings.cors_origins:
        return None
    return CORSConfig(
        allow_origins=list(settings.cors_origins),
        allow_methods=["DELETE", "GET", "HEAD", "OPTIONS", "POST"],
        allow_headers=list(ALLOWED_HEADERS),
        expose_headers=list(EXPOSED_HEADERS),
        allow_credentials=False,
        max_age=PREFLIGHT_MAX_AGE,
    )


Headers = list[tuple[bytes, bytes]]


class _HeadersRewritten:
    """Rewrites the headers of every HTTP answer of ``app`` with ``rewrite``."""

    def __init__(self, app: ASGIApp, rewrite: Callable[[Headers], Headers]) -> None:
        self.app = app
        self.rewrite = rewrite

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await self.app(scope, receive, send)
            return

        async def rewritten(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = self.rewrite(list(message.get("headers", ())))
            await send(message)

        await self.app(scope, receive, rewritten)


def _kept(headers: Headers) -> Headers:
    return [(_KEPT_VARY if name.lower() == _VARY else name, value) for name, value in headers]


def _merged(headers: Headers) -> Headers:
    values: list[str] = []
    for name, value in headers:
        if name.lower() in (_VARY, _KEPT_VARY):
            values += [part.strip() for part in value.decode("latin-1").split(",")]
    if not values:
        return headers
    unique = ", ".join(dict.fromkeys(value for value in values if value))
    kept = [header for header in headers if header[0].lower() not in (_VARY, _KEPT_VARY)]
    return [*kept, (_VARY, unique.encode("latin-1"))]


def vary_kept(app: ASGIApp) -> ASGIApp:
    """Renames the app's ``Vary`` header so the CORS layer cannot overwrite it."""
    return _HeadersRewritten(app, _kept)


def vary_merged(app: ASGIApp) -> ASGIApp:
    """Puts the ``Vary`` :func:`vary_kept` set aside back, beside the CORS layer's own."""
    return _HeadersRewritten(app, _merged)


def unlisted_origins_unmarked(app: ASGIApp, config: CORSConfig) -> ASGIApp:
    """Outside the CORS layer: a preflight from an origin not listed is answered as if CORS
    were off (the route's own ``OPTIONS``, no ``Access-Control-*``, so the browser refuses),
    rather than with the CORS layer's plain-text 400, which is no problem document."""

    async def unmarked(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == ScopeType.HTTP and scope["method"] == "OPTIONS":
            headers = scope["headers"]
            origin = next((v for n, v in headers if n == b"origin"), None)
            if origin is not None and not config.is_origin_allowed(origin.decode("latin-1")):
                scope = {**scope, "headers": [(n, v) for n, v in headers if n != b"origin"]}
        await app(scope, receive, send)

    return unmarked
