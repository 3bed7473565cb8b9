"""Thin controllers: parse and check the request, call the service, return a Struct."""

from __future__ import annotations

from spies_api.controllers.events import EventsController
from spies_api.controllers.games import GamesController
from spies_api.controllers.play import PlayController

__all__ = ["ROUTE_HANDLERS", "EventsController", "GamesController", "PlayController"]

ROUTE_HANDLERS = [GamesController, PlayController, EventsController]
