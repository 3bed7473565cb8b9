"""Tests of the replay log (spies_replay): store contract, tampering, fairness, CLI."""
