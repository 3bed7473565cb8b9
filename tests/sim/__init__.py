"""Tests of the simulator (spies_sim, the spies-sim console script)."""
