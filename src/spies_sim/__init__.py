"""``spies-sim``: bots against bots in memory, with win rates and their 95% confidence intervals.

The console script's modules, one job each:

- :mod:`spies_sim.cli`: the command line (``spies-sim``): arguments, checks before anything
  is played, the exit status, and the report on stdout.
- :mod:`spies_sim.games`: one game of a run (:class:`~spies_sim.games.Run`,
  :func:`~spies_sim.games.play_game`), seeded as the server seeds a game.
- :mod:`spies_sim.workers`: the games of a run on worker processes, in index order.
- :mod:`spies_sim.tally`: the running totals of a run and its report (the ``--json``
  object).
- :mod:`spies_sim.stats`: the Wilson interval and the other summaries the report uses.
- :mod:`spies_sim.checkpoint`: ``--checkpoint``, a run resumable from a file of results.
- :mod:`spies_sim.record`: ``--record``, every game written to a replay database.
- :mod:`spies_sim.text`: the report as text, and the progress bar on a terminal.
- :mod:`spies_sim.errors`: bad input on the command line.

This package needs both the bots and the replay log, so it imports ``spies_core``,
``spies_bots``, ``spies_replay`` and the application layer that writes games into the log as
the server does (:mod:`spies_api.game`, which knows no HTTP), and nothing else of the
project. Nothing in ``src/`` imports it: it is a program at the top of the import graph.
"""
