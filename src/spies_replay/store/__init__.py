"""The event store: the protocols the layers above use, and one SQL implementation per backend.

- :mod:`.protocols`: what a store offers, by role.
- :mod:`.records`: the records a store keeps and hands back (no driver types leave here).
- :mod:`.sql`: the SQL both backends share, over a DB-API connection.
- :mod:`.sqlite` (with its migrations, :mod:`.schema`) and :mod:`.postgres`: the backends,
  each translating its own driver's errors into :mod:`spies_replay.errors`.
- :mod:`.backends`: :func:`open_store`, a location (a SQLite path or a ``postgresql://``
  URL) to an open store; :mod:`.locations` tells the two apart and hides passwords.

Who may import it: the rest of :mod:`spies_replay` and the packages above it
(``spies_api``, ``spies_sim``); modules of this folder import nothing of
:mod:`spies_replay` but :mod:`~spies_replay.codec`, :mod:`~spies_replay.meta` and
:mod:`~spies_replay.errors`. Only :mod:`.sqlite` names ``sqlite3`` and only :mod:`.postgres`
names ``psycopg``.
"""
