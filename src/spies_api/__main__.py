"""``python -m spies_api``: the same as ``spies-api``."""

from spies_api.cli import main

raise SystemExit(main())
