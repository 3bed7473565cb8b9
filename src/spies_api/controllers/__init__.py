"""Thin controllers: parse and check the request, call the service, return a Struct."""

from __future__ import annotations

from spies_api.controllers.events import EventsController
from spies_api.controllers.games import GamesController
from spies_api.controllers.play import PlayController
from spies_api.controllers.seats import BotsController, SeatsController

__all__ = [
    "ROUTE_HANDLERS",
    "BotsController",
    "EventsController",
    "GamesController",
    "PlayController",
    "SeatsController",
]

ROUTE_HANDLERS = [
    GamesController,
    PlayController,
    EventsController,
    SeatsController,
    BotsController,
]
