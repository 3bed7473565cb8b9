"""The ``slow`` marker, set here by path so the fast loop ``pytest -m "not slow" -n 2``
stays short (CONTRIBUTING.md), and what every run shares: settings without the per-client
limits nor bot worker processes unless a test asks for them, a PostgreSQL database of each
xdist worker's own (:mod:`tests.support.databases`), and the check that no process a test
started outlives the run (:mod:`tests.support.processes`). The full suite still runs
everything.

A test module or a single test belongs here when it takes seconds on its own: real servers
and subprocesses, crashes and races, hostile-input runs, long random playouts. Mark a new
slow test in its own file with ``@pytest.mark.slow`` instead when only it is slow. Every test
that drives a browser (it uses the ``browser`` fixture of ``tests/web/conftest.py``, often
through ``page``) is slow too, wherever it is: it needs Chromium and seconds per page.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from multiprocessing import resource_tracker
from pathlib import Path

import pytest

from spies_api.settings import Settings
from tests.support import databases, processes
from tests.support.waiting import until

_ROOT = Path(__file__).resolve().parent.parent

pytest_plugins = ["tests.support.answers"]
"""Every problem a test is answered is checked against the document at the end of the run."""

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
    # nginx in front of two spies-api processes, and Chromium through it
    "tests/ops/test_proxy.py",
    # whole games over HTTP
    "tests/api/test_full_games.py::test_a_game_played_over_http_ends_and_its_export_verifies",
    "tests/api/test_replay_as.py::test_after_the_end_anyone_replays_as_any_seat",
    "tests/api/test_replay_as.py::test_a_seat_the_game_does_not_have_is_404",
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
    # the docs tried: their commands against a real server, the site built by mkdocs
    "tests/test_docs_true.py::test_the_commands_of_the_page_do_what_it_shows",
    "tests/test_docs_true.py::test_the_clocks_example_runs_as_docs_http_md_shows",
    "tests/test_docs_site.py::test_the_docs_build_as_a_site_in_strict_mode",
    "tests/test_docs_site.py::test_a_broken_anchor_fails_the_build",
)
"""Paths (relative to the repository, ``/``-separated) whose tests are slow: a folder ends
with ``/``; a module may be followed by ``::`` and a test's name (without parameters)."""


TEST_DEFAULTS: dict[str, object] = {
    "rate_limit": None,
    "free_paths_rate_limit": None,
    "player_rate_limit": None,
    "max_bot_games_per_client": None,
    "max_bot_games": None,
    "max_games_per_client": None,
    "bot_workers": 0,
}
"""The defaults of ``Settings(...)`` in the tests, where they differ from the server's."""


@pytest.fixture(autouse=True, scope="session")
def _no_rate_limit_unless_asked() -> Iterator[None]:
    """Tests build ``Settings(...)`` without the default rate limits (as ``--rate-limit off``
    and ``--free-paths-rate-limit off``) nor the quotas of games and bot games (per client and
    in all): a test plays whole games, and loads pages, as fast as it can from one address.
    Bots think in a thread of the server (``bot_workers=0``), not in a worker
    process started for every app: a test of the worker processes passes ``bot_workers``
    itself. A test of a limit passes it itself; ``spies_api.settings.DEFAULTS`` keeps the
    real defaults."""
    defaults = Settings.__init__.__kwdefaults__
    saved = {name: defaults[name] for name in TEST_DEFAULTS}
    defaults.update(TEST_DEFAULTS)
    try:
        yield
    finally:
        defaults.update(saved)


# -- the run: its mark, its databases, and what it leaves running ------------------------------


_SHARED_POSTGRES = pytest.StashKey[str]()
"""The worker's own database replaces this URL of the run's while the worker runs."""


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``pytest -n auto``: one worker more than the cores this process may run on. A good
    part of the suite waits (on a server or a browser it started, a client's pacing, the
    package index): with a worker per core, a core idles while its worker waits. On two
    cores, `bash .ci/run`'s tests took 794 s with two workers, 689 s with three and 754 s
    with four (the cores were then busy: more workers only took turns).
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still overrides it."""
    asked = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS")
    if asked:
        return int(asked)
    return len(os.sched_getaffinity(0)) + 1


def pytest_configure(config: pytest.Config) -> None:
    """Mark the run's processes; give an xdist worker a PostgreSQL database of its own."""
    processes.mark_run(worker=_is_worker(config))
    url = os.environ.get(databases.POSTGRES_URL_VARIABLE)
    if url and _is_worker(config):
        worker = os.environ.get("PYTEST_XDIST_WORKER", "gw")
        os.environ[databases.POSTGRES_URL_VARIABLE] = databases.worker_database(url, worker)
        config.stash[_SHARED_POSTGRES] = url


