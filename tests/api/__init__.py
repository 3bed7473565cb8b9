"""Tests of the HTTP API (spies_api), through Litestar's test client and a live server."""
