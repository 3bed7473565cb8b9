"""The web client, served from the package: its pages and its assets.

The client is built from ``web/`` (TypeScript, types generated from the OpenAPI document) into
``spies_api/static/``, which ships in the wheel, so a server needs no Node. Its pages are one
``index.html`` whose script routes by path:

- ``/``: the lobby;
- ``/play/{id}``: a game, as the seat whose token the browser holds or a spectator
  (``/play/{id}#token=...`` is a private seat link: the fragment never reaches the server);
- ``/join/{id}/{seat}``: claims an open seat after asking for a display name;
- ``/replay/{id}``: the replay viewer;
- ``/rules/{game}``: a game's rules for players (numbered sections, anchored ``#s-5.2``), in
  English or German; a game that is not registered is an HTML 404 (a browser path: the
  client's page says so), never a problem document.

``/assets/web/`` holds the client's script and style sheet, ``/assets/docs/`` the scripts of
the interactive API docs at ``/schema`` (so that nothing loads from another host). None of
these paths is under an API path, and none is in the OpenAPI document.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Final

from litestar import Response, get
from litestar.datastructures import CacheControlHeader
from litestar.enums import MediaType
from litestar.file_system import BaseLocalFileSystem
from litestar.params import FromPath
from litestar.static_files import create_static_files_router
from litestar.types import ControllerRouterHandler

from spies_api.openapi.config import SWAGGER_INIT
from spies_core import GAMES

__all__ = ["ASSETS_PATH", "DOCS_ASSETS", "WEB_ROUTE_HANDLERS"]

STATIC_DIR: Final = Path(__file__).parent.parent / "static"
"""The built client and the docs' assets (written by ``web/build.mjs``)."""

ASSETS_PATH: Final = "/assets"
DOCS_ASSETS: Final = f"{ASSETS_PATH}/docs"
"""Where the interactive API docs load their scripts and style sheets from."""

# Assets keep their names from build to build, so browsers revalidate them each time.
_REVALIDATE: Final = CacheControlHeader(no_cache=True)


class _Files(BaseLocalFileSystem):
    """The package's files, where a path that cannot name a file is not found (404), not an
    error: ``app.js/x`` (not a directory), a name too long, a null byte."""

    async def info(self, path: Any, **kwargs: Any) -> Any:
        try:
            return await super().info(path, **kwargs)
        except PermissionError:
            raise
        except (OSError, ValueError) as exc:
            raise FileNotFoundError(str(path)) from exc


@cache
def _index_html() -> bytes:
    return (STATIC_DIR / "web" / "index.html").read_bytes()


def _index(status_code: int = 200) -> Response[bytes]:
    return Response(
        _index_html(),
        status_code=status_code,
        media_type=MediaType.HTML,
        headers={_REVALIDATE.HEADER_NAME: _REVALIDATE.to_header()},
    )


_SWAGGER_INIT_JS: Final = b"""// Starts Swagger UI on the document (no inline script: the CSP).
(function () {
  var container = document.getElementById("swagger-container");
  document.body.style.margin = "0";
  window.ui = SwaggerUIBundle({
    url: container.dataset.openapi,
    dom_id: "#swagger-container",
    deepLinking: true,
    showExtensions: true,
    showCommonExtensions: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
  });
})();
"""


@get(f"{DOCS_ASSETS}/{SWAGGER_INIT}", include_in_schema=False, sync_to_thread=False)
def swagger_init() -> Response[bytes]:
    """The docs page's starter script."""
    return Response(
        _SWAGGER_INIT_JS,
        media_type="text/javascript",
        headers={_REVALIDATE.HEADER_NAME: _REVALIDATE.to_header()},
    )


@get("/", include_in_schema=False, sync_to_thread=False)
def lobby_page() -> Response[bytes]:
    """The lobby."""
    return _index()


@get("/play/{game_id:str}", include_in_schema=False, sync_to_thread=False)
def play_page() -> Response[bytes]:
    """A game's table."""
    return _index()


@get("/join/{game_id:str}/{seat:str}", include_in_schema=False, sync_to_thread=False)
def join_page() -> Response[bytes]:
    """An open seat's share link: asks for a display name, then claims the seat."""
    return _index()


@get("/replay/{game_id:str}", include_in_schema=False, sync_to_thread=False)
def replay_page() -> Response[bytes]:
    """A game's replay viewer."""
    return _index()


@get("/rules/{game:str}", include_in_schema=False, sync_to_thread=False)
def rules_page(game: FromPath[str]) -> Response[bytes]:
    """A game's rules; an unknown game is a 404 page (the client shows "not found")."""
    return _index(200 if game in GAMES else 404)


WEB_ROUTE_HANDLERS: Final[list[ControllerRouterHandler]] = [
    swagger_init,
    lobby_page,
    play_page,
    join_page,
    replay_page,
    rules_page,
    create_static_files_router(
        path=ASSETS_PATH,
        directories=[STATIC_DIR],
        file_system=_Files(),
        name="assets",
        cache_control=_REVALIDATE,
        include_in_schema=False,
    ),
]
"""The pages and the assets, for ``Litestar(route_handlers=...)``."""