def pytest_unconfigure(config: pytest.Config) -> None:
    """Drop the worker's database."""
    shared = config.stash.get(_SHARED_POSTGRES, None)
    if shared is not None:
        databases.drop_database(shared, os.environ[databases.POSTGRES_URL_VARIABLE])
        os.environ[databases.POSTGRES_URL_VARIABLE] = shared


LEFT_RUNNING_TIMEOUT = 15.0
"""How long the end of a run waits for the processes its tests stopped to be gone."""


@pytest.hookimpl(wrapper=True)
def pytest_sessionfinish(session: pytest.Session) -> Iterator[None]:
    """Fail the run when a process a test started is still alive at its end.

    Runs after every other ``pytest_sessionfinish``: session fixtures are torn down, and
    in the xdist controller the workers have exited. Each process stops its own
    multiprocessing resource tracker first (it would otherwise live as long as the
    process); the controller, or a run on one process, then waits for what the run
    started to be gone, and names, kills and fails on what is not.
    """
    result = yield
    resource_tracker._resource_tracker._stop()  # private, but there is no public way
    if _is_worker(session.config):
        return result
    mark = os.environ[processes.RUN_MARK]
    left: list[processes.Running] = []

    def none_left() -> bool:
        left[:] = processes.left_running(mark, os.getpid())
        return not left

    try:
        until(none_left, timeout=LEFT_RUNNING_TIMEOUT, every=0.1)
    except AssertionError:
        processes.reap(left)
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        lines = [f"{len(left)} processes the tests started were still running at the end:"]
        lines += [f"  {process.pid}: {process.command}" for process in left]
        if reporter is not None:
            reporter.write_sep("=", "processes left running", red=True)
            for line in lines:
                reporter.write_line(line)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    return result


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


SHARED_SCOPES = ("module", "package", "session")
"""A test that uses a fixture of these scopes shares what it set up with other tests."""

CHEAP_SHARED = frozenset({"checker", "_no_rate_limit_unless_asked"})
"""Shared fixtures of this project cheap enough to set up in every xdist worker."""


def _group(item: pytest.Item) -> str | None:
    """The xdist group of a test that uses a shared fixture of this project's (its module's
    or a conftest's, not pytest's own such as ``tmp_path_factory``): where that fixture is
    defined, the test module or the conftest's folder (``tests/web``, the browser and its
    server), so that it is set up once, on one worker."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    for name in sorted(info.name2fixturedefs):
        definition = info.name2fixturedefs[name][-1]
        shared = definition.baseid and definition.scope in SHARED_SCOPES
        if shared and name not in CHEAP_SHARED:
            return definition.baseid.split("::")[0]
    return None


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test under a path of ``SLOW``, and every browser test, as ``slow``.

    Under xdist (``-n``, with the ``--dist loadgroup`` of the pytest options), also group
    the tests that share a module's fixtures (the whole module) or the browser's
    (:func:`_group`), and hand out the modules with slow tests first: the longest work
    starts early, and the end of the run is short tests spread over every worker.
    """
    for item in items:
        if _is_slow(item):
            item.add_marker(pytest.mark.slow)
    if not _is_worker(config):
        return
    groups = {item: _group(item) for item in items}
    in_module: dict[str, set[str]] = {}
    for item, group in groups.items():
        if group is not None:
            in_module.setdefault(item.nodeid.split("::")[0], set()).add(group)
    # a module with a module-scoped fixture stays whole on one worker (its tests may rely on
    # their order: a test that reads what the one before it recorded), in its folder's group
    # when some of its tests are in one (the browser's)
    whole: dict[str, str] = {}
    for module, found in in_module.items():
        if module in found:
            wider = sorted(group for group in found if group != module)
            whole[module] = wider[0] if wider else module
    for item in items:
        group = whole.get(item.nodeid.split("::")[0], groups[item])
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
    slow_modules = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_modules)
