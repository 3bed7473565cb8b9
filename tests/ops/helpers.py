"""Helpers of the operations tests: an app on a temporary database, a game, its commands."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings
from tests.support.apps import OpenApp, open_app

__all__ = ["app_on", "first_legal", "new_game", "open_on"]


def app_on(tmp_path: Path, **fields: Any) -> Litestar:
    """An app on a fresh SQLite file in ``tmp_path``, bots thinking in a thread."""
    return open_on(tmp_path, **fields).app


def open_on(tmp_path: Path, **fields: Any) -> OpenApp:
    """:func:`app_on`'s app, with the parts it serves."""
    return open_app(
        Settings(db_path=tmp_path / "spies.db", bot_workers=0, configure_logging=False, **fields)
    )


def new_game(
    client: TestClient[Litestar], game: str = "deck-of-spies"
) -> tuple[str, dict[str, str]]:
    """A new game's id and its first seat's Authorization header."""
    created = client.post("/games", json={"game": game, "seed": "ops"})
    assert created.status_code == 201, created.text
    body = created.json()
    return body["id"], {"Authorization": f"Bearer {body['seats'][0]['token']}"}


def first_legal(client: TestClient[Litestar], game_id: str, seat: dict[str, str]) -> dict[str, Any]:
    """The seat's first legal command now, with the version it is legal at."""
    legal = client.get(f"/games/{game_id}/legal", headers=seat).json()
    return {"command": legal["commands"][0], "expected_version": legal["version"]}
