"""Fixtures for the API tests: an app on a temporary database and a test client whose every
response is checked against the OpenAPI document (:mod:`tests.support.apps`)."""

from tests.support.apps import app, checker, client, runtime, settings

__all__ = ["app", "checker", "client", "runtime", "settings"]
