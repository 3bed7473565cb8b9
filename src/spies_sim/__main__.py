"""``python -m spies_sim``: the same as the ``spies-sim`` console script."""

from spies_sim.cli import main

raise SystemExit(main())
