"""HTTP in and out: the controllers, their parameters and dependencies, strict bodies, the
event stream and the web client's pages; around them the edge (client addresses, rate
limits, security headers), the answers kept in memory (``cached.py``) and uvicorn's
protocols with bounded request heads (``protocols.py``).

Controllers are thin: they take what Litestar decoded and the dependencies the app
provides, call one service method, and return its answer.

Who may import it: :mod:`spies_api.app`, and :mod:`spies_api.cli` (the protocols); it
imports :mod:`spies_api.service`, :mod:`spies_api.table`, :mod:`spies_api.problems`,
:mod:`spies_api.openapi` (the routes' documentation), :mod:`spies_api.schemas` and
:mod:`spies_api.settings`, and of the replay log its store's records and its codec's JSON
nesting limit.
"""

from __future__ import annotations

from spies_api.http.events import EventsController
from spies_api.http.games import GamesController
from spies_api.http.play import PlayController
from spies_api.http.players import PlayersController
from spies_api.http.seats import (
    BotsController,
    CommitmentsController,
    KeysController,
    SeatsController,
)

__all__ = [
    "ROUTE_HANDLERS",
    "BotsController",
    "EventsController",
    "CommitmentsController",
    "KeysController",
    "GamesController",
    "PlayController",
    "PlayersController",
    "SeatsController",
]

ROUTE_HANDLERS = [
    GamesController,
    PlayController,
    EventsController,
    SeatsController,
    BotsController,
    KeysController,
    CommitmentsController,
    PlayersController,
]
