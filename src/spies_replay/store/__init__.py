"""The event store: the protocols the layers above use, and one implementation per backend.

- :mod:`.protocols`: what a store offers, by role (the recorder an event loop appends
  through among them).
- :mod:`.records`: the records a store keeps and hands back (no driver types leave here).
- :mod:`.sql` and :mod:`.sql_rows`: the SQL both backends share (the reads, a game's
  creation, the cache), over a DB-API connection.
- :mod:`.migrations`: one way to migrate either backend (named migrations, one table, one
  runner).
- :mod:`.sqlite` (its append and recorder :mod:`.sqlite_append`, its schema
  :mod:`.sqlite_schema`, its errors :mod:`.sqlite_errors`, its watch :mod:`.sqlite_watch`)
  and :mod:`.postgres` (:mod:`.postgres_append`, :mod:`.postgres_schema`,
  :mod:`.postgres_errors`): the backends, each with one append and one place that
  translates its driver's errors into :mod:`spies_replay.errors`; :mod:`.recorders` the
  recorder either can hand out.
- :mod:`.backends`: :func:`~spies_replay.store.backends.open_store`, a location (a SQLite path or a ``postgresql://``
  URL) to an open store; :mod:`.locations` tells the two apart and hides passwords.

The store is payload-agnostic: it keeps bytes, sequence numbers, hashes and the indexes its
callers give it, imports no game, decodes no event and names no event type;
:mod:`spies_replay.reading` and :mod:`spies_replay.codec` decode above it.

Who may import it: the rest of :mod:`spies_replay` and the packages above it
(``spies_api``, ``spies_sim``); modules of this folder import nothing of
:mod:`spies_replay` but :mod:`~spies_replay.errors` and the seat shapes of
:mod:`~spies_replay.meta`. Only the ``sqlite`` modules name ``sqlite3`` and only the
``postgres`` modules name ``psycopg``; nothing above names a backend.
"""
