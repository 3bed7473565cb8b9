"""``python -m spies_replay.cli``: the same as the ``spies-replay`` console script."""

from spies_replay.cli import main

raise SystemExit(main())
