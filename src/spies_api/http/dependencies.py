"""The dependency provided at the app layer: the game service, opened once."""

from __future__ import annotations

import threading

from spies_api.service.games import GameService
from spies_api.settings import Settings

__all__ = ["ServiceHolder"]


class ServiceHolder:
    """Opens the :class:`GameService` once: at startup, or at the first request.

    Opening creates and migrates the database file, so a server started on a fresh machine
    needs nothing else. A test client used without its context manager (no startup) still
    works: the first request opens it.
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._service: GameService | None = None
        self._lock = threading.Lock()

    def get(self) -> GameService:
        """The service, opened on first use."""
        service = self._service
        if service is None:
            with self._lock:
                if self._service is None:
                    self._service = GameService.open(self.settings)
                service = self._service
        return service

    def close(self) -> None:
        """Close the service's database connections (at shutdown)."""
        with self._lock:
            if self._service is not None:
                self._service.close()
                self._service = None
