"""Tests of the web client: its routes and assets, and real games in headless Chromium."""
