"""What the test suites share, so that no test module imports another one or a conftest.

``games`` (a game under test, given/when/then), ``api`` (games over HTTP, problems, event
streams, a hand-moved clock), ``apps`` (the API fixtures and the OpenAPI check of every
response, ``schema_check``), ``servers`` and ``streams`` (servers on real sockets, raw event
streams), ``processes`` (process groups and the end-of-run check), ``waiting`` (waiting on a
condition), ``databases`` and ``backends`` (PostgreSQL per xdist worker, the store contract's
backends), ``countergame`` and ``counter`` (the replay tests' game and its log),
``botgames`` (bot games and forged logs), ``logs`` (a log read from outside).
"""
