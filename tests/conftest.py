"""The ``slow`` marker, set here by path so the fast loop ``pytest -m "not slow"`` stays
under a minute on two cores (CONTRIBUTING.md). The full suite still runs everything.

A test module or a single test belongs here when it takes seconds on its own: real servers
and subprocesses, crashes and races, hostile-input runs, long random playouts. Mark a new
slow test in its own file with ``@pytest.mark.slow`` instead when only it is slow. Every test
that drives a browser (it uses the ``browser`` fixture of ``tests/web/conftest.py``, often
through ``page``) is slow too, wherever it is: it needs Chromium and seconds per page.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from spies_api.settings import Settings

_ROOT = Path(__file__).resolve().parent.parent

SLOW: tuple[str, ...] = (
    # real servers, subprocesses, crashes, races, hostile input, long playouts over HTTP
    "tests/attack/",
    "tests/api/test_live_server.py",
    "tests/replay/test_store.py::test_concurrent_writers_from_processes_exactly_one_wins",
    # the generic suites' random playouts of every game (SPIES_CONFORMANCE_GAMES and
    # SPIES_HIDDEN_INFO_GAMES make them shorter)
    "tests/core/test_conformance.py::test_random_playouts",
    "tests/core/test_hidden_information.py::test_views_legal_lists_and_redacted_events_ignore_hidden_state",
    # each game's long random games
    "tests/core/black_spy/test_playouts.py::test_random_games_to_the_end",
    "tests/core/black_spy/test_playouts.py::test_same_seed_same_game",
    "tests/core/spies_and_lies/test_playouts.py::test_random_games_run_to_the_end_with_every_check",
    # whole games over HTTP
    "tests/api/test_full_games.py::test_a_game_played_over_http_ends_and_its_export_verifies",
    "tests/api/test_events.py::test_once_over_the_log_is_public",
    "tests/api/test_events.py::test_a_spectator_stream_of_a_game_in_play_is_redacted",
    "tests/api/test_expected_version.py::test_no_earlier_request_is_applied_twice_in_a_whole_game",
    # seats and bots on real servers, and a whole game against bots over HTTP
    "tests/api/test_seats.py::test_racing_joins_across_two_servers_on_one_file_have_one_winner",
    "tests/api/test_bots_on_server.py::test_an_all_bot_game_is_watched_over_the_stream_to_the_end",
    "tests/api/test_bots_on_server.py::test_a_human_plays_black_spy_against_three_bots_over_http",
    # the searching bots' whole games (tests/bots/test_generic.py marks its own)
    "tests/bots/deck_of_spies/test_dos_policies.py::test_expert_plays_legal_commands",
    "tests/bots/deck_of_spies/test_dos_policies.py::test_expert_is_deterministic_given_its_rng",
)
"""Paths (relative to the repository, ``/``-separated) whose tests are slow: a folder ends
with ``/``; a module may be followed by ``::`` and a test's name (without parameters)."""


@pytest.fixture(autouse=True, scope="session")
def _no_rate_limit_unless_asked() -> Iterator[None]:
    """Tests build ``Settings(...)`` without the default rate limits (as ``--rate-limit off``
    and ``--free-paths-rate-limit off``) nor the quotas of games and bot games (per client and
    in all): a test plays whole games, and loads pages, as fast as it can from one address. A
    test of a limit passes it itself; ``spies_api.settings.DEFAULTS`` keeps the real
    defaults."""
    defaults = Settings.__init__.__kwdefaults__
    lifted = (
        "rate_limit",
        "free_paths_rate_limit",
        "max_bot_games_per_client",
        "max_bot_games",
        "max_games_per_client",
    )
    saved = {name: defaults[name] for name in lifted}
    defaults.update(dict.fromkeys(saved))
    try:
        yield
    finally:
        defaults.update(saved)


BROWSER_FIXTURE = "browser"
"""A test that uses this fixture (directly or through another) drives Chromium: slow."""


def _is_slow(item: pytest.Item) -> bool:
    if BROWSER_FIXTURE in getattr(item, "fixturenames", ()):
        return True
    path = item.path.resolve()
    if not path.is_relative_to(_ROOT):
        return False
    relative = path.relative_to(_ROOT).as_posix()
    name = f"{relative}::{getattr(item, 'originalname', item.name)}"
    return any(
        relative.startswith(slow) if slow.endswith("/") else slow in (relative, name)
        for slow in SLOW
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test under a path of ``SLOW``, and every browser test, as ``slow``."""
    for item in items:
        if _is_slow(item):
            item.add_marker(pytest.mark.slow)
