"""Tests of the bots (spies_bots)."""
